/* LoGA 5.5's fair optimum (sim/run/fair_share.c) and the idle channels
 * an application may open beyond the ones it uses (LoGA 5.1: CUDA 6.0
 * opened 12 per application). */
#include <glib.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/cli/repro.h"
#include "sim/run/fair_share.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) < (tol))

static void test_max_min_gives_small_demands_in_full(void **state)
{
	const double demand[] = { 0.1, 0.5, 0.9 }, weight[] = { 1, 1, 1 };
	double share[3];
	(void)state;

	gs_max_min_fair(demand, weight, 3, 1.0, share);
	NEAR(share[0], 0.1, 1e-12);
	NEAR(share[1], 0.45, 1e-12);
	NEAR(share[2], 0.45, 1e-12);
}

static void test_max_min_splits_the_rest_by_weight(void **state)
{
	const double demand[] = { 0.1, 1, 1 }, weight[] = { 1, 1, 2 };
	double share[3];
	(void)state;

	gs_max_min_fair(demand, weight, 3, 1.0, share);
	NEAR(share[0], 0.1, 1e-12);
	NEAR(share[1], 0.3, 1e-12);
	NEAR(share[2], 0.6, 1e-12);
}

/* A satisfied claimant with a large weight frees its part for the rest:
 * the second pass must see the smaller capacity left. */
static void test_max_min_cascades(void **state)
{
	const double demand[] = { 0.05, 0.3, 1 }, weight[] = { 10, 1, 1 };
	double share[3];
	(void)state;

	gs_max_min_fair(demand, weight, 3, 1.0, share);
	NEAR(share[0], 0.05, 1e-12);
	NEAR(share[1], 0.3, 1e-12);
	NEAR(share[2], 0.65, 1e-12);
}

static void test_max_min_everything_fits(void **state)
{
	const double demand[] = { 0.2, 0.3 }, weight[] = { 1, 1 };
	double share[2];
	(void)state;

	gs_max_min_fair(demand, weight, 2, 1.0, share);
	NEAR(share[0], 0.2, 1e-12);
	NEAR(share[1], 0.3, 1e-12);
}

static void run(const char *yaml, struct gs_results *r)
{
	GError *err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data(
		"test.yaml", yaml, strlen(yaml), NULL, 0, &err);
	struct gs_sim_options opt = { .standalone_runs = true,
				      .check_invariants = true };

	if (!sc)
		fail_msg("load failed: %s", err->message);
	gs_results_init(r);
	if (!gs_run_scenario(sc, &opt, r, &err))
		fail_msg("%s", err->message);
	gs_scenario_free(sc);
}

/* LoGA Fig. 11's setting with a saturating hog: four throttles of 200us
 * every 1000us each need about a fifth of the GPU and get it in full, the
 * hog gets what is left, and its fair slowdown is its demand (1, it
 * saturates alone) over that. */
static void test_fair_optimum_of_a_run(void **state)
{
	static const char yaml[] =
		"name: f\nseed: 1\nduration: 1s\ngpu: {preset: kepler}\n"
		"policy: direct\ntasks:\n"
		"  - name: hog\n    behavior: {throttle: {kernel: 100us}}\n"
		"  - name: t\n    count: 4\n"
		"    behavior: {throttle: {kernel: 200us, sleep: 800us}}\n";
	struct gs_results r;
	double rest = 1;
	uint32_t i;
	(void)state;

	run(yaml, &r);
	assert_int_equal(r.n_tasks, 5);
	for (i = 1; i < 5; i++) {
		/* 200us of each 1000us plus the launch: just under 0.2 */
		assert_true(r.tasks[i].fair_share > 0.19 &&
			    r.tasks[i].fair_share < 0.2);
		NEAR(r.tasks[i].fair_slowdown, 1.0, 1e-12);
		rest -= r.tasks[i].fair_share;
	}
	NEAR(r.tasks[0].fair_share, rest, 1e-9);
	assert_true(r.tasks[0].fair_slowdown > 3.5 &&
		    r.tasks[0].fair_slowdown < 5.3);
	/* slowdown x share is the hog's demand alone: the GPU busy but for
	 * the launch and completion wait between its kernels */
	assert_true(r.tasks[0].fair_slowdown * r.tasks[0].fair_share > 0.8 &&
		    r.tasks[0].fair_slowdown * r.tasks[0].fair_share < 1.0);
	gs_results_clear(&r);
}

/* An app may open more channels than it uses; the extra ones stay idle
 * and change nothing under the GPU's own round robin. */
static void test_app_with_idle_channels(void **state)
{
	static const char one[] =
		"name: a\nseed: 1\nduration: 200ms\ngpu: {preset: kepler}\n"
		"policy: direct\ntasks:\n"
		"  - name: app\n    behavior: {app: DCT}\n";
	static const char twelve[] =
		"name: a\nseed: 1\nduration: 200ms\ngpu: {preset: kepler}\n"
		"policy: direct\ntasks:\n"
		"  - name: app\n    channels: 12\n    behavior: {app: DCT}\n";
	GError *err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data(
		"test.yaml", twelve, strlen(twelve), NULL, 0, &err);
	struct gs_results r1, r12;
	(void)state;

	if (!sc)
		fail_msg("load failed: %s", err->message);
	assert_int_equal(sc->tasks[0].channels, 12);
	gs_scenario_free(sc);
	run(one, &r1);
	run(twelve, &r12);
	assert_true(r12.tasks[0].rounds > 100);
	assert_true(r1.tasks[0].rounds == r12.tasks[0].rounds);
	gs_results_clear(&r1);
	gs_results_clear(&r12);
}

/* The rows' derived fields: LoGA Fig. 10's measured load and the
 * distance from the fair optimum. */
static void test_row_fields(void **state)
{
	struct gs_task_result t = {
		.name = "a", .has_accounted = true,
		.accounted_gpu_time_ns = 250000000, .gpu_share = 0.3,
		.slowdown = 3.0, .has_fair = true, .fair_share = 0.2,
		.fair_slowdown = 4.0,
	};
	struct gs_results r = { .sim_time_ns = 1000000000, .n_tasks = 1,
				.tasks = &t };
	GArray *v;
	(void)state;

	v = gs_repro_select_values(&r, "tasks.a.accounted_load");
	NEAR(g_array_index(v, double, 0), 0.25, 1e-12);
	g_array_free(v, TRUE);
	v = gs_repro_select_values(&r, "tasks.a.share_vs_fair");
	NEAR(g_array_index(v, double, 0), 1.5, 1e-12);
	g_array_free(v, TRUE);
	v = gs_repro_select_values(&r, "tasks.a.slowdown_vs_fair");
	NEAR(g_array_index(v, double, 0), 0.75, 1e-12);
	g_array_free(v, TRUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_max_min_gives_small_demands_in_full),
		cmocka_unit_test(test_max_min_splits_the_rest_by_weight),
		cmocka_unit_test(test_max_min_cascades),
		cmocka_unit_test(test_max_min_everything_fits),
		cmocka_unit_test(test_fair_optimum_of_a_run),
		cmocka_unit_test(test_app_with_idle_channels),
		cmocka_unit_test(test_row_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
