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
#include "sim/host/results.h"
#include "workloads/scenario.h"

#define GS_DEFAULT_MAX_EVENTS 2000000000ULL

/* Called every few thousand events so a front end can draw progress. */
typedef void (*gs_progress_fn)(void *ctx, gs_time_t now, gs_time_t end,
			       uint64_t events);

struct gs_sim_options {
	bool timeline;            /* record spans for timeline.json */
	bool standalone_runs;     /* run each task alone for slowdowns */
	gs_progress_fn progress;  /* may be NULL */
	void *progress_ctx;
	/* Invariants are always checked (every run, at its end and every
	 * so many events) and a violation is recorded in the results; with
	 * this set, gs_run_scenario fails with GS_SIM_ERROR_INVARIANT
	 * instead (tests). */
	bool check_invariants;
	/* Tests: run this policy instead of the scenario's (its parameters
	 * take their defaults). */
	const struct gs_policy_ops *policy_ops;
	/* Tests: run this policy as the scheduler of every VM that names
	 * one (defaults too). Without it, policy_ops runs no VM's. */
	const struct gs_policy_ops *guest_ops;
};

struct gs_sim;

/* Error codes of gs_sim_new (domain "gs-sim"): a policy instance (the
 * scenario's or a VM's scheduler) refused to initialise; the message
 * carries the position of its name. A config error, as the loader's. */
#define GS_SIM_ERROR_POLICY_INIT 2
/* gs_run_scenario with check_invariants: an invariant was violated (a
 * failure of the simulator, exit status 1, never a config error). */
#define GS_SIM_ERROR_INVARIANT 1

struct gs_sim *gs_sim_new(const struct gs_scenario *sc,
			  const struct gs_sim_options *opt, GError **error);
void gs_sim_free(struct gs_sim *sim);
/* Run until the duration, until every task has exited, or until the event
 * cap (then *capped is set, if not NULL). */
void gs_sim_run(struct gs_sim *sim, bool *capped);
/* Fill r with this run's figures; slowdown and the metrics that need the
 * standalone runs are left NAN. */
void gs_sim_collect(struct gs_sim *sim, struct gs_results *r);
/* NULL when the model's invariants hold (time monotonic, rings
 * consistent, nothing published lost, engines busy no longer than elapsed
 * time, tasks' GPU time = engine time), else a description naming the
 * invariant, the time, GPU and channel/task, to g_free. */
char *gs_sim_check_invariants(const struct gs_sim *sim);
/* The first invariant violation of the run so far (checked every so many
 * events and when gs_sim_run returns), NULL while they hold; and how
 * many checks ran. */
const char *gs_sim_invariant_violation(const struct gs_sim *sim);
uint64_t gs_sim_invariant_checks(const struct gs_sim *sim);
/* The event queue, for tests that drive a simulation step by step. */
struct gs_evq *gs_sim_queue(struct gs_sim *sim);

/* The whole job behind `gpusim run`: the scenario, then (if
 * opt->standalone_runs) each task definition alone under `direct`, then
 * slowdowns and the metrics that depend on them. */
gboolean gs_run_scenario(const struct gs_scenario *sc,
			 const struct gs_sim_options *opt,
			 struct gs_results *out, GError **error);

#endif
