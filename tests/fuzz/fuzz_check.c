/* See fuzz_check.h. */
#include <stdio.h>

#include "sim/run/sim.h"
#include "tests/fuzz/fuzz_check.h"
#include "workloads/scenario.h"

/* keep each run short: validation allows a day of simulated time */
#define FUZZ_MAX_EVENTS 20000

/* Messages and warnings (a task killed, no free channel) are expected
 * outcomes of odd inputs; printing thousands a second slows the fuzzer
 * down several times. Criticals and errors still go out. */
static GLogWriterOutput drop_below_critical(GLogLevelFlags level,
					    const GLogField *fields,
					    gsize n_fields, gpointer data)
{
	if (!(level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)))
		return G_LOG_WRITER_HANDLED;
	return g_log_writer_default(level, fields, n_fields, data);
}

/* Called by libFuzzer once before the first input (never by the replay,
 * which keeps every message). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	g_log_set_writer_func(drop_below_critical, NULL, NULL);
	return 0;
}

void fuzz_check_outcome(struct gs_scenario *sc, GError **err)
{
	if (sc) {
		struct gs_sim_options opt = { .timeline = true,
					      .check_invariants = true };
		struct gs_results r;

		sc->max_events = FUZZ_MAX_EVENTS;
		gs_results_init(&r);
		if (!gs_run_scenario(sc, &opt, &r, err) &&
		    (*err)->code != GS_SIM_ERROR_POLICY_INIT) {
			/* only a broken invariant can fail a run; a policy
			 * may refuse its parameters when it starts (drr a
			 * zero quantum), a positioned error, exit 2 */
			fprintf(stderr, "%s\n", (*err)->message);
			__builtin_trap();
		}
		g_clear_error(err);
		gs_results_clear(&r);
		gs_scenario_free(sc);
		return;
	}
	if (!*err || !(*err)->message || !(*err)->message[0])
		__builtin_trap();
	g_clear_error(err);
}
