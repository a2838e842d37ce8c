/* Static placement baselines for a multi-GPU node (DCUDA section 2.3):
 * a task is placed on a GPU when it starts and stays there.
 *   round-robin:  GPUs in turn;
 *   least-loaded: the GPU with the lowest utilisation over the last
 *                 monitor period, as a GPU reports it (share of time its
 *                 compute engine was busy, hal_gpu_busy_ns: what
 *                 nvidia-smi shows), ties to the GPU with fewer tasks.
 *                 Utilisation saturates at 100% and does not tell how
 *                 far a GPU is overloaded; telling that is what DCUDA's
 *                 demand monitor adds.
 * Both consider only GPUs with room in memory for the task's footprint
 * (a task cannot start where its allocations fail), unless none has.
 * Both place through hal_task_migrate in task_create (free before the
 * task's channels exist) and leave the GPU's own scheduling alone.
 *
 * Priority (hal_task_priority): ignored by both placements.
 */
#include "node_load.h"
#include "policy.h"

struct placement {
	struct nl_node node;
	hal_u32 next;         /* round-robin: the next GPU */
	hal_u8 least_loaded;
	hal_u64 window_start;
	hal_u64 busy_at[NL_MAX_GPUS];  /* hal_gpu_busy_ns at window start */
	hal_u32 util_pm[NL_MAX_GPUS];  /* last window's utilisation */
};

enum { TIMER_MONITOR = 0 };

/* Indices into the parameter table below (hal_param). */
enum {
	PLACEMENT_P_MONITOR,
	PLACEMENT_N_PARAMS
};

static const struct gs_param_desc placement_params[] = {
	[PLACEMENT_P_MONITOR] = { "monitor", GS_PARAM_DURATION, "100ms",
	  "least-loaded: the utilisation window", 0 },
};
_Static_assert(sizeof(placement_params) / sizeof(placement_params[0]) ==
		       PLACEMENT_N_PARAMS, "one descriptor per index");

static int init_common(struct hal_sched *s, hal_u8 least_loaded)
{
	struct placement *p = hal_priv(s);

	nl_init(s, &p->node, hal_param(s, PLACEMENT_P_MONITOR));
	p->least_loaded = least_loaded;
	if (least_loaded)
		hal_timer_arm(s, TIMER_MONITOR,
			      hal_now(s) + hal_param(s, PLACEMENT_P_MONITOR));
	return 0;
}

static int rr_init(struct hal_sched *s) { return init_common(s, 0); }
static int ll_init(struct hal_sched *s) { return init_common(s, 1); }

static void placement_fini(struct hal_sched *s)
{
	struct placement *p = hal_priv(s);

	nl_fini(s, &p->node);
}

static void placement_timer(struct hal_sched *s, hal_u32 id)
{
	struct placement *p = hal_priv(s);

	hal_u64 now = hal_now(s), len = now - p->window_start;
	hal_u32 g;

	if (HAL_WARN_ON(s, id != TIMER_MONITOR)) /* its only timer */
		return;
	nl_update(s, &p->node);
	for (g = 0; g < p->node.n_gpus && len; g++) {
		hal_u64 busy = hal_gpu_busy_ns(s, g);
		hal_u64 pm = hal_mul_div64(busy - p->busy_at[g], NL_PM, len);

		p->util_pm[g] = pm > NL_PM ? NL_PM : (hal_u32)pm;
		p->busy_at[g] = busy;
	}
	p->window_start = now;
	hal_timer_arm(s, TIMER_MONITOR, hal_now(s) + hal_param(s, PLACEMENT_P_MONITOR));
}

/* The GPU a new task goes to, among those with room for its footprint
 * (among all if none has: the environment does not refuse a task). */
static hal_u32 choose_gpu(struct placement *p, hal_u64 memory)
{
	struct nl_node *n = &p->node;
	int any = nl_fits_somewhere(n, memory);
	hal_u32 g, k;

	if (!p->least_loaded) {
		for (k = 0; k < n->n_gpus; k++) {
			g = (p->next + k) % n->n_gpus;
			if (!any || nl_fits_memory(n, g, memory))
				break;
		}
		if (k == n->n_gpus) /* not reached: `any` says one fits */
			g = p->next % n->n_gpus;
		p->next = g + 1 >= n->n_gpus ? 0 : g + 1;
		return g;
	}
	return nl_lowest(n, p->util_pm, memory);
}

static void placement_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct placement *p = hal_priv(s);

	/* before its channels exist this only places the task */
	hal_task_migrate(s, t, choose_gpu(p, hal_task_memory(s, t)));
	nl_task_add(s, &p->node, t);
}

static void placement_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct placement *p = hal_priv(s);

	nl_task_remove(s, &p->node, t);
}

const struct gs_policy_ops gs_policy_round_robin = {
	.name = "round-robin",
	.node_level = 1,
	.summary = "node: place each task on the next GPU in turn (static)",
	.priority = "ignored",
	.params = placement_params,
	.n_params = 1,
	.priv_size = sizeof(struct placement),
	.init = rr_init,
	.fini = placement_fini,
	.task_create = placement_task_create,
	.task_exit = placement_task_exit,
	.timer = placement_timer,
};

const struct gs_policy_ops gs_policy_least_loaded = {
	.name = "least-loaded",
	.node_level = 1,
	.summary = "node: place each task on the least utilised GPU (static)",
	.priority = "ignored",
	.params = placement_params,
	.n_params = 1,
	.priv_size = sizeof(struct placement),
	.init = ll_init,
	.fini = placement_fini,
	.task_create = placement_task_create,
	.task_exit = placement_task_exit,
	.timer = placement_timer,
};
