/* drr (see drr.c): the scheduler proper. Estimates of a command's cost
 * per class, the tasks' queues and the deficit round robin that forwards
 * their commands, and the timing thread that reads the fences, charges
 * what completed and learns the averages. */
#include "drr_priv.h"

/* ---- estimates ------------------------------------------------------- */

static hal_u64 drr_estimate(struct hal_sched *s, const struct drr_task *tt,
			    struct hal_chan *c, hal_u32 cls)
{
	struct drr_state *st = drr_state(s);

	if (st->oracle) {
		hal_u64 hint = hal_shadow_peek_hint(s, c);

		if (hint)
			return hint;
	}
	if (tt->known & (1u << cls))
		return tt->avg[cls];
	return st->quantum;
}

static void drr_learn(struct hal_sched *s, struct drr_task *tt, hal_u32 cls,
		      hal_u64 cost)
{
	hal_u32 k = drr_state(s)->avg_shift;
	hal_u64 *avg = &tt->avg[cls];

	if (!cost)
		cost = 1; /* an estimate is never 0 */
	if (!(tt->known & (1u << cls))) {
		*avg = cost;
		tt->known |= (hal_u8)(1u << cls);
	} else if (cost >= *avg) {
		*avg += (cost - *avg) >> k;
	} else {
		*avg -= (*avg - cost) >> k;
	}
}

/* ---- queues and forwarding ------------------------------------------- */

int drr_backlogged(struct hal_sched *s, const struct drr_task *tt)
{
	const struct plist *pos;

	plist_for_each(pos, &tt->chans) {
		struct drr_chan *tc = plist_entry(pos, struct drr_chan, node);

		if (hal_shadow_pending(s, tc->c))
			return 1;
	}
	return 0;
}

/* The channel after tc in the task's list, wrapping round. */
struct drr_chan *drr_chan_after(struct drr_task *tt,
				       struct drr_chan *tc)
{
	struct plist *n = tc->node.next;

	if (n == &tt->chans)
		n = n->next;
	return plist_entry(n, struct drr_chan, node);
}

/* The next channel, from the cursor on, with a queued command that can be
 * tracked; 0 if none. */
static struct drr_chan *drr_next_chan(struct hal_sched *s,
				      struct drr_task *tt)
{
	struct drr_chan *tc = tt->cursor;
	struct plist *pos;
	hal_u32 n = 0, i;

	if (!tc)
		return 0;
	plist_for_each(pos, &tt->chans)
		n++;
	for (i = 0; i < n; i++) {
		if (tc->len < DRR_CHUNKS && hal_shadow_pending(s, tc->c))
			return tc;
		tc = drr_chan_after(tt, tc);
	}
	return 0;
}

/* The engines' busy counters together: the engine time used so far. */
static hal_u64 drr_busy(struct hal_sched *s, hal_u32 gpu)
{
	return hal_engine_busy_ns(s, gpu, HAL_ENGINE_COMPUTE) +
	       hal_engine_busy_ns(s, gpu, HAL_ENGINE_COPY);
}

static void drr_mark(struct hal_sched *s, struct drr_gpu *g, hal_u32 gpu)
{
	g->mark_time = hal_now(s);
	g->mark_busy = drr_busy(s, gpu);
}

/* Forward the task's queued commands while their estimates fit its
 * deficit. Returns how many went out. */
static hal_u32 drr_forward(struct hal_sched *s, struct drr_task *tt)
{
	struct drr_gpu *g = drr_gpu_of(s, tt);
	hal_u32 sent = 0;

	for (;;) {
		struct drr_chan *tc = drr_next_chan(s, tt);
		struct drr_chunk *ch;
		hal_u32 cls;
		hal_u64 est;

		if (!tc)
			break;
		cls = hal_shadow_peek_class(s, tc->c);
		if (cls >= DRR_CLASSES)
			cls = DRR_CLASSES - 1;
		est = drr_estimate(s, tt, tc->c, cls);
		if ((hal_s64)est > tt->deficit)
			break;
		if (!g->inflight)
			drr_mark(s, g, tt->gpu);
		tt->deficit -= (hal_s64)est;
		ch = &tc->chunks[(tc->head + tc->len) % DRR_CHUNKS];
		ch->est = est;
		ch->cls = (hal_u8)cls;
		tc->len++;
		tt->inflight++;
		g->inflight++;
		g->inflight_est += est;
		hal_shadow_forward(s, tc->c, 1);
		tt->cursor = drr_chan_after(tt, tc);
		sent++;
	}
	return sent;
}

void drr_activate(struct hal_sched *s, struct drr_task *tt)
{
	if (tt->active)
		return;
	/* joining the round: no banked credit, debts stay */
	if (tt->deficit > 0)
		tt->deficit = 0;
	plist_add_tail(&drr_gpu_of(s, tt)->active, &tt->ring);
	tt->active = 1;
}

void drr_deactivate(struct drr_task *tt)
{
	if (!tt->active)
		return;
	plist_del(&tt->ring);
	tt->active = 0;
	if (tt->deficit > 0)
		tt->deficit = 0;
}

/* Fig. 12: visit the backlogged tasks round-robin while the GPU may take
 * more (exclusive: nothing of ours outstanding; else: the estimated
 * outstanding work below the window). */
void drr_dispatch(struct hal_sched *s, hal_u32 gpu)
{
	struct drr_state *st = drr_state(s);
	struct drr_gpu *g = &st->gpus[gpu];
	hal_u32 visits;
	hal_u64 before = g->inflight_est;

	for (visits = 0; visits < DRR_MAX_VISITS; visits++) {
		struct drr_task *tt;
		hal_u32 sent;

		if (plist_empty(&g->active))
			break;
		if (st->exclusive ? g->inflight != 0
				  : g->inflight_est >= st->window)
			break;
		tt = plist_entry(g->active.next, struct drr_task, ring);
		plist_del(&tt->ring);
		plist_add_tail(&g->active, &tt->ring);
		tt->deficit += (hal_s64)st->quantum;
		sent = drr_forward(s, tt);
		if (!drr_backlogged(s, tt))
			drr_deactivate(tt);
		if (sent && st->exclusive) {
			g->owner = tt;
			tt->batch_start = hal_now(s);
			if (st->early_probe) {
				st->probe_retry = 0;
				st->probe_fresh = 1;
				hal_timer_arm(s, DRR_TIMER_PROBE, hal_now(s) +
					      g->inflight_est - before +
					      st->early_probe);
			}
			break;
		}
	}
}

void drr_start_ticking(struct hal_sched *s)
{
	struct drr_state *st = drr_state(s);

	if (st->ticking)
		return;
	st->ticking = 1;
	hal_timer_arm(s, DRR_TIMER_TICK, hal_now(s) + st->tick);
}

/* ---- the timing thread -------------------------------------------- */

/* Move the fences of a task's channels into done_n / done_est. */
static hal_u64 drr_collect(struct hal_sched *s, struct drr_task *tt,
			   hal_u32 *n_out)
{
	struct plist *pos;
	hal_u64 est = 0;
	hal_u32 n = 0;

	plist_for_each(pos, &tt->chans) {
		struct drr_chan *tc = plist_entry(pos, struct drr_chan, node);
		hal_u64 fence = hal_fence_read(s, tc->c);
		hal_u64 k = fence > tc->fence_seen ? fence - tc->fence_seen : 0;

		tc->fence_seen = fence;
		if (k > tc->len) /* not forwarded by us: nothing to learn */
			k = tc->len;
		while (k--) {
			struct drr_chunk *ch = &tc->chunks[tc->head];

			tc->head = (tc->head + 1) % DRR_CHUNKS;
			tc->len--;
			tt->done_n[ch->cls]++;
			tt->done_est[ch->cls] += ch->est;
			est += ch->est;
			n++;
		}
	}
	*n_out = n;
	return est;
}

/* Train the averages from what was measured of the task alone: one
 * sample per class, the mean over the commands since the last sample. */
static void drr_learn_flush(struct hal_sched *s, struct drr_task *tt)
{
	hal_u32 k;

	for (k = 0; k < DRR_CLASSES; k++) {
		if (tt->acc_valid && tt->acc_n[k])
			drr_learn(s, tt, k,
				  hal_div64(tt->acc_real[k], tt->acc_n[k]));
		tt->acc_n[k] = 0;
		tt->acc_real[k] = 0;
	}
	tt->acc_valid = 1;
}

/* Charge the task `real` for its completions of this probe and correct
 * its deficit by estimated minus real (Fig. 13). The time is split
 * between classes by estimate and kept for training if the probe measured
 * the task alone; the averages learn once everything the task had out has
 * been measured (a probe may see a command's fence after the probe that
 * saw its time, so single probes are noisy; their sum is not). */
static void drr_settle(struct hal_sched *s, struct drr_task *tt,
		       hal_u64 est, hal_u64 real, int alone)
{
	hal_u64 left = real, left_est = est;
	hal_u32 k, n = 0;

	hal_account(s, tt->t, real);
	tt->deficit += (hal_s64)est - (hal_s64)real;
	if (!tt->active && tt->deficit > 0)
		tt->deficit = 0;
	if (!alone)
		tt->acc_valid = 0;
	for (k = 0; k < DRR_CLASSES; k++) {
		hal_u64 part;

		if (!tt->done_n[k])
			continue;
		/* the last class takes the rest */
		part = tt->done_est[k] == left_est
			       ? left
			       : hal_mul_div64(left, tt->done_est[k], left_est);
		left -= part;
		left_est -= tt->done_est[k];
		tt->acc_n[k] += tt->done_n[k];
		tt->acc_real[k] += part;
		n += tt->acc_n[k];
		tt->done_n[k] = 0;
		tt->done_est[k] = 0;
	}
	if (!tt->inflight || n >= DRR_LEARN_BATCH)
		drr_learn_flush(s, tt);
}

static void drr_probe_gpu(struct hal_sched *s, hal_u32 gpu)
{
	struct drr_state *st = drr_state(s);
	struct drr_gpu *g = &st->gpus[gpu];
	struct plist *pos;
	hal_u64 total_est = 0, elapsed, busy, now = hal_now(s), left, left_est;
	hal_u32 total_n = 0, tasks = 0;

	plist_for_each(pos, &st->tasks) {
		struct drr_task *tt = plist_entry(pos, struct drr_task, node);
		hal_u32 n;
		hal_u64 est;

		if (tt->gpu != gpu || !tt->inflight)
			continue;
		est = drr_collect(s, tt, &n);
		if (!n)
			continue;
		tt->inflight -= n;
		total_n += n;
		total_est += est;
		tasks++;
	}
	if (!total_n)
		return; /* GERM: the time carries over to the next probe */

	busy = drr_busy(s, gpu);
	if (busy)
		g->has_busy = 1;
	/* 0 is a valid busy delta (the time was seen with earlier fences) */
	elapsed = st->busy_clock && g->has_busy ? busy - g->mark_busy
						 : now - g->mark_time;
	g->mark_time = now;
	g->mark_busy = busy;
	g->inflight -= total_n;
	g->inflight_est -= total_est;

	/* Several tasks: shares in proportion to their estimates; each takes
	 * its share of what is left, so the shares add up to `elapsed`. */
	left = elapsed;
	left_est = total_est;
	plist_for_each(pos, &st->tasks) {
		struct drr_task *tt = plist_entry(pos, struct drr_task, node);
		hal_u64 est = 0, real;
		hal_u32 k;

		if (tt->gpu != gpu)
			continue;
		for (k = 0; k < DRR_CLASSES; k++)
			est += tt->done_est[k];
		if (!est)
			continue;
		real = est == left_est ? left
				       : hal_mul_div64(left, est, left_est);
		left -= real;
		left_est -= est;
		drr_settle(s, tt, est, real, tasks == 1);
	}
	if (g->owner && !g->owner->inflight) {
		hal_trace_phase(s, g->owner->phase, g->owner->batch_start, now);
		g->owner = 0;
	}
}

int drr_any_work(struct hal_sched *s)
{
	struct drr_state *st = drr_state(s);
	struct plist *pos;

	plist_for_each(pos, &st->tasks) {
		struct drr_task *tt = plist_entry(pos, struct drr_task, node);

		if (tt->inflight || tt->active)
			return 1;
	}
	return 0;
}

/* Probe every GPU (probe: 1) or only dispatch (probe: 0). */
void drr_run(struct hal_sched *s, int probe)
{
	hal_u32 gpu, n = hal_gpu_count(s);

	if (n > DRR_MAX_GPUS)
		n = DRR_MAX_GPUS;
	for (gpu = 0; gpu < n; gpu++) {
		if (probe)
			drr_probe_gpu(s, gpu);
		drr_dispatch(s, gpu);
	}
}

void drr_tick(struct hal_sched *s)
{
	struct drr_state *st = drr_state(s);

	drr_run(s, 1);
	/* The thread sleeps while nothing is queued or outstanding. */
	if (drr_any_work(s))
		hal_timer_arm(s, DRR_TIMER_TICK, hal_now(s) + st->tick);
	else
		st->ticking = 0;
}
