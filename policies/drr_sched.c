/* drr (see drr.c): the scheduler proper. Estimates of a command's cost
 * (GERM's content heuristics, or per class), the tasks' queues and the
 * deficit round robin that forwards their commands, and the timing thread
 * that reads the fences, charges what completed and learns the
 * coefficients. */
#include "drr_priv.h"

/* ---- estimates ------------------------------------------------------- */

/* What a queued command is estimated by (GERM 4.5): the first of its
 * texture bytes, buffer swaps, vertices and command bytes that it has,
 * "in the order they are mentioned", each with a coefficient per unit;
 * without contents (or with `heuristics: false`), its class, one unit. */
struct drr_basis {
	hal_u32 slot, units;
	hal_u8 measured; /* drr_estimate used a measured coefficient */
	hal_u8 guess;    /* ... or had neither one nor a hint: a quantum */
};

static struct drr_basis drr_basis_of(struct hal_sched *s, struct hal_chan *c)
{
	struct hal_cmd_content ct;
	hal_u32 cls;

	if (drr_state(s)->heuristics && hal_shadow_peek_content(s, c, &ct)) {
		if (ct.texture_bytes)
			return (struct drr_basis){ DRR_SLOT_TEXTURE,
						   ct.texture_bytes, 0, 0 };
		if (ct.swaps)
			return (struct drr_basis){ DRR_SLOT_SWAP, ct.swaps,
						   0, 0 };
		if (ct.vertices)
			return (struct drr_basis){ DRR_SLOT_VERTICES,
						   ct.vertices, 0, 0 };
		if (ct.cmd_bytes)
			return (struct drr_basis){ DRR_SLOT_BYTES,
						   ct.cmd_bytes, 0, 0 };
	}
	cls = hal_shadow_peek_class(s, c);
	if (cls >= DRR_CLASSES)
		cls = DRR_CLASSES - 1;
	return (struct drr_basis){ cls, 1, 0, 0 };
}

static hal_u32 drr_estimate_kind(hal_u32 slot)
{
	switch (slot) {
	case DRR_SLOT_TEXTURE: return HAL_EST_TEXTURE;
	case DRR_SLOT_SWAP: return HAL_EST_SWAP;
	case DRR_SLOT_VERTICES: return HAL_EST_VERTICES;
	case DRR_SLOT_BYTES: return HAL_EST_BYTES;
	default: return HAL_EST_CLASS;
	}
}

/* The coefficient times the size; a slot not measured yet costs one
 * quantum (the command goes out alone in a fresh visit and is measured).
 * b->measured says whether a measured coefficient made it, b->guess
 * whether it is that quantum. */
static hal_u64 drr_estimate(struct hal_sched *s, const struct drr_task *tt,
			    struct hal_chan *c, struct drr_basis *b)
{
	struct drr_state *st = drr_state(s);
	hal_u64 est;

	if (st->oracle) {
		hal_u64 hint = hal_shadow_peek_hint(s, c);

		if (hint)
			return hint;
	}
	if (!(tt->known & (1u << b->slot))) {
		b->guess = 1;
		return st->quantum;
	}
	/* to the nearest ns: coefficients are truncated when learnt */
	est = (hal_mul_div64(tt->coef[b->slot], b->units,
			     1u << (DRR_COEF_SHIFT - 1)) + 1) >> 1;
	b->measured = 1;
	return est ? est : 1; /* an estimate is never 0 */
}

/* One measurement: `real` ns for `units` units of the slot's measure. */
static void drr_learn(struct hal_sched *s, struct drr_task *tt, hal_u32 slot,
		      hal_u64 real, hal_u64 units)
{
	hal_u32 k = drr_state(s)->avg_shift;
	hal_u64 *coef = &tt->coef[slot];
	hal_u64 cost = hal_mul_div64(real, 1u << DRR_COEF_SHIFT, units);

	if (!cost)
		cost = 1; /* an estimate is never 0 */
	if (!(tt->known & (1u << slot))) {
		*coef = cost;
		tt->known |= (hal_u16)(1u << slot);
	} else if (cost >= *coef) {
		*coef += (cost - *coef) >> k;
	} else {
		*coef -= (*coef - cost) >> k;
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

/* Whether the GPU's batches are timed by the wall clock: `busy_clock:
 * false`, or a HAL whose busy counter had not moved by the first probe
 * that measured (it has none). */
static int drr_wall_clocked(const struct drr_state *st,
			    const struct drr_gpu *g)
{
	return !st->busy_clock || (g->probed && !g->has_busy);
}

static void drr_mark(struct hal_sched *s, struct drr_gpu *g, hal_u32 gpu)
{
	g->mark_time = hal_now(s);
	g->mark_busy = drr_busy(s, gpu);
}

/* Whether the command the task would forward next is estimated by a
 * guess (its kind not measured yet). */
static int drr_next_is_guess(struct hal_sched *s, struct drr_task *tt)
{
	struct drr_chan *tc = drr_next_chan(s, tt);
	struct drr_basis b;

	if (!tc)
		return 0;
	b = drr_basis_of(s, tc->c);
	drr_estimate(s, tt, tc->c, &b);
	return b.guess;
}

/* Forward the task's queued commands while their estimates fit its
 * deficit. Returns how many went out.
 *
 * Without `exclusive`, a command estimated by a guess goes out only on a
 * GPU with nothing of ours outstanding, and alone (*alone is then set:
 * the GPU is the task's until the probe sees it done). Only probes that
 * see one task's completions train, and beside other tasks' work a
 * command estimated by a quantum would never be measured: its kind kept
 * the guess for good and the task was charged by it, a quantum a
 * command whatever the command cost. */
static hal_u32 drr_forward(struct hal_sched *s, struct drr_task *tt,
			   int *alone)
{
	struct drr_gpu *g = drr_gpu_of(s, tt);
	int exclusive = drr_state(s)->exclusive;
	hal_u32 sent = 0;

	for (;;) {
		struct drr_chan *tc = drr_next_chan(s, tt);
		struct drr_chunk *ch;
		struct drr_basis b;
		hal_u64 est;

		if (!tc)
			break;
		b = drr_basis_of(s, tc->c);
		est = drr_estimate(s, tt, tc->c, &b);
		if ((hal_s64)est > tt->deficit)
			break;
		if (b.guess && !exclusive) {
			if (g->inflight)
				break;
			*alone = 1;
		}
		/* the HAL may compare it with the truth (GERM 6.4) */
		if (b.measured)
			hal_note_estimate(s, tc->c, drr_estimate_kind(b.slot),
					  est);
		if (!g->inflight)
			drr_mark(s, g, tt->gpu);
		tt->deficit -= (hal_s64)est;
		ch = &tc->chunks[(tc->head + tc->len) % DRR_CHUNKS];
		ch->est = est;
		ch->units = b.units;
		ch->slot = (hal_u8)b.slot;
		tc->len++;
		tt->inflight++;
		g->inflight++;
		g->inflight_est += est;
		hal_shadow_forward(s, tc->c, 1);
		tt->cursor = drr_chan_after(tt, tc);
		sent++;
		if (*alone)
			break;
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
 * more (exclusive, or a batch out that must be alone: nothing of ours
 * outstanding; else: the estimated outstanding work below the window).
 * Without `exclusive`, a task whose next command is a guess waits at the
 * head, the others with it, until the GPU has nothing of ours (see
 * drr_forward). */
void drr_dispatch(struct hal_sched *s, hal_u32 gpu)
{
	struct drr_state *st = drr_state(s);
	struct drr_gpu *g = &st->gpus[gpu];
	hal_u32 visits;
	hal_u64 before = g->inflight_est;

	for (visits = 0; visits < DRR_MAX_VISITS; visits++) {
		struct drr_task *tt;
		hal_u32 sent;

		int alone = 0;

		if (plist_empty(&g->active))
			break;
		if (st->exclusive || g->owner ? g->inflight != 0
					      : g->inflight_est >= st->window)
			break;
		tt = plist_entry(g->active.next, struct drr_task, ring);
		if (!st->exclusive && g->inflight && drr_next_is_guess(s, tt))
			break;
		plist_del(&tt->ring);
		plist_add_tail(&g->active, &tt->ring);
		tt->deficit += (hal_s64)tt->quantum;
		sent = drr_forward(s, tt, &alone);
		if (!drr_backlogged(s, tt))
			drr_deactivate(tt);
		if (sent && (st->exclusive || alone)) {
			g->owner = tt;
			tt->batch_start = hal_now(s);
			/* Not on the wall clock: a probe timed from the
			 * estimate would measure the estimate plus the
			 * delay whenever the batch was done by then,
			 * whatever it cost, and the estimate would creep
			 * up by early_probe / 2^avg_shift a batch until a
			 * tick came first; its phase against the ticks,
			 * and so the tasks' order, then set every charge.
			 * GERM's timing thread has only the tick. */
			if (st->early_probe && !drr_wall_clocked(st, g)) {
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
			tt->done_n[ch->slot]++;
			tt->done_est[ch->slot] += ch->est;
			tt->done_units[ch->slot] += ch->units;
			est += ch->est;
			n++;
		}
	}
	*n_out = n;
	return est;
}

/* Train the coefficients from what was measured of the task alone since
 * its work in flight was last all seen: one sample, its time exact in
 * sum. Probes cannot say how it divides between the commands (a probe may
 * see a command's fence after the one that saw its time), so:
 *  - one slot in it: a pure sample, time over units (and the slot is
 *    then "exact");
 *  - several, one of them not exact: the exact ones are taken at their
 *    estimates and it gets the rest, its true time if they are right;
 *  - several not exact: they share the rest in proportion to their
 *    estimates;
 *  - all exact: nothing is learnt. Splitting by estimates cannot correct
 *    them when every batch mixes the same kinds (any coefficients whose
 *    estimates add up to the batch's time fit), and would blame one kind
 *    for another's error; pure samples keep them up to date. */
static void drr_learn_flush(struct hal_sched *s, struct drr_task *tt)
{
	hal_u64 est_exact = 0, est_open = 0, rest;
	hal_u32 k, slots = 0, n_open = 0, last = 0;

	for (k = 0; k < DRR_SLOTS; k++) {
		if (!tt->acc_n[k] || !tt->acc_units[k])
			continue;
		slots++;
		last = k;
		if (tt->exact & (1u << k)) {
			est_exact += tt->acc_est[k];
		} else {
			est_open += tt->acc_est[k];
			n_open++;
		}
	}
	rest = tt->acc_time > est_exact ? tt->acc_time - est_exact : 0;
	if (tt->acc_valid && slots == 1) {
		drr_learn(s, tt, last, tt->acc_time, tt->acc_units[last]);
		tt->exact |= (hal_u16)(1u << last);
	} else if (tt->acc_valid && n_open) {
		for (k = 0; k < DRR_SLOTS; k++) {
			if (!tt->acc_n[k] || !tt->acc_units[k] ||
			    (tt->exact & (1u << k)))
				continue;
			drr_learn(s, tt, k,
				  n_open == 1 ? rest
					      : hal_mul_div64(rest,
							      tt->acc_est[k],
							      est_open),
				  tt->acc_units[k]);
		}
	}
	for (k = 0; k < DRR_SLOTS; k++) {
		tt->acc_n[k] = 0;
		tt->acc_est[k] = 0;
		tt->acc_units[k] = 0;
	}
	tt->acc_time = 0;
	tt->acc_valid = 1;
}

/* Charge the task `real` for its completions of this probe and correct
 * its deficit by estimated minus real (Fig. 13); what it measured goes
 * into the training sums, which learn once everything the task had out
 * has been seen (or every DRR_LEARN_BATCH commands). */
static void drr_settle(struct hal_sched *s, struct drr_task *tt,
		       hal_u64 est, hal_u64 real, int alone)
{
	hal_u32 k, n = 0;

	hal_account(s, tt->t, real);
	tt->deficit += (hal_s64)est - (hal_s64)real;
	if (!tt->active && tt->deficit > 0)
		tt->deficit = 0;
	if (!alone)
		tt->acc_valid = 0;
	tt->acc_time += real;
	for (k = 0; k < DRR_SLOTS; k++) {
		tt->acc_n[k] += tt->done_n[k];
		tt->acc_est[k] += tt->done_est[k];
		tt->acc_units[k] += tt->done_units[k];
		n += tt->acc_n[k];
		tt->done_n[k] = 0;
		tt->done_est[k] = 0;
		tt->done_units[k] = 0;
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
	g->probed = 1;
	/* 0 is a valid busy delta (the time was seen with earlier fences) */
	elapsed = drr_wall_clocked(st, g) ? now - g->mark_time
					  : busy - g->mark_busy;
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
		for (k = 0; k < DRR_SLOTS; k++)
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
