/* Measurements behind `gpusim bench`: wall-clock speed of the event loop
 * on saturating workloads, heap bytes per open idle channel, and the wall
 * time of `gpusim reproduce`. Wall time decides nothing in a simulation;
 * it is only measured here. */
#ifndef GS_BENCH_H
#define GS_BENCH_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/event.h"

struct gs_bench_point {
	const char *scenario;   /* "throttle", "idle-tasks", ... */
	const char *policy;
	uint32_t channels;      /* 0: not applicable */
	uint64_t events;        /* events the timed part processed */
	uint64_t commands;      /* commands completed (throttle requests) */
	double setup_s;         /* building the simulation, best repeat */
	double wall_s;          /* the timed part, best repeat */
	double cpu_s;           /* CPU time of a child process, or < 0 */
	double bytes_per_idle_channel; /* < 0: not measured */
	/* Share of the timed part spent checking invariants (every run checks
	 * them every so many events, sim.c): checks made x the wall time of
	 * one check on the run's final state / wall_s; < 0: not measured. */
	uint64_t invariant_checks;
	double invariant_share;
};

/* `channels` saturating throttles (one channel each, 5-15 us kernels)
 * under direct for `duration` of simulated time; the event loop is timed,
 * the best of `repeat` runs kept. */
bool gs_bench_throttle(uint32_t channels, gs_time_t duration, unsigned repeat,
		       struct gs_bench_point *p, GError **error);

/* Heap bytes per open idle channel: the growth of the heap in use between
 * a simulation whose tasks have opened `channels` channels and one with
 * twice as many, divided by `channels`. per_task: one task per channel
 * (its process included), else one task opening them all. */
bool gs_bench_idle_memory(uint32_t channels, bool per_task,
			  struct gs_bench_point *p, GError **error);

/* Wall (and CPU) time of `gpusim reproduce` run as a child of this
 * executable in the current directory; fails if a target fails. */
bool gs_bench_reproduce(struct gs_bench_point *p, GError **error);

#endif
