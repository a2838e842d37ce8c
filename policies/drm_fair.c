/* drm-fair: the DRM GPU scheduler's fair policy (the dri-devel series
 * "Fair DRM scheduler", 2025, which replaced FIFO and round-robin with it:
 * drivers/gpu/drm/scheduler/sched_rq.c), in the manner of CFS.
 *
 * Every entity has a virtual GPU time. One run queue per GPU holds the
 * entities with jobs waiting, ordered by it (equal ones in the order they
 * were queued), and the scheduler always serves the least. When a job of
 * an entity is pushed to the hardware, the entity's virtual time grows by
 * the GPU time its jobs finished since the last push (drm_sched.c: fence
 * times) shifted left by its priority's weight: kernel 1, high 2, normal
 * 4, low 7 (the kernel's vruntime_shift; each level gets about 2x, 4x and
 * 8x the next one's GPU time). Virtual time is charged after the fact, so
 * an entity with a long job on the hardware can be picked again before
 * its cost shows.
 *
 * An entity whose queue runs empty leaves the run queue and keeps its
 * virtual time relative to the least one left (none when it was at or
 * below it); when it comes back it is put at the least virtual time in
 * the queue plus what it kept. One that kept nothing and joins a
 * non-empty queue is placed by the priority of the entity at the head:
 * a lower priority goes behind by (1 + its average job + the scheduler's
 * average job, in us) << its shift, as us; a higher one goes just ahead
 * (by the priority difference, in ns); an equal one 1 ns ahead when its
 * average job is not longer than the scheduler's (interactive clients
 * first), else 1 ns behind. Averages: drm_ewma_add.
 *
 * Priority (hal_task_priority): a weight (the shifts above), not strict
 * order; a low-priority entity still gets about 1/8 of a normal one's
 * time against it.
 */
#include "drm_sched.h"

static struct drm_entity *fair_head(struct drm_state *st, hal_u32 gpu)
{
	struct drm_entity *best = 0;
	struct plist *n;

	plist_for_each(n, &st->entities) {
		struct drm_entity *e = drm_entity_of(n);

		if (e->gpu != gpu || !e->in_rq)
			continue;
		if (!best || e->vruntime < best->vruntime ||
		    (e->vruntime == best->vruntime && e->rq_seq < best->rq_seq))
			best = e;
	}
	return best;
}

static void fair_enqueue(struct drm_state *st, struct drm_entity *e,
			 hal_s64 vruntime)
{
	e->vruntime = vruntime;
	e->rq_seq = st->rq_seq++;
	e->in_rq = 1;
}

/* Out of the run queue: keep the virtual time relative to the least one
 * left. */
static void fair_dequeue(struct drm_state *st, struct drm_entity *e)
{
	struct drm_entity *head;

	if (!e->in_rq)
		return;
	e->in_rq = 0;
	head = fair_head(st, e->gpu);
	if (head && head->vruntime && e->vruntime > head->vruntime)
		e->vruntime -= head->vruntime;
	else
		e->vruntime = 0;
}

static struct drm_entity *fair_select(struct drm_state *st, hal_u32 gpu)
{
	struct drm_entity *e = fair_head(st, gpu);

	/* every entity in the run queue has a job waiting */
	return e && drm_ready(e) ? e : 0;
}

static void fair_activated(struct drm_state *st, struct drm_entity *e)
{
	struct drm_entity *head = fair_head(st, e->gpu);
	hal_s64 v = e->vruntime, min = head ? head->vruntime : 0;

	if (!v && head) {
		const struct drm_gpu *g = &st->gpus[e->gpu];

		if (e->prio > head->prio) {
			hal_u64 us = 1 + drm_ewma_read(e->avg_us) +
				     drm_ewma_read(g->avg_us);

			v = (hal_s64)((us << st->shift[e->prio]) * 1000);
		} else if (e->prio < head->prio) {
			v = -(hal_s64)(head->prio - e->prio);
		} else {
			v = drm_ewma_read(e->avg_us) <= drm_ewma_read(g->avg_us)
				    ? -1 : 1;
		}
	}
	fair_enqueue(st, e, min + v);
}

static void fair_popped(struct drm_state *st, struct drm_entity *e)
{
	if (!drm_ready(e)) {
		fair_dequeue(st, e);
		return;
	}
	e->vruntime += (hal_s64)((e->runtime - e->prev_runtime)
				 << st->shift[e->prio]);
	e->prev_runtime = e->runtime;
	fair_enqueue(st, e, e->vruntime);
}

static void fair_removed(struct drm_state *st, struct drm_entity *e)
{
	fair_dequeue(st, e);
}

static const struct drm_pick fair_pick = {
	.select = fair_select,
	.activated = fair_activated,
	.popped = fair_popped,
	.removed = fair_removed,
};

enum {
	FAIR_P_CREDIT_LIMIT,
	FAIR_P_SHIFT_KERNEL,
	FAIR_P_SHIFT_HIGH,
	FAIR_P_SHIFT_NORMAL,
	FAIR_P_SHIFT_LOW,
	FAIR_N_PARAMS
};

/* Shifts of GPU time into virtual time: at most 16, so that a job of up
 * to 2^40 ns (18 minutes) cannot overflow 63 bits. */
static const struct gs_param_desc fair_params[] = {
	[FAIR_P_CREDIT_LIMIT] = DRM_PARAM_CREDIT_LIMIT,
	[FAIR_P_SHIFT_KERNEL] = { "shift_kernel", GS_PARAM_UINT, "1",
	  "kernel priority: virtual time = GPU time << this "
	  "(sched_rq.c vruntime_shift)", 16 },
	[FAIR_P_SHIFT_HIGH] = { "shift_high", GS_PARAM_UINT, "2",
	  "high priority's shift", 16 },
	[FAIR_P_SHIFT_NORMAL] = { "shift_normal", GS_PARAM_UINT, "4",
	  "normal priority's shift", 16 },
	[FAIR_P_SHIFT_LOW] = { "shift_low", GS_PARAM_UINT, "7",
	  "low priority's shift", 16 },
};
_Static_assert(sizeof(fair_params) / sizeof(fair_params[0]) == FAIR_N_PARAMS,
	       "one descriptor per index");

static int fair_init(struct hal_sched *s)
{
	struct drm_state *st = drm_state(s);
	hal_u32 p;

	for (p = 0; p < HAL_PRIO_COUNT; p++) {
		st->shift[p] = (hal_u32)hal_param(s, FAIR_P_SHIFT_KERNEL + p);
		if (st->shift[p] > 16)
			return -DRM_EINVAL;
	}
	return drm_init(s, &fair_pick,
			(hal_u32)hal_param(s, FAIR_P_CREDIT_LIMIT));
}

const struct gs_policy_ops gs_policy_drm_fair = {
	.name = "drm-fair",
	.summary = "Linux drm_sched fair (2025): least virtual GPU time "
		   "first, GPU time weighted by priority",
	.priority = "a weight: virtual time = GPU time << shift_<priority> "
		    "(1, 2, 4, 7)",
	.params = fair_params,
	.n_params = FAIR_N_PARAMS,
	.priv_size = sizeof(struct drm_state),
	.init = fair_init,
	DRM_OPS_COMMON,
};
