/* The node monitor: see node_load.h. */
#include "node_load.h"

/* GPUs may come online after init (hot-plug, a port adding them). */
static void refresh_gpus(struct hal_sched *s, struct nl_node *n)
{
	hal_u32 g = hal_gpu_count(s);

	n->n_gpus = g > NL_MAX_GPUS ? NL_MAX_GPUS : g ? g : 1;
	for (g = 0; g < n->n_gpus; g++)
		n->mem_size[g] = hal_gpu_memory(s, g);
}

void nl_init(struct hal_sched *s, struct nl_node *n, hal_u64 min_sample)
{
	plist_init(&n->tasks);
	refresh_gpus(s, n);
	n->min_sample = min_sample;
}

static void forget_chan(struct hal_sched *s, struct nl_chan *nc)
{
	plist_del(&nc->link);
	hal_chan_set_data(nc->c, 0);
	hal_free(s, nc);
}

/* Free a task's record and what it still holds of its channels. */
static void free_task(struct hal_sched *s, struct nl_task *nt)
{
	while (!plist_empty(&nt->chans))
		forget_chan(s, plist_entry(nt->chans.next, struct nl_chan,
					   link));
	plist_del(&nt->link);
	hal_task_set_data(nt->t, 0);
	hal_free(s, nt);
}

void nl_fini(struct hal_sched *s, struct nl_node *n)
{
	while (!plist_empty(&n->tasks))
		free_task(s, plist_entry(n->tasks.next, struct nl_task, link));
}

struct nl_task *nl_task_add(struct hal_sched *s, struct nl_node *n,
			    struct hal_task *t)
{
	struct nl_task *nt = hal_zalloc(s, sizeof(*nt));

	if (!nt)
		return 0;
	refresh_gpus(s, n);
	nt->t = t;
	plist_init(&nt->chans);
	nt->gpu = hal_task_gpu(t);
	if (nt->gpu >= n->n_gpus)
		nt->gpu = 0;
	nt->memory = hal_task_memory(s, t);
	plist_add_tail(&n->tasks, &nt->link);
	n->count[nt->gpu]++;
	n->mem_used[nt->gpu] += nt->memory;
	hal_task_set_data(t, nt);
	return nt;
}

void nl_task_remove(struct hal_sched *s, struct nl_node *n,
		    struct hal_task *t)
{
	struct nl_task *nt = nl_task_of(t);

	if (!nt)
		return;
	n->count[nt->gpu]--;
	n->mem_used[nt->gpu] -= nt->memory;
	if (nt->known)
		n->load_pm[nt->gpu] -= nt->demand_pm;
	free_task(s, nt);
}

void nl_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct nl_task *nt = nl_task_of(hal_chan_task(c));
	struct nl_chan *nc;

	hal_shadow_enable(s, c);
	if (!nt)
		return;
	nc = hal_zalloc(s, sizeof(*nc));
	if (!nc) {
		/* its launches then always go through */
		hal_log(s, "task %s: no memory to record a channel",
			hal_task_name(nt->t));
		return;
	}
	nc->c = c;
	nc->owner = nt;
	plist_add_tail(&nt->chans, &nc->link);
	hal_chan_set_data(c, nc);
}

void nl_chan_destroy(struct hal_sched *s, struct hal_chan *c)
{
	struct nl_chan *nc = hal_chan_data(c);

	if (nc)
		forget_chan(s, nc);
}

int nl_chan_known(const struct nl_task *nt, const struct hal_chan *c)
{
	const struct nl_chan *nc = hal_chan_data(c);

	return nc && nc->owner == nt;
}

hal_u64 nl_forward_all(struct hal_sched *s, struct nl_task *nt)
{
	hal_u64 ns = 0;
	struct plist *pos;

	plist_for_each(pos, &nt->chans) {
		struct hal_chan *c = plist_entry(pos, struct nl_chan, link)->c;

		while (hal_shadow_pending(s, c)) {
			ns += hal_shadow_peek_hint(s, c);
			hal_shadow_forward(s, c, 1);
		}
	}
	nt->held = 0;
	return ns;
}

void nl_launch(struct hal_sched *s, struct hal_chan *c)
{
	struct nl_task *nt = nl_task_of(hal_chan_task(c));
	hal_u32 q = hal_shadow_pending(s, c);

	if (!nt)
		return;
	if (!nt->launched) {
		nt->launched = 1;
		nt->first_launch = hal_now(s);
		nt->sync_base = hal_task_sync_ns(s, nt->t);
	}
	/* the newest queued command is this launch; the hint is the
	 * oldest's, which is this one unless the policy holds earlier ones */
	if (q) {
		hal_u64 ns = hal_shadow_peek_hint(s, c);
		hal_u32 occ = hal_shadow_peek_occupancy(s, c);

		if (!occ || occ > NL_PM)
			occ = NL_PM;
		nt->kernel_ns += ns;
		nt->core_ns += hal_mul_div64(ns, occ, NL_PM);
	}
}

static hal_u32 estimate(struct hal_sched *s, const struct nl_task *nt)
{
	hal_u64 elapsed = hal_now(s) - nt->first_launch;
	hal_u64 synced = hal_task_sync_ns(s, nt->t) - nt->sync_base;
	hal_u64 free_ns = elapsed > synced ? elapsed - synced : 0;
	hal_u64 pm;

	if (!nt->kernel_ns)
		return 0;
	pm = hal_mul_div64(nt->core_ns, NL_PM, nt->kernel_ns + free_ns);
	return pm > NL_PM ? NL_PM : (hal_u32)pm;
}

void nl_update(struct hal_sched *s, struct nl_node *n)
{
	struct plist *pos;
	hal_u32 g;

	refresh_gpus(s, n);
	for (g = 0; g < n->n_gpus; g++)
		n->load_pm[g] = 0;
	plist_for_each(pos, &n->tasks) {
		struct nl_task *nt = plist_entry(pos, struct nl_task, link);

		if (nt->launched &&
		    hal_now(s) - nt->first_launch >= n->min_sample) {
			nt->demand_pm = estimate(s, nt);
			nt->known = 1;
			hal_note_demand(s, nt->t, nt->demand_pm);
		}
		if (nt->known)
			n->load_pm[nt->gpu] += nt->demand_pm;
	}
}

int nl_fits_memory(const struct nl_node *n, hal_u32 gpu, hal_u64 bytes)
{
	return !n->mem_size[gpu] || n->mem_used[gpu] + bytes <= n->mem_size[gpu];
}

int nl_fits_somewhere(const struct nl_node *n, hal_u64 bytes)
{
	hal_u32 g;

	for (g = 0; g < n->n_gpus; g++)
		if (nl_fits_memory(n, g, bytes))
			return 1;
	return 0;
}

hal_u32 nl_lowest(const struct nl_node *n, const hal_u32 *metric,
		  hal_u64 memory)
{
	int any = nl_fits_somewhere(n, memory);
	hal_u32 g, best = n->n_gpus;

	for (g = 0; g < n->n_gpus; g++) {
		if (any && !nl_fits_memory(n, g, memory))
			continue;
		if (best == n->n_gpus || metric[g] < metric[best] ||
		    (metric[g] == metric[best] && n->count[g] < n->count[best]))
			best = g;
	}
	return best;
}

hal_u32 nl_least_loaded(const struct nl_node *n, hal_u64 memory)
{
	return nl_lowest(n, n->load_pm, memory);
}

int nl_move(struct hal_sched *s, struct nl_node *n, struct nl_task *nt,
	    hal_u32 gpu)
{
	if (gpu >= n->n_gpus || gpu == nt->gpu ||
	    !nl_fits_memory(n, gpu, nt->memory))
		return -1;
	if (hal_task_migrate(s, nt->t, gpu) != 0)
		return -1;
	n->count[nt->gpu]--;
	n->count[gpu]++;
	n->mem_used[nt->gpu] -= nt->memory;
	n->mem_used[gpu] += nt->memory;
	if (nt->known) {
		n->load_pm[nt->gpu] -= nt->demand_pm;
		n->load_pm[gpu] += nt->demand_pm;
	}
	nt->gpu = gpu;
	n->migrations++;
	return 0;
}
