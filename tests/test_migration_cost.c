/* DCUDA Fig. 9: what one live migration costs a task. The migrate-once
 * policy moves every task exactly once; the task's recorded stall is the
 * node's migration setting (clone + on-demand share of the footprint at
 * the bandwidth), and its migration overhead is that stall over its
 * execution time. */
#include <glib.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/node_run.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) < (tol))

#define DCUDA_MIGRATION "{clone: 5ms, bandwidth: 12GiB/s, on_demand: 5%}"
#define NVCR_MIGRATION "{clone: 300ms, bandwidth: 12GiB/s, on_demand: 100%}"

/* Two jobs of 1.2 GiB and 600 MiB, 2 s long, on two GPUs, each moved
 * `after` its start, under a migration setting. */
static void run_two_jobs(const char *migration, const char *after,
			 struct gs_results *r)
{
	g_autofree char *yaml = g_strdup_printf(
		"name: m\nseed: 1\nduration: 10s\n"
		"node: {gpus: 2, gpu: {preset: kepler}, migration: %s}\n"
		"policy: {name: migrate-once, params: {after: %s}}\n"
		"tasks:\n"
		"  - {name: a, behavior: {job: {demand: 50%%, kernel: 10ms,"
		" length: 2s, memory: 1200MiB}}}\n"
		"  - {name: b, behavior: {job: {demand: 50%%, kernel: 10ms,"
		" length: 2s, memory: 600MiB}}}\n",
		migration, after);

	run_with(yaml, NULL, r);
}

/* clone + share * memory / bandwidth, in ns */
static double expected_stall(double clone_ns, double share, double mib)
{
	return clone_ns + share * mib * 1048576.0 / (12.0 * 1073741824.0) * 1e9;
}

static void test_each_task_moves_once_and_stalls_for_the_setting(void **state)
{
	struct gs_results r;
	uint32_t i;
	(void)state;

	run_two_jobs(DCUDA_MIGRATION, "500ms", &r);
	assert_int_equal(r.n_tasks, 2);
	assert_int_equal(r.metrics.migrations, 2);
	for (i = 0; i < 2; i++) {
		const struct gs_task_result *t = &r.tasks[i];
		double mib = i == 0 ? 1200 : 600;

		assert_int_equal(t->migrations, 1);
		/* placed in turn (a on 0, b on 1), then moved to the other */
		assert_int_equal(t->gpu, i == 0 ? 1 : 0);
		NEAR((double)t->migration_stall_ns,
		     expected_stall(5e6, 0.05, mib), 2);
		NEAR(gs_task_migration_overhead(t),
		     (double)t->migration_stall_ns / t->round_mean_ns, 1e-12);
	}
	gs_results_clear(&r);
}

/* NVCR's setting: the whole footprint before resuming, 300 ms to clone.
 * The stall, and so the run, grows by exactly the difference. */
static void test_nvcr_setting_costs_the_whole_footprint(void **state)
{
	struct gs_results d, n;
	(void)state;

	run_two_jobs(DCUDA_MIGRATION, "500ms", &d);
	run_two_jobs(NVCR_MIGRATION, "500ms", &n);
	NEAR((double)n.tasks[0].migration_stall_ns,
	     expected_stall(300e6, 1.0, 1200), 2);
	NEAR(n.tasks[0].round_mean_ns - d.tasks[0].round_mean_ns,
	     (double)n.tasks[0].migration_stall_ns -
		     (double)d.tasks[0].migration_stall_ns,
	     2e6);
	gs_results_clear(&d);
	gs_results_clear(&n);
}

/* A task that never moved has no overhead to speak of. */
static void test_no_migration_no_overhead(void **state)
{
	struct gs_results r;
	(void)state;

	run_two_jobs(DCUDA_MIGRATION, "100s", &r);
	assert_int_equal(r.tasks[0].migrations, 0);
	assert_int_equal(r.tasks[0].migration_stall_ns, 0);
	assert_true(isnan(gs_task_migration_overhead(&r.tasks[0])));
	gs_results_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_each_task_moves_once_and_stalls_for_the_setting),
		cmocka_unit_test(test_nvcr_setting_costs_the_whole_footprint),
		cmocka_unit_test(test_no_migration_no_overhead),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
