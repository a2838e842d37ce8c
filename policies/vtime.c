/* Virtual-time bookkeeping shared by dfq, loga and hdfq: see vtime.h. */
#include "vtime.h"

#define VT_NONE (~(hal_u64)0)

void vt_init(struct vt_sys *sys)
{
	sys->vtime = 0;
	plist_init(&sys->tasks);
}

void vt_task_add(struct vt_sys *sys, struct vt_task *t, hal_u32 weight)
{
	t->vtime = sys->vtime;
	t->usage = 0;
	t->user_weight = weight ? weight : 1;
	t->weight = (hal_u64)t->user_weight * VT_WEIGHT_ONE;
	t->active = 0;
	t->seen = 0;
	t->denied = 0;
	plist_add_tail(&sys->tasks, &t->link);
}

void vt_task_set_weight_fp(struct vt_task *t, hal_u64 weight_fp)
{
	t->weight = weight_fp ? weight_fp : 1;
	t->user_weight = 0;
}

void vt_task_del(struct vt_task *t)
{
	plist_del(&t->link);
}

hal_u64 vt_share(hal_u64 part, hal_u64 whole, hal_u64 total)
{
	if (!whole)
		return 0;
	return hal_mul_div64(total, part, whole);
}

/* The weight a task competes with, fixed point: a user weight as
 * VT_WEIGHT_ONE multiples, a hierarchy's as it set it. User weights are at
 * most 10^6 (the loader's bound), so w x n stays far below 2^64. */
static hal_u64 vt_weight(const struct vt_task *t)
{
	return t->user_weight ? (hal_u64)t->user_weight * VT_WEIGHT_ONE
			      : t->weight;
}

/* usage / normalised weight, usage x sum / (w x n), where sum and n are
 * over the tasks that have had work in some epoch (exact when all are
 * equal). A task that never submits must change nobody's vtime, or its
 * mere presence would move every lead against `interval`; a task idle
 * for one epoch still counts, or the others' vtimes would advance at
 * another rate in the epochs it sleeps through than in those it
 * competes in, a bias against it. */
static hal_u64 weighted(const struct vt_task *t, hal_u64 sum, hal_u64 n)
{
	hal_u64 w = vt_weight(t);

	return w * n == sum ? t->usage : hal_mul_div64(t->usage, sum, w * n);
}

hal_u32 vt_epoch_end(struct vt_sys *sys)
{
	struct plist *pos;
	hal_u64 min = VT_NONE, min_charged = VT_NONE, sum = 0;
	hal_u32 n_active = 0;

	hal_u64 n_seen = 0;

	plist_for_each(pos, &sys->tasks) {
		struct vt_task *t = plist_entry(pos, struct vt_task, link);

		t->seen |= t->active;
		if (t->seen) {
			sum += vt_weight(t);
			n_seen++;
		}
	}
	plist_for_each(pos, &sys->tasks) {
		struct vt_task *t = plist_entry(pos, struct vt_task, link);

		/* rule 1, idle tasks included (seed 732 under dfq: a task
		 * idle at every barrier, in step with the free runs, was never
		 * charged and took 0.70 of the GPU) */
		if (t->usage) {
			t->vtime += weighted(t, sum, n_seen);
			if (t->vtime < min_charged)
				min_charged = t->vtime;
		}
		if (t->active) {
			if (t->vtime < min)
				min = t->vtime;
			n_active++;
		}
		t->usage = 0;
	}
	/* Idle tasks do not hold the system vtime back; it never goes back
	 * either (an active task can only be behind it after being pulled
	 * forward, which puts it exactly on it). */
	if (!n_active)
		min = min_charged; /* or a lone task idle at each decision
				    * would lead for ever, and be denied */
	if (min != VT_NONE && min > sys->vtime)
		sys->vtime = min;
	plist_for_each(pos, &sys->tasks) {
		struct vt_task *t = plist_entry(pos, struct vt_task, link);

		if (t->vtime < sys->vtime)
			t->vtime = sys->vtime;
	}
	return n_active;
}

hal_u64 vt_lead(const struct vt_sys *sys, const struct vt_task *t)
{
	return t->vtime > sys->vtime ? t->vtime - sys->vtime : 0;
}

hal_u32 vt_decide(struct vt_sys *sys, hal_u64 interval, int may_deny)
{
	struct plist *pos;
	hal_u32 n = 0;

	plist_for_each(pos, &sys->tasks) {
		struct vt_task *t = plist_entry(pos, struct vt_task, link);

		t->denied = may_deny && interval &&
			    vt_lead(sys, t) >= interval;
		n += t->denied;
	}
	return n;
}
