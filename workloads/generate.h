/* Random scenarios for testing what no paper row covers: `gpusim
 * generate` and the property tests (tests/proptest/).
 *
 * Generation is two steps. gs_gen_draw() fills a gs_gen_scenario, a plain
 * description of a scenario whose every duration is an integer number of
 * nanoseconds, from a seed alone (its own random stream, "generate", so
 * nothing else perturbs it). gs_gen_yaml() writes it as scenario YAML (and
 * the CSV files of its trace tasks). The property tests change the
 * description between the two steps (scale weights or durations, reorder
 * tasks, add an idle task), which keeps every relation exact at the level
 * of the input. */
#ifndef GS_GENERATE_H
#define GS_GENERATE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/event.h"

#define GS_GEN_MAX_TASKS 24  /* 20 drawn, room for added ones */
#define GS_GEN_MAX_STEPS 16
#define GS_GEN_MAX_ROWS 12
#define GS_GEN_MAX_VMS 6
#define GS_GEN_MAX_PARAMS 24

/* A duration or a distribution of the task's random stream. */
enum gs_gen_dist {
	GS_GEN_CONST = 0,     /* v[0] */
	GS_GEN_UNIFORM,       /* [v[0], v[1]] */
	GS_GEN_EXPONENTIAL,   /* mean v[0] */
	GS_GEN_NORMAL,        /* mean v[0], stddev v[1] */
	GS_GEN_EMPIRICAL,     /* one of v[0..2] */
};

struct gs_gen_dur {
	uint8_t dist;         /* enum gs_gen_dist */
	gs_time_t v[3];
};

enum gs_gen_behavior {
	GS_GEN_THROTTLE = 0,
	GS_GEN_APP,
	GS_GEN_SCRIPT,
	GS_GEN_TRACE,
	GS_GEN_JOB,           /* node scenarios only */
	GS_GEN_IDLE,          /* a script that only sleeps: never submits */
};

enum gs_gen_step_kind {
	GS_GEN_LAUNCH = 0,    /* dur, channel, copy, irq, klass, content */
	GS_GEN_WAIT,          /* on every channel, or on wait_channel */
	GS_GEN_CPU,           /* dur */
	GS_GEN_SLEEP,         /* dur */
	GS_GEN_ROUND,
	GS_GEN_REPEAT,        /* count (0: forever) of the next `body` steps */
};

/* What a launch says its command group holds (GERM 4.7.3; drr
 * estimates a command's cost from it); all 0: nothing said. */
struct gs_gen_content {
	uint32_t texture_bytes, swaps, vertices, cmd_bytes;
};

struct gs_gen_step {
	uint8_t kind;         /* enum gs_gen_step_kind */
	bool copy;            /* launch on the copy engine */
	uint32_t channel;
	uint32_t count, body; /* repeat */
	struct gs_gen_dur dur;
	/* drawn from the third stream (gs_gen_draw_behaviour), 0 the
	 * default: a launch's `irq`, class and contents; a wait's mode
	 * (interrupt) and channel (wait_one: that channel only) */
	bool irq, interrupt, wait_one;
	uint8_t klass;
	struct gs_gen_content content;
};

struct gs_gen_row {           /* one trace row */
	gs_time_t time, duration;
	uint32_t channel;
	bool copy;
};

struct gs_gen_task {
	char name[16];
	uint8_t behavior;     /* enum gs_gen_behavior */
	uint32_t weight, channels;
	gs_time_t start;
	int32_t vm;           /* index into vms, -1: on the host */
	/* throttle */
	struct gs_gen_dur kernel, sleep;
	bool blocking, irq_wait, copy;
	uint32_t klass;
	/* app, and job with an app name: index into gs_apps / gs_jobs, or
	 * -1 for a job written out */
	int32_t app;
	bool sync_round;
	/* script */
	struct gs_gen_step steps[GS_GEN_MAX_STEPS];
	uint32_t n_steps;
	/* trace */
	struct gs_gen_row rows[GS_GEN_MAX_ROWS];
	uint32_t n_rows;
	/* job */
	uint32_t demand_pct;
	gs_time_t job_kernel, job_length;
	uint32_t memory_mib;
	/* drawn from the second stream (gs_gen_draw_more), 0 the default */
	uint8_t priority;     /* index into gs_gen_priorities; 0 normal */
	uint32_t max_inflight, ring_entries, rounds;
	struct gs_gen_content content; /* a throttle's */
	/* drawn from the third stream (gs_gen_draw_behaviour), 0 the
	 * default: replicas (`count`); an app's own request lengths
	 * (request_set; its wait mode is irq_wait, as a throttle's, and so
	 * is a trace's); a job's host work first, or a job named from
	 * DCUDA's Table 1 (job_named: app indexes gs_jobs, whose figures
	 * job_kernel, job_length, demand_pct, memory_mib and job_startup
	 * then hold) */
	uint32_t count;
	bool request_set, job_named;
	struct gs_gen_dur request[2];
	gs_time_t job_startup;
	/* drawn from the fifth stream (gs_gen_draw_machine): on a node, a
	 * GPU of its own (`gpu`) instead of the policy's placement */
	bool pinned;
	uint32_t gpu;
};

/* `priority:` values, 0 the default */
extern const char *const gs_gen_priorities[4];

struct gs_gen_vm {
	char name[16];
	uint32_t weight;
	int32_t parent;       /* -1: top level; parents come first */
	bool hints;
	gs_time_t trap, shadow_copy;
	char scheduler[16];   /* empty: none */
	bool notify_on_kill;  /* on_kill: notify (second stream) */
};

/* A policy parameter as written in YAML; durations kept as numbers so
 * they can be scaled. */
struct gs_gen_param {
	const char *key;      /* the registry's static name */
	bool is_duration;
	gs_time_t ns;         /* is_duration */
	char text[24];        /* otherwise */
};

/* The scenario-wide part of the second stream's draws; 0 everywhere is
 * the default (the preset's, no such block). */
struct gs_gen_more {
	uint8_t sched;        /* 0 the preset's, 1 round-robin, 2 timeslice */
	uint8_t preemption;   /* 0 the preset's, 1 false, 2 true */
	bool no_copy_engine;
	/* node */
	uint32_t interference_pct; /* 0: none */
	bool power;
	uint32_t um_page_kib; /* 0: no unified memory */
	gs_time_t um_fault;
	uint32_t on_demand_pct; /* with on_demand_set */
	bool on_demand_set;
	bool arrivals_poisson, arrivals_shuffled;
};

/* The node's draws of the fifth stream, 0 the default. */
struct gs_gen_machine {
	uint32_t memory_gib;  /* node.memory: each GPU's */
	uint32_t qos_pct;     /* node.qos_degradation */
};

struct gs_gen_scenario {
	uint64_t seed;        /* the generator's seed, also the scenario's */
	gs_time_t duration;
	/* gpu (or every GPU of the node) */
	char preset[16];
	uint32_t ring_entries, dispatch_batch;
	gs_time_t fetch, ctx_switch, mmio_read, ref_writeback, irq_latency;
	gs_time_t timeslice, preempt_save;
	/* host */
	gs_time_t launch, doorbell, trap, spin_poll, wakeup, policy_wakeup;
	/* node: gpus 0 writes a single `gpu:` */
	uint32_t gpus;
	/* Multiplies the durations written as defaults (a VM scheduler's
	 * parameters); 1 unless gs_gen_scale_time changed it. */
	uint32_t time_scale;
	gs_time_t arrivals_every; /* 0: no arrivals block */
	gs_time_t migration_clone;
	uint64_t migration_bandwidth; /* bytes per second */
	char policy[16];
	struct gs_gen_more more;
	struct gs_gen_machine machine;
	struct gs_gen_param params[GS_GEN_MAX_PARAMS];
	uint32_t n_params;
	struct gs_gen_vm vms[GS_GEN_MAX_VMS];
	uint32_t n_vms;
	struct gs_gen_task tasks[GS_GEN_MAX_TASKS];
	uint32_t n_tasks;
};

/* The generator's editions: which of its random streams a scenario is
 * drawn from. Each stream only adds to the scenario of the edition
 * before it, so a seed's scenario in one edition is its scenario in the
 * next less what the next stream draws; the property tests' regression
 * seeds name the edition they were found in. */
enum gs_gen_edition {
	GS_GEN_EDITION_LATEST = 0,
	GS_GEN_EDITION_CLASSIC = 1, /* the first stream: `--classic` */
	GS_GEN_EDITION_MORE = 2,    /* and the second (2026-12-07) */
	GS_GEN_EDITION_BEHAVIOUR = 3, /* and the third (2026-12-08) */
	GS_GEN_EDITION_COSTS = 4,   /* and the fourth (2026-12-08) */
	GS_GEN_EDITION_MACHINE = 5, /* and the fifth (2026-12-08) */
	GS_GEN_EDITIONS = 5,        /* the latest */
};

struct gs_gen_options {
	const char *policy;   /* NULL: any registered policy */
	const char *preset;   /* NULL: kepler or volta */
	unsigned edition;     /* enum gs_gen_edition; 0 the latest */
};

/* Fills g from the seed. Returns false (with a message) for an unknown
 * policy, preset or edition in opt.
 *
 * Five random streams, each drawn after the one before and only in the
 * editions that have it. The first ("generate") draws the scenario. The
 * second ("generate-more", editions 2 on) adds what the first never
 * draws, each now and then: a task's priority, max_inflight, own ring,
 * round limit and a throttle's command contents; the GPU's sched,
 * preemption and copy engine against its preset; the policy's
 * kill_after below the run's length; a VM's on_kill; a node's
 * interference, power model, unified memory, on-demand share and
 * Poisson or shuffled arrivals. The third ("generate-behaviour",
 * edition 3) adds the behaviours' own options: a task's replicas
 * (`count`); a script launch's irq, class and contents and its waits'
 * modes and channels; an app's wait mode and request lengths; a trace's
 * wait mode; a job's startup, or a job named from DCUDA's Table 1. The
 * fourth ("generate-costs", edition 4) moves the GPU's and the host's
 * costs that the first leaves at their defaults: the interrupt latency,
 * a register read, the reference write-back, a preemption's save, a
 * wake-up and the policy thread's. The fifth ("generate-machine",
 * edition 5) the machine's: a node's GPU memory, below the default, and
 * QoS bound, tasks pinned to a GPU of the node, a VM's trap and
 * shadow-copy costs. A stream of its own leaves every draw of the ones
 * before as it was, so a seed's scenario in one edition is its scenario
 * in the next less these (and the run may be longer: it lasts at least
 * ten times the granularity, which a timeslice GPU or a longer command
 * lengthens). */
bool gs_gen_draw(struct gs_gen_scenario *g, uint64_t seed,
		 const struct gs_gen_options *opt, GError **error);
/* The second stream's draws into g, drawn by the first
 * (workloads/generate_more.c). */
void gs_gen_draw_more(struct gs_gen_scenario *g);
/* The third stream's draws into g (workloads/generate_behaviour.c). */
void gs_gen_draw_behaviour(struct gs_gen_scenario *g);
/* The fourth stream's draws into g (workloads/generate_costs.c). */
void gs_gen_draw_costs(struct gs_gen_scenario *g);
/* The fifth stream's draws into g (workloads/generate_machine.c). */
void gs_gen_draw_machine(struct gs_gen_scenario *g);

/* A trace task's CSV, named relative to the YAML file's folder. */
struct gs_gen_file {
	char *name;
	char *text;
};
void gs_gen_file_free(gpointer file);

/* The scenario as YAML. Trace tasks read `STEM-TASK.csv`; their text is
 * appended to files (struct gs_gen_file *, freed by gs_gen_file_free). */
char *gs_gen_yaml(const struct gs_gen_scenario *g, const char *stem,
		  GPtrArray *files);

/* Whether the GPU takes channel groups by timeslice (volta's `sched`,
 * unless the second stream set another). */
bool gs_gen_sched_timeslice(const struct gs_gen_scenario *g);
/* The longest a single command can hold an engine (the largest value its
 * distribution can reasonably give), over every task. */
gs_time_t gs_gen_max_command(const struct gs_gen_scenario *g);
/* How much GPU time one scheduling decision can move between tasks: a
 * command (plus a context switch or preemption), a hardware timeslice,
 * and the policy's own period (a slice, a DFQ epoch of sampling and free
 * run, a LoGA poll and sleep phase, a DRR quantum and tick, a DCUDA monitor
 * period and fairness slice). Runs are drawn at least 10 times this long,
 * and shares compared between runs are allowed to differ by a few times
 * this over the run's duration. */
gs_time_t gs_gen_granularity(const struct gs_gen_scenario *g);
/* A parameter's value (durations in ns, integers parsed), or def. */
uint64_t gs_gen_param(const struct gs_gen_scenario *g, const char *key,
		      uint64_t def);

/* Transformations used by the metamorphic relations. */
/* Every weight (the tasks' and the VMs') times factor: each ratio of
 * siblings' weights, all that may matter, kept. */
void gs_gen_scale_weights(struct gs_gen_scenario *g, uint32_t factor);
/* Multiply every duration (commands, sleeps, CPU, costs, policy periods,
 * the run) by k, and divide bandwidths by it. False when the scenario has
 * a duration fixed elsewhere (a built-in app or job). */
bool gs_gen_scale_time(struct gs_gen_scenario *g, uint32_t k);
/* Move task `from` to the end of the list (names are kept). */
void gs_gen_move_task_last(struct gs_gen_scenario *g, uint32_t from);
/* Reverse the task list. */
void gs_gen_reverse_tasks(struct gs_gen_scenario *g);
/* Append a task (named "idle") that sleeps forever; false when full. */
bool gs_gen_add_idle_task(struct gs_gen_scenario *g);
/* Whether the task runs until the run ends (a loop without end):
 * throttles, apps, looping scripts and the idle task; a one-shot script or
 * a trace exits, and its channels close with it. */
bool gs_gen_runs_to_end(const struct gs_gen_task *t);
/* The task whose channels open when gs_gen_add_idle_task's would (at the
 * latest start; the last such in the list, the one opening just before
 * it) and stay open as long (it runs to the end), without replicas, or
 * -1 if none does. */
int32_t gs_gen_idle_channel_twin(const struct gs_gen_scenario *g);
/* Keep only task i, one replica of it (on the host, its VM tree
 * removed). */
void gs_gen_keep_task(struct gs_gen_scenario *g, uint32_t i);

#endif
