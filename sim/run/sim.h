/* One simulation: a struct gs_sim owns every object of a run (event queue,
 * GPUs, tasks, policy instance, collectors), so many can run in one
 * process. */
#ifndef GS_SIM_H
#define GS_SIM_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/event.h"
#include "policies/policy.h"
#include "sim/host/invariants.h"
#include "sim/host/results.h"
#include "sim/host/sim_options.h"
#include "workloads/scenario.h"

#define GS_DEFAULT_MAX_EVENTS 2000000000ULL

struct gs_sim;

struct gs_sim *gs_sim_new(const struct gs_scenario *sc,
			  const struct gs_sim_options *opt, GError **error);
void gs_sim_free(struct gs_sim *sim);
/* Run until the duration, until every task has exited, or until the event
 * cap (then *capped is set, if not NULL). */
void gs_sim_run(struct gs_sim *sim, bool *capped);
/* Fill r with this run's figures; slowdown and the metrics that need the
 * standalone runs are left NAN. */
void gs_sim_collect(struct gs_sim *sim, struct gs_results *r);
/* The same figures, and sim freed: the policies' exit hooks are called and
 * the GPUs, channel handles and event queue freed (gs_sim_teardown) once
 * what needs them is read and before the tasks' records are made, so that
 * the two are never held at once (issue 20: the peak of a large run). */
void gs_sim_collect_and_free(struct gs_sim *sim, struct gs_results *r);
/* The policies' exit hooks (tasks, then instances), then the GPUs,
 * channel handles and event queue freed; the tasks' own figures, the
 * latency log and the recorder stay until gs_sim_free(). Once only;
 * gs_sim_free() calls it if nobody did. */
void gs_sim_teardown(struct gs_sim *sim);
/* The first invariant violation of the run so far (checked every so many
 * events and when gs_sim_run returns), NULL while they hold; and how
 * many checks ran. */
const char *gs_sim_invariant_violation(const struct gs_sim *sim);
uint64_t gs_sim_invariant_checks(const struct gs_sim *sim);
/* The event queue, for tests that drive a simulation step by step. */
struct gs_evq *gs_sim_queue(struct gs_sim *sim);

/* What the standalone run of one task definition gives: its mean round
 * time and the fraction of the run its GPU was busy for it (the fair
 * optimum's input), NAN when there is none; its first invariant
 * violation (NULL: none). */
struct gs_standalone_fig {
	double mean, demand;
	char *violation;
};

/* The standalone run of definition def of sc: the definition alone, one
 * replica, under `direct` (gs_scenario_alone), as gs_run_scenario makes
 * it; with check_invariants a violation fails it, as a run's does. */
gboolean gs_run_standalone(const struct gs_scenario *sc, uint32_t def,
			   bool check_invariants,
			   struct gs_standalone_fig *out, GError **error);
void gs_standalone_fig_clear(struct gs_standalone_fig *f);

/* The whole job behind `gpusim run`: the scenario, then (if
 * opt->standalone_runs) each task definition alone under `direct`, then
 * slowdowns and the metrics that depend on them. */
gboolean gs_run_scenario(const struct gs_scenario *sc,
			 const struct gs_sim_options *opt,
			 struct gs_results *out, GError **error);

#endif
