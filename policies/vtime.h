/* Virtual-time bookkeeping of the disengaged fair-queueing family (NEON's
 * DFQ, LoGA, hierarchical DFQ), after NEON section 3.3 and LoGA 3.4.
 *
 * A policy keeps one struct vt_sys and embeds one struct vt_task in each of
 * its per-task records. Once per epoch (the policy decides what an epoch
 * is: DFQ's engagement + free run, LoGA's poll + sleep phases) it fills in,
 * for every task,
 *
 *   usage   the GPU time the task is believed to have used in the epoch
 *           (ns; 0 if none), and
 *   active  whether the task had work in the epoch,
 *
 * then calls vt_epoch_end() and vt_decide(). The rules, in order:
 *
 *   1. every task's vtime advances by usage / weight, its weight
 *      relative to the mean weight of the tasks that have had work in
 *      some epoch (so that only the ratio of weights matters, not their
 *      scale, and a task that never submits changes nothing); an idle
 *      task's usage too (dfq: one idle at the barrier that ran in the
 *      free run), or a task whose idle moments fall on every decision
 *      would use the GPU for free;
 *   2. the system vtime becomes the smallest vtime among active tasks,
 *      or with none active among those that had usage (it never goes
 *      back; with neither it stays where it was);
 *   3. a task behind the system vtime (only an idle one can be) is pulled
 *      forward to it, so idleness builds up no credit;
 *   4. a task whose vtime is ahead of the system vtime by at least
 *      `interval` is denied the next interval: even if the slowest active
 *      task had the GPU alone for all of it, it would only catch up.
 *
 * A task that joins starts at the system vtime. Weights are the tasks' user
 * weights (1 in the papers) or a hierarchy's fixed-point weights (hdfq's
 * tree, vmtree.h); either way vtime is usage per unit of normalised
 * weight, w_i x n / sum of w over the n tasks that have had work. Vtime is
 * compared with `interval`, a span of real time: without the
 * normalisation, weights 100:200:400 made every vtime advance 100 times
 * slower than 1:2:4 and nobody ever led by an interval; with all tasks in
 * the mean, one that only sleeps (weight 1 beside weights 3 and 8) moved
 * every lead too. A task asleep for an epoch after having had work stays
 * in the mean, so the others' vtimes advance at one rate whether it
 * competes or not. Equal weights are exactly 1, as in the papers.
 * Everything is integer nanoseconds; no division but hal_div64 and
 * hal_mul_div64.
 */
#ifndef GS_POLICY_VTIME_H
#define GS_POLICY_VTIME_H

#include "hal.h"
#include "util.h"

struct vt_task {
	struct plist link;  /* in vt_sys.tasks; the policy may walk it */
	hal_u64 vtime;
	hal_u64 usage;      /* in: usage this epoch; consumed by vt_epoch_end */
	hal_u64 weight;     /* share of the GPU relative to a weight-1 task,
			     * fixed point: VT_WEIGHT_ONE is 1 (> 0) */
	hal_u32 user_weight; /* the user weight given to vt_task_add, which
			      * vt_epoch_end normalises; 0 once a hierarchy
			      * set `weight` itself (vt_task_set_weight_fp) */
	hal_u8 active;      /* in: had work this epoch */
	hal_u8 seen;        /* had work in some epoch: counts in the
			     * weights' normalisation */
	hal_u8 denied;      /* out of vt_decide: denied the next interval */
};

/* Weights are fixed point so that a hierarchy can give a task a fraction
 * of a host task's share (Fleig's 1/w): VT_WEIGHT_ONE is weight 1. */
#define VT_WEIGHT_SHIFT 16
#define VT_WEIGHT_ONE ((hal_u64)1 << VT_WEIGHT_SHIFT)

struct vt_sys {
	hal_u64 vtime;      /* system virtual time */
	struct plist tasks; /* struct vt_task.link */
};

void vt_init(struct vt_sys *sys);
/* Join at the system vtime (weight 0 counts as 1). */
void vt_task_add(struct vt_sys *sys, struct vt_task *t, hal_u32 weight);
void vt_task_del(struct vt_task *t);
/* Set a fixed-point weight (VT_WEIGHT_ONE = 1; 0 counts as the smallest
 * weight, 1/VT_WEIGHT_ONE); it applies from the next vt_epoch_end. */
void vt_task_set_weight_fp(struct vt_task *t, hal_u64 weight_fp);

/* `total` split in proportion `part / whole` (total * part / whole without
 * overflow); 0 when whole is 0. DFQ: avg_request_i / sum of averages times
 * the epoch; LoGA: t_app / t_total times the epoch. */
hal_u64 vt_share(hal_u64 part, hal_u64 whole, hal_u64 total);

/* Rules 1-3 above. Returns the number of active tasks; usage is reset to 0
 * for every task. */
hal_u32 vt_epoch_end(struct vt_sys *sys);

/* Rule 4: set `denied` on every task ahead of the system vtime by at least
 * `interval`, clear it on the others; with `may_deny` 0 (accounting only)
 * or an interval of 0, nobody is denied. Returns the number denied. */
hal_u32 vt_decide(struct vt_sys *sys, hal_u64 interval, int may_deny);

/* How far the task is ahead of the system vtime (0 if not ahead). */
hal_u64 vt_lead(const struct vt_sys *sys, const struct vt_task *t);

#endif
