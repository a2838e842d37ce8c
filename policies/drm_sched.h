/* The mechanism that drm-fifo, drm-rr and drm-fair share: a model of
 * Linux's DRM GPU scheduler (drivers/gpu/drm/scheduler/), written from its
 * documentation, its KUnit tests and the dri-devel discussion of the fair
 * policy; see drm_sched.c for what is modelled and how.
 *
 * Each task is one scheduling entity (drm_sched_entity) with the task's
 * priority; its submissions are jobs held in a software queue (the
 * channels' shadow queues, with the submission times kept here), and each
 * GPU has one scheduler (drm_gpu_scheduler) that pushes jobs to the
 * hardware while it has credits (credit_limit, one credit per job). A
 * policy file supplies only the choice of entity and what happens when an
 * entity's queue fills or empties (struct drm_pick). */
#ifndef GS_POLICY_DRM_SCHED_H
#define GS_POLICY_DRM_SCHED_H

#include "policy.h"
#include "util.h"

#define DRM_MAX_GPUS 64
#define DRM_EINVAL 22

enum { DRM_TIMER_KICK = 0 }; /* run the scheduler soon (after a teardown) */

/* One job: a command in a channel's shadow queue, or one on the hardware
 * whose fence has not signalled yet. */
struct drm_job {
	struct drm_chan *ch;
	hal_u64 when;         /* queued: submitted; on the hardware: pushed
			       * (the scheduled fence's time) */
};

/* A FIFO of jobs that grows by doubling (hal_zalloc). */
struct drm_jobq {
	struct drm_job *jobs;
	hal_u32 head, len, cap;
};

struct drm_entity {
	struct plist node;        /* in drm_state.entities, join order */
	struct hal_task *t;
	hal_u32 gpu;
	hal_u32 prio;             /* enum hal_priority */
	struct drm_jobq queue;    /* waiting, oldest first */
	hal_u32 on_hw;            /* pushed, fence not yet signalled */
	/* GPU time of its finished jobs (finished - scheduled, as
	 * drm_sched_entity_stats counts it) and the part already turned
	 * into virtual time */
	hal_u64 runtime, prev_runtime;
	hal_u32 avg_us;           /* EWMA of its job times (drm_ewma_*) */
	/* drm-fair's run queue: key (virtual time; the saved relative one
	 * while out of it) and insertion order for equal keys */
	hal_s64 vruntime;
	hal_u64 rq_seq;
	hal_u8 in_rq;
	/* has had a job: its place in drm_state.entities is the order of
	 * first jobs, as drm_sched_rq_add_entity appends an entity to its
	 * run queue's list at its first job, once */
	hal_u8 joined;
};

struct drm_chan {
	struct drm_entity *e;
	struct hal_chan *c;
	struct drm_jobq on_hw;    /* pushed, oldest first */
};

struct drm_gpu {
	hal_u32 credits;          /* jobs on the hardware */
	hal_u32 avg_us;           /* EWMA of every job time (scheduler's) */
	/* drm-rr: the entity served last, per priority */
	struct drm_entity *rr_last[HAL_PRIO_COUNT];
};

struct drm_state {
	const struct drm_pick *pick;
	hal_u32 credit_limit;
	hal_u32 shift[HAL_PRIO_COUNT]; /* drm-fair: vruntime weights */
	hal_u64 rq_seq;
	struct plist entities;
	struct drm_gpu gpus[DRM_MAX_GPUS];
};

/* What a policy decides. */
struct drm_pick {
	/* The entity whose next job goes to the hardware, or 0. */
	struct drm_entity *(*select)(struct drm_state *st, hal_u32 gpu);
	/* The entity's queue went from empty to one job (optional). */
	void (*activated)(struct drm_state *st, struct drm_entity *e);
	/* A job of the entity was pushed; its queue may now be empty
	 * (optional). */
	void (*popped)(struct drm_state *st, struct drm_entity *e);
	/* The entity goes away (optional): leave the policy's queues. */
	void (*removed)(struct drm_state *st, struct drm_entity *e);
};

/* drm_sched.c: the shared ops and helpers. */
struct drm_state *drm_state(struct hal_sched *s);
int drm_init(struct hal_sched *s, const struct drm_pick *pick,
	     hal_u32 credit_limit);
static inline int drm_ready(const struct drm_entity *e)
{
	return e->queue.len != 0;
}
struct drm_entity *drm_entity_of(struct plist *n);
/* The submission time of the entity's oldest waiting job. */
hal_u64 drm_head_time(const struct drm_entity *e);
/* The exponentially weighted average of job times the scheduler keeps
 * (DECLARE_EWMA(drm_sched_avgtime, 6, 4)): 6 bits of fraction, each
 * sample weighs 1/4. */
void drm_ewma_add(hal_u32 *avg, hal_u64 sample_us);
hal_u32 drm_ewma_read(hal_u32 avg);

void drm_task_create(struct hal_sched *s, struct hal_task *t);
void drm_task_exit(struct hal_sched *s, struct hal_task *t);
void drm_channel_create(struct hal_sched *s, struct hal_chan *c);
void drm_channel_destroy(struct hal_sched *s, struct hal_chan *c);
void drm_shadow_submit(struct hal_sched *s, struct hal_chan *c);
void drm_fence_signal(struct hal_sched *s, struct hal_chan *c, hal_u32 n);
void drm_timer(struct hal_sched *s, hal_u32 id);

/* The parameter every drm policy has, first in its table. */
#define DRM_PARAM_CREDIT_LIMIT                                            \
	{ "credit_limit", GS_PARAM_UINT, "2",                             \
	  "jobs on the hardware at once per GPU (drm_gpu_scheduler "       \
	  "credit_limit; amdgpu.sched_hw_submission default 2)", 1024 }

#define DRM_OPS_COMMON                                                    \
	.task_create = drm_task_create, .task_exit = drm_task_exit,       \
	.channel_create = drm_channel_create,                             \
	.channel_destroy = drm_channel_destroy,                           \
	.shadow_submit = drm_shadow_submit,                               \
	.fence_signal = drm_fence_signal, .timer = drm_timer

#endif
