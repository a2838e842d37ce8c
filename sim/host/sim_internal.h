/* The simulation's objects, shared by the files of sim/ only. */
#ifndef GS_SIM_INTERNAL_H
#define GS_SIM_INTERNAL_H

#include "gpu_model/gpu.h"
#include "policies/policy.h"
#include "base/latency.h"
#include "base/rng.h"
#include "sim/host/invariants.h"
#include "sim/host/policy_ops.h"
#include "sim/host/results.h"
#include "sim/host/sim_options.h"
#include "workloads/scenario.h"

enum gs_task_state {
	GS_TASK_NOT_STARTED = 0,
	GS_TASK_READY,        /* its event runs the next step */
	GS_TASK_LAUNCHING,    /* paying the CPU launch cost */
	GS_TASK_RING_FULL,    /* blocked: no free slot in the ring */
	GS_TASK_HELD,         /* blocked by the policy at a trapped doorbell */
	GS_TASK_TRAPPED,      /* in the doorbell fault handler: the write
			       * reaches the GPU when the handler is done */
	GS_TASK_WAITING,      /* waiting for completions */
	GS_TASK_DONE,
	GS_TASK_KILLED,
};

/* The simulator's side of the opaque HAL handles. */
/* Each scheduling level a task's writes pass (its VMs' own schedulers,
 * then the host's policy) has its own handles of the task and its
 * channels, with that instance's data, traps and shadow queue. */
/* What only some policies or runs use of a channel handle: the shadow
 * queue, the fence_signal op and a HAL record. Kept out of every handle
 * (one per channel and level: 65,536 in `gpusim bench`'s memory point),
 * allocated by gs_hal_chan_rare() when a field is first set and freed when
 * the handle is cleared; a handle without it reads as all zero, what the
 * fields held before. */
struct hal_chan_rare {
	/* ops->fence_signal due (fence_signal.c), for policies that have
	 * the op: allocated when first due, freed when the channel closes */
	struct gs_event *fence_ev;
	gs_time_t shadow_since; /* shadowed since (figures) */
	uint32_t queued;      /* commands in this level's shadow queue */
	uint32_t fence_unsignalled; /* completions not yet told */
	uint32_t rec_ref;     /* its number in a HAL record (record_hal.c) */
};

struct hal_chan {
	struct gs_channel *ch;
	struct gs_task *task;
	struct hal_task *owner; /* the task's handle at the same level */
	void *data;           /* the policy's per-channel state */
	struct hal_chan_rare *rare; /* NULL until needed */
	bool trap_armed;
	bool shadow;          /* submissions go to the shadow queue */
};

/* A handle's rare fields, allocated zeroed on the first call (inline
 * here: every layer of sim/host reaches them). */
static inline struct hal_chan_rare *gs_hal_chan_rare(struct hal_chan *hc)
{
	if (!hc->rare)
		hc->rare = g_new0(struct hal_chan_rare, 1);
	return hc->rare;
}
static inline uint32_t gs_hal_chan_queued(const struct hal_chan *hc)
{
	return hc->rare ? hc->rare->queued : 0;
}

struct hal_task {
	struct gs_task *task;
	struct hal_sched *s;  /* the instance this handle belongs to */
	void *data;           /* the policy's per-task state */
	uint32_t level;       /* its level (gs_task_level_of) */
	uint32_t rec_ref;     /* its number in a HAL record (record_hal.c) */
};

/* One level of scheduling of a task, innermost first: the schedulers of
 * the VMs around it that have one, then the host's policy (last). */
struct gs_task_level {
	struct hal_sched *s;
	struct hal_task *hal;
	struct hal_chan *chans;   /* cfg->channels handles */
};

/* The status-register poll loop of hal_poll_start: instead of one event
 * per MMIO read, it samples only at the first read after each change of
 * the register, which gives exactly what the step-by-step loop would see
 * (see hal_sim.c). */
struct hal_poll {
	bool active;
	uint32_t gpu, engine;
	gs_time_t start, until, period;
	struct hal_engine_status last;
	struct gs_event sample_ev;
	struct gs_event end_ev;
};

struct hal_sched {
	struct gs_sim *sim;
	const struct gs_policy_ops *ops;
	/* The host's policy (vm -1) or a VM's own scheduler: it sees the
	 * VMs vm + 1 .. vm_end - 1 (its subtree, pre-order) as its VM tree
	 * and the tasks in them; its policy CPU time is `cpu`. */
	int32_t vm;
	uint32_t vm_end;
	uint32_t track;       /* its timeline track: 0 host, 1 + guest index */
	gs_time_t cpu;
	void *priv;
	uint64_t params[GS_MAX_PARAMS];
	/* One-shot timers by id: their expiry times (GS_TIME_NEVER when not
	 * armed) and one event at the earliest, so timers due at the same
	 * time run in id order, as in the kernel HAL. */
	gs_time_t timer_when[HAL_MAX_TIMERS];
	struct gs_event timer_ev;
	struct hal_poll poll;
	struct gs_rng rng;
	uint64_t op_calls[GS_POLICY_OPS]; /* policy_call.c counts them */
	/* its section of a HAL record (record_hal.c), NULL: not recorded */
	struct gs_hal_rec_inst *rec;
};

/* A task is held for the whole run, one per replica (65,536 in `gpusim
 * bench`'s memory point): its fields are grouped by size so that the
 * struct has no padding holes, and an event that few tasks need
 * (kill_ev) is allocated when first scheduled. */
/* A task's cumulative figures, the three a series sample reads of every
 * task: kept apart from the tasks, one array of them by task index
 * (gs_sim.task_figs), so that a sample of 65,536 tasks reads 1.5 MB in
 * order instead of a line or two of each task (18 MB in all), which it
 * waited for from memory. */
struct gs_task_figs {
	gs_time_t gpu_time;         /* ground truth, finished run segments */
	uint64_t accounted;         /* the policy's estimate */
	uint64_t vtime;
};

struct gs_task {
	struct gs_sim *sim;
	struct hal_task hal;
	char *name;
	const struct gs_task_config *cfg;
	struct hal_chan *chans;     /* cfg->channels of them */
	/* scheduling levels (hal_sim.c builds them; gs_task_level_of reads
	 * them) and the write in progress: the level it is at, the one
	 * holding it, and whether that level's trap has decided (the write
	 * is repeated against the level's current mapping: it may have been
	 * shadowed meanwhile). The host's level is the task's own handles;
	 * only a task under VM schedulers has guest levels, n_levels - 1 of
	 * them, in one block with their task and channel handles (NULL
	 * otherwise: most tasks have none). */
	struct gs_task_level *guest_levels;
	struct gs_event ev;
	/* its loop stack, as deep as its program's loops nest (sim.c: most
	 * programs nest one or none, not GS_MAX_LOOP_DEPTH) */
	uint32_t *loop_left;
	struct gs_event *kill_ev;   /* a kill the policy asked for; NULL
				     * until one is (vm_kill.c makes it,
				     * gs_task_destroy frees it) */
	struct gs_rng rng;
	/* channel time open, and in the host policy's shadow queues (VM
	 * figures); the channels' opening time */
	gs_time_t chan_ns, host_shadowed_ns, opened_at;

	/* the launch in progress */
	gs_time_t launch_len;

	/* figures */
	gs_time_t round_start;
	uint64_t rounds;
	gs_time_t round_total;
	/* its GPU time, the policy's estimate and virtual time: in
	 * sim->task_figs (gs_task_figs) */

	/* time blocked in waits or on a full ring */
	gs_time_t sync_ns, wait_since;

	uint32_t gpu;
	uint32_t pc;                /* program counter */
	/* the last estimate of a policy that estimated its demand
	 * (hal_note_demand) */
	uint32_t monitored_pm;

	/* its levels (the loader's YAML depth limit keeps them under 33,
	 * hal_sim.c) and its loops (at most GS_MAX_LOOP_DEPTH) fit in a
	 * byte */
	uint8_t n_levels;
	uint8_t write_level, held_level;
	uint8_t depth;              /* loops open, in loop_left */
	uint8_t state;
	bool write_trapped;
	bool killed;
	/* node: channels open (placement is free before) */
	bool channels_open;
	bool resident;              /* counted in the node's GPU loads */
	bool touched;               /* its footprint is faulted in */
	bool has_monitored;         /* a policy estimated its demand */
};

/* A task's part in the node's figures (node.c), kept only where they are
 * reported (gs_node_reported: several GPUs, power or a declared demand),
 * the only runs where a task can move or its measured demand is read:
 * gs_task_node gives NULL elsewhere, and a run of 65,536 tasks on one GPU
 * saves the 56 bytes a task. */
struct gs_task_node {
	/* stalled in its migrations (DCUDA Fig. 9: clone plus faults) */
	gs_time_t migration_stall_ns;
	/* node bands of a task without a declared demand (not a job): its
	 * demand measured over the last window, from what it launched */
	gs_time_t launched_ns;      /* compute commands written, their length */
	gs_time_t win_at, win_launched, win_sync;
	/* a move the policy asked for (GS_GPU_AUTO: none), the moves made,
	 * the demand measured over the last window */
	uint32_t migrate_to;
	uint32_t migrations;
	uint32_t measured_pm;
};

/* Per-GPU load and power state of the node (node.c): the declared demand
 * of the tasks resident on each GPU, integrated into utilisation bands,
 * and whether the GPU is awake (any task resident). */
enum gs_band { GS_BAND_LOW = 0, GS_BAND_HIGH = 1, GS_BAND_OVER = 2 };

struct gs_node_gpu {
	uint32_t demand_pm;   /* sum over resident tasks */
	uint32_t residents;
	gs_time_t band_ns[3]; /* 0-50%, 50-100%, above 100% */
	gs_time_t awake_ns;
	uint32_t wakeups;
	uint64_t used_pm_ns;  /* integral of min(1000, demand_pm) dt */
};

struct gs_node {
	struct gs_node_gpu *gpu;
	gs_time_t last;       /* bands integrated up to here */
	gs_time_t imbalanced_ns; /* one GPU overloaded, another under 50% */
	uint32_t migrations;
	struct gs_event window_ev; /* measures the demand of non-job tasks */
};

/* A policy's cost estimates of one kind (hal_note_estimate): how many,
 * and their relative errors against the commands' true lengths. */
struct gs_estimate_stats {
	uint64_t n;
	double sum_error;
	double max_error;
};

enum gs_latency_kind {
	GS_LATENCY_ROUND = 0,  /* a round's time */
	GS_LATENCY_WAIT = 1,   /* a job's wait: written to started */
	GS_LATENCY_KINDS = 2,
};

struct gs_sim {
	const struct gs_scenario *sc;
	struct gs_sim_options opt;
	struct gs_evq q;
	/* FNV-1a over (time, class) of every event run (base/event_checksum.h) */
	uint64_t event_checksum;
	struct gs_gpu **gpus;
	uint32_t n_gpus;
	struct gs_task *tasks;
	struct gs_task_figs *task_figs; /* n_tasks of them, as tasks */
	uint32_t n_tasks;
	/* The tasks' host-level channel handles and their names, each in
	 * one block for all tasks (sim.c): a block per task cost a malloc
	 * header and its rounding, about 2.5 MB at 65,536 tasks. */
	struct hal_chan *task_chans;
	/* by task index; NULL where the node is not reported (see
	 * struct gs_task_node) */
	struct gs_task_node *task_nodes;
	uint32_t *loop_stacks;      /* the tasks' loop stacks, in one block */
	GStringChunk *task_names;
	uint32_t live_tasks;        /* started or waiting to start */
	/* every round time and job wait, by task index and enum
	 * gs_latency_kind (base/latency.h: why one log, or one array per
	 * slot for few tasks) */
	struct gs_latency_log latency;
	struct hal_sched sched;
	/* VMs' own schedulers (vms[].scheduler), and by VM index the one
	 * of each VM (NULL: none) */
	struct hal_sched *guests;
	uint32_t n_guests;
	struct hal_sched **vm_sched;
	gs_time_t policy_cpu;       /* CPU time of all policy threads */
	bool policy_accounts;       /* the policy reports accounted time */
	/* some instance takes ops->fence_signal: only then does a
	 * completion look for the levels that want it (fence_signal.c) */
	bool fence_signal_used;
	struct gs_node node;

	struct gs_event stop_ev;
	struct gs_event sample_ev;
	gs_time_t sample_interval;
	/* samples not yet appended or handed to opt.series_sink, and the
	 * tasks' names they point to (record_series.c) */
	struct gs_series_block *sample_block;
	const char **series_names;
	gs_time_t last_sample;
	bool sampled;               /* last_sample is one */
	bool stopped;
	bool torn_down;             /* gs_sim_teardown() ran */

	/* invariants (invariants.c), checked every invariant_period events
	 * and at the end: the time of the last check, how many ran, and the
	 * first violation (NULL while they hold) */
	gs_time_t checked_at;
	uint64_t invariant_period, next_check, invariant_checks;
	char *violation;
	/* HAL_WARN_ON in the policies (hal_sim.c): how many fired and the
	 * first one's message; per run, never in a static */
	uint64_t policy_warnings;
	char *policy_warning;
	struct gs_estimate_stats estimates[HAL_EST_KINDS];

	struct gs_results *rec;     /* series and timeline are recorded here */
	/* one bit per (id, gpu, kind) track already in rec->tracks, and each
	 * task's interned name + 1 (0: not yet): looked up for every span,
	 * so indexed arrays rather than hash tables (record.c) */
	uint8_t *track_seen;
	size_t track_seen_bytes;
	uint32_t *task_name_ids;
	uint32_t cat_run, cat_switch, cat_save, name_switch, name_save;
	bool rec_closing; /* gs_record_close: no chunk to opt.span_sink */
	/* full chunks of spans and of marks noted in rec->chunk_order */
	guint rec_chunks[2];
	/* spans and marks the timeline may still take (timeline_max_spans
	 * at the start), and the array of each made or handed back with
	 * room for GS_SPAN_CHUNK items, filled in place (NULL: none) */
	uint64_t rec_left[2];
	GArray *rec_sized[2];
	/* Whether host.c calls gs_record_submit() and gs_record_complete():
	 * the timeline on, and no mark dropped at its cap yet. The first
	 * dropped one clears it (the timeline then says it is truncated),
	 * and later ones cost the caller a load instead of a call: at
	 * 65,536 channels nine commands in ten come after the cap. */
	bool rec_marks;
};

/* Task t's figures (struct gs_task_figs). */
static inline struct gs_task_figs *gs_task_figs(const struct gs_task *t)
{
	return &t->sim->task_figs[t - t->sim->tasks];
}

/* host.c: the task state machine */
/* t: an element of sim->tasks (its index is its place there); chans: its
 * cfg->channels host-level handles, zeroed, which it keeps
 * (sim->task_chans owns them, sim->task_names its name). */
void gs_task_init(struct gs_sim *sim, struct gs_task *t, uint32_t def,
		  uint32_t replica, struct hal_chan *chans);
void gs_task_destroy(struct gs_task *t);
void gs_host_cmd_start(void *ctx, struct gs_channel *ch,
		       const struct gs_cmd *cmd);
void gs_host_cmd_complete(void *ctx, struct gs_channel *ch,
			  const struct gs_cmd *cmd);
void gs_host_ring_space(void *ctx, struct gs_channel *ch);
/* ops->fence_signal (fence_signal.c): a channel handle's event, made when
 * the channel opens; cancelled (every level's) when it closes; due after
 * a completion on the task's channel `chan`. */
void gs_fence_signal_cancel(struct gs_task *t, uint32_t chan);
/* Frees a handle's rare fields (its fence event cancelled first): it
 * reads as zero again. */
void gs_hal_chan_free_rare(struct hal_chan *hc);
void gs_fence_signal_due(struct gs_task *t, uint32_t chan,
			 const struct gs_gpu_config *gpu);
void gs_task_kill(struct gs_task *t);
/* The kill a scheduler asks for (hal_task_kill): the task, or for a task
 * in a VM below the scheduler's level, what the VM's on_kill says
 * (sim/host/vm_kill.c). */
void gs_vm_kill_task(struct hal_sched *s, struct gs_task *task,
		     const char *why);
/* The run is over: a task still alive exits (channels destroyed, the
 * policy's task_exit called), so the policy can free what it holds. */
void gs_task_teardown(struct gs_task *t);
void gs_task_release(struct gs_task *t);
/* Ground-truth GPU time including a command running right now. */
gs_time_t gs_task_gpu_time_now(const struct gs_task *t);
/* Time blocked in waits and on full rings, including a block now. Here,
 * inline, because it reads the task's own fields only: node.c measures a
 * task's demand with it without calling back into host.c. */
static inline gs_time_t gs_task_sync_now(const struct gs_task *t)
{
	bool blocked = t->state == GS_TASK_WAITING ||
		       t->state == GS_TASK_RING_FULL;

	return t->sync_ns + (blocked ? t->sim->q.now - t->wait_since : 0);
}
/* Move t to t->migrate_to now (it is between launches with nothing
 * outstanding); it resumes after the migration cost. In host.c, which
 * owns the task's channels, and tells node.c (leave, join). */
void gs_task_migrate_now(struct gs_task *t);

/* node.c: loads and power (a migration's moves are host.c's) */
void gs_node_init(struct gs_sim *sim);
void gs_node_free(struct gs_sim *sim);
void gs_node_advance(struct gs_sim *sim);
void gs_node_join(struct gs_task *t);
void gs_node_leave(struct gs_task *t);
/* node.unified_memory: the stall its first compute kernel adds to a
 * task (its footprint faulted in), once; 0 after, or without paging.
 * DCUDA 3.4 turns every allocation into unified memory, so nothing is on
 * the GPU until a kernel touches it: the first compute kernel faults the
 * whole footprint in, one page per fault, and stalls for each (Fig. 8's
 * cost; the copy itself an explicit cudaMemcpy would make too). Inline:
 * asked at every launch. */
static inline gs_time_t gs_node_first_touch(struct gs_task *t, int engine)
{
	const struct gs_paging_config *p = &t->sim->sc->paging;
	uint64_t faults;

	if (!p->set || t->touched || engine != GS_ENGINE_COMPUTE)
		return 0;
	t->touched = true;
	faults = (t->cfg->memory_bytes + p->page - 1) / p->page;
	return (gs_time_t)faults * p->fault;
}
/* Whether the scenario gets node results: several GPUs, jobs or a power
 * model. */
bool gs_node_reported(const struct gs_scenario *sc);
/* Node results (only for node scenarios): bands, energy and migrations,
 * read while the GPUs exist; then, into the tasks' records (made after
 * the teardown, with their monitored demand filled), each task's
 * migrations and the monitor's accuracy. */
void gs_node_collect(struct gs_sim *sim, struct gs_results *r);
void gs_node_collect_tasks(const struct gs_sim *sim, struct gs_results *r);

/* Commands leave level hc->owner->level's shadow queue: they pass the
 * outer levels (their traps see them, a shadow queues them) to the GPU. */
void gs_task_forward(struct hal_chan *hc, uint32_t n);

/* Channel time of t so far: open, and shadowed by the host's policy. */
void gs_task_chan_times(const struct gs_task *t, gs_time_t *open,
			gs_time_t *shadowed);

/* hal_sim.c: the policy instances. gs_hal_prepare (before the tasks are
 * made) sets up the VMs' schedulers, gs_hal_levels a task's levels. */
void gs_hal_prepare(struct gs_sim *sim);
void gs_hal_levels(struct gs_sim *sim, struct gs_task *t);
bool gs_hal_start(struct gs_sim *sim, GError **error);
void gs_hal_stop(struct gs_sim *sim);
void gs_hal_flush(struct gs_sim *sim);
/* hal_sim_gpu.c: the poll loop's events of a new instance; status
 * changes the loops of every instance see. */
void gs_hal_poll_init(struct hal_sched *s);
void gs_hal_status_change(void *ctx, struct gs_gpu *gpu, uint8_t engine);

/* record.c: series and timeline */
void gs_record_init(struct gs_sim *sim);
void gs_record_free(struct gs_sim *sim);
void gs_record_span(void *ctx, const struct gs_gpu *gpu, uint8_t engine,
		    enum gs_span_kind kind, const struct gs_channel *ch,
		    gs_time_t start, gs_time_t end);
/* An empty array with room for GS_SPAN_CHUNK items of item_size bytes,
 * for the recorder to fill (a chunk of spans or of command marks), its
 * pages already in memory where the kernel can map them at once. */
GArray *gs_record_chunk_array_new(size_t item_size);
/* record_series.c: the series.csv samples */
void gs_record_sample(void *ctx, struct gs_event *ev);
/* A sample was taken at the current time. */
bool gs_record_sampled_now(const struct gs_sim *sim);
/* The last samples handed to the series sink, if there is one, whose
 * thread then appends and writes them while the collect goes on. */
void gs_record_series_hand(struct gs_sim *sim);
/* The samples all in sim->rec->series: with a series sink, its last
 * block handed over and the sink's series taken (its thread done), and
 * the sink passed on to the results (rec->series_sink), which end its
 * file. Once; later calls do nothing. */
void gs_record_series_end(struct gs_sim *sim);
/* gs_record_series_end, and what the samples kept. */
void gs_record_series_free(struct gs_sim *sim);
/* GPU time of a kernel that shares the cores (gpu_model/shared.c). */
void gs_record_work(void *ctx, const struct gs_channel *ch, gs_time_t work);
/* Record the spans still open at the end of the run, marked open. */
void gs_record_close(struct gs_sim *sim);
void gs_record_policy_span(struct hal_sched *s, const char *name,
			   gs_time_t start, gs_time_t end);
/* A command written into ch's ring, and one completed (timeline only). */
void gs_record_submit(struct gs_sim *sim, const struct gs_channel *ch,
		      uint64_t serial);
void gs_record_complete(struct gs_sim *sim, const struct gs_channel *ch,
			uint64_t serial);

/* Level k of t's scheduling, innermost first: a guest level, or the
 * host's policy with the task's own handles (the last). */
static inline struct gs_task_level gs_task_level_of(const struct gs_task *t,
						    uint32_t k)
{
	struct gs_task_level host = {
		.s = &t->sim->sched,
		.hal = (struct hal_task *)&t->hal,
		.chans = t->chans,
	};

	return k + 1 < t->n_levels ? t->guest_levels[k] : host;
}

/* t's index in sim->tasks (the order of the scenario's tasks and their
 * replicas), from its place rather than a field of every task. */
static inline uint32_t gs_task_index(const struct gs_task *t)
{
	return (uint32_t)(t - t->sim->tasks);
}

/* t's node figures, NULL where the run does not report the node. */
static inline struct gs_task_node *gs_task_node(const struct gs_task *t)
{
	return t->sim->task_nodes ? &t->sim->task_nodes[gs_task_index(t)]
				  : NULL;
}

#endif
