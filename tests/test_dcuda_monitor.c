/* DCUDA's monitor (sections 3.2 and 4.2): dcuda reports its demand
 * estimate of each task (hal_note_demand), which summary.json sets beside
 * the demand the job declares, and its timing of every intercepted launch
 * costs policy CPU time (sample_cost). */
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

/* Two jobs of 30% and 60% on two GPUs, 1 ms kernels for 1 s. */
static void run_jobs(const char *policy, struct gs_results *r)
{
	g_autofree char *yaml = g_strdup_printf(
		"name: m\nseed: 1\nduration: 5s\n"
		"node: {gpus: 2, gpu: {preset: kepler}}\n"
		"policy: %s\n"
		"tasks:\n"
		"  - {name: a, behavior: {job: {demand: 30%%, kernel: 1ms,"
		" length: 1s}}}\n"
		"  - {name: b, behavior: {job: {demand: 60%%, kernel: 1ms,"
		" length: 1s}}}\n",
		policy);

	run_with(yaml, NULL, r);
}

static void test_estimates_beside_declared_demands(void **state)
{
	struct gs_results r;
	double err = 0;
	uint32_t i;
	(void)state;

	run_jobs("dcuda", &r);
	for (i = 0; i < 2; i++) {
		const struct gs_task_result *t = &r.tasks[i];

		assert_true(t->has_monitored);
		NEAR(t->declared_demand, i == 0 ? 0.3 : 0.6, 1e-12);
		/* alone on its GPU, a job's estimate misses only the host
		 * time between kernels (7 us of each 1.007 ms step) and
		 * per-mille rounding: within 2% */
		NEAR(t->monitored_demand, t->declared_demand,
		     0.02 * t->declared_demand);
		err += fabs(t->monitored_demand - t->declared_demand) /
		       t->declared_demand;
	}
	NEAR(r.metrics.monitor_accuracy, 1.0 - err / 2, 1e-12);
	assert_true(r.metrics.monitor_accuracy < 1.0);
	gs_results_clear(&r);
}

/* A placement policy estimates nothing: no accuracy to report. */
static void test_no_estimate_no_accuracy(void **state)
{
	struct gs_results r;
	(void)state;

	run_jobs("round-robin", &r);
	assert_false(r.tasks[0].has_monitored);
	assert_true(isnan(r.metrics.monitor_accuracy));
	gs_results_clear(&r);
}

/* Each intercepted launch costs sample_cost of policy CPU time: the
 * difference between two costs is their difference times the launches. */
static void test_sample_cost_per_launch(void **state)
{
	struct gs_results zero, one;
	double launches;
	(void)state;

	run_jobs("{name: dcuda, params: {sample_cost: 0ns}}", &zero);
	run_jobs("{name: dcuda, params: {sample_cost: 1us}}", &one);
	launches = (double)(one.metrics.policy_cpu_overhead -
			    zero.metrics.policy_cpu_overhead) *
		   (double)one.sim_time_ns / 1000.0;
	/* two jobs of 1 s in steps of 1 ms + 7 us of host time (launch,
	 * doorbell, spin poll: the host defaults): 2 x 993 launches */
	NEAR(launches, 2 * 993, 1);
	gs_results_clear(&zero);
	gs_results_clear(&one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_estimates_beside_declared_demands),
		cmocka_unit_test(test_no_estimate_no_accuracy),
		cmocka_unit_test(test_sample_cost_per_launch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
