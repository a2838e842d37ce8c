/* migrate-once: DCUDA Fig. 9's experiment (section 4.2). The paper
 * measures "the percentage of the time for one single migration to the
 * total execution time of each application"; this policy gives every
 * task exactly that one migration and nothing else. A task is placed on
 * the GPUs in turn when it starts (as round-robin does) and, once it has
 * been running for `after`, moved to the next GPU. The move is done by
 * the host model like any other (at the task's next launch with nothing
 * outstanding), so what it costs is the node's migration setting
 * (node.migration): DCUDA's handle pool and on-demand paging, or NVCR's
 * full clone and copy. The check runs every `tick` (DCUDA's monitoring
 * interval, section 4.1: 100 ms).
 *
 * Priority (hal_task_priority): ignored.
 */
#include "policy.h"
#include "util.h"

struct migrate_once {
	struct plist tasks;   /* struct mo_task, not yet moved */
	hal_u32 n_gpus;
	hal_u32 next;         /* the GPU the next task starts on */
};

struct mo_task {
	struct plist link;
	struct hal_task *t;
	hal_u32 gpu;          /* where it was placed */
	hal_u64 started;      /* when it was created */
	hal_u8 moved;         /* its one migration asked for */
};

enum { TIMER_TICK = 0 };

/* Indices into the parameter table below (hal_param). */
enum {
	MO_P_AFTER,
	MO_P_TICK,
	MO_N_PARAMS
};

static const struct gs_param_desc mo_params[] = {
	[MO_P_AFTER] = { "after", GS_PARAM_DURATION, "5s",
	  "how long after its start a task is moved (past the longest host "
	  "start-up of the DCUDA applications, 4 s)", 0 },
	[MO_P_TICK] = { "tick", GS_PARAM_DURATION, "100ms",
	  "how often tasks are checked (DCUDA 4.1's monitoring interval)",
	  0 },
};
_Static_assert(sizeof(mo_params) / sizeof(mo_params[0]) == MO_N_PARAMS,
	       "one descriptor per index");

static int mo_init(struct hal_sched *s)
{
	struct migrate_once *p = hal_priv(s);

	plist_init(&p->tasks);
	p->n_gpus = hal_gpu_count(s);
	hal_timer_arm(s, TIMER_TICK, hal_now(s) + hal_param(s, MO_P_TICK));
	return 0;
}

static void mo_task_forget(struct hal_sched *s, struct mo_task *mt)
{
	plist_del(&mt->link);
	hal_task_set_data(mt->t, 0);
	hal_free(s, mt);
}

static void mo_fini(struct hal_sched *s)
{
	struct migrate_once *p = hal_priv(s);

	while (!plist_empty(&p->tasks))
		mo_task_forget(s, plist_entry(p->tasks.next, struct mo_task,
					      link));
}

static void mo_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct migrate_once *p = hal_priv(s);
	struct mo_task *mt = hal_zalloc(s, sizeof(*mt));

	if (!mt)
		return; /* not moved: placed where the environment puts it */
	mt->t = t;
	mt->gpu = p->n_gpus ? p->next % p->n_gpus : 0;
	mt->started = hal_now(s);
	p->next = mt->gpu + 1;
	plist_add_tail(&p->tasks, &mt->link);
	hal_task_set_data(t, mt);
	/* before its channels exist this only places the task */
	hal_task_migrate(s, t, mt->gpu);
}

static void mo_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct mo_task *mt = hal_task_data(t);

	if (mt)
		mo_task_forget(s, mt);
}

/* Every task `after` its start is moved to the next GPU, once; the host
 * model does the move at its next launch with nothing outstanding. */
static void mo_timer(struct hal_sched *s, hal_u32 id)
{
	struct migrate_once *p = hal_priv(s);
	hal_u64 now = hal_now(s), after = hal_param(s, MO_P_AFTER);
	struct plist *pos;

	if (HAL_WARN_ON(s, id != TIMER_TICK)) /* its only timer */
		return;
	plist_for_each(pos, &p->tasks) {
		struct mo_task *mt = plist_entry(pos, struct mo_task, link);

		if (mt->moved || p->n_gpus < 2 || now - mt->started < after)
			continue;
		if (!hal_task_migrate(s, mt->t, (mt->gpu + 1) % p->n_gpus))
			mt->moved = 1;
	}
	hal_timer_arm(s, TIMER_TICK, now + hal_param(s, MO_P_TICK));
}

const struct gs_policy_ops gs_policy_migrate_once = {
	.name = "migrate-once",
	.node_level = 1,
	.summary = "node: place tasks in turn, move each once after a while "
		   "(DCUDA Fig. 9's migration cost experiment)",
	.priority = "ignored",
	.params = mo_params,
	.n_params = MO_N_PARAMS,
	.priv_size = sizeof(struct migrate_once),
	.init = mo_init,
	.fini = mo_fini,
	.task_create = mo_task_create,
	.task_exit = mo_task_exit,
	.timer = mo_timer,
};
