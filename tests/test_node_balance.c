/* DCUDA's load figures of a node scenario (sim/host/node.c, sim/run/run.c):
 * utilisation as demand over capacity (section 4.3, Fig. 11a), the share
 * of time one GPU is overloaded while another is below 50% (section 2.3,
 * Fig. 2) and the QoS share at a chosen degradation (section 4.5). */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overloaded_beside_underloaded_is_imbalanced),
		cmocka_unit_test(test_overloaded_beside_busy_gpu_is_not_imbalanced),
		cmocka_unit_test(test_demand_utilization_is_capped_demand),
		cmocka_unit_test(test_qos_degradation_is_a_parameter),
		cmocka_unit_test(test_qos_degradation_errors_have_positions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
