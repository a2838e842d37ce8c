/* dcuda: dynamic scheduling of running tasks across the GPUs of a node
 * (Guo et al., DCUDA, SoCC'19, section 3.3). Every `monitor` period it
 * refreshes the node monitor (node_load.h: per-task demand from launches,
 * per-GPU load as their sum) and then
 *   1. balances with hysteresis: a GPU above `over` (overloaded) hands
 *      tasks to a GPU below `under` (underloaded), GPUs in between are
 *      left alone, and a move never takes the target above `over`, so a
 *      task moved is never moved back by the next round (no ping-pong);
 *      greedy: over every (overloaded, underloaded) pair, the heaviest
 *      task that fits goes first, repeated until the source is no longer
 *      overloaded or nothing fits ("fits": in the target's spare compute
 *      and in its free memory);
 *   2. compacts for energy: while the two least-loaded busy GPUs are
 *      underloaded and fit on one (together at most `compact_max`, their
 *      footprints together in one GPU's memory), the lighter one's tasks
 *      move to the other, which lets the emptied GPU idle;
 *   3. keeps a GPU that is still overloaded fair with time slices: its
 *      tasks form groups that each nearly fill the GPU (a light task may
 *      push a group slightly over, up to `group_max`), one group runs per
 *      `slice` and the others' launches wait in their shadow queues; a
 *      group given more kernel time than its slice owes the overshoot
 *      and skips a turn once it owes a whole slice; at a slice start the
 *      lightest task's held launches are forwarded first. Slicing is left
 *      off where a group would leave the GPU below `under`: with cores
 *      shared by demand that would cost more than it evens out.
 * New tasks go to the GPU with the lowest monitored load among those with
 * room for their footprint (any GPU if none has: the environment does
 * not refuse a task). Moves go through hal_task_migrate, which the
 * environment performs between launches.
 *
 * Priority (hal_task_priority): ignored; placement, migration and the
 * fairness slices treat every task alike.
 */
#include "node_load.h"
#include "policy.h"

#define MAX_GROUPS 8

struct gpu_slices {
	hal_u32 n_groups;         /* 0 or 1: no slicing on this GPU */
	hal_u32 cur;              /* running group */
	hal_u64 used;             /* engine time it was given this slice */
	hal_u64 debt[MAX_GROUPS]; /* overshoot to give back */
};

struct dcuda {
	struct nl_node node;
	struct gpu_slices slices[NL_MAX_GPUS];
	hal_u32 balanced, compacted; /* moves made by each step, for the log */
};

enum { TIMER_MONITOR = 0, TIMER_SLICE = 1 };

/* Indices into the parameter table below (hal_param). */
enum {
	DCUDA_P_MONITOR,
	DCUDA_P_OVER,
	DCUDA_P_UNDER,
	DCUDA_P_COMPACT,
	DCUDA_P_COMPACT_MAX,
	DCUDA_P_FAIRNESS,
	DCUDA_P_SLICE,
	DCUDA_P_GROUP_MAX,
	DCUDA_P_SAMPLE_COST,
	DCUDA_N_PARAMS
};

static const struct gs_param_desc dcuda_params[] = {
	[DCUDA_P_MONITOR] = { "monitor", GS_PARAM_DURATION, "100ms",
	  "monitor and scheduling period", 0 },
	[DCUDA_P_OVER] = { "over", GS_PARAM_UINT, "100",
	  "overloaded above this load, percent of one GPU", GS_PARAM_UINT_MAX },
	[DCUDA_P_UNDER] = { "under", GS_PARAM_UINT, "90",
	  "underloaded below this load, percent", GS_PARAM_UINT_MAX },
	[DCUDA_P_COMPACT] = { "compact", GS_PARAM_BOOL, "true",
	  "energy compaction of underloaded GPUs", 0 },
	[DCUDA_P_COMPACT_MAX] = { "compact_max", GS_PARAM_UINT, "100",
	  "compaction only if the pair's load fits in this, percent",
	  GS_PARAM_UINT_MAX },
	[DCUDA_P_FAIRNESS] = { "fairness", GS_PARAM_BOOL, "true",
	  "time slices for groups on an overloaded GPU", 0 },
	[DCUDA_P_SLICE] = { "slice", GS_PARAM_DURATION, "100ms", "fairness slice per group", 0 },
	[DCUDA_P_GROUP_MAX] = { "group_max", GS_PARAM_UINT, "110",
	  "a group may fill the GPU up to this, percent", GS_PARAM_UINT_MAX },
	/* the wrapper times each kernel it intercepts (DCUDA 3.2): two clock
	 * reads, each a clock_gettime system call of about 0.37 us (measured
	 * in Stack Overflow question 7935518). An assumption: the paper names
	 * only "the timer function"; no row depends on it beyond 0.5x-2x
	 * (docs/decisions.md, "Weak constants") */
	[DCUDA_P_SAMPLE_COST] = { "sample_cost", GS_PARAM_DURATION, "750ns",
	  "monitor CPU time per intercepted kernel launch", 0 },
};
_Static_assert(sizeof(dcuda_params) / sizeof(dcuda_params[0]) == DCUDA_N_PARAMS,
	       "one descriptor per index");

static hal_u32 pct_param(struct hal_sched *s, hal_u32 idx)
{
	return (hal_u32)hal_param(s, idx) * (NL_PM / 100);
}

/* ---- step 1: load balancing ------------------------------------------ */

/* The heaviest known task on `from` whose move keeps `to` at most `cap`
 * and whose footprint fits in `to`'s free memory. */
static struct nl_task *heaviest_fitting(struct nl_node *n, hal_u32 from,
					hal_u32 to, hal_u32 cap)
{
	struct nl_task *best = 0;
	struct plist *pos;

	plist_for_each(pos, &n->tasks) {
		struct nl_task *nt = plist_entry(pos, struct nl_task, link);

		if (nt->gpu != from || !nt->known || !nt->demand_pm)
			continue;
		if (n->load_pm[to] + nt->demand_pm > cap ||
		    !nl_fits_memory(n, to, nt->memory))
			continue;
		if (!best || nt->demand_pm > best->demand_pm)
			best = nt;
	}
	return best;
}

/* The most loaded GPU above `over` not in `skip`, or n_gpus. */
static hal_u32 most_overloaded(const struct nl_node *n, hal_u32 over,
			       hal_u32 skip)
{
	hal_u32 g, best = n->n_gpus;

	for (g = 0; g < n->n_gpus; g++) {
		if ((skip >> g) & 1 || n->load_pm[g] <= over)
			continue;
		if (best == n->n_gpus || n->load_pm[g] > n->load_pm[best])
			best = g;
	}
	return best;
}

/* For an overloaded `src`, the underloaded GPU that can take the heaviest
 * of its tasks without becoming overloaded (every pair is checked); the
 * task in *out, or 0. */
static hal_u32 best_target(const struct nl_node *n, hal_u32 src, hal_u32 over,
			   hal_u32 under, struct nl_task **out)
{
	hal_u32 g, best = n->n_gpus;

	*out = 0;
	for (g = 0; g < n->n_gpus; g++) {
		struct nl_task *nt;

		if (g == src || n->load_pm[g] >= under)
			continue;
		nt = heaviest_fitting((struct nl_node *)n, src, g, over);
		if (nt && (!*out || nt->demand_pm > (*out)->demand_pm ||
			   (nt->demand_pm == (*out)->demand_pm &&
			    n->load_pm[g] < n->load_pm[best]))) {
			*out = nt;
			best = g;
		}
	}
	return best;
}

static void balance(struct hal_sched *s, struct dcuda *d)
{
	struct nl_node *n = &d->node;
	hal_u32 over = pct_param(s, DCUDA_P_OVER);
	hal_u32 under = pct_param(s, DCUDA_P_UNDER);
	hal_u32 skip = 0, src, dst, rounds;

	for (rounds = 0; rounds < 4 * NL_MAX_GPUS; rounds++) {
		struct nl_task *nt;

		src = most_overloaded(n, over, skip);
		if (src == n->n_gpus)
			return;
		dst = best_target(n, src, over, under, &nt);
		if (!nt || nl_move(s, n, nt, dst) != 0) {
			skip |= 1u << src; /* nothing fits: try the next */
			continue;
		}
		d->balanced++;
	}
}

/* ---- step 2: energy compaction --------------------------------------- */

/* The two least loaded GPUs that have tasks: *a lighter than *b. */
static int two_least_busy(const struct nl_node *n, hal_u32 *a, hal_u32 *b)
{
	hal_u32 g;

	*a = *b = n->n_gpus;
	for (g = 0; g < n->n_gpus; g++) {
		if (!n->count[g])
			continue;
		if (*a == n->n_gpus || n->load_pm[g] < n->load_pm[*a]) {
			*b = *a;
			*a = g;
		} else if (*b == n->n_gpus || n->load_pm[g] < n->load_pm[*b]) {
			*b = g;
		}
	}
	return *b != n->n_gpus;
}

static int all_known(const struct nl_node *n, hal_u32 gpu)
{
	struct plist *pos;

	plist_for_each(pos, &n->tasks) {
		struct nl_task *nt = plist_entry(pos, struct nl_task, link);

		if (nt->gpu == gpu && !nt->known)
			return 0;
	}
	return 1;
}

static void compact(struct hal_sched *s, struct dcuda *d)
{
	struct nl_node *n = &d->node;
	hal_u32 cap = pct_param(s, DCUDA_P_COMPACT_MAX);
	hal_u32 under = pct_param(s, DCUDA_P_UNDER);
	hal_u32 a, b, rounds;

	for (rounds = 0; rounds < NL_MAX_GPUS; rounds++) {
		struct plist *pos, *next;

		if (!two_least_busy(n, &a, &b) || n->load_pm[b] >= under ||
		    n->load_pm[a] + n->load_pm[b] > cap || !all_known(n, a) ||
		    !nl_fits_memory(n, b, n->mem_used[a]))
			return;
		for (pos = n->tasks.next; pos != &n->tasks; pos = next) {
			struct nl_task *nt = plist_entry(pos, struct nl_task,
							 link);

			next = pos->next;
			if (nt->gpu == a && nl_move(s, n, nt, b) == 0)
				d->compacted++;
		}
		if (n->count[a])
			return; /* a move failed: leave it */
	}
}

/* ---- step 3: fairness slices ----------------------------------------- */

/* Groups for an overloaded GPU, heaviest task first: each joins the first
 * group it fits in (up to group_max, so a light task may top a group up
 * slightly over 100%), else opens a new one. Returns the group count, 0
 * when a group would leave more than the underload margin of the GPU
 * idle in its slice: slicing would then cost more throughput than the
 * fairness it buys. */
static hal_u32 form_groups(struct hal_sched *s, struct nl_node *n,
			   hal_u32 gpu)
{
	hal_u32 fill[MAX_GROUPS] = { 0 };
	hal_u32 under = pct_param(s, DCUDA_P_UNDER);
	hal_u32 cap = pct_param(s, DCUDA_P_GROUP_MAX);
	hal_u32 groups = 0, placed = 0, g;
	struct plist *pos;

	plist_for_each(pos, &n->tasks) {
		struct nl_task *nt = plist_entry(pos, struct nl_task, link);

		if (nt->gpu == gpu)
			nt->group = MAX_GROUPS; /* not yet */
	}
	for (;;) {
		struct nl_task *heavy = 0;

		plist_for_each(pos, &n->tasks) {
			struct nl_task *nt = plist_entry(pos, struct nl_task,
							 link);

			if (nt->gpu == gpu && nt->group == MAX_GROUPS &&
			    (!heavy || nt->demand_pm > heavy->demand_pm))
				heavy = nt;
		}
		if (!heavy)
			break;
		for (g = 0; g < groups; g++)
			if (fill[g] + heavy->demand_pm <= cap)
				break;
		if (g == groups) {
			if (groups < MAX_GROUPS)
				groups++;
			else
				g = placed % MAX_GROUPS;
		}
		heavy->group = g;
		fill[g] += heavy->demand_pm;
		placed++;
	}
	for (g = 0; g < groups; g++)
		if (fill[g] < under)
			return 0;
	return groups;
}

/* May this task's launches go to the GPU now? */
static int may_run(const struct dcuda *d, const struct nl_task *nt)
{
	const struct gpu_slices *gs = &d->slices[nt->gpu];

	return gs->n_groups < 2 || nt->group >= gs->n_groups ||
	       nt->group == gs->cur;
}

/* Held launches that may now run go to the GPU, lightest task first, so
 * light tasks reach the engine before heavy ones in a slice. */
static void release(struct hal_sched *s, struct dcuda *d, hal_u32 gpu)
{
	struct nl_node *n = &d->node;

	for (;;) {
		struct nl_task *light = 0;
		struct plist *pos;

		plist_for_each(pos, &n->tasks) {
			struct nl_task *nt = plist_entry(pos, struct nl_task,
							 link);

			if (nt->gpu != gpu || !nt->held || !may_run(d, nt))
				continue;
			if (!light || nt->demand_pm < light->demand_pm)
				light = nt;
		}
		if (!light)
			return;
		d->slices[gpu].used += nl_forward_all(s, light);
	}
}

/* Every monitor period: slicing only where the load is still above
 * `over` after balancing and compaction. */
static void plan_slices(struct hal_sched *s, struct dcuda *d)
{
	struct nl_node *n = &d->node;
	hal_u32 over = pct_param(s, DCUDA_P_OVER), g, i;

	for (g = 0; g < n->n_gpus; g++) {
		struct gpu_slices *gs = &d->slices[g];
		hal_u32 groups = 0;

		if (hal_param(s, DCUDA_P_FAIRNESS) && n->load_pm[g] > over &&
		    n->count[g] > 1)
			groups = form_groups(s, n, g);
		if (groups != gs->n_groups) {
			gs->cur = 0;
			gs->used = 0;
			for (i = 0; i < MAX_GROUPS; i++)
				gs->debt[i] = 0;
		}
		gs->n_groups = groups;
		release(s, d, g);
	}
}

/* Every slice: the next group runs. What the running group was given
 * beyond its slice is its debt; a group owing a whole slice or more skips
 * its turn and pays one slice off. */
static void next_slice(struct hal_sched *s, struct dcuda *d)
{
	hal_u64 slice = hal_param(s, DCUDA_P_SLICE);
	hal_u32 g, k;

	for (g = 0; g < d->node.n_gpus; g++) {
		struct gpu_slices *gs = &d->slices[g];

		if (gs->n_groups < 2)
			continue;
		if (gs->used > slice)
			gs->debt[gs->cur] += gs->used - slice;
		gs->used = 0;
		for (k = 0; k < gs->n_groups; k++) {
			gs->cur = gs->cur + 1 >= gs->n_groups ? 0 : gs->cur + 1;
			if (gs->debt[gs->cur] < slice)
				break;
			gs->debt[gs->cur] -= slice;
		}
		release(s, d, g);
	}
}

/* ---- ops ------------------------------------------------------------- */

static int dcuda_init(struct hal_sched *s)
{
	struct dcuda *d = hal_priv(s);

	nl_init(s, &d->node, hal_param(s, DCUDA_P_MONITOR));
	hal_timer_arm(s, TIMER_MONITOR, hal_now(s) + hal_param(s, DCUDA_P_MONITOR));
	if (hal_param(s, DCUDA_P_FAIRNESS))
		hal_timer_arm(s, TIMER_SLICE, hal_now(s) + hal_param(s, DCUDA_P_SLICE));
	return 0;
}

static void dcuda_fini(struct hal_sched *s)
{
	struct dcuda *d = hal_priv(s);

	nl_fini(s, &d->node);
}

static void dcuda_timer(struct hal_sched *s, hal_u32 id)
{
	struct dcuda *d = hal_priv(s);
	hal_u32 moves = d->balanced + d->compacted;

	if (id == TIMER_SLICE) {
		next_slice(s, d);
		hal_timer_arm(s, TIMER_SLICE, hal_now(s) + hal_param(s, DCUDA_P_SLICE));
		return;
	}
	nl_update(s, &d->node);
	balance(s, d);
	if (hal_param(s, DCUDA_P_COMPACT))
		compact(s, d);
	plan_slices(s, d);
	if (d->balanced + d->compacted != moves)
		hal_log(s, "moves so far: %u balancing, %u compacting",
			d->balanced, d->compacted);
	hal_timer_arm(s, TIMER_MONITOR, hal_now(s) + hal_param(s, DCUDA_P_MONITOR));
}

static void dcuda_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct dcuda *d = hal_priv(s);
	struct nl_task *nt;

	nl_update(s, &d->node);
	hal_task_migrate(s, t, nl_least_loaded(&d->node,
					       hal_task_memory(s, t)));
	nt = nl_task_add(s, &d->node, t);
	if (nt)
		nt->group = MAX_GROUPS;
}

static void dcuda_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct dcuda *d = hal_priv(s);

	nl_task_remove(s, &d->node, t);
}

static void dcuda_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct dcuda *d = hal_priv(s);
	struct nl_task *nt = nl_task_of(hal_chan_task(c));

	nl_launch(s, c);
	hal_cpu_charge(s, hal_param(s, DCUDA_P_SAMPLE_COST));
	if (nt && nl_chan_known(nt, c) && !may_run(d, nt)) {
		nt->held = 1; /* waits for its group's slice */
		return;
	}
	while (hal_shadow_pending(s, c)) {
		if (nt)
			d->slices[nt->gpu].used += hal_shadow_peek_hint(s, c);
		hal_shadow_forward(s, c, 1);
	}
}

static void dcuda_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	struct nl_task *nt = nl_task_of(hal_chan_task(c));

	nl_chan_create(s, c);
	/* recreated on another GPU by a migration: no group there yet */
	if (nt)
		nt->group = MAX_GROUPS;
}

const struct gs_policy_ops gs_policy_dcuda = {
	.name = "dcuda",
	.node_level = 1,
	.summary = "node: DCUDA dynamic scheduling, migration, compaction, fairness slices",
	.priority = "ignored: placement and slices treat every task alike",
	.params = dcuda_params,
	.n_params = sizeof(dcuda_params) / sizeof(dcuda_params[0]),
	.priv_size = sizeof(struct dcuda),
	.init = dcuda_init,
	.fini = dcuda_fini,
	.task_create = dcuda_task_create,
	.task_exit = dcuda_task_exit,
	.channel_create = dcuda_channel_create,
	.channel_destroy = nl_chan_destroy,
	.shadow_submit = dcuda_shadow_submit,
	.timer = dcuda_timer,
};
