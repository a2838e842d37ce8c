/* What a run produced, independent of how it is written. The simulator
 * fills a gs_results; sim/results_*.c turn it into summary.json,
 * tasks.csv, series.csv and timeline.json (DESIGN section 8). */
#ifndef GS_RESULTS_H
#define GS_RESULTS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/event.h"
#include "base/latency.h"
#include "base/series.h"
#include "base/strtab.h"

/* One per task of the run, all held until the files are written: the
 * fields are grouped by size so that the struct has no padding holes. */
struct gs_task_result {
	char *name;
	char *vm;                 /* NULL: on the host */
	double fair_weight;       /* what Jain's index weighs it by: its
				   * weight, or with VMs its share of the
				   * tree (not written out) */
	uint64_t rounds;
	double round_mean_ns;     /* NAN when no round completed */
	struct gs_latency_stats round; /* round (cycle) times */
	struct gs_latency_stats wait;  /* job waits: written to started */
	uint64_t gpu_time_ns;     /* ground truth */
	uint64_t accounted_gpu_time_ns; /* with has_accounted */
	double gpu_share;         /* gpu_time / sum over tasks; 0 if none ran */
	double slowdown;          /* round_mean / round_mean alone; NAN if n/a */
	double fair_share;        /* max-min fair share of its GPU from the
				   * demands alone (sim/run/fair_share.c);
				   * NAN without standalone runs */
	double fair_slowdown;     /* the slowdown that share costs it */
	uint64_t migration_stall_ns; /* the time its migrations stalled it */
	double declared_demand;   /* share of one GPU (jobs); NAN: none */
	double monitored_demand;  /* the policy's last estimate */
	uint32_t weight;
	uint32_t gpu;
	uint32_t migrations;      /* node scenarios: moves to another GPU */
	bool has_accounted;       /* the policy keeps its own estimate */
	bool has_fair;            /* fair_share and fair_slowdown computed */
	bool killed;
	bool has_monitored;       /* a node policy estimated its demand */
};

/* Per-GPU figures of a node scenario (gs_results.node_report). */
struct gs_gpu_result {
	uint64_t band_low_ns;     /* declared demand on the GPU 0-50% */
	uint64_t band_high_ns;    /* 50-100% */
	uint64_t band_over_ns;    /* above 100%: overloaded */
	uint64_t awake_ns;        /* at least one task resident */
	uint32_t wakeups;
	double energy_j;          /* NAN without node.power */
	double demand_utilization; /* time mean of min(1, demand) */
};

/* One per VM of the scenario (its subtree's tasks counted in it). */
struct gs_vm_result {
	char *name;
	char *scheduler;          /* its own scheduler's policy, NULL: none */
	double gpu_share;         /* of its subtree's tasks */
	double scheduler_cpu;     /* its scheduler's CPU time / sim time */
	double accounting_error;  /* over its subtree's tasks, NAN if no
				   * policy keeps an estimate */
	double host_shadowed;     /* share of its channels' open time they
				   * sat in the host policy's shadow queues */
};

/* GERM 6.4: a policy's cost estimates of one kind (hal_note_estimate)
 * against the commands' true lengths. Kinds in hal.h's order. */
#define GS_ESTIMATE_KINDS 5
extern const char *const gs_estimate_kind_names[GS_ESTIMATE_KINDS];
struct gs_estimate_result {
	uint64_t n;
	double mean_error;        /* mean |estimate - truth| / truth */
	double max_error;
};

struct gs_metrics {
	double jain_index;             /* NAN when no task has a slowdown */
	double concurrency_efficiency; /* sum of 1/slowdown */
	double gpu_utilization;        /* engine busy / (sim time x GPUs) */
	double policy_cpu_overhead;    /* policy CPU time / sim time (cores) */
	uint64_t ctx_switches;
	double accounting_error;       /* NAN when the policy keeps no
					* estimate: sum|acc - truth| / sum truth */
	double energy_j;               /* node energy from the power model */
	/* node scenarios only (gs_results.node_report): */
	double overloaded_time;        /* share of GPU time in the > 100% band */
	double mean_normalized_time;   /* mean slowdown of the tasks that ran
					* to the end (time shared / alone) */
	double qos;                    /* share of those slowed by less
					* than qos_degradation */
	uint64_t migrations;
	/* GERM 6.2: Utime = (tmax - tmin) / sum t over the tasks' GPU
	 * times, each over its fair weight; NAN with fewer than 2 tasks */
	double utime;
	struct gs_estimate_result estimates[GS_ESTIMATE_KINDS];
	/* DCUDA's load figures (sim/host/node.c): */
	double qos_degradation;        /* node.qos_degradation (0.2: 20%) */
	double demand_utilization;     /* mean over GPUs and time of
					* min(1, demand / capacity) */
	double time_imbalanced;        /* share of the run with one GPU
					* overloaded and another below 50% */
	/* DCUDA 3.2: 1 - mean |monitored - declared| / declared over the
	 * jobs a policy estimated; NAN if none */
	double monitor_accuracy;
};

enum gs_track_kind {
	GS_TRACK_ENGINE = 0,  /* one per engine of each GPU */
	GS_TRACK_CHANNEL = 1, /* one per channel of each GPU */
	GS_TRACK_POLICY = 2,  /* the policy's phases */
};

/* A span on the timeline (Chrome trace "X" event), or, with on_channel,
 * two: a command (or shared kernel) is the same span on its engine's
 * track and on its channel's, so the recorder keeps it once and the
 * writers show it on both (gs_span_channel_copy), engine first. At
 * 65,536 channels the million spans of the timeline's cap are written
 * in the first tenth of the run, into memory not yet in any cache: one
 * record instead of two took 9 ms off the simulation's thread. */
struct gs_span {
	gs_time_t start, end;
	uint64_t cmd;         /* a command's part: its channel serial, else 0 */
	gs_time_t cmd_len;    /* that command's whole length */
	uint32_t gpu;
	uint32_t track;       /* engine kind, channel id, or 0 for the policy */
	uint32_t name;        /* index into gs_results.names */
	uint32_t category;    /* index into gs_results.names ("run", ...) */
	uint32_t channel;     /* with cmd or on_channel: the command's channel */
	uint8_t track_kind;   /* enum gs_track_kind */
	bool open;            /* still going when the run ended: cut there */
	bool on_channel;      /* on an engine's track, and also on channel's */
};

/* The spans s stands for: two when it is also its channel's. */
static inline unsigned gs_span_count(const struct gs_span *s)
{
	return 1u + (s->on_channel ? 1u : 0u);
}

/* s (on_channel) as its channel's track shows it. */
static inline struct gs_span gs_span_channel_copy(const struct gs_span *s)
{
	struct gs_span c = *s;

	c.track_kind = GS_TRACK_CHANNEL;
	c.track = s->channel;
	c.on_channel = false;
	return c;
}

/* A command entering a channel's ring or completing, for the timeline's
 * flow arrows and queue-depth counters. */
enum gs_cmd_mark_kind { GS_MARK_SUBMIT = 0, GS_MARK_COMPLETE = 1 };
struct gs_cmd_mark {
	gs_time_t t;
	uint64_t serial;      /* the channel's command number */
	uint32_t gpu;
	uint32_t channel;
	uint32_t task_name;   /* index into gs_results.names: the channel's
			       * task ("?": none), for its tracks' labels */
	uint8_t kind;         /* enum gs_cmd_mark_kind */
};

/* Takes a run's spans and command marks while it goes on, a full chunk
 * at a time, so that timeline.pftrace is encoded and written on a thread
 * of its own (sim/results/pftrace_stream.h) rather than all at the end.
 * The recorder hands it each GS_SPAN_CHUNK span records of its spans
 * array (a command's: two spans, on_channel) and each GS_SPAN_CHUNK marks
 * of its marks array, in the order they fill,
 * with its names and tracks so far; what is left of each (the last,
 * partial chunks) stays in the results' arrays. The recorder notes that
 * order in gs_results.chunk_order with or without a sink, so a writer
 * at the end can cut the arrays into the same chunks. */
#define GS_SPAN_CHUNK 8192u
struct gs_results;
enum gs_chunk_kind { GS_CHUNK_SPANS = 0, GS_CHUNK_MARKS = 1 };
struct gs_span_sink {
	/* takes items (struct gs_span or gs_cmd_mark: frees the array) */
	void (*take)(struct gs_span_sink *sink, enum gs_chunk_kind kind,
		     GArray *items, const struct gs_strtab *names,
		     const GArray *tracks);
	/* completes its file with what r (whose span_sink it is) still
	 * holds, at the end: FALSE with error set on failure */
	gboolean (*end)(const struct gs_results *r, GError **error);
	/* an empty array of kind's items that an earlier take() handed in
	 * and the sink is done with, or NULL: the recorder's next chunk
	 * fills it instead of fresh memory (optional) */
	GArray *(*spare)(struct gs_span_sink *sink, enum gs_chunk_kind kind);
	guint taken[2]; /* span records and marks taken so far */
};

/* Takes a run's series samples while it goes on, so that they are
 * appended to the compact series (base/series.h) and series.csv written
 * on a thread of their own (sim/results/series_stream.h), not by the
 * simulation. The recorder fills blocks of whole samples and hands each
 * over when full; at the collect it hands the last and takes the series
 * back. The accounted column is written as each block says
 * (gs_series_block.accounts); the file is made right at the end if the
 * results say otherwise. */
struct gs_series_sink {
	/* takes a block that block() gave and the recorder filled */
	void (*take)(struct gs_series_sink *sink, struct gs_series_block *b);
	/* an empty block for cap rows of n_tasks tasks: one the sink
	 * is done with, or a new one while few are out, else it waits for
	 * one (so the blocks' memory stays bounded) */
	struct gs_series_block *(*block)(struct gs_series_sink *sink,
					 uint32_t n_tasks, uint32_t cap);
	/* waits until every block taken is appended and written; the
	 * series they make, the caller's (once) */
	struct gs_series *(*finish)(struct gs_series_sink *sink);
	/* completes series.csv for r (whose series_sink it is), at the
	 * end: FALSE with error set on failure */
	gboolean (*end)(const struct gs_results *r, GError **error);
};

struct gs_track {
	uint32_t gpu;
	uint8_t track_kind;
	uint32_t track;
	/* a channel's: its task's name, index into gs_results.names (the
	 * "?" of a channel with none), when label is NULL */
	uint32_t name;
	/* "compute", "policy"; NULL for a channel's track from the recorder,
	 * labelled "ch3 dct" from name by the writers that show it
	 * (gs_track_label): not formatted 65,536 times on the run's thread
	 * for a stream that labels channels from their spans */
	char *label;
};

struct gs_results {
	char *config;          /* the config file as given */
	char *name;            /* scenario name */
	uint64_t seed;
	char *policy;
	gs_time_t sim_time_ns;
	uint64_t events;
	uint64_t event_checksum;
	/* The first invariant violation (sim/host/invariants.c) of the run or of
	 * a standalone reference run; NULL: every check held. */
	char *invariant_violation;
	/* HAL_WARN_ON reports of the policies: count and the first one */
	uint64_t policy_warnings;
	char *policy_warning;
	uint32_t n_gpus;
	bool node_report;      /* a node scenario: gpus and node metrics */
	struct gs_gpu_result *gpus; /* n_gpus of them when node_report */
	struct gs_task_result *tasks;
	uint32_t n_tasks;
	/* When not NULL, every task's name and vm point into this one block
	 * (gs_sim_collect: one allocation and one free for all of them, not
	 * two per task), and are not freed one by one. */
	char *task_text;
	struct gs_vm_result *vms;
	uint32_t n_vms;
	struct gs_metrics metrics;
	struct gs_series *series; /* series.csv's rows, in time order */
	/* not owned; if set, series.csv is its to complete */
	struct gs_series_sink *series_sink;
	GArray *spans;         /* struct gs_span, in end-time order */
	/* not owned; if set, it took the spans before those in spans */
	struct gs_span_sink *span_sink;
	GArray *tracks;        /* struct gs_track */
	GArray *cmd_marks;     /* struct gs_cmd_mark, in time order */
	/* enum gs_chunk_kind of each full chunk of spans and marks, in the
	 * order they filled (struct gs_span_sink) */
	GByteArray *chunk_order;
	struct gs_strtab names; /* interned strings for spans */
	bool timeline_truncated;
	bool event_capped;      /* stopped at max_events before the duration */
};

/* DCUDA Fig. 9's migration overhead: one migration's stall (the mean of
 * the task's) as a share of its execution time (its completed rounds);
 * NAN for a task that never moved or completed no round. */
double gs_task_migration_overhead(const struct gs_task_result *t);

void gs_results_init(struct gs_results *r);
void gs_results_clear(struct gs_results *r);
/* Intern a span name; returns its index (gs_strtab_intern). */
uint32_t gs_results_intern(struct gs_results *r, const char *s);
/* r's spans one per track, in the writers' order (a record on_channel
 * as its engine's span, then its channel's): a new array of struct
 * gs_span, none on_channel. */
GArray *gs_results_flat_spans(const struct gs_results *r);
/* Interned name i (i below r->names.n). */
static inline const char *gs_results_name(const struct gs_results *r,
					  uint32_t i)
{
	return gs_strtab_get(&r->names, i);
}

#endif
