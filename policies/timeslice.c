/* timeslice: NEON's Timeslice with overuse control (engaged) and
 * Disengaged Timeslice (ASPLOS'14, sections 3.1 and 3.2).
 *
 * A token passes round-robin among the tasks that have an open channel;
 * only its holder may submit. Engaged, every doorbell stays trapped: the
 * holder's trapped writes are allowed, everyone else's are held.
 * Disengaged, the holder's doorbells are left unprotected (direct access,
 * no trap cost) and only the other tasks' are trapped and held.
 *
 * At the end of a slice the holder's channels are trapped again so it
 * cannot submit more, and the token waits until the holder's outstanding
 * requests (published minus fence-completed, over its channels) are done,
 * as seen by the polling thread every `poll`. The time from the slice end
 * to that moment is the holder's overuse; once a task's accrued overuse
 * exceeds a slice it skips its next turn and the excess drops by a slice.
 * The next holder is then released and (disengaged) unprotected. The
 * scheduler is not work-conserving: an idle holder keeps the GPU idle
 * until its slice ends.
 *
 * Choices where the paper and NEON's published code differ (or where
 * neither says), decided here:
 *
 *  - Who gets the token. The paper passes it "among the active tasks";
 *    the code's token goes to every task with a channel on the device, and
 *    an idle one holds it (idle GPU) for a whole slice. `skip_idle: true`
 *    (default, the paper's reading) skips tasks with no outstanding and no
 *    held submission when the token is passed; `false` is the code.
 *  - No other task wants the token (alone, or every other task idle or
 *    skipping its turn): the holder keeps it for another slice without a
 *    drain, and its channels stay as they are (the code: with one task
 *    there is no drain and no re-protection). Alone, its overuse is
 *    forgiven (the code's "going solo" reset); with company that merely
 *    does not want the GPU now, the debt is kept for when they do.
 *  - Skipping a turn follows the paper and the code alike: every skip of
 *    a penalised task takes one slice off its overuse. The holder is the
 *    last candidate of one pass round the ring, so a pass never loops.
 *  - Overuse is measured as the code does, from the slice end to the
 *    polling tick that sees the last fence, so the polling granularity
 *    (and the fence's host-visible lag) is part of it.
 *  - Engaged, a holder that submits while being drained is held (the code
 *    blocks any submission while its end-of-slice update is pending).
 *  - Kill: the paper kills a task whose overuse passes a threshold; the
 *    code (compiled out by default there) kills a task whose channel has
 *    had outstanding work and no fence progress for 60 s of polling. Here
 *    the code's rule is on by default: `kill_after` 60s, 0 disables it.
 *    The token moves on when the task's channels are torn down. The code
 *    then gives every other channel a fresh stall clock, as they may only
 *    have been queued behind the victim. Here that is decided per channel
 *    when its kill is due: if the engine status registers show another
 *    channel running and none of the task's (a killed task's command still
 *    finishing on a non-preemptive engine), its stall clock restarts
 *    instead. Two MMIO reads, only when a kill is due.
 *  - The first task to open a channel takes the token at once; a holder
 *    whose last channel closes passes the token at once.
 *  - The polling thread runs every `poll` while any task has a channel,
 *    as NEON's 1 kHz thread does; it is the only cost of Disengaged
 *    Timeslice for a task alone (policy CPU, not the task's).
 *  - Accounting is an estimate (the policy does not time the engines):
 *    the holder is charged the time it held the token plus its overuse.
 *
 * Priority (hal_task_priority): ignored; the token visits every task
 * alike, with the same slice.
 */
#include "engines.h"
#include "policy.h"
#include "util.h"

enum {
	TS_TIMER_SLICE = 0, /* the holder's slice ends */
	TS_TIMER_POLL = 1,  /* the polling thread: fences, drain, kill */
};

#define TS_EINVAL 22
#define TS_PHASE_NAME 48

struct ts_task {
	struct plist node;   /* in ts_state.ring while it has channels */
	struct hal_task *t;
	struct plist chans;  /* its ts_chan */
	hal_u32 n_chans;
	hal_u8 in_ring;
	hal_u8 killed;       /* hal_task_kill asked; teardown may follow later */
	hal_u64 overuse;     /* accrued time run past slice ends */
	char phase[TS_PHASE_NAME]; /* "slice <task name>" */
};

struct ts_chan {
	struct plist node;   /* in ts_task.chans */
	struct hal_chan *c;
	struct ts_task *owner;
	hal_u64 last_fence;  /* fence at the last progress seen */
	hal_u64 stall_since; /* since when no progress with work outstanding */
};

struct ts_state {
	hal_u64 slice, poll, kill_after;
	hal_u8 engaged, skip_idle;

	struct plist ring;   /* tasks with open channels, in the token's order */
	hal_u32 n_ring;
	struct ts_task *holder;
	struct ts_task *next;   /* chosen at slice end, waiting for the drain */
	hal_u8 draining;
	hal_u8 polling;
	hal_u64 slice_start;    /* the holder got the token */
	hal_u64 slice_end;      /* its slice ended; the drain started */
};

/* Indices into the parameter table below (hal_param). */
enum {
	TS_P_SLICE,
	TS_P_ENGAGED,
	TS_P_POLL,
	TS_P_KILL_AFTER,
	TS_P_SKIP_IDLE,
	TS_N_PARAMS
};

static const struct gs_param_desc ts_params[] = {
	[TS_P_SLICE] = { "slice", GS_PARAM_DURATION, "30ms",
	  "time the token holder has the GPU to itself", 0 },
	[TS_P_ENGAGED] = { "engaged", GS_PARAM_BOOL, "false",
	  "trap every submission (Timeslice); false: Disengaged Timeslice", 0 },
	[TS_P_POLL] = { "poll", GS_PARAM_DURATION, "1ms",
	  "period of the polling thread that reads the fences", 0 },
	[TS_P_KILL_AFTER] = { "kill_after", GS_PARAM_DURATION, "60s",
	  "kill a task whose request shows no progress this long (0: never)", 0 },
	[TS_P_SKIP_IDLE] = { "skip_idle", GS_PARAM_BOOL, "true",
	  "pass the token over tasks with no outstanding or held work", 0 },
};
_Static_assert(sizeof(ts_params) / sizeof(ts_params[0]) == TS_N_PARAMS,
	       "one descriptor per index");

static struct ts_state *ts_state(struct hal_sched *s)
{
	return hal_priv(s);
}

static struct ts_task *ts_task_of(const struct hal_task *t)
{
	return hal_task_data(t);
}

/* ---- observing a task ---------------------------------------------- */

static hal_u64 ts_outstanding(struct hal_sched *s, const struct ts_task *tt)
{
	const struct plist *pos;
	hal_u64 n = 0;

	plist_for_each(pos, &tt->chans) {
		struct ts_chan *tc = plist_entry(pos, struct ts_chan, node);
		hal_u64 sub = hal_chan_submitted(s, tc->c);
		hal_u64 done = hal_fence_read(s, tc->c);

		if (sub > done)
			n += sub - done;
	}
	return n;
}

static int ts_idle(struct hal_sched *s, const struct ts_task *tt)
{
	return !hal_task_held(tt->t) && ts_outstanding(s, tt) == 0;
}

/* ---- traps ----------------------------------------------------------- */

/* Whether c's doorbell must trap now: engaged, always; disengaged, unless
 * its task holds the token and is not being drained. */
static int ts_want_trap(const struct ts_state *st, const struct ts_task *tt)
{
	return st->engaged || tt != st->holder || st->draining;
}

static void ts_set_traps(struct hal_sched *s, struct ts_task *tt)
{
	struct ts_state *st = ts_state(s);
	struct plist *pos;
	int arm = ts_want_trap(st, tt);

	plist_for_each(pos, &tt->chans) {
		struct ts_chan *tc = plist_entry(pos, struct ts_chan, node);

		if (arm)
			hal_trap_arm(s, tc->c);
		else
			hal_trap_disarm(s, tc->c);
	}
}

/* ---- the token --------------------------------------------------------- */

/* The ring member after `n`, skipping the list head. */
static struct ts_task *ts_ring_after(struct ts_state *st, struct plist *n)
{
	n = n->next;
	if (n == &st->ring)
		n = n->next;
	return plist_entry(n, struct ts_task, node);
}

/* Who gets the token next: one pass round the ring from `first`. Idle
 * tasks are passed over (skip_idle); a task whose overuse exceeds a slice
 * skips this turn and pays a slice off. The holder, if it is in the ring,
 * is the pass's last candidate and keeps the token when nobody before it
 * takes it. Without a holder and without a taker, `first` gets it. */
static struct ts_task *ts_pick(struct hal_sched *s, struct ts_task *first)
{
	struct ts_state *st = ts_state(s);
	struct ts_task *cand = first;
	hal_u32 i;

	for (i = 0; i < st->n_ring; i++) {
		if (cand == st->holder)
			return cand;
		if (st->skip_idle && ts_idle(s, cand)) {
			/* not wanting the GPU is not a turn taken */
		} else if (cand->overuse > st->slice) {
			cand->overuse -= st->slice;
		} else {
			return cand;
		}
		cand = ts_ring_after(st, &cand->node);
	}
	return first;
}

static void ts_start_slice(struct hal_sched *s, hal_u64 now)
{
	struct ts_state *st = ts_state(s);

	st->slice_start = now;
	hal_timer_arm(s, TS_TIMER_SLICE, now + st->slice);
}

/* Hand the token to `tt` (which may be the holder already). */
static void ts_give_token(struct hal_sched *s, struct ts_task *tt,
			  hal_u64 now)
{
	struct ts_state *st = ts_state(s);

	st->holder = tt;
	st->draining = 0;
	st->next = 0;
	ts_set_traps(s, tt);
	hal_task_release(s, tt->t);
	ts_start_slice(s, now);
}

static void ts_trace_slice(struct hal_sched *s, const struct ts_task *tt,
			   hal_u64 start, hal_u64 end)
{
	if (end > start)
		hal_trace_phase(s, tt->phase, start, end);
}

/* The drain of the holder is over: charge its overuse, pass the token. */
static void ts_end_drain(struct hal_sched *s, hal_u64 now)
{
	struct ts_state *st = ts_state(s);
	struct ts_task *h = st->holder;
	struct ts_task *nxt = st->next;
	hal_u64 over = now - st->slice_end;

	if (over) {
		h->overuse += over;
		hal_account(s, h->t, over);
		hal_trace_phase(s, "drain", st->slice_end, now);
	}
	if (!nxt) /* the chosen one left during the drain */
		nxt = ts_pick(s, ts_ring_after(st, &h->node));
	ts_give_token(s, nxt, now);
}

static void ts_slice_timer(struct hal_sched *s)
{
	struct ts_state *st = ts_state(s);
	struct ts_task *h = st->holder;
	struct ts_task *nxt;
	hal_u64 now = hal_now(s);

	if (!h || st->draining)
		return;
	ts_trace_slice(s, h, st->slice_start, now);
	hal_account(s, h->t, now - st->slice_start);
	if (st->n_ring == 1) {
		/* alone: keep the token, forget overuse from busier times */
		h->overuse = 0;
		ts_start_slice(s, now);
		return;
	}
	nxt = ts_pick(s, ts_ring_after(st, &h->node));
	if (nxt == h) {
		ts_start_slice(s, now);
		return;
	}
	/* Stop the holder submitting more and wait for what it has out. */
	st->next = nxt;
	st->draining = 1;
	st->slice_end = now;
	ts_set_traps(s, h);
	if (ts_outstanding(s, h) == 0)
		ts_end_drain(s, now);
}

/* ---- the polling thread --------------------------------------------- */

/* Update c's stall clock; whether it has been stuck for kill_after. */
static int ts_chan_stuck(struct hal_sched *s, struct ts_chan *tc, hal_u64 now)
{
	struct ts_state *st = ts_state(s);
	hal_u64 done = hal_fence_read(s, tc->c);

	if (hal_chan_submitted(s, tc->c) <= done || done != tc->last_fence) {
		tc->last_fence = done;
		tc->stall_since = now;
		return 0;
	}
	return st->kill_after && now - tc->stall_since >= st->kill_after;
}

/* Whether c's lack of progress is someone else's doing: no engine of its
 * GPU runs one of its task's channels, and one runs another channel (a
 * killed task's command still finishing on a non-preemptive engine, say).
 * Two status-register reads, made only when a kill is due. */
static int ts_blocked_by_other(struct hal_sched *s, const struct ts_chan *tc)
{
	return engines_running(s, hal_chan_gpu(tc->c), hal_chan_task(tc->c)) ==
	       ENGINES_RUN_OTHER;
}

/* The task to kill for a stuck request, if any. */
static struct ts_task *ts_find_stuck(struct hal_sched *s, hal_u64 now)
{
	struct ts_state *st = ts_state(s);
	struct ts_task *victim = 0;
	struct plist *tp, *cp;

	plist_for_each(tp, &st->ring) {
		struct ts_task *tt = plist_entry(tp, struct ts_task, node);

		plist_for_each(cp, &tt->chans) {
			struct ts_chan *tc =
				plist_entry(cp, struct ts_chan, node);

			if (!ts_chan_stuck(s, tc, now) || victim || tt->killed)
				continue;
			if (ts_blocked_by_other(s, tc))
				tc->stall_since = now; /* a fresh chance */
			else
				victim = tt;
		}
	}
	return victim;
}

static void ts_poll_timer(struct hal_sched *s)
{
	struct ts_state *st = ts_state(s);
	struct ts_task *victim;
	hal_u64 now = hal_now(s);

	if (!st->n_ring) {
		st->polling = 0;
		return;
	}
	hal_timer_arm(s, TS_TIMER_POLL, now + st->poll);
	victim = ts_find_stuck(s, now);
	if (victim) {
		victim->killed = 1;
		/* May tear the task down (and pass the token) right here. */
		hal_task_kill(s, victim->t, "request ran past kill_after");
	}
	if (st->draining && ts_outstanding(s, st->holder) == 0)
		ts_end_drain(s, now);
}

static void ts_start_polling(struct hal_sched *s, hal_u64 now)
{
	struct ts_state *st = ts_state(s);

	if (st->polling)
		return;
	st->polling = 1;
	hal_timer_arm(s, TS_TIMER_POLL, now + st->poll);
}

/* ---- tasks entering and leaving the ring --------------------------- */

static void ts_join(struct hal_sched *s, struct ts_task *tt)
{
	struct ts_state *st = ts_state(s);
	hal_u64 now = hal_now(s);

	plist_add_tail(&st->ring, &tt->node);
	tt->in_ring = 1;
	st->n_ring++;
	if (!st->holder) {
		st->holder = tt;
		st->draining = 0;
		ts_start_slice(s, now);
	}
	ts_start_polling(s, now);
}

static void ts_leave(struct hal_sched *s, struct ts_task *tt)
{
	struct ts_state *st = ts_state(s);
	hal_u64 now = hal_now(s);
	struct ts_task *succ = 0;

	if (st->n_ring > 1)
		succ = ts_ring_after(st, &tt->node);
	plist_del(&tt->node);
	tt->in_ring = 0;
	st->n_ring--;
	if (st->next == tt)
		st->next = 0;
	if (st->holder != tt)
		return;

	/* The holder leaves: charge what it used, pass the token now. */
	if (st->draining) {
		if (now > st->slice_end) {
			tt->overuse += now - st->slice_end;
			hal_account(s, tt->t, now - st->slice_end);
			hal_trace_phase(s, "drain", st->slice_end, now);
		}
	} else {
		ts_trace_slice(s, tt, st->slice_start, now);
		hal_account(s, tt->t, now - st->slice_start);
	}
	st->holder = 0;
	st->draining = 0;
	if (!succ) {
		st->next = 0;
		hal_timer_cancel(s, TS_TIMER_SLICE);
		hal_timer_cancel(s, TS_TIMER_POLL);
		st->polling = 0;
		return;
	}
	ts_give_token(s, st->next ? st->next : ts_pick(s, succ), now);
}

/* ---- ops --------------------------------------------------------------- */

static int ts_init(struct hal_sched *s)
{
	struct ts_state *st = ts_state(s);

	st->slice = hal_param(s, TS_P_SLICE);
	st->engaged = hal_param(s, TS_P_ENGAGED) != 0;
	st->poll = hal_param(s, TS_P_POLL);
	st->kill_after = hal_param(s, TS_P_KILL_AFTER);
	st->skip_idle = hal_param(s, TS_P_SKIP_IDLE) != 0;
	if (!st->slice || !st->poll)
		return -TS_EINVAL;
	plist_init(&st->ring);
	return 0;
}

static void ts_task_create(struct hal_sched *s, struct hal_task *t)
{
	static const char prefix[] = "slice ";
	struct ts_task *tt = hal_zalloc(s, sizeof(*tt));
	const char *name = hal_task_name(t);
	hal_u32 i = 0, j;

	if (!tt)
		return;
	tt->t = t;
	plist_init(&tt->node);
	plist_init(&tt->chans);
	for (j = 0; prefix[j]; j++)
		tt->phase[i++] = prefix[j];
	for (j = 0; name[j] && i < TS_PHASE_NAME - 1; j++)
		tt->phase[i++] = name[j];
	hal_task_set_data(t, tt);
}

static void ts_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct ts_task *tt = ts_task_of(t);

	if (!tt)
		return;
	if (tt->in_ring)
		ts_leave(s, tt);
	hal_task_set_data(t, 0);
	hal_free(s, tt);
}

static void ts_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	struct ts_task *tt = ts_task_of(hal_chan_task(c));
	struct ts_chan *tc;

	if (!tt)
		return;
	tc = hal_zalloc(s, sizeof(*tc));
	if (!tc) {
		hal_trap_arm(s, c); /* unknown to us, but never unchecked */
		return;
	}
	tc->c = c;
	tc->owner = tt;
	tc->last_fence = hal_fence_read(s, c);
	tc->stall_since = hal_now(s);
	plist_add_tail(&tt->chans, &tc->node);
	tt->n_chans++;
	hal_chan_set_data(c, tc);
	if (!tt->in_ring)
		ts_join(s, tt);
	if (ts_want_trap(ts_state(s), tt))
		hal_trap_arm(s, c);
	else
		hal_trap_disarm(s, c);
}

static void ts_channel_destroy(struct hal_sched *s, struct hal_chan *c)
{
	struct ts_chan *tc = hal_chan_data(c);
	struct ts_task *tt;

	if (!tc)
		return;
	tt = tc->owner;
	plist_del(&tc->node);
	tt->n_chans--;
	hal_chan_set_data(c, 0);
	hal_free(s, tc);
	if (!tt->n_chans && tt->in_ring)
		ts_leave(s, tt);
}

static int ts_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct ts_state *st = ts_state(s);
	struct ts_task *tt = ts_task_of(hal_chan_task(c));

	if (tt && tt == st->holder && !st->draining)
		return GS_SUBMIT_ALLOW;
	return GS_SUBMIT_HOLD;
}

static void ts_trace_open(struct hal_sched *s)
{
	struct ts_state *st = ts_state(s);
	hal_u64 now = hal_now(s);

	if (!st->holder)
		return;
	if (!st->draining)
		ts_trace_slice(s, st->holder, st->slice_start, now);
	else if (now > st->slice_end)
		hal_trace_phase(s, "drain", st->slice_end, now);
}

static void ts_timer(struct hal_sched *s, hal_u32 id)
{
	if (id == TS_TIMER_SLICE)
		ts_slice_timer(s);
	else if (!HAL_WARN_ON(s, id != TS_TIMER_POLL)) /* its only two */
		ts_poll_timer(s);
}

const struct gs_policy_ops gs_policy_timeslice = {
	.name = "timeslice",
	.summary = "NEON token-passing timeslice with overuse control; "
		   "disengaged unless engaged: true",
	.priority = "ignored: every task gets the same slice",
	.params = ts_params,
	.n_params = sizeof(ts_params) / sizeof(ts_params[0]),
	.priv_size = sizeof(struct ts_state),
	.init = ts_init,
	.task_create = ts_task_create,
	.task_exit = ts_task_exit,
	.channel_create = ts_channel_create,
	.channel_destroy = ts_channel_destroy,
	.submit = ts_submit,
	.timer = ts_timer,
	.trace_open = ts_trace_open,
};
