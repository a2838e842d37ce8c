/* drm-rr: the DRM GPU scheduler's round-robin policy (drm_sched_policy=0,
 * the default before Linux 6.2).
 *
 * Entities sit in one run queue per priority, in the order they joined
 * it: the order of their first jobs (drm_sched.c). The run queues are served
 * strictly in priority order; within one, the scheduler takes the next
 * entity after the one it served last that has a job waiting, wrapping
 * round, and comes back to that same entity only when no other one has
 * work: one job per turn, whatever its length. See drm_sched.c for the
 * jobs, credits and fences.
 *
 * Priority (hal_task_priority): strict, one run queue per level; a
 * backlogged higher level starves the lower ones.
 */
#include "drm_sched.h"

/* The next ready entity of priority p on gpu after `last` in creation
 * order (from the first when last is 0), `last` itself when it is the
 * only one ready. */
static struct drm_entity *rr_next(struct drm_state *st, hal_u32 gpu,
				  hal_u32 p, struct drm_entity *last)
{
	struct plist *start = last ? &last->node : &st->entities, *n;

	for (n = start->next;; n = n->next) {
		struct drm_entity *e;

		if (n == &st->entities) {
			if (start == &st->entities)
				return 0;
			continue;
		}
		e = drm_entity_of(n);
		if (e->gpu == gpu && e->prio == p && drm_ready(e))
			return e;
		if (n == start)
			return 0;
	}
}

static struct drm_entity *rr_select(struct drm_state *st, hal_u32 gpu)
{
	struct drm_gpu *g = &st->gpus[gpu];
	hal_u32 p;

	for (p = 0; p < HAL_PRIO_COUNT; p++) {
		struct drm_entity *e = rr_next(st, gpu, p, g->rr_last[p]);

		if (e) {
			g->rr_last[p] = e;
			return e;
		}
	}
	return 0;
}

static const struct drm_pick rr_pick = { .select = rr_select };

enum { RR_P_CREDIT_LIMIT, RR_N_PARAMS };

static const struct gs_param_desc rr_params[] = {
	[RR_P_CREDIT_LIMIT] = DRM_PARAM_CREDIT_LIMIT,
};
_Static_assert(sizeof(rr_params) / sizeof(rr_params[0]) == RR_N_PARAMS,
	       "one descriptor per index");

static int rr_init(struct hal_sched *s)
{
	return drm_init(s, &rr_pick, (hal_u32)hal_param(s, RR_P_CREDIT_LIMIT));
}

const struct gs_policy_ops gs_policy_drm_rr = {
	.name = "drm-rr",
	.summary = "Linux drm_sched round-robin: one job per entity in turn, "
		   "priority run queues served strictly in order",
	.priority = "strict: one run queue per level, higher levels first",
	.params = rr_params,
	.n_params = RR_N_PARAMS,
	.priv_size = sizeof(struct drm_state),
	.init = rr_init,
	DRM_OPS_COMMON,
};
