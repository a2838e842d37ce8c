/* The standalone runs behind slowdown (sim/run/run.c): a reference run
 * keeps no latency samples yet is the same simulation, the runs made on
 * threads beside the scenario's give every figure the same bytes as one
 * after the other, and runs made elsewhere (standalone_known) stand for
 * the ones not made. */
#include <glib.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/host/results.h"
#include "sim/run/sim.h"
#include "tests/support/test_load.h"

/* Three definitions, random kernel lengths (each task's own stream), a
 * task that sleeps between kernels and one that launches without
 * waiting. */
static const char three_defs[] =
	"name: s\nseed: 7\nduration: 300ms\ngpu: {preset: kepler}\n"
	"policy: dfq\ntasks:\n"
	"  - name: hog\n    behavior: {throttle: {kernel: {uniform: [50us, "
	"150us]}}}\n"
	"  - name: light\n    count: 3\n    behavior: {throttle: {kernel: "
	"{uniform: [10us, 30us]}, sleep: 200us}}\n"
	"  - name: app\n    behavior: {app: DCT}\n";

static void run_sim(const struct gs_scenario *sc, bool reference,
		    struct gs_results *r)
{
	struct gs_sim_options opt = { .reference = reference };
	GError *err = NULL;
	struct gs_sim *sim = gs_sim_new(sc, &opt, &err);

	if (!sim)
		fail_msg("%s", err->message);
	gs_sim_run(sim, NULL);
	gs_results_init(r);
	gs_sim_collect_and_free(sim, r);
}

/* The same simulation, event for event, with no distributions kept. */
static void test_reference_run_keeps_no_samples(void **state)
{
	struct gs_scenario *sc = test_load_ok("test.yaml", three_defs);
	struct gs_results full, ref;
	uint32_t i;
	(void)state;

	run_sim(sc, false, &full);
	run_sim(sc, true, &ref);
	assert_int_equal(full.events, ref.events);
	assert_int_equal(full.event_checksum, ref.event_checksum);
	assert_int_equal(full.sim_time_ns, ref.sim_time_ns);
	assert_int_equal(full.n_tasks, ref.n_tasks);
	for (i = 0; i < full.n_tasks; i++) {
		const struct gs_task_result *f = &full.tasks[i],
					    *g = &ref.tasks[i];

		assert_true(f->rounds > 0);
		assert_true(f->round.n > 0);
		assert_int_equal(f->rounds, g->rounds);
		assert_memory_equal(&f->round_mean_ns, &g->round_mean_ns,
				    sizeof(double));
		assert_int_equal(f->gpu_time_ns, g->gpu_time_ns);
		assert_int_equal(g->round.n, 0);
		assert_int_equal(g->wait.n, 0);
	}
	gs_results_clear(&full);
	gs_results_clear(&ref);
	gs_scenario_free(sc);
}

static gboolean run_scenario(const struct gs_scenario *sc, bool beside,
			     struct gs_results *r, GError **err)
{
	struct gs_sim_options opt = { .standalone_runs = true,
				      .standalone_beside = beside };

	gs_results_init(r);
	return gs_run_scenario(sc, &opt, r, err);
}

#define SAME_DOUBLE(a, b) assert_memory_equal(&(a), &(b), sizeof(double))

/* Every figure the standalone runs feed, the same bytes either way. */
static void test_beside_same_as_in_turn(void **state)
{
	struct gs_scenario *sc = test_load_ok("test.yaml", three_defs);
	struct gs_results serial, beside;
	uint32_t i;
	(void)state;

	assert_true(run_scenario(sc, false, &serial, NULL));
	assert_true(run_scenario(sc, true, &beside, NULL));
	assert_int_equal(serial.n_tasks, 5);
	assert_int_equal(beside.n_tasks, 5);
	for (i = 0; i < serial.n_tasks; i++) {
		const struct gs_task_result *a = &serial.tasks[i],
					    *b = &beside.tasks[i];

		assert_false(isnan(a->slowdown));
		SAME_DOUBLE(a->slowdown, b->slowdown);
		SAME_DOUBLE(a->fair_share, b->fair_share);
		SAME_DOUBLE(a->fair_slowdown, b->fair_slowdown);
	}
	SAME_DOUBLE(serial.metrics.jain_index, beside.metrics.jain_index);
	SAME_DOUBLE(serial.metrics.concurrency_efficiency,
		    beside.metrics.concurrency_efficiency);
	assert_null(serial.invariant_violation);
	assert_null(beside.invariant_violation);
	gs_results_clear(&serial);
	gs_results_clear(&beside);
	gs_scenario_free(sc);
}

/* Standalone runs made elsewhere (a sweep's pool: gs_run_standalone)
 * and given through standalone_known: every figure the same bytes as
 * with the runs made here, beside or in turn. */
static void test_known_runs_same_as_made(void **state)
{
	struct gs_scenario *sc = test_load_ok("test.yaml", three_defs);
	struct gs_standalone_fig figs[3];
	const struct gs_standalone_fig *known[3];
	struct gs_sim_options opt = { .standalone_runs = true,
				      .standalone_known = known };
	struct gs_results made, given;
	uint32_t d, i;
	(void)state;

	for (d = 0; d < 3; d++) {
		assert_true(gs_run_standalone(sc, d, false, &figs[d], NULL));
		assert_false(isnan(figs[d].mean));
		known[d] = &figs[d];
	}
	assert_true(run_scenario(sc, false, &made, NULL));
	gs_results_init(&given);
	assert_true(gs_run_scenario(sc, &opt, &given, NULL));
	assert_int_equal(made.n_tasks, given.n_tasks);
	for (i = 0; i < made.n_tasks; i++) {
		SAME_DOUBLE(made.tasks[i].slowdown, given.tasks[i].slowdown);
		SAME_DOUBLE(made.tasks[i].fair_share,
			    given.tasks[i].fair_share);
	}
	SAME_DOUBLE(made.metrics.jain_index, given.metrics.jain_index);
	SAME_DOUBLE(made.metrics.concurrency_efficiency,
		    given.metrics.concurrency_efficiency);
	for (d = 0; d < 3; d++)
		gs_standalone_fig_clear(&figs[d]);
	gs_results_clear(&made);
	gs_results_clear(&given);
	gs_scenario_free(sc);
}

/* A definition with figures given is not run again: its tasks' slowdowns
 * are their round means over the given mean, and its violation is the
 * run's; a definition without (NULL) is run here as before. */
static void test_known_runs_are_used(void **state)
{
	struct gs_scenario *sc = test_load_ok("test.yaml", three_defs);
	struct gs_standalone_fig hog = { .mean = 1000.0, .demand = 0.5,
					 .violation = (char *)"given" };
	const struct gs_standalone_fig *known[3] = { &hog, NULL, NULL };
	struct gs_sim_options opt = { .standalone_runs = true,
				      .standalone_known = known };
	struct gs_results made, given;
	uint32_t i;
	(void)state;

	assert_true(run_scenario(sc, false, &made, NULL));
	gs_results_init(&given);
	assert_true(gs_run_scenario(sc, &opt, &given, NULL));
	/* tasks: hog, light#0..2, app */
	assert_true(given.tasks[0].slowdown ==
		    given.tasks[0].round_mean_ns / 1000.0);
	for (i = 1; i < given.n_tasks; i++)
		SAME_DOUBLE(made.tasks[i].slowdown, given.tasks[i].slowdown);
	assert_non_null(given.invariant_violation);
	assert_non_null(strstr(given.invariant_violation,
			       "standalone run of task hog: given"));
	assert_null(made.invariant_violation);
	gs_results_clear(&made);
	gs_results_clear(&given);
	gs_scenario_free(sc);
}

/* standalone_out receives the figures a run used: those it made, the
 * same bytes as gs_run_standalone's, or those it was given. */
static void test_out_gets_the_figures_used(void **state)
{
	struct gs_scenario *sc = test_load_ok("test.yaml", three_defs);
	struct gs_standalone_fig alone[3], out[3] = { { 0 } }, hog = {
		.mean = 7.0, .demand = 0.5, .violation = (char *)"v" };
	const struct gs_standalone_fig *known[3] = { &hog, NULL, NULL };
	struct gs_sim_options opt = { .standalone_runs = true,
				      .standalone_out = out };
	struct gs_results r;
	uint32_t d;
	(void)state;

	gs_results_init(&r);
	assert_true(gs_run_scenario(sc, &opt, &r, NULL));
	gs_results_clear(&r);
	for (d = 0; d < 3; d++) {
		assert_true(gs_run_standalone(sc, d, false, &alone[d], NULL));
		SAME_DOUBLE(out[d].mean, alone[d].mean);
		SAME_DOUBLE(out[d].demand, alone[d].demand);
		assert_null(out[d].violation);
		gs_standalone_fig_clear(&out[d]);
	}
	opt.standalone_known = known;
	gs_results_init(&r);
	assert_true(gs_run_scenario(sc, &opt, &r, NULL));
	assert_true(out[0].mean == 7.0 && out[0].demand == 0.5);
	assert_string_equal(out[0].violation, "v");
	SAME_DOUBLE(out[2].mean, alone[2].mean);
	for (d = 0; d < 3; d++) {
		gs_standalone_fig_clear(&out[d]);
		gs_standalone_fig_clear(&alone[d]);
	}
	gs_results_clear(&r);
	gs_scenario_free(sc);
}

/* The scenario's run fails (its policy refuses to start) while the
 * standalone runs go on beside it: its error is the one reported, and
 * the threads are waited for (LeakSanitizer and the next test would see
 * anything left). */
static void test_beside_scenario_fails(void **state)
{
	static const char yaml[] =
		"name: q\nseed: 1\nduration: 50ms\ngpu: {preset: kepler}\n"
		"policy: {name: drr, params: {quantum: 0}}\ntasks:\n"
		"  - name: a\n    behavior: {throttle: {kernel: 100us}}\n"
		"  - name: b\n    behavior: {throttle: {kernel: 10us}}\n";
	struct gs_scenario *sc = test_load_ok("test.yaml", yaml);
	struct gs_results r;
	GError *err = NULL;
	(void)state;

	assert_false(run_scenario(sc, true, &r, &err));
	assert_non_null(err);
	assert_int_equal(err->code, GS_SIM_ERROR_POLICY_INIT);
	g_clear_error(&err);
	gs_results_clear(&r);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_run_keeps_no_samples),
		cmocka_unit_test(test_beside_same_as_in_turn),
		cmocka_unit_test(test_beside_scenario_fails),
		cmocka_unit_test(test_known_runs_same_as_made),
		cmocka_unit_test(test_known_runs_are_used),
		cmocka_unit_test(test_out_gets_the_figures_used),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
