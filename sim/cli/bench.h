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
	uint32_t queue_len;     /* mean events queued at a pop of the run */
	/* A goal of issue 20 (`process`, `heap` points): the measured
	 * ratio and the most it may be; goal 0: not such a point. */
	double ratio, goal;
	double sim_s;           /* `process`: the simulation alone */
	/* `process`: CPU seconds of the simulation alone (cpu_s: of the
	 * whole), best repeat */
	double sim_cpu_s;
	/* `process`: the phases of the fastest whole run (wall seconds):
	 * begin the folder, build and run (the timeline streamed meanwhile);
	 * collect the results; write the other files, end the timeline and
	 * commit the folder. What is left of wall_s frees the simulation.
	 * Other points leave them unset. */
	double run_s, collect_s, write_s;
	/* `process`: CPU seconds of the thread that runs the simulation,
	 * from the start of the build to the end of the run, with outputs
	 * (best repeat) and alone (best repeat): the recording's cost on the
	 * simulation's own thread, which time other processes and the
	 * output threads take from the cores does not move. */
	double run_cpu_s, sim_run_cpu_s;
	/* `process`: `gpusim run` as a user runs it (wall seconds, best
	 * repeat): the same, plus its standalone run made beside the
	 * scenario's (gs_run_scenario) and its table; not goal 2's figure,
	 * which the issue sets on the default files alone. */
	double as_run_s;
};

/* The speed points' workload: saturating throttles. */
#define GS_BENCH_THROTTLE "{throttle: {kernel: {uniform: [5us, 15us]}}}"

struct gs_scenario;
/* The YAML text of gs_bench_scenario's scenario. */
GString *gs_bench_scenario_yaml(uint32_t tasks, uint32_t channels,
				gs_time_t duration, const char *behavior,
				bool outputs);
/* `tasks` replicas of `behavior` opening `channels` channels each, on a
 * kepler GPU; with outputs the scenario's default outputs, else no
 * timeline and the series sampled only at the start and the end. */
struct gs_scenario *gs_bench_scenario(uint32_t tasks, uint32_t channels,
				      gs_time_t duration,
				      const char *behavior, bool outputs,
				      GError **error);

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

/* The whole process with default outputs (timeline.pftrace, series at
 * the default interval, summary.json, tasks.csv, written into a fresh
 * folder) against the simulation alone (no recording), for `channels`
 * throttles as gs_bench_throttle's; best of `repeat` each. */
bool gs_bench_process(uint32_t channels, gs_time_t duration, unsigned repeat,
		      struct gs_bench_point *p, GError **error);

/* CPU ns per pop + push of a bare 4-ary heap of `size` keys
 * (bench_heap.c), best of `repeat` runs of `ops`. */
double gs_bench_bare_heap(uint32_t size, uint64_t ops, unsigned repeat);
/* The same driven through the event loop (base/event.c: event records,
 * sequence numbers, gs_evq_step's count and handler call) with handlers
 * that only schedule their event again. */
double gs_bench_event_loop(uint32_t size, uint64_t ops, unsigned repeat);

/* Peak resident memory of a whole `gpusim run` (bench_rss.c): `tasks`
 * throttles of `channels` channels each for `duration`, default outputs,
 * run as a child process; ratio = its peak RSS in KB per channel (each
 * channel with its share of its task), goal 1 KB. */
bool gs_bench_rss(uint32_t tasks, uint32_t channels, gs_time_t duration,
		  struct gs_bench_point *p, GError **error);
/* gs_bench_rss of `tasks` tasks of 1 and of 16 channels (the goal's
 * 65,536 and 1,048,576 channels), appended to points. */
bool gs_bench_rss_points(uint32_t tasks, GArray *points, GError **error);

/* The decimals a goal's row prints its figure with: `least`, or more
 * where `least` would round a figure past the goal onto it (a ratio of
 * 1.3003 as "1.30x" beside "at most 1.3x" and "miss"), so that the
 * figure as printed and the verdict agree; at most
 * GS_BENCH_MAX_DECIMALS, where a figure that close stays rounded. */
#define GS_BENCH_MAX_DECIMALS 6
int gs_bench_figure_decimals(double figure, double goal, int least);

/* Wall (and CPU) time of `gpusim reproduce` run as a child of this
 * executable in the current directory; fails if a target fails. */
bool gs_bench_reproduce(struct gs_bench_point *p, GError **error);

#endif
