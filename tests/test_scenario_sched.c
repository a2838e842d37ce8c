/* Whole scenarios: a VM's own scheduler and nested ones, weights scaled
 * leaving the shares, work in progress in the utilisation, a timeslice
 * round reaching every task. */
#include "tests/support/scenario_fixture.h"

/* ---- a VM's own scheduler (vms[].scheduler) ----------------------- */

/* No scheduler on the host: the VM's own dfq, a separate instance that
 * sees only the VM's tasks, shares the GPU between a 100us and a 1ms task
 * as flat dfq would; without it the GPU's round robin gives 1:10. */
static const char *const vm_guest_dfq =
	"duration: 2s\nseed: 1\ngpu: {preset: kepler}\npolicy: direct\n"
	"vms: [{name: v%s}]\n"
	"tasks:\n"
	"  - {name: short, vm: v, behavior: {throttle: {kernel: 100us}}}\n"
	"  - {name: long, vm: v, behavior: {throttle: {kernel: 1ms}}}\n";

static void test_vm_scheduler_schedules_its_tasks(void **state)
{
	g_autofree char *with = g_strdup_printf(vm_guest_dfq,
						", scheduler: dfq");
	g_autofree char *without = g_strdup_printf(vm_guest_dfq, "");
	struct gs_results r;
	(void)state;

	run(without, false, &r);
	assert_true(r.tasks[0].gpu_share < 0.15);
	assert_true(isnan(r.metrics.accounting_error));
	assert_int_equal(r.n_vms, 1);
	assert_null(r.vms[0].scheduler);
	gs_results_clear(&r);
	run(with, false, &r);
	assert_true(fabs(r.tasks[0].gpu_share - 0.5) < 0.06);
	/* the guest's accounting and CPU time are its own */
	assert_true(r.tasks[0].accounted_gpu_time_ns > 0);
	assert_string_equal(r.vms[0].name, "v");
	assert_string_equal(r.vms[0].scheduler, "dfq");
	assert_true(r.vms[0].scheduler_cpu > 0);
	assert_true(r.vms[0].scheduler_cpu <= r.metrics.policy_cpu_overhead);
	assert_true(fabs(r.vms[0].gpu_share - 1) < 1e-9);
	/* the host's policy (direct) never shadows it */
	assert_true(r.vms[0].host_shadowed == 0);
	gs_results_clear(&r);
}

/* Nested hdfq on the host gives each VM its half; inside vm2 the guest
 * policy decides: timeslice splits vm2's half between t2 and t3. Three
 * levels: vmA's own nested hdfq treats vmB as one entity and vmB's
 * timeslice splits its part: 1/2, 1/4, 1/8, 1/8. */
static const char *const vm_tree_nested =
	"duration: 3s\nseed: 1\ngpu: {preset: kepler}\n"
	"policy: {name: hdfq, params: {nested: true}}\n"
	"vms:\n"
	"  - name: vmA\n    scheduler: {name: hdfq, params: {nested: true}}\n"
	"    vms: [{name: vmB, scheduler: timeslice}]\n"
	"tasks:\n"
	"  - {name: t0, behavior: {throttle: {kernel: 500us}}}\n"
	"  - {name: t1, vm: vmA, behavior: {throttle: {kernel: 500us}}}\n"
	"  - {name: t2, vm: vmB, behavior: {throttle: {kernel: 500us}}}\n"
	"  - {name: t3, vm: vmB, behavior: {throttle: {kernel: 500us}}}\n";

static void test_vm_schedulers_nest(void **state)
{
	const double want[] = { 0.5, 0.25, 0.125, 0.125 };
	struct gs_results r;
	uint32_t i;
	(void)state;

	run(vm_tree_nested, false, &r);
	for (i = 0; i < 4; i++)
		if (fabs(r.tasks[i].gpu_share - want[i]) > 0.03)
			fail_msg("%s: share %.3f, want %.3f", r.tasks[i].name,
				 r.tasks[i].gpu_share, want[i]);
	assert_string_equal(r.vms[1].name, "vmB");
	assert_string_equal(r.vms[1].scheduler, "timeslice");
	assert_true(fabs(r.vms[0].gpu_share - 0.5) < 0.03);
	/* the host's nested hdfq stops vmA (and vmB in it) by shadowing */
	assert_true(r.vms[0].host_shadowed > 0.1);
	gs_results_clear(&r);
}

/* Only the ratio of weights matters, under dfq and loga: three equal
 * saturating throttles with weights 1:2:4, 10:20:40 and 100:200:400 get
 * the same shares (within 0.005: the runs differ only in integer
 * rounding), near 1/7, 2/7, 4/7 (within 0.03: both sample and deny per
 * interval, so shares are approximate; measured 0.151/0.295/0.554 for
 * dfq). Unnormalised vtimes gave dfq 0.16/0.31/0.53, 0.32/0.34/0.34 and
 * 1/3 each. */
static void test_weight_scale_leaves_shares(void **state)
{
	static const char *const policies[] = { "dfq", "loga" };
	unsigned p, k, i;
	(void)state;

	for (p = 0; p < 2; p++) {
		double first[3] = { 0 };

		for (k = 1; k <= 100; k *= 10) {
			g_autofree char *yaml = g_strdup_printf(
				"duration: 5s\npolicy: {name: %s}\ntasks:\n"
				"  - {name: a, weight: %u, behavior: "
				"{throttle: {kernel: 500us}}}\n"
				"  - {name: b, weight: %u, behavior: "
				"{throttle: {kernel: 500us}}}\n"
				"  - {name: c, weight: %u, behavior: "
				"{throttle: {kernel: 500us}}}\n",
				policies[p], k, 2 * k, 4 * k);
			struct gs_results r;

			run(yaml, false, &r);
			for (i = 0; i < 3; i++) {
				double share = r.tasks[i].gpu_share;

				if (k == 1)
					first[i] = share;
				assert_true(fabs(share - first[i]) < 0.005);
				assert_true(fabs(share - (1 << i) / 7.0) <
					    0.03);
			}
			gs_results_clear(&r);
		}
	}
}

/* Work still running when the run ends counts in every figure built from
 * GPU time: a 20 ms kernel cut by a 10 ms run (launch costs 30 us) gave
 * the task 9.97 ms of GPU time and share 1, but utilisation 0 and idle
 * power all along. */
static void test_work_in_progress_counts_in_utilisation(void **state)
{
	struct gs_results r;
	double busy_s, energy;
	(void)state;

	run("duration: 10ms\ngpu: {preset: kepler, idle_watts: 15, "
	    "active_watts: 170}\ntasks:\n  - name: a\n    behavior: "
	    "{throttle: {kernel: 20ms}}\n", false, &r);
	assert_int_equal(r.tasks[0].rounds, 0);
	assert_true(r.tasks[0].gpu_time_ns > 9 * GS_NS_PER_MS);
	assert_true(fabs(r.metrics.gpu_utilization -
			 (double)r.tasks[0].gpu_time_ns / (10 * GS_NS_PER_MS)) <
		    1e-12);
	busy_s = (double)r.tasks[0].gpu_time_ns * 1e-9;
	energy = 170.0 * busy_s + 15.0 * (0.010 - busy_s);
	assert_true(fabs(r.metrics.energy_j - energy) < 1e-9);
	gs_results_clear(&r);
}

/* Generated scenario 159's shape on volta with one-slot rings: two tasks
 * that run rounds of commands with short pauses, beside two blocking
 * throttles. The dispatcher moved the round's front to a channel of the
 * current group that had rejoined at the end of the round, so the two
 * round tasks took turns for ever and the throttles, their commands
 * published, waited for ever (the invariant 'no work waits for ever'
 * now reports that; run() fails on a violation). */
static void test_timeslice_round_reaches_every_task(void **state)
{
	struct gs_results r;
	uint32_t i;
	(void)state;

	run("duration: 100ms\n"
	    "gpu: {preset: volta, ring_entries: 2, dispatch_batch: 2}\n"
	    "tasks:\n"
	    "  - name: five\n    behavior:\n      script:\n"
	    "        - repeat: {count: forever, steps: [{repeat: {count: 5, "
	    "steps: [{launch: {kernel: 200us}}]}}, wait, {cpu: 10us}, "
	    "round]}\n"
	    "  - name: three\n    behavior:\n      script:\n"
	    "        - repeat: {count: forever, steps: [{repeat: {count: 3, "
	    "steps: [{launch: {kernel: 45us}}]}}, wait, {cpu: 40us}, "
	    "round]}\n"
	    "  - name: a\n    start: 1ms\n"
	    "    behavior: {throttle: {kernel: 100us, sleep: 0ns}}\n"
	    "  - name: b\n    start: 1ms\n"
	    "    behavior: {throttle: {kernel: 100us, sleep: 0ns}}\n",
	    false, &r);
	/* each task has a turn of about one slice (1024 us) per round of
	 * four: every one completes dozens of rounds in 100 ms */
	for (i = 0; i < r.n_tasks; i++)
		assert_true(r.tasks[i].rounds >= 10);
	gs_results_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm_scheduler_schedules_its_tasks),
		cmocka_unit_test(test_vm_schedulers_nest),
		cmocka_unit_test(test_weight_scale_leaves_shares),
		cmocka_unit_test(test_work_in_progress_counts_in_utilisation),
		cmocka_unit_test(test_timeslice_round_reaches_every_task),
	};

	return cmocka_run_group_tests_name("scenario_sched", tests, NULL, NULL);
}
