/* drm-fifo: the DRM GPU scheduler's FIFO policy (drm_sched_policy=1, the
 * default from Linux 6.2 until the fair policy replaced both in 2025).
 *
 * Entities sit in one run queue per priority. The scheduler serves the
 * run queues strictly in priority order (kernel, high, normal, low): a
 * lower one runs only when no entity of a higher one has a job waiting.
 * Within a run queue it picks the entity whose oldest waiting job was
 * submitted first (the run queue is a tree keyed on that time), so across
 * entities of one priority jobs go out in submission order. Equal times
 * go to the entity that joined the run queue first, at its first job
 * (drm_sched.c). The kernel's tree puts an equal key after those already
 * in it, so there the entity keyed earlier wins, and a pop re-keys an
 * entity; equal times need two submissions in one nanosecond, which a
 * kernel's clock does not give, so the simpler rule is kept. See
 * drm_sched.c for the jobs, credits and fences.
 *
 * Priority (hal_task_priority): strict, one run queue per level; a
 * backlogged higher level starves the lower ones.
 */
#include "drm_sched.h"

static struct drm_entity *fifo_select(struct drm_state *st, hal_u32 gpu)
{
	hal_u32 p;

	for (p = 0; p < HAL_PRIO_COUNT; p++) {
		struct drm_entity *best = 0;
		struct plist *n;

		plist_for_each(n, &st->entities) {
			struct drm_entity *e = drm_entity_of(n);

			if (e->gpu != gpu || e->prio != p || !drm_ready(e))
				continue;
			if (!best || drm_head_time(e) < drm_head_time(best))
				best = e;
		}
		if (best)
			return best;
	}
	return 0;
}

static const struct drm_pick fifo_pick = { .select = fifo_select };

enum { FIFO_P_CREDIT_LIMIT, FIFO_N_PARAMS };

static const struct gs_param_desc fifo_params[] = {
	[FIFO_P_CREDIT_LIMIT] = DRM_PARAM_CREDIT_LIMIT,
};
_Static_assert(sizeof(fifo_params) / sizeof(fifo_params[0]) == FIFO_N_PARAMS,
	       "one descriptor per index");

static int fifo_init(struct hal_sched *s)
{
	return drm_init(s, &fifo_pick,
			(hal_u32)hal_param(s, FIFO_P_CREDIT_LIMIT));
}

const struct gs_policy_ops gs_policy_drm_fifo = {
	.name = "drm-fifo",
	.summary = "Linux drm_sched FIFO: oldest waiting job first, "
		   "priority run queues served strictly in order",
	.priority = "strict: one run queue per level, higher levels first",
	.params = fifo_params,
	.n_params = FIFO_N_PARAMS,
	.priv_size = sizeof(struct drm_state),
	.init = fifo_init,
	DRM_OPS_COMMON,
};
