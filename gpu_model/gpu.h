/* The GPU: channels (rings with GET/PUT and a doorbell), one dispatcher
 * that walks channels with pending work, non-preemptive engines (or
 * time-sliced ones on modern presets), status registers, channel RAM and
 * fences.
 *
 * The model schedules its own events on the simulation's queue and tells
 * its owner about completions and freed ring slots through gs_gpu_hooks.
 * It knows nothing of tasks or policies: a channel carries an opaque owner
 * pointer and a group id (the context it belongs to).
 */
#ifndef GS_GPU_H
#define GS_GPU_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu_model/fifo.h"
#include "gpu_model/gpu_config.h"
#include "base/event.h"

#define GS_CHAN_NONE UINT32_MAX

enum gs_cmd_flags {
	GS_CMD_FENCE = 1u << 0, /* write the channel's reference counter */
	GS_CMD_IRQ = 1u << 1,   /* raise a completion interrupt */
};

/* What a driver could read of a command group's contents (GERM's cost
 * heuristics, Dwarakinath 2008, 4.5 and 4.7.3: the group header holds the
 * texture bytes dispatched, the buffer swaps, the vertices and the command
 * bytes). All 0 when the workload does not say. */
struct gs_cmd_content {
	uint32_t texture_bytes;
	uint32_t swaps;
	uint32_t vertices;
	uint32_t cmd_bytes;
};

struct gs_cmd {
	gs_time_t duration;  /* engine time the command needs */
	gs_time_t remaining; /* left to run (less than duration if preempted) */
	uint64_t serial;     /* per-channel submission number, from 1 */
	uint8_t engine;      /* enum gs_engine_kind */
	uint8_t flags;       /* enum gs_cmd_flags */
	uint8_t cls;         /* workload's class tag (stands in for what a
			      * driver would read from the pushbuffer) */
	bool started;        /* has begun to run once (a preempted command
			      * resumes: it does not start again) */
	gs_time_t written_at; /* when the task wrote it into the ring: its
			       * submission, whatever held it afterwards */
	struct gs_cmd_content content;
};

/* ENGINE_STATUS context state. */
enum gs_ctx_status {
	GS_CTX_INVALID = 0,  /* no context loaded */
	GS_CTX_VALID = 1,    /* context loaded (running or idle) */
	GS_CTX_LOADING = 2,  /* switching in next_id */
	GS_CTX_SAVING = 3,   /* saving a preempted context */
};

struct gs_engine_status {
	uint32_t cur_id;  /* channel whose context is loaded, or GS_CHAN_NONE */
	uint32_t next_id; /* channel being loaded, or GS_CHAN_NONE */
	uint8_t ctx_status;
	bool busy;        /* a command is executing */
};

/* Channel RAM status of one channel. */
enum gs_chram_status {
	GS_CHRAM_IDLE = 0,      /* no pending work */
	GS_CHRAM_PENDING = 1,   /* work visible to the GPU, not on an engine */
	GS_CHRAM_ON_ENGINE = 2, /* context loaded, waiting for the engine */
	GS_CHRAM_BUSY = 3,      /* a command of it is executing */
};

struct gs_gpu;

/* The fields of a channel that only some channels or configurations use,
 * kept out of every channel slot (goal 3 of issue 20: 32 bytes in each of
 * 65,536 slots, where a throttle on a preset without preemption or
 * credits never needs them). Allocated by gs_chan_rare() when one is
 * first set, freed with the slot's other blocks; every reader treats a
 * missing block as all zero, which is what the fields held before. */
struct gs_channel_rare {
	/* Commands fetched and then given back by a preemption (the one that
	 * was running, and any the dispatcher held for that engine), oldest
	 * first: the saved channel state the hardware restores, refetched
	 * before anything at GET so the channel's order is kept. */
	struct gs_fifo saved;
	/* Serials above fence_value + 1 already completed (on another
	 * engine than an older command), sorted; NULL until needed. The
	 * counter follows submission order, as SET_REF after the commands
	 * before it in the channel does, so they wait for the older one.
	 * (Workloads fence every command; a channel that mixed unfenced
	 * ones would hold its counter at the first.) */
	GArray *fence_ahead;
	/* The driver's cap on the channel's commands on the hardware
	 * (published, not completed), 0: none: drm_sched's credit_limit
	 * where a driver gives each context a scheduler of its own (xe,
	 * panthor). Commands released beyond it (credit_held) stay in the
	 * ring unpublished until completions return credits. */
	uint32_t credit_limit;
	uint32_t credit_held;
};

/* One per channel slot of a GPU (cfg.max_channels of them, 65,536 in
 * `gpusim bench`'s memory point): the fields are grouped by size so that
 * the struct has no padding holes. */
struct gs_channel {
	void *owner;
	struct gs_gpu *gpu;

	/* ring: the host writes at put, publishes put_visible with the doorbell,
	 * the dispatcher fetches at get. One slot stays empty. The commands
	 * between get and put live in `cmds`, oldest first. */
	struct gs_fifo cmds;
	/* What few channels use (preemption, credits, out-of-order fences),
	 * NULL until first needed: see
	 * struct gs_channel_rare. */
	struct gs_channel_rare *rare;
	uint64_t next_serial;

	/* reference counter (fence): value is the serial of the last fenced
	 * command completed; the host-visible copy lags by ref_writeback. */
	uint64_t fence_value;
	uint64_t fence_visible;
	struct gs_fifo fence_lag;   /* (visible-at time, serial) not yet seen */

	uint64_t submitted;         /* commands published by doorbell */
	uint64_t completed;
	/* discarded when the channel was closed: not rare, since the
	 * teardown closes every channel with its queue */
	uint64_t dropped;
	gs_time_t gpu_time;         /* ground-truth engine time consumed */

	/* dispatcher's ring of channels with pending work */
	struct gs_channel *rr_next, *rr_prev;
	/* Bounded waiting (sim/invariants.c): when the channel joined the
	 * ring or was last fetched from, the dispatcher's front_moves and the
	 * channels then in the ring, none of which can pass it twice. */
	uint64_t wait_from;
	uint32_t wait_bound;

	uint32_t id;      /* index within the GPU, the id in status registers */
	uint32_t group;   /* context / channel group (one per task) */
	uint32_t entries;
	uint32_t get, put, put_visible;
	uint32_t in_flight;         /* fetched, not yet completed (saved too) */

	/* Share of the GPU's cores this channel's compute kernels occupy, in
	 * per-mille; 0 (the default): kernels run alone on the compute
	 * engine. Above 0 they run side by side with other such kernels
	 * (shared.c). */
	uint32_t occupancy_pm;

	bool open;
	bool enabled;     /* channel RAM enable bit */
	bool rr_linked;
	/* The host's recorder (sim/host/record.c) has this channel's
	 * timeline track and its owner's task name: past the timeline's cap
	 * a span of it then needs no look at the owner, nor a call
	 * (gs_gpu.spans_untraced_only). False whenever the channel has no
	 * owner (cleared at open and close), so it never outlives the owner
	 * it was set for. */
	bool traced;
};

enum gs_engine_state {
	GS_ENG_IDLE = 0,
	GS_ENG_SWITCHING = 1,
	GS_ENG_RUNNING = 2,
	GS_ENG_SAVING = 3,
};

struct gs_engine {
	struct gs_gpu *gpu;
	uint8_t kind;
	uint8_t state;
	/* The host's recorder (sim/host/record.c) has this engine's
	 * timeline track (as gs_channel.traced). */
	bool traced;
	struct gs_channel *cur;   /* loaded context's channel (NULL: none) */
	struct gs_channel *next;  /* being switched in */
	struct gs_channel *running_chan;
	struct gs_cmd cmd;        /* the command switching in or running */
	gs_time_t run_start;
	/* The compute engine's command occupies all the cores, which shared
	 * kernels may be using too (shared.c): it advances at
	 * 1000 / seg_div of full speed since seg_start (seg_div 1000: full
	 * speed, always so without shared kernels), and had done run_work
	 * of full-speed time before. */
	gs_time_t seg_start;
	uint64_t seg_div;
	gs_time_t run_work;
	gs_time_t phase_start;    /* when the current switch/save began */
	struct gs_event done_ev;  /* switch end, command end or save end */
	struct gs_event slice_ev; /* timeslice expiry */
	gs_time_t slice_used;     /* slice time used before slice_base */
	gs_time_t slice_base;     /* running: when slice time began to count */
	uint32_t slice_group;
	uint64_t slice_turn;      /* disp.turn when slice_group's slice began */

	gs_time_t busy_time;      /* running commands: the work they did */
	gs_time_t busy_wall;      /* running commands: the time it took */
	gs_time_t switch_time;    /* loading/saving contexts */
	uint64_t ctx_switches;
	uint64_t preemptions;
	uint64_t commands;
};

/* Kinds of spans reported to the trace hook. */
enum gs_span_kind {
	GS_SPAN_RUN = 0,    /* a command executed (possibly partly) */
	GS_SPAN_SWITCH = 1, /* context switch */
	GS_SPAN_SAVE = 2,   /* preemption save */
	GS_SPAN_SHARED = 3, /* a kernel ran beside others (shared.c); its GPU
			     * time comes through hooks.work */
};

struct gs_gpu_hooks {
	void *ctx;
	/* A command finished on an engine (fence already written). */
	void (*cmd_complete)(void *ctx, struct gs_channel *ch,
			     const struct gs_cmd *cmd);
	/* A command began to run for the first time (after its context
	 * was loaded; a shared kernel as it joins the cores); may be NULL. */
	void (*cmd_start)(void *ctx, struct gs_channel *ch,
			  const struct gs_cmd *cmd);
	/* The dispatcher advanced GET: ring slots were freed. */
	void (*ring_space)(void *ctx, struct gs_channel *ch);
	/* An engine's status register changed, while gs_gpu.status_watchers
	 * says someone reads it; may be NULL. */
	void (*status_change)(void *ctx, struct gs_gpu *gpu, uint8_t engine);
	/* An engine finished a span of activity (for the timeline); may be NULL. */
	void (*span)(void *ctx, const struct gs_gpu *gpu, uint8_t engine,
		     enum gs_span_kind kind, const struct gs_channel *ch,
		     gs_time_t start, gs_time_t end);
	/* GPU time a channel's command (on an engine, or as a shared
	 * kernel: core share x full-speed time) used; may be NULL. */
	void (*work)(void *ctx, const struct gs_channel *ch, gs_time_t work);
};

/* Kernels that share the compute cores (channels with occupancy_pm > 0):
 * they start as soon as they are fetched and all progress at once, at
 * full speed while their occupancies add up to at most the whole GPU and
 * each at 1000 / (sum of occupancies) of full speed beyond (the cores are
 * shared in proportion). A kernel's GPU time is its occupancy times the
 * time it ran at full speed. */
struct gs_shared_kernel {
	struct gs_channel *ch;
	struct gs_cmd cmd;
	gs_time_t left;       /* full-speed time still to run */
	gs_time_t start;
};

struct gs_shared {
	GArray *running;      /* struct gs_shared_kernel */
	uint32_t demand_pm;   /* sum of their occupancies */
	uint32_t engine_pm;   /* 1000 while the compute engine runs a command */
	gs_time_t last;       /* progress applied up to here */
	struct gs_event done_ev;
	gs_time_t active_ns;  /* time with a kernel running, the compute
			       * engine idle */
	gs_time_t work_ns;    /* GPU time used (occupancy x full-speed time) */
	uint64_t cores_pm_ns; /* integral of the share of the cores occupied,
			       * min(1000, demand_pm + engine_pm), over time */
};

struct gs_dispatcher {
	struct gs_channel *cursor; /* next channel to visit in the pending ring */
	uint32_t pending;          /* channels in the pending ring */
	struct gs_channel *stall_chan; /* head-of-line: fetched, engine busy */
	struct gs_cmd stall_cmd;
	bool stalled;
	struct gs_event ev;
	uint32_t group;            /* GS_SCHED_TIMESLICE: current group */
	uint64_t turn;             /* counts the changes of group: each is a
				    * fresh slice for the group it goes to */
	bool slice_expired;
	/* Moves of the round's front to a channel: a visit (round-robin) or
	 * a new group's turn (timeslice). A channel with work is reached
	 * before the front has moved as often as there were channels ahead
	 * of it, since those that join meanwhile go behind it. */
	uint64_t front_moves;
};

/* How the GPU's lower parts report to the upper ones inside the GPU,
 * wired by gs_gpu_new: an engine tells the dispatcher that it is free, or
 * gives back a preempted command, or asks whether another group waits
 * (the timeslice rule); the shared cores tell the compute engine that
 * their rate changed. Through these pointers the calls between
 * gpu_model's files go one way: channel -> dispatcher -> engine ->
 * shared -> channel_gpu (docs/architecture.md, "Calls"). */
struct gs_gpu_notify {
	void (*disp_kick)(struct gs_gpu *gpu);
	void (*disp_link)(struct gs_gpu *gpu, struct gs_channel *ch);
	void (*disp_take_back)(struct gs_gpu *gpu, const struct gs_engine *eng,
			       uint32_t group);
	bool (*disp_other_group_waiting)(const struct gs_gpu *gpu,
					 uint32_t group);
	void (*engine_rate_changed)(struct gs_engine *eng);
};

struct gs_gpu {
	uint32_t index;
	struct gs_gpu_config cfg;
	struct gs_evq *q;
	struct gs_gpu_hooks hooks;
	struct gs_gpu_notify notify;
	struct gs_engine engines[GS_ENGINE_KINDS];
	struct gs_dispatcher disp;
	struct gs_shared shared;
	struct gs_channel *channels; /* cfg.max_channels slots */
	/* 1 + the highest slot ever opened. Slots are handed out from 0 up,
	 * so the ones above were never written: walks over every slot (the
	 * invariant checks, gs_gpu_free) stop here, or they would fault in
	 * the untouched pages of the table (4096 slots of 200 B per GPU) in
	 * every run, most of a short run's system time. */
	uint32_t slots_touched;
	uint32_t n_open;
	uint32_t next_free_hint;
	/* Poll loops now reading an engine's status register here (the
	 * owner counts them): hooks.status_change is called only while one
	 * runs, not at the three changes of every command for nobody. */
	uint32_t status_watchers;
	uint64_t mmio_reads;
	/* Set by the host's recorder once the timeline's cap drops spans:
	 * from then on it wants a span only when the span has a track it
	 * has not registered yet (an engine, or a command's channel, not
	 * traced), so hooks.span is called only then (gs_gpu_span_wanted).
	 * At 65,536 channels the cap is reached a tenth of the way into a
	 * 60 s run, and the call per later command, to be dropped, was a
	 * tenth of the recording's cost on the simulation's thread. */
	bool spans_untraced_only;
};

/* Whether hooks.span is called for a span of kind on engine `engine` of
 * gpu, by channel ch (NULL: none): the hook is set, and below the
 * timeline's cap, or past it with a track not yet traced. A command's
 * span (or a shared kernel's) is on its channel's track as well as its
 * engine's; a context switch or save only on the engine's. The marks
 * spare the channel's owner and its task's name id, two loads that at
 * 65,536 channels missed the cache on most spans past the cap. */
static inline bool gs_gpu_span_wanted(const struct gs_gpu *gpu, uint8_t engine,
				      enum gs_span_kind kind,
				      const struct gs_channel *ch)
{
	if (!gpu->hooks.span)
		return false;
	if (!gpu->spans_untraced_only)
		return true;
	if (!gpu->engines[engine].traced)
		return true;
	return (kind == GS_SPAN_RUN || kind == GS_SPAN_SHARED) && ch &&
	       !ch->traced;
}

/* Shared kernels: time with a kernel running and the compute engine
 * idle, and GPU time used up to now, including the kernels running now;
 * the latter for one channel. */
gs_time_t gs_shared_active_now(const struct gs_gpu *gpu);
gs_time_t gs_shared_work_now(const struct gs_gpu *gpu,
			     const struct gs_channel *ch);

/* The channel's rare fields (struct gs_channel_rare), allocated zeroed on
 * the first call; the readers below return 0 for a channel without them. */
struct gs_channel_rare *gs_chan_rare(struct gs_channel *ch);
static inline uint32_t gs_chan_saved_len(const struct gs_channel *ch)
{
	return ch->rare ? ch->rare->saved.len : 0;
}
static inline uint32_t gs_chan_credit_held(const struct gs_channel *ch)
{
	return ch->rare ? ch->rare->credit_held : 0;
}
static inline uint32_t gs_chan_credit_limit(const struct gs_channel *ch)
{
	return ch->rare ? ch->rare->credit_limit : 0;
}
/* Sets the credit limit (0: none); a channel without one stays without
 * the block. */
void gs_chan_set_credit_limit(struct gs_channel *ch, uint32_t limit);

/* Lifecycle. */
struct gs_gpu *gs_gpu_new(const struct gs_gpu_config *cfg, uint32_t index,
			  struct gs_evq *q, const struct gs_gpu_hooks *hooks);
void gs_gpu_free(struct gs_gpu *gpu);

/* Channels. open returns NULL when all channel slots are in use. Closing
 * drops queued commands (counted in dropped); a running command finishes. */
struct gs_channel *gs_gpu_channel_open(struct gs_gpu *gpu, uint32_t group,
				       void *owner);
void gs_gpu_channel_close(struct gs_channel *ch);

/* Ring. */
uint32_t gs_chan_ring_used(const struct gs_channel *ch);
bool gs_chan_ring_full(const struct gs_channel *ch);
/* Write one command at PUT (not yet visible); returns its serial, 0 if the
 * ring is full. cls is the command's class tag (0 when untagged). */
uint64_t gs_chan_write(struct gs_channel *ch, uint64_t duration,
		       uint8_t engine, uint8_t flags, uint8_t cls);
/* The same with the command's contents (gs_chan_write: none). */
uint64_t gs_chan_write_content(struct gs_channel *ch, uint64_t duration,
			       uint8_t engine, uint8_t flags, uint8_t cls,
			       const struct gs_cmd_content *content);
/* Doorbell: publish everything written so far to the GPU. */
void gs_chan_doorbell(struct gs_channel *ch);
/* Publish only the next n written commands (a shadow queue forwarding
 * part of what it holds); n is clipped to what is unpublished. With a
 * credit_limit, what exceeds it is held back (credit_held) until
 * gs_chan_return_credits finds room. */
void gs_chan_publish(struct gs_channel *ch, uint32_t n);
/* A command of ch completed: publish what the credit limit held back. */
void gs_chan_return_credits(struct gs_channel *ch);
/* Written but not yet published commands (credit_held included). */
uint32_t gs_chan_unpublished(const struct gs_channel *ch);
/* The oldest unpublished command (a shadow queue's head), or NULL. */
const struct gs_cmd *gs_chan_unpublished_head(const struct gs_channel *ch);
/* The i-th oldest unpublished command, or NULL. */
const struct gs_cmd *gs_chan_unpublished_at(const struct gs_channel *ch,
					    uint32_t i);
/* Commands written and not yet completed: unpublished (a shadow queue),
 * queued, held by the dispatcher or running. */
uint64_t gs_chan_outstanding(const struct gs_channel *ch);

/* Registers (each read is counted; its time cost is charged by the caller). */
void gs_gpu_read_engine_status(struct gs_gpu *gpu, uint8_t engine,
			       struct gs_engine_status *out);
/* The same without counting a read: for a poll loop whose reads are
 * counted in bulk. */
void gs_gpu_peek_engine_status(const struct gs_gpu *gpu, uint8_t engine,
			       struct gs_engine_status *out);
enum gs_chram_status gs_gpu_read_chram(struct gs_gpu *gpu, uint32_t chid);
/* Host-visible reference counter at the current time. */
uint64_t gs_chan_fence_visible(struct gs_channel *ch);

/* When the compute engine's status register next changes, for poll loops
 * that skip ahead; GS_TIME_NEVER when nothing is scheduled. */
gs_time_t gs_gpu_next_status_change(const struct gs_gpu *gpu, uint8_t engine);

/* Totals up to now, each including the command running now: every
 * figure built from engine time counts work in progress the same way
 * (a run that ends in the middle of a kernel still used the GPU). */
gs_time_t gs_engine_busy_now(const struct gs_engine *eng);
/* The work (full-speed time) the running command has done in this run. */
gs_time_t gs_engine_run_work_now(const struct gs_engine *eng);
/* Busy time of every engine. */
gs_time_t gs_gpu_busy_time(const struct gs_gpu *gpu);
/* Time the compute cores were in use: the time the compute engine ran
 * commands plus the time shared kernels ran without it (what a
 * utilisation counter such as nvidia-smi's reports). */
gs_time_t gs_gpu_compute_active_now(const struct gs_gpu *gpu);
/* The cores occupied over time, in ns of the whole GPU: a kernel on half
 * the cores for 1 ms counts 0.5 ms; oversubscribed cores count once. The
 * node power model draws dynamic power in proportion to it. */
gs_time_t gs_gpu_cores_used_now(const struct gs_gpu *gpu);

#endif
