/* The simulator's side of a policy call. sim/policy_call.c, the one call
 * site of the policy ops: an op a policy leaves NULL is skipped with its
 * neutral answer (a trap without a submit op stops nothing), the costs of
 * a call fall where the host model puts them (a timer expiry wakes the
 * policy thread even without a timer op), and every call is counted per
 * op. HAL_WARN_ON: a policy's report of an impossible state is counted
 * per run (never in a static: two runs side by side keep their own
 * counts), the first message kept, and summary.json carries both only
 * when there is something to report. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "sim/results/results_priv.h"
#include "sim/host/policy_call.h"
#include "sim/host/sim_internal.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"
#include "tests/support/fill_text.h"

#define ONE_TASK                                                        \
	"duration: 10ms\n"                                              \
	"host: {launch: 0, doorbell: 0, trap: 10us, spin_poll: 0,"      \
	" policy_wakeup: 3us}\n"                                        \
	"tasks:\n  - name: a\n    behavior: {throttle: {kernel: 100us}}\n"

/* A simulation of ONE_TASK under ops. */
static struct gs_sim *start(const struct gs_policy_ops *ops,
			    struct gs_scenario **sc)
{
	struct gs_sim_options opt = { .policy_ops = ops };
	GError *err = NULL;
	struct gs_sim *sim;

	*sc = gs_scenario_load_data("calls.yaml", ONE_TASK,
				    strlen(ONE_TASK), NULL, 0, &err);
	assert_non_null(*sc);
	sim = gs_sim_new(*sc, &opt, &err);
	assert_non_null(sim);
	return sim;
}

/* Traps every doorbell and arms timer 1 once, with neither a submit nor
 * a timer op. */
static int bare_init(struct hal_sched *s)
{
	hal_timer_arm(s, 1, 1000000);
	return 0;
}

static void bare_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	hal_trap_arm(s, c);
}

static const struct gs_policy_ops bare_ops = {
	.name = "bare-trap",
	.init = bare_init,
	.channel_create = bare_chan_create,
};

static const struct gs_policy_ops none_ops = { .name = "none" };

static void test_missing_ops_skipped_and_counted(void **state)
{
	struct gs_scenario *sc1, *sc2;
	struct gs_sim *trapped = start(&bare_ops, &sc1);
	struct gs_sim *plain = start(&none_ops, &sc2);
	(void)state;

	gs_sim_run(trapped, NULL);
	gs_sim_run(plain, NULL);
	/* the armed trap asked a policy with no submit op: no trap cost */
	assert_true(trapped->tasks[0].rounds > 10);
	assert_int_equal(trapped->tasks[0].rounds, plain->tasks[0].rounds);
	/* one submit call per doorbell write (one per round, and the one
	 * in flight at the end) */
	assert_in_range(gs_policy_calls(&trapped->sched, GS_OP_SUBMIT),
			trapped->tasks[0].rounds,
			trapped->tasks[0].rounds + 1);
	assert_int_equal(gs_policy_calls(&plain->sched, GS_OP_SUBMIT), 0);
	/* the timer expiry woke the thread once: 3us */
	assert_int_equal(gs_policy_calls(&trapped->sched, GS_OP_TIMER), 1);
	assert_int_equal(trapped->policy_cpu, 3000);
	assert_int_equal(gs_policy_calls(&trapped->sched, GS_OP_INIT), 1);
	assert_int_equal(gs_policy_calls(&trapped->sched, GS_OP_TASK_CREATE),
			 1);
	assert_int_equal(
		gs_policy_calls(&trapped->sched, GS_OP_CHANNEL_CREATE), 1);
	gs_sim_free(trapped);
	gs_sim_free(plain);
	gs_scenario_free(sc1);
	gs_scenario_free(sc2);
}

/* Arms timer 3 at 1 ms and 2 ms, and warns whenever a timer other than
 * 0 fires: two reports per run. */
static int warn_init(struct hal_sched *s)
{
	hal_timer_arm(s, 3, 1000000);
	return 0;
}

static void warn_timer(struct hal_sched *s, hal_u32 id)
{
	if (HAL_WARN_ON(s, id != 0) && hal_now(s) < 2000000)
		hal_timer_arm(s, 3, 2000000);
}

static const struct gs_policy_ops warn_ops = {
	.name = "warn-probe",
	.init = warn_init,
	.timer = warn_timer,
};

/* summary.json of r, as text. */
static char *summary_text(const struct gs_results *r)
{
	return fill_text(gs_results_fill_summary, r);
}

static void test_warnings_counted_per_run_and_reported(void **state)
{
	struct gs_scenario *sc1, *sc2;
	struct gs_sim *a = start(&warn_ops, &sc1);
	struct gs_sim *b = start(&warn_ops, &sc2);
	struct gs_results r;
	char *text;
	(void)state;

	gs_sim_run(a, NULL);
	assert_int_equal(a->policy_warnings, 2);
	/* the other run has not run yet: nothing shared between them */
	assert_int_equal(b->policy_warnings, 0);
	gs_results_init(&r);
	gs_sim_collect(a, &r);
	assert_int_equal(r.policy_warnings, 2);
	assert_non_null(strstr(r.policy_warning, "policy warn-probe at "
						 "1000000 ns: "));
	assert_non_null(strstr(r.policy_warning, "WARN_ON(id != 0)"));
	text = summary_text(&r);
	assert_non_null(strstr(text, "\"policy_warnings\" : 2"));
	assert_non_null(strstr(text, "WARN_ON(id != 0)"));
	free(text);
	gs_results_clear(&r);
	gs_sim_free(a);
	gs_sim_free(b);
	gs_scenario_free(sc1);
	gs_scenario_free(sc2);
}

/* A run whose policy reports nothing writes no warning keys. */
static void test_no_warning_no_key(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(&none_ops, &sc);
	struct gs_results r;
	char *text;
	(void)state;

	gs_sim_run(sim, NULL);
	gs_results_init(&r);
	gs_sim_collect(sim, &r);
	assert_int_equal(r.policy_warnings, 0);
	text = summary_text(&r);
	assert_null(strstr(text, "policy_warning"));
	free(text);
	gs_results_clear(&r);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* A policy reading a parameter past its table: a policy bug, reported
 * and answered 0. */
static int past_table_init(struct hal_sched *s)
{
	return hal_param(s, 0) == 0 ? 0 : -1;
}

static const struct gs_policy_ops past_table_ops = {
	.name = "past-table",
	.init = past_table_init,
};

static void test_param_past_table_warns(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(&past_table_ops, &sc);
	(void)state;

	assert_int_equal(sim->policy_warnings, 1);
	assert_non_null(strstr(sim->policy_warning, "idx >= s->ops->n_params"));
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* The loader keeps each parameter checked and converted, at its index in
 * the policy's table; the instance starts from the defaults and takes
 * those, never re-reading the text. */
static void test_loader_values_reach_the_instance(void **state)
{
	static const char yaml[] =
		"duration: 1ms\nhost: {clock_hz: 1000000000}\n"
		"policy: {name: timeslice, params: {poll: 1500 cycles, "
		"engaged: true}}\n"
		"tasks:\n  - name: a\n    behavior: {throttle: {kernel: 100us}}\n";
	struct gs_sim_options opt = { 0 };
	GError *err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data(
		"values.yaml", yaml, strlen(yaml), NULL, 0, &err);
	const struct gs_policy_ops *ops = gs_policy_find("timeslice");
	struct gs_sim *sim;
	int poll = gs_policy_param_index(ops, "poll");
	int engaged = gs_policy_param_index(ops, "engaged");
	int slice = gs_policy_param_index(ops, "slice");
	(void)state;

	if (!sc)
		fail_msg("%s", err->message);
	assert_int_equal(sc->policy.n_params, 2);
	assert_int_equal(sc->policy.params[0].index, poll);
	assert_int_equal(sc->policy.params[0].n, 1500);
	assert_int_equal(sc->policy.params[1].index, engaged);
	assert_int_equal(sc->policy.params[1].n, 1);
	sim = gs_sim_new(sc, &opt, &err);
	assert_non_null(sim);
	assert_int_equal(sim->sched.params[poll], 1500);
	assert_int_equal(sim->sched.params[engaged], 1);
	assert_int_equal(sim->sched.params[slice], 30000000); /* default */
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_ops_skipped_and_counted),
		cmocka_unit_test(test_warnings_counted_per_run_and_reported),
		cmocka_unit_test(test_no_warning_no_key),
		cmocka_unit_test(test_param_past_table_warns),
		cmocka_unit_test(test_loader_values_reach_the_instance),
	};
	return cmocka_run_group_tests_name("op_calls", tests, NULL, NULL);
}
