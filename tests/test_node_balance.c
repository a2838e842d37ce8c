/* DCUDA's load figures of a node scenario (sim/host/node.c, sim/run/run.c):
 * utilisation as demand over capacity (section 4.3, Fig. 11a), the share
 * of time one GPU is overloaded while another is below 50% (section 2.3,
 * Fig. 2), the QoS share at a chosen degradation (section 4.5), and the
 * power model whose awake power follows the cores in use (Table 2). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <math.h>
#include <string.h>

#include "tests/support/node_run.h"

/* Two GPUs; a and b on GPU 0, c (if its demand is not 0) on GPU 1, all
 * of the same length. */
#define TWO_GPUS(node_extra, da, db, dc) \
	"duration: 20s\nnode: {gpus: 2" node_extra "}\npolicy: {name: direct}\n" \
	"tasks:\n" \
	"  - {name: a, gpu: 0, behavior: {job: {demand: " da ", kernel: 10ms, length: 1s}}}\n" \
	"  - {name: b, gpu: 0, behavior: {job: {demand: " db ", kernel: 10ms, length: 1s}}}\n" \
	"  - {name: c, gpu: 1, behavior: {job: {demand: " dc ", kernel: 10ms, length: 1s}}}\n"

/* 80% + 80% on GPU 0: overloaded for the 1.6 s a and b run, the whole
 * run. GPU 1 holds c at 30% for 1 s, then nothing: 0-50% throughout. */
static void test_overloaded_beside_underloaded_is_imbalanced(void **state)
{
	struct gs_results r;
	(void)state;

	run_with(TWO_GPUS("", "80%", "80%", "30%"), NULL, &r);
	assert_true(r.metrics.time_imbalanced > 0.99);
	gs_results_clear(&r);
}

/* The same overload beside a GPU at 60%: not underloaded, so not
 * imbalanced while c runs (1 s of 1.6 s); after c ends GPU 1 is empty
 * (0-50%) and the node is imbalanced for the rest. */
static void test_overloaded_beside_busy_gpu_is_not_imbalanced(void **state)
{
	struct gs_results r;
	(void)state;

	run_with(TWO_GPUS("", "80%", "80%", "60%"), NULL, &r);
	assert_true(fabs(r.metrics.time_imbalanced - 0.6 / 1.6) < 0.01);
	gs_results_clear(&r);

	/* nobody overloaded: never imbalanced */
	run_with(TWO_GPUS("", "40%", "40%", "10%"), NULL, &r);
	assert_true(r.metrics.time_imbalanced < 1e-12);
	gs_results_clear(&r);
}

/* Utilisation is demand over capacity, at most 1 per GPU: GPU 0 at 160%
 * counts 1 for 1.6 s, GPU 1 at 60% counts 0.6 for 1 s of the 1.6 s. */
static void test_demand_utilization_is_capped_demand(void **state)
{
	struct gs_results r;
	double gpu1 = 0.6 * 1.0 / 1.6;
	(void)state;

	run_with(TWO_GPUS("", "80%", "80%", "60%"), NULL, &r);
	assert_true(fabs(r.gpus[0].demand_utilization - 1.0) < 0.01);
	assert_true(fabs(r.gpus[1].demand_utilization - gpu1) < 0.01);
	assert_true(fabs(r.metrics.demand_utilization - (1.0 + gpu1) / 2) <
		    0.01);
	gs_results_clear(&r);
}

/* a and b are slowed 1.6x: they miss the default 20% QoS, meet a 70%
 * one; c (alone on its GPU) meets both. */
static void test_qos_degradation_is_a_parameter(void **state)
{
	struct gs_results r;
	(void)state;

	run_with(TWO_GPUS("", "80%", "80%", "30%"), NULL, &r);
	assert_true(fabs(r.metrics.qos_degradation - 0.2) < 1e-12);
	assert_true(fabs(r.metrics.qos - 1.0 / 3) < 1e-9);
	gs_results_clear(&r);

	run_with(TWO_GPUS(", qos_degradation: 70%", "80%", "80%", "30%"), NULL,
		 &r);
	assert_true(fabs(r.metrics.qos_degradation - 0.7) < 1e-12);
	assert_true(fabs(r.metrics.qos - 1.0) < 1e-9);
	gs_results_clear(&r);
}

static void test_qos_degradation_errors_have_positions(void **state)
{
	GError *err = NULL;
	struct gs_scenario *sc;
	(void)state;

	sc = load_text(TWO_GPUS(", qos_degradation: lots", "80%", "80%",
				"30%"), &err);
	assert_null(sc);
	assert_non_null(strstr(err->message, "node.yaml:2:"));
	assert_non_null(strstr(err->message, "qos_degradation"));
	g_clear_error(&err);
}

#define ONE_GPU(power, da, db) \
	"duration: 20s\nnode: {gpus: 1, power: " power "}\npolicy: {name: direct}\n" \
	"tasks:\n" \
	"  - {name: a, behavior: {job: {demand: " da ", kernel: 10ms, length: 1s}}}\n" \
	"  - {name: b, behavior: {job: {demand: " db ", kernel: 10ms, length: 1s}}}\n"

/* Awake power rises with the share of the cores in use: 20% + 30% over
 * the run (about 1 s; the launch gaps between kernels leave the cores a
 * little less used) is 50 W + 0.5 x (250 - 50) W; without busy_watts the
 * awake power is flat 50 W; oversubscribed cores count once: 80% + 80%
 * draw 250 W. */
static void test_awake_power_follows_cores_in_use(void **state)
{
	struct gs_results r;
	double sec;
	(void)state;

	run_with(ONE_GPU("{idle_watts: 10, active_watts: 50, busy_watts: 250, wake_joules: 0}",
			 "20%", "30%"), NULL, &r);
	sec = r.sim_time_ns * 1e-9;
	assert_true(fabs(r.metrics.energy_j - 150 * sec) < 0.01 * 150 * sec);
	gs_results_clear(&r);

	run_with(ONE_GPU("{idle_watts: 10, active_watts: 50, wake_joules: 0}",
			 "20%", "30%"), NULL, &r);
	sec = r.sim_time_ns * 1e-9;
	assert_true(fabs(r.metrics.energy_j - 50 * sec) < 1e-6);
	gs_results_clear(&r);

	run_with(ONE_GPU("{idle_watts: 10, active_watts: 50, busy_watts: 250, wake_joules: 0}",
			 "80%", "80%"), NULL, &r);
	sec = r.sim_time_ns * 1e-9;
	assert_true(sec > 1.5);
	assert_true(fabs(r.metrics.energy_j - 250 * sec) < 0.01 * 250 * sec);
	gs_results_clear(&r);
}

static void test_busy_watts_below_active_is_an_error(void **state)
{
	GError *err = NULL;
	struct gs_scenario *sc;
	(void)state;

	sc = load_text(ONE_GPU("{active_watts: 50, busy_watts: 40}", "20%",
			       "30%"), &err);
	assert_null(sc);
	assert_non_null(strstr(err->message, "node.yaml:2:"));
	assert_non_null(strstr(err->message, "busy_watts"));
	g_clear_error(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overloaded_beside_underloaded_is_imbalanced),
		cmocka_unit_test(test_overloaded_beside_busy_gpu_is_not_imbalanced),
		cmocka_unit_test(test_demand_utilization_is_capped_demand),
		cmocka_unit_test(test_qos_degradation_is_a_parameter),
		cmocka_unit_test(test_qos_degradation_errors_have_positions),
		cmocka_unit_test(test_awake_power_follows_cores_in_use),
		cmocka_unit_test(test_busy_watts_below_active_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
