/* What drr's two files share (drr.c: parameters and ops; drr_sched.c:
 * estimates, queues and forwarding, the timing thread): the engine's
 * types and the functions one calls in the other. */
#ifndef GS_POLICY_DRR_PRIV_H
#define GS_POLICY_DRR_PRIV_H

#include "policy.h"
#include "util.h"

enum {
	DRR_TIMER_TICK = 0, /* the timing thread */
	DRR_TIMER_KICK = 1, /* dispatch soon (after a channel went away) */
	DRR_TIMER_PROBE = 2,/* exclusive: a batch should be done by now */
};

#define DRR_EINVAL 22
#define DRR_CLASSES 8
/* Estimate slots: one per class (a running average per command), then
 * GERM's four content heuristics (a running coefficient per unit), in the
 * thesis's order of priority (4.5). */
enum {
	DRR_SLOT_TEXTURE = DRR_CLASSES, /* per texture byte dispatched */
	DRR_SLOT_SWAP,                  /* per buffer swap */
	DRR_SLOT_VERTICES,              /* per vertex */
	DRR_SLOT_BYTES,                 /* per command byte */
	DRR_SLOTS
};
#define DRR_COEF_SHIFT 16 /* coefficients: ns per unit, 16.16 fixed point */
#define DRR_MAX_GPUS 64
#define DRR_CHUNKS 256      /* forwarded, not yet completed, per channel */
#define DRR_MAX_VISITS 4096 /* per dispatch */
#define DRR_PROBE_RETRIES 8
#define DRR_LEARN_BATCH 64  /* learn at least every this many commands */
#define DRR_PHASE_NAME 48

/* GERM's work chunk: what the timing thread needs of a forwarded command. */
struct drr_chunk {
	hal_u64 est;
	hal_u32 units;  /* the size its estimate multiplied (1 for a class) */
	hal_u8 slot;
};

struct drr_chan {
	struct plist node;  /* in drr_task.chans */
	struct hal_chan *c;
	struct drr_task *owner;
	hal_u64 fence_seen; /* completed commands already accounted */
	hal_u32 head, len;  /* chunks of forwarded commands, oldest first */
	struct drr_chunk chunks[DRR_CHUNKS];
};

struct drr_task {
	struct plist node;  /* in drr_state.tasks */
	struct plist ring;  /* in its GPU's active ring while backlogged */
	struct hal_task *t;
	hal_u32 gpu;
	struct plist chans;
	struct drr_chan *cursor; /* channel to forward from next */
	hal_u8 active;
	hal_s64 deficit;         /* GERM's time_left */
	hal_u64 quantum;         /* the policy's x weight / lowest weight */
	hal_u8 seen;             /* has submitted: its weight counts in
				  * the lowest weight */
	hal_u64 coef[DRR_SLOTS]; /* running cost per unit (16.16 ns) */
	hal_u16 known;           /* bit per slot: coef measured */
	hal_u32 inflight;        /* forwarded, not yet seen complete */
	/* completions seen by the current probe */
	hal_u32 done_n[DRR_SLOTS];
	hal_u64 done_est[DRR_SLOTS];
	hal_u64 done_units[DRR_SLOTS];
	/* measured alone since its work in flight was last all seen done:
	 * the time (exact in sum, whatever the probes' boundaries) and per
	 * slot the commands, their estimates and their sizes */
	hal_u64 acc_time;
	hal_u32 acc_n[DRR_SLOTS];
	hal_u64 acc_est[DRR_SLOTS];
	hal_u64 acc_units[DRR_SLOTS];
	hal_u8 acc_valid;        /* no probe shared with another task */
	hal_u16 exact;           /* bit per slot: trained from a pure sample */
	hal_u64 batch_start;     /* exclusive: its batch went out */
	char phase[DRR_PHASE_NAME]; /* "batch <task name>" */
};

struct drr_gpu {
	struct plist active;     /* backlogged tasks in visiting order */
	struct drr_task *owner;  /* exclusive: whose batch is out */
	hal_u32 inflight;        /* forwarded commands not seen complete */
	hal_u64 inflight_est;
	hal_u64 mark_time;       /* the last probe that measured, or the */
	hal_u64 mark_busy;       /* forward that found the GPU empty */
	hal_u8 has_busy;         /* the HAL's busy counter has moved */
	hal_u8 probed;           /* a probe has measured (has_busy known) */
};

struct drr_state {
	hal_u64 quantum, tick, window, early_probe;
	hal_u32 avg_shift;
	hal_u8 exclusive, busy_clock, oracle, heuristics;
	hal_u8 ticking;
	hal_u8 probe_retry;      /* early probes since the last batch */
	hal_u8 probe_fresh;      /* a dispatch armed the probe for a batch */
	struct plist tasks;
	struct drr_gpu gpus[DRR_MAX_GPUS];
};

int drr_backlogged(struct hal_sched *s, const struct drr_task *tt);
struct drr_chan *drr_chan_after(struct drr_task *tt,
				       struct drr_chan *tc);
void drr_activate(struct hal_sched *s, struct drr_task *tt);
void drr_deactivate(struct drr_task *tt);
void drr_dispatch(struct hal_sched *s, hal_u32 gpu);
void drr_start_ticking(struct hal_sched *s);
int drr_any_work(struct hal_sched *s);
void drr_run(struct hal_sched *s, int probe);
void drr_tick(struct hal_sched *s);
struct drr_state *drr_state(struct hal_sched *s);
struct drr_task *drr_task_of(const struct hal_task *t);
struct drr_gpu *drr_gpu_of(struct hal_sched *s,
				  const struct drr_task *tt);

#endif
