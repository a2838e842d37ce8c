/* ops->fence_signal from the simulator: every completion reaches the
 * policy, including one that comes while the call for an earlier one is
 * already due but too early to show it (the fence's host-visible copy
 * lags). Seen through drm-fifo, whose credits return only at fences: a
 * lost call leaks a credit for good. */
#include <glib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/host/results.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

static void run(const char *yaml, struct gs_results *r)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data("fence.yaml", yaml,
						       strlen(yaml), NULL, 0,
						       &err);
	struct gs_sim_options opt = { .check_invariants = true };

	if (!sc)
		fail_msg("%s", err->message);
	gs_results_init(r);
	if (!gs_run_scenario(sc, &opt, r, &err))
		fail_msg("%s", err->message);
	gs_scenario_free(sc);
}

/* Task a pushes two 5 us commands at once (two credits) and then
 * sleeps: the second completes 5 us after the first, before the first's
 * interrupt (10 us on Kepler) is handled, so one call must signal both.
 * Had the second been lost, its credit would never come back (a's
 * channel has no later completion) and b, an asynchronous stream of 5 us
 * commands from 10 ms on (launch and trap cost 1 us each, so the GPU is
 * its limit), would run on one credit: one 5 us command per 5 + 10 us,
 * 13.3 ms of GPU time in 40 ms, instead of two: 26.7 ms. */
static void test_close_completions_all_signal(void **state)
{
	struct gs_results r;
	(void)state;

	run("seed: 1\nduration: 50ms\ngpu: {preset: kepler}\n"
	    "host: {launch: 1us, trap: 1us}\n"
	    "policy: {name: drm-fifo, params: {credit_limit: 2}}\n"
	    "tasks:\n"
	    "  - name: a\n    behavior:\n      script:\n"
	    "        - launch: 5us\n        - launch: 5us\n"
	    "        - wait\n        - sleep: 1s\n"
	    "  - name: b\n    start: 10ms\n    behavior:\n      script:\n"
	    "        - repeat: {steps: [{launch: 5us}, round]}\n", &r);
	assert_int_equal(r.n_tasks, 2);
	assert_in_range(r.tasks[1].gpu_time_ns, 25 * GS_NS_PER_MS,
			28 * GS_NS_PER_MS);
	gs_results_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close_completions_all_signal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
