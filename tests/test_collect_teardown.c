/* gs_sim_collect_and_free (sim/run/metrics.c): the run's figures with the
 * simulation torn down before the tasks' records are made (issue 20, the
 * peak of a large run). Its results must be those of gs_sim_collect on a
 * whole simulation, byte for byte in every file, for scenarios with VMs
 * and their schedulers, node figures and a policy that accounts; and the
 * policies' exit hooks must still be called, once, with nothing they do
 * there reaching the results (they never did: the figures were read
 * before the teardown). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "sim/host/sim_internal.h"
#include "sim/results/results_priv.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

typedef gboolean (*fill_fn)(const struct gs_results *r, FILE *f,
			    GError **error);

/* summary.json, tasks.csv and series.csv of r, one after another. */
static char *files_text(const struct gs_results *r)
{
	static const fill_fn fills[] = { gs_results_fill_summary,
					 gs_results_fill_tasks_csv,
					 gs_results_fill_series_csv };
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	for (i = 0; i < G_N_ELEMENTS(fills); i++)
		assert_true(fills[i](r, f, NULL));
	fclose(f);
	return text;
}

/* The files of one run of sc, collected with the simulation whole
 * (free_first false) or torn down first. */
static char *run_text(const struct gs_scenario *sc,
		      const struct gs_sim_options *opt, bool free_first,
		      uint32_t *spans)
{
	GError *err = NULL;
	struct gs_sim *sim = gs_sim_new(sc, opt, &err);
	struct gs_results r;
	char *text;

	assert_non_null(sim);
	gs_sim_run(sim, NULL);
	gs_results_init(&r);
	if (free_first) {
		gs_sim_collect_and_free(sim, &r);
	} else {
		gs_sim_collect(sim, &r);
		gs_sim_free(sim);
	}
	text = files_text(&r);
	if (spans)
		*spans = r.spans->len;
	gs_results_clear(&r);
	return text;
}

static void assert_same_results(const struct gs_scenario *sc,
				const struct gs_sim_options *opt)
{
	uint32_t spans_whole, spans_freed;
	char *whole = run_text(sc, opt, false, &spans_whole);
	char *freed = run_text(sc, opt, true, &spans_freed);

	assert_string_equal(whole, freed);
	assert_int_equal(spans_whole, spans_freed);
	free(whole);
	free(freed);
}

static void test_examples_same_results(void **state)
{
	static const char *const files[] = {
		"configs/examples/vms.yaml",        /* VMs, their schedulers */
		"configs/examples/node_jobs.yaml",  /* node, monitored demand */
		"configs/examples/app.yaml",
		"configs/examples/trace.yaml",
	};
	struct gs_sim_options opt = { .timeline = true };
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(files); i++) {
		GError *err = NULL;
		struct gs_scenario *sc =
			gs_scenario_load_file(files[i], NULL, 0, &err);

		if (!sc)
			fail_msg("%s: %s", files[i], err->message);
		assert_same_results(sc, &opt);
		gs_scenario_free(sc);
	}
}

/* A policy that accounts each command as its fence is signalled, and at
 * the task's exit accounts more and notes a demand: what a teardown could
 * change if the figures were read after it. */
static uint32_t exits; /* task_exit calls, counted by the test only */

static void acct_fence_signal(struct hal_sched *s, struct hal_chan *c,
			      hal_u32 n)
{
	hal_account(s, hal_chan_task(c), 1000ULL * n);
}

static void acct_task_exit(struct hal_sched *s, struct hal_task *t)
{
	exits++;
	hal_account(s, t, 123456789);
	hal_note_demand(s, t, 777);
}

static const struct gs_policy_ops acct_ops = {
	.name = "exit-accounts",
	.fence_signal = acct_fence_signal,
	.task_exit = acct_task_exit,
};

#define TWO_TASKS                                                       \
	"duration: 20ms\n"                                              \
	"tasks:\n"                                                      \
	"  - name: a\n    count: 2\n"                                   \
	"    behavior: {throttle: {kernel: 100us, sleep: 50us}}\n"      \
	"  - name: late\n    start: 30ms\n"                             \
	"    behavior: {throttle: {kernel: 10us}}\n"

static void test_exit_hooks_called_and_unseen(void **state)
{
	struct gs_sim_options opt = { .policy_ops = &acct_ops };
	GError *err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data(
		"exit.yaml", TWO_TASKS, strlen(TWO_TASKS), NULL, 0, &err);
	char *whole, *freed;

	(void)state;
	assert_non_null(sc);
	exits = 0;
	whole = run_text(sc, &opt, false, NULL);
	/* the two started tasks exit; the one that never started does not */
	assert_int_equal(exits, 2);
	exits = 0;
	freed = run_text(sc, &opt, true, NULL);
	assert_int_equal(exits, 2);
	assert_string_equal(whole, freed);
	/* the exit's 123456789 ns is in neither */
	assert_null(strstr(freed, "12345"));
	free(whole);
	free(freed);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples_same_results),
		cmocka_unit_test(test_exit_hooks_called_and_unseen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
