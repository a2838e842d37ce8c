/* What a simulation is asked to do (struct gs_sim_options) and the error
 * codes it reports: read by the HAL glue below the run (hal_sim.c reports a
 * policy that refuses to start), so they live here rather than in
 * sim/run/sim.h, which includes this header. */
#ifndef GS_SIM_OPTIONS_H
#define GS_SIM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/event.h"
#include "policies/policy.h"

struct gs_hal_record;
struct gs_standalone_fig;
struct gs_span_sink;
struct gs_series_sink;

/* Called every few thousand events so a front end can draw progress. */
typedef void (*gs_progress_fn)(void *ctx, gs_time_t now, gs_time_t end,
			       uint64_t events);

struct gs_sim_options {
	bool timeline;            /* record spans for timeline.json */
	/* With timeline: the recorded spans go here in chunks during the
	 * run (results.h), for timeline.pftrace only; NULL: all stay in
	 * the results. */
	struct gs_span_sink *span_sink;
	/* The series samples go here in blocks during the run, to be
	 * appended and written on a thread of their own (results.h); NULL:
	 * appended by the run itself. */
	struct gs_series_sink *series_sink;
	bool standalone_runs;     /* run each task alone for slowdowns */
	/* With standalone_runs: run them on threads of their own beside the
	 * scenario's (one core left to it, one thread per definition at
	 * most), as `gpusim run` does; the thread that ran the scenario then
	 * takes what is left. Without it (a sweep's points, where -j says
	 * how many simulations share the cores) one after the other. The
	 * figures are the same either way. */
	bool standalone_beside;
	/* With standalone_runs: the figures of definitions whose standalone
	 * runs were made elsewhere, one per definition of the scenario,
	 * NULL where the run is to be made here (NULL: every one). A
	 * sweep's pool makes a run once for the points that differ only in
	 * their policy, which a standalone run replaces with `direct`
	 * (sim/cli/sweep_alone.h). */
	const struct gs_standalone_fig *const *standalone_known;
	/* With standalone_runs: where a run that succeeds copies the
	 * figures of every definition's standalone run, made or given, one
	 * per definition (NULL: nowhere), for a caller that shares them
	 * with its next runs (gpusim reproduce; gs_standalone_fig_clear
	 * each). */
	struct gs_standalone_fig *standalone_out;
	/* A standalone run of gs_run_scenario, whose caller reads only the
	 * task's round count and mean, GPU time, the simulated time and the
	 * invariants: no latency samples are kept, and the distributions
	 * come out empty. The simulation is the same event for event (the
	 * samples only record it). A throttle alone for 60 s completes
	 * 6 M rounds: its samples were 94 MB, and adding and sorting them a
	 * quarter of the run's time. */
	bool reference;
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
	/* `--record-hal`: the run's policy instances write every call
	 * across the HAL seam here (record_hal.h); NULL: none. */
	struct gs_hal_record *hal_record;
};

/* Error codes of gs_sim_new (domain "gs-sim"): a policy instance (the
 * scenario's or a VM's scheduler) refused to initialise; the message
 * carries the position of its name. A config error, as the loader's. */
#define GS_SIM_ERROR_POLICY_INIT 2
/* gs_run_scenario with check_invariants: an invariant was violated (a
 * failure of the simulator, exit status 1, never a config error). */
#define GS_SIM_ERROR_INVARIANT 1

#endif
