/* tasks.csv and series.csv against plain reference writers: every row
 * formatted cell by cell with printf, whatever shortcuts the writers
 * take (rows put straight into the file's chunk, sim/results/
 * results_csv.c). series.csv's rows come from the compact series
 * (base/series.h), so plain runs, runs cut by a busy row, tasks idle for
 * many samples and then busy again, and tasks with and without an
 * estimate all reach the writer as a run would hand them over. */
#include "tests/support/results_fixture.h"
#include "tests/support/fill_text.h"

#include <inttypes.h>

/* A task's cell as RFC 4180 has it (results_csv.c's rule). */
static void append_cell(GString *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		g_string_append(out, s);
		return;
	}
	g_string_append_c(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			g_string_append_c(out, '"');
		g_string_append_c(out, *s);
	}
	g_string_append_c(out, '"');
}

static char *reference(const struct gs_results *r)
{
	GString *out = g_string_new(
		"time_ns,task,gpu_time_ns,accounted_gpu_time_ns,vtime_ns\n");
	struct gs_series_iter it;
	struct gs_series_point p;

	gs_series_iter_init(&it, r->series);
	while (gs_series_next(&it, &p)) {
		g_string_append_printf(out, "%" PRIu64 ",", p.t);
		append_cell(out, r->tasks[p.task].name);
		g_string_append_printf(out, ",%" PRIu64 ",", p.gpu_time_ns);
		if (r->tasks[p.task].has_accounted)
			g_string_append_printf(out, "%" PRIu64,
					       p.accounted_gpu_time_ns);
		g_string_append_printf(out, ",%" PRIu64 "\n", p.vtime_ns);
	}
	gs_series_iter_clear(&it);
	return g_string_free(out, FALSE);
}

static char *written(const struct gs_results *r)
{
	return fill_text(gs_results_fill_series_csv, r);
}

static void assert_as_reference(const struct gs_results *r)
{
	g_autofree char *want = reference(r);
	char *got = written(r);

	assert_string_equal(got, want);
	free(got);
}

/* n tasks, every other one with an estimate; names that need quoting
 * among them. */
static void results_of(struct gs_results *r, uint32_t n)
{
	static const char *const names[] = { "idle", "b,\"q\"", "line\nx",
					     "plain" };
	uint32_t i;

	gs_results_init(r);
	for (i = 0; i < n; i++) {
		struct gs_task_result t = {
			.name = (char *)names[i % G_N_ELEMENTS(names)],
			.vm = (char *)"host",
			.has_accounted = i % 2 == 1,
		};

		add_task(r, &t);
	}
}

/* samples whole passes over n tasks; task i is busy in sample k when
 * busy(i, k), and gains figures that grow past a digit count, so a
 * stale copy of an earlier row's text would show */
static void sample(struct gs_results *r, uint32_t n, uint32_t samples,
		   bool (*busy)(uint32_t i, uint32_t k))
{
	g_autofree uint64_t *gpu = g_new0(uint64_t, n);
	uint32_t i, k;

	for (k = 0; k < samples; k++)
		for (i = 0; i < n; i++) {
			if (busy(i, k))
				gpu[i] = gpu[i] * 10 + 7 + i;
			add_point(r, (gs_time_t)k * 1000000, i, gpu[i],
				  gpu[i] / 2, gpu[i] * 3);
		}
}

static bool never(uint32_t i, uint32_t k)
{
	(void)i;
	(void)k;
	return false;
}

/* one task in seven, changing each sample: plain runs between them
 * and across samples */
static bool sparse(uint32_t i, uint32_t k)
{
	return (i + k) % 7 == 0;
}

/* busy once, then idle for the rest: its text must stay the busy row's */
static bool once(uint32_t i, uint32_t k)
{
	return k == 1 && i % 3 == 0;
}

static bool always(uint32_t i, uint32_t k)
{
	(void)i;
	(void)k;
	return true;
}

static void test_as_reference(void **state)
{
	static const uint32_t sizes[] = { 0, 1, 2, 3, 64 };
	bool (*const patterns[])(uint32_t, uint32_t) = { never, sparse, once,
							 always };
	size_t s, p;

	(void)state;
	for (s = 0; s < G_N_ELEMENTS(sizes); s++)
		for (p = 0; p < G_N_ELEMENTS(patterns); p++) {
			struct gs_results r;

			results_of(&r, sizes[s]);
			sample(&r, sizes[s], 12, patterns[p]);
			assert_as_reference(&r);
			gs_results_clear(&r);
		}
}

/* Rows need not be whole passes: a task that is sampled after others
 * skipped it, its first row late and not zero, a task's rows out of
 * order, figures that go back (differences wrap), and rows where one
 * figure alone changed. */
static void test_irregular_rows(void **state)
{
	struct gs_results r;

	(void)state;
	results_of(&r, 4);
	add_point(&r, 0, 2, 0, 0, 0);
	add_point(&r, 0, 3, 0, 0, 0);
	add_point(&r, 5, 1, 42, 40, 1);
	add_point(&r, 5, 0, 0, 0, 0);
	add_point(&r, 5, 1, 42, 40, 1);  /* plain: the next task, nothing gained */
	add_point(&r, 5, 2, 0, 0, 0);    /* plain after a busy row */
	add_point(&r, 9, 3, 7, 6, 5);
	add_point(&r, 9, 0, 0, 0, 0);
	add_point(&r, 9, 1, 42, 40, 1);
	add_point(&r, 9, 2, 0, 0, 0);
	add_point(&r, 9, 3, 3, 2, 1);    /* backwards */
	add_point(&r, 10, 0, UINT64_MAX, UINT64_MAX, UINT64_MAX);
	add_point(&r, 10, 1, 42, 40, 1);
	add_point(&r, 10, 2, 0, 0, 0);
	add_point(&r, 10, 3, 3, 2, 1);
	/* one figure at a time, then plain: each is in the reused text */
	add_point(&r, 11, 0, 5, UINT64_MAX, UINT64_MAX);
	add_point(&r, 11, 1, 42, 41, 1);
	add_point(&r, 11, 2, 0, 0, 9);
	add_point(&r, 11, 3, 4, 2, 1);
	add_point(&r, 12, 0, 5, UINT64_MAX, UINT64_MAX);
	add_point(&r, 12, 1, 42, 41, 1);
	add_point(&r, 12, 2, 0, 0, 9);
	add_point(&r, 12, 3, 4, 2, 1);
	assert_as_reference(&r);
	gs_results_clear(&r);
}

/* A series appended to after gs_series_end_appending reads on as one. */
static void test_after_end_appending(void **state)
{
	struct gs_results r;

	(void)state;
	results_of(&r, 3);
	sample(&r, 3, 4, sparse);
	gs_series_end_appending(r.series);
	sample(&r, 3, 4, once);
	assert_as_reference(&r);
	gs_results_clear(&r);
}

/* "%.Nf" as the C locale writes it; nothing for a figure that does not
 * exist. */
static void append_fixed_ref(GString *out, const char *fmt, double d)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (isfinite(d))
		g_string_append(out, g_ascii_formatd(buf, sizeof(buf), fmt, d));
}

static void append_latency_ref(GString *out, const struct gs_latency_stats *st)
{
	const uint64_t v[] = { st->min, st->p50, st->p90, st->p99, st->max };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(v); i++) {
		g_string_append_c(out, ',');
		if (st->n)
			g_string_append_printf(out, "%" PRIu64, v[i]);
	}
	g_string_append_c(out, ',');
	append_fixed_ref(out, "%.1f", st->n ? st->std : NAN);
}

static char *tasks_reference(const struct gs_results *r)
{
	GString *out = g_string_new(NULL);
	uint32_t i;

	for (i = 0; i < r->n_tasks; i++) {
		const struct gs_task_result *t = &r->tasks[i];

		if (t->name)
			append_cell(out, t->name);
		g_string_append_c(out, ',');
		if (t->vm)
			append_cell(out, t->vm);
		g_string_append_printf(out, ",%u,%u,%" PRIu64 ",", t->weight,
				       t->gpu, t->rounds);
		append_fixed_ref(out, "%.1f", t->round_mean_ns);
		g_string_append_printf(out, ",%" PRIu64 ",", t->gpu_time_ns);
		if (t->has_accounted)
			g_string_append_printf(out, "%" PRIu64,
					       t->accounted_gpu_time_ns);
		g_string_append_c(out, ',');
		append_fixed_ref(out, "%.6f", t->gpu_share);
		g_string_append_c(out, ',');
		append_fixed_ref(out, "%.6f", t->slowdown);
		g_string_append_printf(out, ",%s,%u,%" PRIu64,
				       t->killed ? "true" : "false",
				       t->migrations, t->migration_stall_ns);
		append_latency_ref(out, &t->round);
		append_latency_ref(out, &t->wait);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

/* tasks.csv's rows (after its header line) as the reference has them */
static void assert_tasks_as_reference(const struct gs_results *r)
{
	g_autofree char *want = tasks_reference(r);
	char *text = fill_text(gs_results_fill_tasks_csv, r), *rows;

	rows = strchr(text, '\n');
	assert_non_null(rows);
	assert_string_equal(rows + 1, want);
	free(text);
}

/* Every kind of cell: names to quote (and none), on the host (no vm),
 * figures that do not exist (NAN), killed or not, an estimate or not,
 * distributions with and without samples, the largest integers, and
 * enough rows to fill the writer's chunk more than once. */
static void test_tasks_csv(void **state)
{
	static const char *const names[] = { "a", "b,\"q\"", "line\nx",
					     "" };
	struct gs_results r;
	uint32_t i;

	(void)state;
	gs_results_init(&r);
	assert_tasks_as_reference(&r);
	for (i = 0; i < 1500; i++) {
		struct gs_task_result t = {
			.name = (char *)names[i % 4],
			.vm = i % 3 ? (char *)"vm \"1\"" : NULL,
			.weight = i, .gpu = i % 5, .rounds = (uint64_t)i * i,
			.round_mean_ns = i % 7 ? i * 1234.5678 : NAN,
			.gpu_time_ns = i % 11 ? (uint64_t)i << 20 : UINT64_MAX,
			.accounted_gpu_time_ns = (uint64_t)i * 3,
			.has_accounted = i % 2 == 0,
			.gpu_share = i / 1500.0,
			.slowdown = i % 6 ? 1.0 + i / 7.0 : NAN,
			.killed = i % 9 == 0, .migrations = i % 4,
			.migration_stall_ns = (uint64_t)i * 1000,
			.round = { .n = i % 2, .min = i, .p50 = 2 * i,
				   .p90 = 3 * i, .p99 = 4 * i,
				   .max = UINT64_MAX - i, .std = i / 3.0 },
			.wait = { .n = i % 3, .min = 1, .p50 = 2, .p90 = 3,
				  .p99 = 4, .max = 5, .std = 0.05 },
		};

		add_task(&r, &t);
		if (i < 3)
			assert_tasks_as_reference(&r);
	}
	r.tasks[5].name = (g_free(r.tasks[5].name), NULL);
	assert_tasks_as_reference(&r);
	gs_results_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_as_reference),
		cmocka_unit_test(test_irregular_rows),
		cmocka_unit_test(test_after_end_appending),
		cmocka_unit_test(test_tasks_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
