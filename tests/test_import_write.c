/* The import writer (sim/import/import_write.c): a model becomes trace CSVs
 * (rows in submission order, times from the recording's first submission)
 * and a scenario that loads; limits are positioned errors; a failed write
 * leaves nothing behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <glib/gstdio.h>
#include <string.h>

#include "sim/import/import.h"
#include "sim/import/import_write.h"
#include "workloads/config_load.h"

/* Two processes: "train" with two streams, jobs added out of order (two
 * with the same submission time), and "eval" starting 5 us later. */
static struct gs_import *two_processes(void)
{
	struct gs_import *imp = gs_import_new("dir/rec.json", "test");
	struct gs_import_task *a = gs_import_task(imp, "pid 1", "train", 1,
						  NULL);
	struct gs_import_task *b = gs_import_task(imp, "pid 2", "eval", 2,
						  NULL);

	gs_import_channel(imp, a, "stream 7", 1, NULL);
	gs_import_channel(imp, a, "stream 13", 1, NULL);
	gs_import_channel(imp, b, "stream 7", 1, NULL);
	gs_import_job_add(imp, a, 0, false, 1003000, 2000, 10, NULL);
	gs_import_job_add(imp, a, 1, true, 1000000, 500, 11, NULL);
	gs_import_job_add(imp, a, 0, false, 1003000, 700, 12, NULL);
	gs_import_job_add(imp, b, 0, false, 1005000, 4000, 13, NULL);
	return imp;
}

static const struct gs_import_file *file_at(GPtrArray *files, guint i)
{
	return g_ptr_array_index(files, i);
}

static void test_rows_sorted_stably_from_first_submission(void **state)
{
	struct gs_import *imp = two_processes();
	struct gs_import_write_options opt = { .out = "out/run.yaml" };
	g_autoptr(GPtrArray) files = gs_import_files_new();
	struct gs_import_counts c;

	(void)state;
	assert_true(gs_import_render(imp, &opt, files, &c, NULL));
	assert_int_equal(files->len, 3);
	assert_string_equal(file_at(files, 0)->path, "out/run.train.csv");
	assert_non_null(strstr(file_at(files, 0)->text,
			       "time,channel,engine,duration\n"
			       "0,1,copy,500\n"
			       "3000,0,compute,2000\n"
			       "3000,0,compute,700\n"));
	/* the second process keeps its offset from the first submission */
	assert_non_null(strstr(file_at(files, 1)->text,
			       "duration\n5000,0,compute,4000\n"));
	assert_int_equal(c.tasks, 2);
	assert_int_equal(c.channels, 3);
	assert_int_equal(c.jobs, 4);
	assert_int_equal(c.span_ns, 9000);
	/* span plus the GPU time of all jobs (7200 ns) and, for each job,
	 * volta's context switch (25 us), preemption save (50 us), fence
	 * write-back (10 us), interrupt (5 us) and status read (1 us) */
	assert_int_equal(c.duration_ns, 16200 + 4 * 91000);
	gs_import_free(imp);
}

static void test_scenario_names_policy_preset_and_channels(void **state)
{
	struct gs_import *imp = two_processes();
	struct gs_import_write_options opt = {
		.out = "run.yaml", .policy = "timeslice", .preset = "kepler",
		.duration_ns = 2000000,
	};
	g_autoptr(GPtrArray) files = gs_import_files_new();
	struct gs_import_counts c;
	const char *y;

	(void)state;
	assert_true(gs_import_render(imp, &opt, files, &c, NULL));
	y = file_at(files, 2)->text;
	assert_string_equal(file_at(files, 2)->path, "run.yaml");
	assert_non_null(strstr(y, "duration: 2000000ns\n"));
	assert_non_null(strstr(y, "preset: kepler\n"));
	assert_non_null(strstr(y, "name: timeslice\n"));
	assert_non_null(strstr(y, "  - name: \"train\"\n    # process pid 1; "
				  "channels: 0 = stream 7, 1 = stream 13\n"
				  "    channels: 2\n"));
	assert_non_null(strstr(y, "trace: {file: \"run.eval.csv\"}"));
	assert_int_equal(c.duration_ns, 2000000);
	gs_import_free(imp);
}

static void test_job_longer_than_a_day_is_positioned(void **state)
{
	struct gs_import *imp = two_processes();
	struct gs_import_task *a = gs_import_task(imp, "pid 1", "x", 1, NULL);
	struct gs_import_write_options opt = { .out = "run.yaml" };
	g_autoptr(GPtrArray) files = gs_import_files_new();
	GError *error = NULL;
	struct gs_import_counts c;

	(void)state;
	gs_import_job_add(imp, a, 0, false, 1000000, 86401000000000ULL, 77,
			  NULL);
	assert_false(gs_import_render(imp, &opt, files, &c, &error));
	assert_int_equal(error->code, GS_IMPORT_ERROR_LIMIT);
	assert_true(g_str_has_prefix(error->message, "dir/rec.json:77: "));
	assert_int_equal(files->len, 0);
	g_error_free(error);
	gs_import_free(imp);
}

static void test_no_job_is_an_error(void **state)
{
	struct gs_import *imp = gs_import_new("empty.json", "test");
	struct gs_import_write_options opt = { .out = "run.yaml" };
	g_autoptr(GPtrArray) files = gs_import_files_new();
	GError *error = NULL;
	struct gs_import_counts c;

	(void)state;
	gs_import_task(imp, "pid 1", "idle", 1, NULL);
	assert_false(gs_import_render(imp, &opt, files, &c, &error));
	assert_int_equal(error->code, GS_IMPORT_ERROR_EMPTY);
	assert_string_equal(error->message,
			    "empty.json: no GPU job in the recording");
	g_error_free(error);
	gs_import_free(imp);
}

/* A process seen without GPU jobs is left out (an empty trace CSV would
 * not load). */
static void test_process_without_jobs_left_out(void **state)
{
	struct gs_import *imp = two_processes();
	struct gs_import_write_options opt = { .out = "run.yaml" };
	g_autoptr(GPtrArray) files = gs_import_files_new();
	struct gs_import_counts c;

	(void)state;
	gs_import_task(imp, "pid 3", "launcher", 3, NULL);
	assert_true(gs_import_render(imp, &opt, files, &c, NULL));
	assert_int_equal(c.tasks, 2);
	assert_int_equal(files->len, 3);
	assert_null(strstr(file_at(files, 2)->text, "launcher"));
	gs_import_free(imp);
}

static void test_written_scenario_loads(void **state)
{
	struct gs_import *imp = two_processes();
	g_autofree char *dir = g_dir_make_tmp("import-XXXXXX", NULL);
	g_autofree char *out = g_build_filename(dir, "run.yaml", NULL);
	g_autofree char *csv = g_build_filename(dir, "run.train.csv", NULL);
	g_autofree char *csv2 = g_build_filename(dir, "run.eval.csv", NULL);
	struct gs_import_write_options opt = { .out = out };
	g_autoptr(GPtrArray) files = gs_import_files_new();
	struct gs_import_counts c;
	struct gs_scenario *sc;
	GError *error = NULL;

	(void)state;
	assert_true(gs_import_render(imp, &opt, files, &c, NULL));
	assert_true(gs_import_files_write(files, NULL));
	sc = gs_scenario_load_file(out, NULL, 0, &error);
	if (!sc)
		fail_msg("%s", error->message);
	assert_int_equal(sc->n_tasks, 2);
	assert_int_equal(sc->tasks[0].channels, 2);
	gs_scenario_free(sc);
	g_unlink(out);
	g_unlink(csv);
	g_unlink(csv2);
	assert_int_equal(g_rmdir(dir), 0);	/* no temporary file left */
	gs_import_free(imp);
}

static void test_failed_write_leaves_nothing(void **state)
{
	struct gs_import *imp = two_processes();
	g_autofree char *dir = g_dir_make_tmp("import-XXXXXX", NULL);
	g_autofree char *out = g_build_filename(dir, "run.yaml", NULL);
	g_autofree char *blocker = g_build_filename(dir, "run.eval.csv.tmp-import",
						    NULL);
	struct gs_import_write_options opt = { .out = out };
	g_autoptr(GPtrArray) files = gs_import_files_new();
	struct gs_import_counts c;
	GError *error = NULL;
	GDir *d;

	(void)state;
	/* a folder where the second CSV's temporary file would go */
	assert_int_equal(g_mkdir(blocker, 0700), 0);
	assert_true(gs_import_render(imp, &opt, files, &c, NULL));
	assert_false(gs_import_files_write(files, &error));
	g_error_free(error);
	assert_int_equal(g_rmdir(blocker), 0);
	d = g_dir_open(dir, 0, NULL);
	assert_null(g_dir_read_name(d));	/* the first CSV's is gone too */
	g_dir_close(d);
	assert_int_equal(g_rmdir(dir), 0);
	gs_import_free(imp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_sorted_stably_from_first_submission),
		cmocka_unit_test(test_scenario_names_policy_preset_and_channels),
		cmocka_unit_test(test_job_longer_than_a_day_is_positioned),
		cmocka_unit_test(test_no_job_is_an_error),
		cmocka_unit_test(test_process_without_jobs_left_out),
		cmocka_unit_test(test_written_scenario_loads),
		cmocka_unit_test(test_failed_write_leaves_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
