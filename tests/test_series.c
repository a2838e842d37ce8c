/* The compact series of base/series.h: rows read back exactly, plain
 * runs (idle tasks within a sample) wherever they start and end, in the
 * size it promises; series.csv written from it. */
#include "tests/support/results_fixture.h"

#include <inttypes.h>

#include "base/rng.h"
#include "base/series.h"

static void assert_point_equal(const struct gs_series_point *a,
			       const struct gs_series_point *b)
{
	assert_int_equal(a->t, b->t);
	assert_int_equal(a->task, b->task);
	assert_int_equal(a->gpu_time_ns, b->gpu_time_ns);
	assert_int_equal(a->accounted_gpu_time_ns, b->accounted_gpu_time_ns);
	assert_int_equal(a->vtime_ns, b->vtime_ns);
}

static void assert_reads_back(const struct gs_series *s,
			      const struct gs_series_point *want, size_t n)
{
	struct gs_series_iter it;
	struct gs_series_point p;
	size_t i;

	assert_int_equal(gs_series_rows(s), n);
	gs_series_iter_init(&it, s);
	for (i = 0; i < n; i++) {
		assert_true(gs_series_next(&it, &p));
		assert_point_equal(&p, &want[i]);
	}
	assert_false(gs_series_next(&it, &p));
	/* a finished iterator stays finished */
	assert_false(gs_series_next(&it, &p));
	gs_series_iter_clear(&it);
}

/* Any rows: times going back, figures falling, the extremes of every
 * field, tasks beyond the table of bases. */
static void test_any_rows_read_back(void **state)
{
	const struct gs_series_point edge[] = {
		{ 0, 0, 0, 0, 0 },
		{ UINT64_MAX, UINT32_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX },
		{ 5, 3, 100, 0, 7 },
		{ 4, 3, 99, UINT64_MAX, 0 },
		{ 4, GS_SERIES_BASE_TASKS, 1, 2, 3 },
		{ 4, GS_SERIES_BASE_TASKS, 1, 2, 3 },
		{ 4, GS_SERIES_BASE_TASKS - 1, 1ULL << 63, 2, 3 },
		{ 0, 0, 0, 0, 0 },
	};
	struct gs_series *s = gs_series_new();
	struct gs_series_point *rows = g_new(struct gs_series_point, 10000);
	struct gs_rng rng;
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(edge); i++)
		gs_series_append(s, &edge[i]);
	assert_reads_back(s, edge, G_N_ELEMENTS(edge));
	gs_series_free(s);

	s = gs_series_new();
	gs_rng_seed(&rng, 7, "series");
	for (i = 0; i < 10000; i++) {
		rows[i] = (struct gs_series_point){
			gs_rng_next(&rng), (uint32_t)(gs_rng_next(&rng) % 64),
			gs_rng_next(&rng) >> (gs_rng_next(&rng) % 64),
			gs_rng_next(&rng) % 1000, gs_rng_next(&rng),
		};
		gs_series_append(s, &rows[i]);
	}
	assert_reads_back(s, rows, 10000);
	gs_series_free(s);
	g_free(rows);
}

/* Samples as a run takes them: idle tasks within a sample are plain rows,
 * a count for each sample's run of them; busy ones a few bytes a row. */
static void test_samples_are_compact(void **state)
{
	enum { TASKS = 1000, SAMPLES = 20 };
	struct gs_series *s = gs_series_new();
	struct gs_series_point last;
	uint32_t k, j;

	(void)state;
	for (j = 0; j < SAMPLES; j++)
		for (k = 0; k < TASKS; k++)
			gs_series_append(s, &(struct gs_series_point){
				.t = 0, .task = k });
	/* the first row: a header and its task difference 0; each later
	 * sample: the count of the plain rows before it (2 bytes), a
	 * header and the task difference -(TASKS - 1) (2 bytes); the last
	 * sample's plain rows are still a count in the struct */
	assert_int_equal(gs_series_bytes(s), 2 + 5 * (SAMPLES - 1));
	gs_series_free(s);

	s = gs_series_new();
	assert_false(gs_series_last(s, &last));
	for (j = 0; j < SAMPLES; j++)
		for (k = 0; k < TASKS; k++)
			gs_series_append(s, &(struct gs_series_point){
				.t = 10000000ULL * j, .task = k,
				.gpu_time_ns = 10000ULL * j * (k % 7),
				.vtime_ns = 20000ULL * j });
	/* gains below 2^13 ns take two bytes, below 2^20 three */
	assert_true(gs_series_bytes(s) <= 10 * TASKS * SAMPLES);
	assert_true(gs_series_last(s, &last));
	assert_int_equal(last.t, 10000000ULL * (SAMPLES - 1));
	assert_int_equal(last.task, TASKS - 1);
	gs_series_free(s);
}

static void test_move(void **state)
{
	const struct gs_series_point a[] = { { 1, 0, 10, 0, 1 },
					     { 1, 1, 20, 0, 2 } };
	const struct gs_series_point b[] = { { 2, 0, 15, 0, 3 } };
	const struct gs_series_point ab[] = { a[0], a[1], b[0] };
	struct gs_series *to = gs_series_new(), *from = gs_series_new();
	struct gs_series *was_from = from;

	(void)state;
	gs_series_append(from, &a[0]);
	gs_series_append(from, &a[1]);
	gs_series_move(&to, &from); /* into an empty one: a swap */
	assert_ptr_equal(to, was_from);
	assert_int_equal(gs_series_rows(from), 0);
	gs_series_append(from, &b[0]);
	gs_series_move(&to, &from); /* appended row by row */
	assert_reads_back(to, ab, 3);
	assert_int_equal(gs_series_rows(from), 0);
	gs_series_free(to);
	gs_series_free(from);
}

/* series.csv from the compact rows, and a row naming a task that does
 * not exist refused with its index. */
static void test_series_csv(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	GError *error = NULL;

	assert_true(gs_results_fill_series_csv(&fx->r, f, &error));
	fclose(f);
	assert_string_equal(buf,
		"time_ns,task,gpu_time_ns,accounted_gpu_time_ns,vtime_ns\n"
		"1000000,alpha,500000,,700\n"
		"1000000,\"b,\"\"q\"\"\",400000,390000,800\n"
		"2000000,alpha,900000,,1500\n");
	g_clear_pointer(&buf, free);
	add_point(&fx->r, 2000000, 3, 1, 1, 1);
	f = open_memstream(&buf, &len);
	assert_false(gs_results_fill_series_csv(&fx->r, f, &error));
	fclose(f);
	assert_non_null(error);
	assert_string_equal(error->message, "series point 3 names task 3 of 3");
	g_error_free(error);
}

/* Many rows: written in chunks, the same text as row by row. */
static void test_series_csv_long(void **state)
{
	struct fixture *fx = *state;
	g_autoptr(GString) want = g_string_new(
		"time_ns,task,gpu_time_ns,accounted_gpu_time_ns,vtime_ns\n");
	g_autofree char *buf = NULL;
	size_t len = 0;
	FILE *f;
	uint64_t t;

	gs_series_free(fx->r.series); /* without the fixture's rows */
	fx->r.series = gs_series_new();
	for (t = 1; t <= 20000; t++) {
		add_point(&fx->r, t * 1000, 2, t * 7, t * 5, t * 3);
		add_point(&fx->r, t * 1000, 0, t * 11, 0, t);
		g_string_append_printf(want,
				       "%" PRIu64 ",gamma,%" PRIu64 ",%" PRIu64
				       ",%" PRIu64 "\n%" PRIu64 ",alpha,%" PRIu64
				       ",,%" PRIu64 "\n", t * 1000, t * 7,
				       t * 5, t * 3, t * 1000, t * 11, t);
	}
	f = open_memstream(&buf, &len);
	assert_true(gs_results_fill_series_csv(&fx->r, f, NULL));
	fclose(f);
	assert_true(len > 4 * 64 * 1024);
	assert_string_equal(buf, want->str);
}

static struct gs_series *series_of(const struct gs_series_point *rows,
				   size_t n)
{
	struct gs_series *s = gs_series_new();
	size_t i;

	for (i = 0; i < n; i++)
		gs_series_append(s, &rows[i]);
	return s;
}

/* Samples of tasks that are busy or idle at random, each sample's rows in
 * task order as a run takes them, so plain runs start and end anywhere:
 * at the first row, before and after busy rows, at the last row. */
static void test_samples_with_idle_tasks_read_back(void **state)
{
	enum { TASKS = 300, SAMPLES = 40 };
	struct gs_series_point *rows = g_new0(struct gs_series_point,
					      TASKS * SAMPLES);
	uint64_t gpu[TASKS] = { 0 }, vtime[TASKS] = { 0 };
	struct gs_rng rng;
	struct gs_series *s;
	size_t n = 0;
	uint32_t j, k;

	(void)state;
	gs_rng_seed(&rng, 7, "series");
	for (j = 0; j < SAMPLES; j++) {
		for (k = 0; k < TASKS; k++) {
			/* mostly idle; sample 0 and the last all idle */
			if (j && j + 1 < SAMPLES &&
			    gs_rng_next(&rng) % 8 == 0) {
				gpu[k] += gs_rng_next(&rng) % 100000;
				vtime[k] += gs_rng_next(&rng) % 3;
			}
			rows[n++] = (struct gs_series_point){
				.t = 1000ULL * j, .task = k,
				.gpu_time_ns = gpu[k],
				.accounted_gpu_time_ns = gpu[k] / 2,
				.vtime_ns = vtime[k] };
		}
	}
	s = series_of(rows, n);
	assert_reads_back(s, rows, n);
	gs_series_free(s);
	g_free(rows);
}

/* The very first row may be plain too (task 1 at time 0, nothing yet),
 * and a series of plain rows only reads back as such. */
static void test_plain_from_the_first_row(void **state)
{
	const struct gs_series_point rows[] = {
		{ .t = 0, .task = 1 }, { .t = 0, .task = 2 },
		{ .t = 0, .task = 3 },
	};
	struct gs_series *s = series_of(rows, G_N_ELEMENTS(rows));

	(void)state;
	assert_int_equal(gs_series_bytes(s), 0);
	assert_reads_back(s, rows, G_N_ELEMENTS(rows));
	gs_series_free(s);
}

/* Moving into a series that has rows re-appends them, plain runs of
 * both sides included, and keeps them in order. */
static void test_move_keeps_plain_runs(void **state)
{
	const struct gs_series_point a[] = {
		{ .t = 0, .task = 0, .gpu_time_ns = 5 },
		{ .t = 0, .task = 1 }, { .t = 0, .task = 2 },
	};
	const struct gs_series_point b[] = {
		{ .t = 9, .task = 0, .gpu_time_ns = 5 },
		{ .t = 9, .task = 1 }, { .t = 9, .task = 2, .vtime_ns = 4 },
		{ .t = 9, .task = 3 },
	};
	struct gs_series_point ab[G_N_ELEMENTS(a) + G_N_ELEMENTS(b)];
	struct gs_series *to = series_of(a, G_N_ELEMENTS(a));
	struct gs_series *from = series_of(b, G_N_ELEMENTS(b));
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(a); i++)
		ab[i] = a[i];
	for (i = 0; i < G_N_ELEMENTS(b); i++)
		ab[G_N_ELEMENTS(a) + i] = b[i];
	gs_series_move(&to, &from);
	assert_int_equal(gs_series_rows(from), 0);
	assert_reads_back(to, ab, G_N_ELEMENTS(ab));
	gs_series_free(to);
	gs_series_free(from);
}

/* Appending after gs_series_end_appending rebuilds the writer's table
 * from the rows: the bytes are those of a series never ended, and every
 * row reads back. */
static void test_append_after_end(void **state)
{
	enum { TASKS = 50, SAMPLES = 6 };
	struct gs_series_point rows[TASKS * SAMPLES];
	struct gs_series *ended = gs_series_new(), *whole = gs_series_new();
	struct gs_series_point last;
	size_t n = 0, i;
	uint32_t j, k;

	(void)state;
	for (j = 0; j < SAMPLES; j++)
		for (k = 0; k < TASKS; k++)
			rows[n++] = (struct gs_series_point){
				.t = 100ULL * j, .task = k,
				.gpu_time_ns = (k % 3) ? 7ULL * j * k : 0,
				.vtime_ns = 3ULL * j };
	for (i = 0; i < n; i++) {
		gs_series_append(whole, &rows[i]);
		gs_series_append(ended, &rows[i]);
		if (i % 97 == 0)
			gs_series_end_appending(ended);
	}
	gs_series_end_appending(ended);
	assert_true(gs_series_last(ended, &last));
	assert_int_equal(last.task, TASKS - 1);
	assert_int_equal(gs_series_bytes(ended), gs_series_bytes(whole));
	assert_memory_equal(ended->bytes, whole->bytes, gs_series_bytes(whole));
	assert_reads_back(ended, rows, n);
	gs_series_free(ended);
	gs_series_free(whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_any_rows_read_back),
		cmocka_unit_test(test_samples_are_compact),
		cmocka_unit_test(test_move),
		cmocka_unit_test(test_samples_with_idle_tasks_read_back),
		cmocka_unit_test(test_plain_from_the_first_row),
		cmocka_unit_test(test_move_keeps_plain_runs),
		cmocka_unit_test(test_append_after_end),
		cmocka_unit_test_setup_teardown(test_series_csv, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_series_csv_long, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
