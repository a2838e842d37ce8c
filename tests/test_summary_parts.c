/* summary.json written in parts (sim/results/summary_parts.c): whoever
 * encodes which part, the file holds the bytes of the one sequential
 * writer (gs_results_fill_summary), and an error of the folder's writer
 * is still the first in its documented order (results_write.c). */
#include "tests/support/results_fixture.h"
#include "tests/support/fill_text.h"

#include "sim/results/summary_parts.h"

/* Who encodes the parts besides the filling thread. */
enum helping { NO_HELP, HELP_FIRST, HELP_THREAD };

static char *sequential(const struct gs_results *r)
{
	return fill_text(gs_results_fill_summary, r);
}

static gpointer help_thread(gpointer sp)
{
	gs_summary_parts_help(sp);
	return NULL;
}

static char *in_parts(const struct gs_results *r, uint32_t part_tasks,
		      enum helping helping)
{
	/* a helper that runs first must have no window, or it would wait
	 * for a file nobody writes yet */
	struct gs_summary_parts *sp = gs_summary_parts_new(
		r, part_tasks, helping == HELP_FIRST ? 0 : GS_SUMMARY_PART_WINDOW);
	GThread *thread = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	if (helping == HELP_FIRST) /* every part is a helper's */
		gs_summary_parts_help(sp);
	else if (helping == HELP_THREAD)
		thread = g_thread_new("help", help_thread, sp);
	assert_true(gs_summary_parts_fill(sp, f, NULL));
	if (thread)
		g_thread_join(thread);
	fclose(f);
	gs_summary_parts_free(sp);
	return text;
}

/* r's summary the same in every part size and helping given. */
static void assert_parts_identical(const struct gs_results *r)
{
	static const uint32_t sizes[] = { 1, 2, 3, 7, 1024 };
	static const enum helping helpings[] = { NO_HELP, HELP_FIRST,
						 HELP_THREAD };
	g_autofree char *want = sequential(r);
	size_t s, h;

	for (s = 0; s < G_N_ELEMENTS(sizes); s++)
		for (h = 0; h < G_N_ELEMENTS(helpings); h++) {
			g_autofree char *got =
				in_parts(r, sizes[s], helpings[h]);

			if (strcmp(got, want) != 0)
				fail_msg("%u tasks, parts of %u, helping %u: "
					 "bytes differ", r->n_tasks,
					 sizes[s], (unsigned)helpings[h]);
		}
}

/* 0, 1, 2 and 3 tasks; the second's name needs JSON escaping. */
static void test_few_tasks(void **state)
{
	struct fixture *fx = *state;
	uint32_t n = fx->r.n_tasks, k;

	assert_int_equal(n, 3);
	for (k = 0; k <= n; k++) {
		fx->r.n_tasks = k;
		assert_parts_identical(&fx->r);
	}
	fx->r.n_tasks = n;
}

/* Names with every kind of escape and invalid UTF-8, node figures, GPUs
 * and VMs after the array: what follows the parts is the writer's. */
static void test_escapes_and_node_groups(void **state)
{
	struct fixture *fx = *state;
	struct gs_results *r = &fx->r;

	add_task(r, &(struct gs_task_result){ .name = "tab\there\n\x01\x7f",
					      .vm = "vm\xff", .weight = 1,
					      .slowdown = NAN });
	add_task(r, &(struct gs_task_result){ .name = "back\\slash\"",
					      .rounds = 1,
					      .round_mean_ns = 1e300 });
	r->node_report = true;
	r->gpus = g_new0(struct gs_gpu_result, 2);
	r->gpus[0] = (struct gs_gpu_result){ 1, 2, 3, 4, 5, 0.25, 0.5 };
	r->n_vms = 1;
	r->vms = g_new0(struct gs_vm_result, 1);
	r->vms[0] = (struct gs_vm_result){ g_strdup("v"), NULL, 0.3, 1e-9,
					   NAN, 0.0 };
	assert_parts_identical(r);
}

/* More tasks than one default part, the last part a short one: part
 * boundaries fall at 1024 and 2048. */
static void test_part_boundaries(void **state)
{
	struct fixture *fx = *state;
	struct gs_results *r = &fx->r;
	uint32_t i;

	for (i = 0; r->n_tasks < 2 * GS_SUMMARY_PART_TASKS + 5; i++) {
		g_autofree char *name = g_strdup_printf("t%u%s", i,
							i % 7 ? "" : "\"");

		add_task(r, &(struct gs_task_result){
			.name = name, .weight = i, .rounds = i * 3,
			.round_mean_ns = i / 7.0, .gpu_share = 1.0 / (i + 1),
			.slowdown = i * 1.5, .killed = i % 5 == 0,
			.round = { .n = i % 2, .min = i, .p50 = i + 1,
				   .p90 = i + 2, .p99 = i + 3, .max = i + 4,
				   .mean = i + 0.5, .std = i / 3.0 } });
	}
	assert_parts_identical(r);
}

/* A helper alone stays `window` parts ahead of a file nobody writes:
 * it takes that many and waits (what it holds is bounded), and returns
 * once the parts are closed, as the second thread closes them when it
 * will not write summary.json. */
static void test_helper_window(void **state)
{
	struct fixture *fx = *state;
	struct gs_results *r = &fx->r;
	struct gs_summary_parts *sp;
	GThread *thread;
	uint32_t i;

	for (i = 0; i < 10; i++) {
		g_autofree char *name = g_strdup_printf("w%u", i);

		add_task(r, &(struct gs_task_result){ .name = name,
						      .rounds = i });
	}
	sp = gs_summary_parts_new(r, 1, 2);
	thread = g_thread_new("help", help_thread, sp);
	for (i = 0; i < 2000 && gs_summary_parts_taken(sp) < 2; i++)
		g_usleep(1000);
	assert_int_equal(gs_summary_parts_taken(sp), 2);
	g_usleep(50 * 1000); /* time to take a third, were it allowed */
	assert_int_equal(gs_summary_parts_taken(sp), 2);
	gs_summary_parts_close(sp);
	g_thread_join(thread);
	assert_int_equal(gs_summary_parts_taken(sp), 2);
	gs_summary_parts_free(sp);
}

struct filling {
	struct gs_summary_parts *sp;
	FILE *f;
};

static gpointer fill_thread(gpointer data)
{
	struct filling *fl = data;

	assert_true(gs_summary_parts_fill(fl->sp, fl->f, NULL));
	return NULL;
}

/* The filling thread, finding the file's next part taken by another
 * thread and not yet encoded, takes the parts after it meanwhile (up to
 * the window) rather than wait idle, and the file is still the one
 * writer's bytes. Part 0 is taken here and encoded only once the filler
 * has taken the window's parts: a filler that waits for it would take
 * none, and the wait below would run out. */
static void test_filler_works_while_waiting(void **state)
{
	struct fixture *fx = *state;
	struct gs_results *r = &fx->r;
	g_autofree char *want = NULL;
	char *text = NULL;
	size_t len = 0;
	struct filling fl;
	GThread *thread;
	uint32_t i, first;

	for (i = 0; i < 12; i++) {
		g_autofree char *name = g_strdup_printf("f%u", i);

		add_task(r, &(struct gs_task_result){ .name = name,
						      .rounds = i });
	}
	want = sequential(r);
	fl.sp = gs_summary_parts_new(r, 1, 3);
	fl.f = open_memstream(&text, &len);
	assert_non_null(fl.f);
	first = gs_summary_parts_take(fl.sp);
	assert_int_equal(first, 0);
	thread = g_thread_new("fill", fill_thread, &fl);
	/* parts 1-3 the filler's: the window is 3 parts past the file's
	 * end, which part 0 holds at 0 */
	for (i = 0; i < 10000 && gs_summary_parts_taken(fl.sp) < 3; i++)
		g_usleep(1000);
	assert_int_equal(gs_summary_parts_taken(fl.sp), 3);
	/* a helper may not take past the window either */
	assert_int_equal(gs_summary_parts_take(fl.sp), GS_SUMMARY_PART_NONE);
	gs_summary_parts_encode(fl.sp, first);
	g_thread_join(thread);
	fclose(fl.f);
	assert_string_equal(text, want);
	assert_int_equal(gs_summary_parts_taken(fl.sp), r->n_tasks);
	gs_summary_parts_free(fl.sp);
	free(text);
}

/* Errors in the documented order, whichever thread met them: tasks.csv,
 * series.csv, timeline, summary.json. A summary.json that cannot be
 * created is reported once the other files are written (its parts
 * encoded for nothing); series.csv's error comes before it; tasks.csv's
 * (on the second thread) before series.csv's. */
static void test_error_order(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *in_way = g_build_filename(fx->dir, "summary.json",
						   NULL);
	g_autofree char *tasks = g_build_filename(fx->dir, "tasks.csv", NULL);
	g_autofree char *series = g_build_filename(fx->dir, "series.csv",
						   NULL);
	GError *error = NULL;

	assert_true(g_file_set_contents(in_way, "", 0, NULL));
	assert_false(gs_results_write_files(&fx->r, fx->dir,
					    GS_TIMELINE_NONE, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, "summary.json"));
	g_clear_error(&error);

	g_unlink(tasks);
	g_unlink(series);
	add_point(&fx->r, 3000000, 9, 1, 1, 1); /* no task 9 */
	assert_false(gs_results_write_files(&fx->r, fx->dir,
					    GS_TIMELINE_NONE, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, "series.csv"));
	assert_non_null(strstr(error->message, "names task 9"));
	g_clear_error(&error);

	/* tasks.csv, written on the second thread, fails too: its error
	 * comes before series.csv's */
	g_unlink(tasks);
	g_unlink(series);
	assert_true(g_file_set_contents(tasks, "", 0, NULL));
	assert_false(gs_results_write_files(&fx->r, fx->dir,
					    GS_TIMELINE_NONE, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, "cannot create"));
	assert_non_null(strstr(error->message, "tasks.csv"));
	g_clear_error(&error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_few_tasks, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_escapes_and_node_groups,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_filler_works_while_waiting,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_helper_window, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_part_boundaries, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_error_order, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
