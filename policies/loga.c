/* loga: low-overhead GPU accounting by status-register polling (LoGA,
 * Kehne et al., SYSTOR'17, sections 3-4), with NEON's disengaged fair
 * queueing on top.
 *
 * Unlike dfq, nobody is stopped to be measured: all tasks keep running and
 * a kernel thread watches the compute engine. Time is cut into epochs of
 *
 *   poll   hal_poll_start() reads the engine's status register back to
 *          back (one MMIO read per iteration, the thread busy all along)
 *          for event_T x the channels occupied on the GPU;
 *   sleep  nothing is read for event_X x that (event_X = 0: poll all the
 *          time, the setting of the paper's accuracy experiments 5.4).
 *
 * Both lengths grow with the number of channels so that each channel is
 * seen switching often enough (paper 3.3); with `randomize` each is drawn
 * uniformly from [mean/2, 3 mean/2), keeping the mean (paper 3.3: "the
 * accounting thread can randomize the lengths of both intervals, while
 * keeping the average interval lengths equal").
 *
 * Accounting (paper 3.3, 4.1). The poll loop reports the first sample and
 * every change of the register. From each sample the policy works out
 * which channel the engine is working for, its owner:
 *
 *   - nobody if no context is loaded (cur_id NONE) or one is being loaded
 *     or saved (ctx_status LOADING / SAVING: no command runs);
 *   - the loaded channel if the register says a command is executing;
 *   - otherwise the loaded channel if its channel-RAM entry shows work
 *     (pending, on the engine), nobody if it is idle (paper 4.1: "if no
 *     commands are pending for the current channel ... LoGA considers the
 *     GPU to be idle and does not account any computation time"). That
 *     read is one MMIO read, made only when the busy bit is clear.
 *
 * When the owner changes (a context switch, or the channel going idle)
 * the time since the previous change is charged to the task owning the
 * previous channel: one segment. The last segment of a poll phase is
 * closed at its end, so a command longer than the phase is charged the
 * whole phase (paper 3.3). Nothing is measured while sleeping.
 *
 * Virtual time (paper 3.4; policies/vtime.h). At the end of each poll
 * phase, with t_app the time measured for a task in it, t_total the sum
 * over tasks and the epoch t_poll + t_nonpoll:
 *
 *   metric total (default, LoGA):   delta = t_app / t_total x epoch
 *   mean_segment (LoGA-CL, Fig. 11): delta = m_app / sum m x epoch,
 *                                    m = t_app / segments (mean time
 *                                    between context switches)
 *
 * A task is active if it was measured in the poll phase, is held at a
 * trap (a denied task that wants the GPU: without this a task denied while
 * the others go idle would never be let go), or has work waiting on the
 * polled GPU when the phase ends (channel RAM not idle: the paper's own
 * "active" channel, 4.1, "executing a command, or contains commands
 * awaiting execution"). Only active tasks set the system vtime (paper:
 * "the scheduler ignores applications that were not active in the
 * preceding polling phase"), idle ones are pulled forward to it, and a
 * task ahead of it by at least one epoch is denied: its
 * channels' doorbells are trapped and its next submission held until a
 * later decision lets it go. The others' traps are disarmed and held tasks
 * released. With `account_only` nobody is denied (paper 5.3: scheduling
 * off to show the accounting overhead alone).
 *
 * Accounted GPU time (hal_account): the time measured in the poll phase
 * scaled up to the epoch, t_app x epoch / t_poll: LoGA's estimate of what
 * the task used in the epoch. With event_X = 0 that is the measured time
 * itself.
 *
 * Decisions where the paper leaves room (the published LoGA code is GPL;
 * only facts and parameters were taken from it):
 *
 * - Epoch of the vtime rule: the measured time since the previous
 *   decision (the sleep before the poll phase plus the poll phase), the
 *   paper's "sum of the lengths of both polling and non-polling phase";
 *   the first epoch is the first poll phase alone.
 * - Deny: paper "ahead ... by more than (t_poll + t_nonpoll)" and
 *   "suspends GPU access ... for the next non-polling phase". We use dfq's
 *   rule (vt_decide: ahead by at least the nominal length of the next
 *   epoch) and keep a denied task held until the next decision, so it is
 *   not running while the next poll phase measures the others.
 * - Occupied channels: the channels open on the polled GPU when the phase
 *   starts (paper: "per allocated command submission channel"). With no
 *   channel the thread sleeps until one is created (paper 4.2 wakes the
 *   main thread on channel creation).
 * - One GPU: the loop polls GPU 0. The paper's round robin of one thread
 *   over several GPUs (5.6) is not modelled; tasks elsewhere are neither
 *   measured nor denied.
 * - The status register of the HAL carries a busy bit and the context
 *   state; the paper's hardware needed channel RAM for both. We read
 *   channel RAM only when the busy bit alone cannot tell (see above).
 * - Randomised lengths: uniform on [mean/2, 3 mean/2); the paper gives no
 *   distribution.
 * - Activity: "measured in the poll phase" alone would call a task idle
 *   while its commands wait behind another task's command that outlasts
 *   the poll phase (a 10 ms kernel against a 2 ms phase), pull it forward
 *   to the hog's vtime every epoch, and never deny the hog. Pending work
 *   in channel RAM counts too; it costs one MMIO read per channel of a
 *   task that was not measured, once per decision. It does not count for
 *   a channel never measured in any poll phase when the engine idled in
 *   this one: its work is for another engine (copies), which LoGA does
 *   not measure, and counted it would stop the system vtime for good.
 *
 * Timers: 0 = end of the sleep phase.
 *
 * Priority (hal_task_priority): ignored; only `weight` scales a task's share.
 */
#include "acct_engine_def.h"
#include "gate.h"
#include "loga.h"

/* loga's own table: the phase block, account_only, the metric block. */
enum {
	LOGA_P_ACCOUNT_ONLY = LOGA_N_PHASE_PARAMS,
	LOGA_METRIC_BASE,
	LOGA_N_PARAMS = LOGA_METRIC_BASE + LOGA_N_METRIC_PARAMS
};

static const struct gs_param_desc loga_params[] = {
	LOGA_PHASE_PARAM_DESCS(0)
	[LOGA_P_ACCOUNT_ONLY] = { "account_only", GS_PARAM_BOOL, "false",
	  "measure and keep virtual times but never deny a task", 0 },
	LOGA_METRIC_PARAM_DESCS(LOGA_METRIC_BASE)
};
_Static_assert(sizeof(loga_params) / sizeof(loga_params[0]) == LOGA_N_PARAMS,
	       "one descriptor per index");

static const struct loga_slots loga_own_slots = {
	.event_t = LOGA_P_EVENT_T,
	.event_x = LOGA_P_EVENT_X,
	.randomize = LOGA_P_RANDOMIZE,
	.account_only = LOGA_P_ACCOUNT_ONLY,
	.mean_segment = LOGA_METRIC_BASE + LOGA_P_MEAN_SEGMENT,
};

/* ---- small helpers ------------------------------------------------------ */

static struct loga_task *task_of(struct plist *pos)
{
	return plist_entry(plist_entry(pos, struct vt_task, link),
			   struct loga_task, vt);
}

/* Deny (`arm`) or let go the task's submissions (gate.h). */
static void task_set_traps(struct hal_sched *s, struct loga_task *lt,
			   int arm)
{
	struct plist *pos;

	plist_for_each(pos, &lt->chans)
		gate_chan(s, plist_entry(pos, struct loga_chan, ac.link)->ac.c,
			  lt->shadow_gate, arm);
}

/* A denied task that wants the GPU: held at a trap, or with requests in
 * its shadow channels. */
static int task_waiting(struct hal_sched *s, struct loga_task *lt)
{
	struct plist *pos;

	plist_for_each(pos, &lt->chans)
		if (gate_chan_waiting(s,
			plist_entry(pos, struct loga_chan, ac.link)->ac.c,
			lt->shadow_gate))
			return 1;
	return 0;
}

/* A phase length with mean `mean`: fixed, or uniform on
 * [mean/2, 3 mean/2) from the HAL's random source. */
static hal_u64 phase_len(struct hal_sched *s, const struct loga *l,
			 hal_u64 mean)
{
	hal_u64 r;

	if (!l->randomize || mean < 2)
		return mean;
	r = hal_random(s) >> 32;
	return (mean >> 1) + hal_mul_div64(r, mean, (hal_u64)1 << 32);
}

static hal_u64 poll_mean(const struct loga *l)
{
	return l->event_t * (l->n_chans ? l->n_chans : 1);
}

/* ---- accounting --------------------------------------------------------- */

/* Charge the open segment up to `end` to its owner and close it. */
static void close_segment(struct loga *l, hal_u64 end)
{
	struct loga_chan *lc = l->seg;

	l->seg = 0;
	if (end <= l->seg_start)
		return;
	if (!lc) {
		l->idle_seen = 1;
		return;
	}
	lc->lt->poll_ns += end - l->seg_start;
	lc->lt->segments++;
	lc->measured = 1;
}

/* The channel the engine works for in this sample, or 0 (see the top). */
static struct loga_chan *sample_owner(struct hal_sched *s,
				      const struct hal_engine_status *st)
{
	struct hal_chan *c;

	if (st->cur_id == HAL_CHAN_NONE || st->ctx_status != HAL_CTX_VALID)
		return 0;
	c = hal_chan_lookup(s, LOGA_GPU, st->cur_id);
	if (!c)
		return 0;
	if (!st->busy && hal_read_chram(s, c) == HAL_CHRAM_IDLE)
		return 0;
	return hal_chan_data(c);
}

/* Whether one of the task's channels on the polled GPU has a command
 * running or waiting (channel RAM, one MMIO read per channel) that may be
 * for the polled engine. Channel RAM does not say for which engine: the
 * work of a channel never seen on the polled engine, left waiting while
 * that engine worked for nobody, is for another one (a copy channel: LoGA
 * polls compute). As active its task would hold the system vtime where it
 * is for ever, its vtime never charged, and every measured task would be
 * denied for good (seed 696: a copy-only task). Per channel, not per
 * task: a task once measured on the polled engine whose work is then all
 * copies held the system vtime the same way (seed 733 of the generator's
 * edition 4, hdfq's nested mode over LoGA: a VM whose trace tasks had
 * run kernels kept one copy throttle, and every other entity was denied
 * for the last 2.6 s of a 3 s run). */
static int may_wait_for_polled_engine(struct hal_sched *s,
				      const struct loga *l,
				      const struct loga_task *lt)
{
	struct plist *pos;

	plist_for_each(pos, &lt->chans) {
		struct loga_chan *lc = plist_entry(pos, struct loga_chan, ac.link);

		if (lc->on_gpu && (lc->measured || !l->idle_seen) &&
		    hal_read_chram(s, lc->ac.c) != HAL_CHRAM_IDLE)
			return 1;
	}
	return 0;
}

/* ---- the epoch ---------------------------------------------------------- */

static void start_poll(struct hal_sched *s, struct loga *l)
{
	hal_u64 now = hal_now(s), len;
	struct plist *pos;

	if (!l->n_chans) {
		l->state = LOGA_IDLE;
		return;
	}
	if (l->state == LOGA_IDLE)
		l->epoch_start = now;
	plist_for_each(pos, &l->vt.tasks) {
		struct loga_task *lt = task_of(pos);

		lt->poll_ns = 0;
		lt->segments = 0;
	}
	len = phase_len(s, l, poll_mean(l));
	if (!len)
		len = 1;
	l->state = LOGA_POLL;
	l->phase_start = now;
	l->seg = 0;
	l->seg_start = now;
	l->idle_seen = 0;
	hal_poll_start(s, LOGA_GPU, HAL_ENGINE_COMPUTE, now + len);
}

/* The task's vtime usage in the epoch just ended. */
static hal_u64 epoch_usage(const struct loga *l, const struct loga_task *lt,
			   hal_u64 total, hal_u64 sum_mean, hal_u64 epoch)
{
	if (!lt->poll_ns)
		return 0;
	if (!l->mean_segment)
		return vt_share(lt->poll_ns, total, epoch);
	return vt_share(hal_div64(lt->poll_ns, lt->segments), sum_mean, epoch);
}

/* End of a poll phase: vtimes, deny decisions, then the sleep. */
static void decide(struct hal_sched *s, struct loga *l)
{
	hal_u64 now = hal_now(s), total = 0, sum_mean = 0, epoch, t_poll;
	hal_u64 sleep_mean, sleep, next_epoch;
	struct plist *pos;

	close_segment(l, now);
	t_poll = now - l->phase_start;
	epoch = now - l->epoch_start;
	hal_trace_phase(s, "poll", l->phase_start, now);
	plist_for_each(pos, &l->vt.tasks) {
		struct loga_task *lt = task_of(pos);

		total += lt->poll_ns;
		if (lt->segments)
			sum_mean += hal_div64(lt->poll_ns, lt->segments);
	}
	plist_for_each(pos, &l->vt.tasks) {
		struct loga_task *lt = task_of(pos);

		lt->vt.usage = epoch_usage(l, lt, total, sum_mean, epoch);
		lt->vt.active = lt->poll_ns || task_waiting(s, lt) ||
				may_wait_for_polled_engine(s, l, lt);
		if (lt->poll_ns && t_poll && !lt->unreported)
			hal_account(s, lt->t,
				    hal_mul_div64(lt->poll_ns, epoch, t_poll));
	}
	vt_epoch_end(&l->vt);

	sleep_mean = poll_mean(l) * l->event_x;
	next_epoch = poll_mean(l) + sleep_mean;
	vt_decide(&l->vt, next_epoch, !l->account_only);
	plist_for_each(pos, &l->vt.tasks) {
		struct loga_task *lt = task_of(pos);

		if (!lt->unreported)
			hal_set_vtime(s, lt->t, lt->vt.vtime);
		task_set_traps(s, lt, lt->vt.denied);
		if (!lt->vt.denied && !lt->shadow_gate)
			hal_task_release(s, lt->t);
	}
	l->epoch_start = now;

	sleep = phase_len(s, l, sleep_mean);
	if (!sleep) {
		start_poll(s, l);
		return;
	}
	l->state = LOGA_SLEEP;
	l->phase_start = now;
	hal_timer_arm(s, LOGA_TIMER_WAKE, now + sleep);
}

/* ---- ops ---------------------------------------------------------------- */

int loga_init(struct hal_sched *s, struct loga *l,
	      const struct loga_slots *slots)
{
	vt_init(&l->vt);
	l->event_t = hal_param(s, slots->event_t);
	l->event_x = (hal_u32)hal_param(s, slots->event_x);
	l->randomize = (hal_u8)hal_param(s, slots->randomize);
	l->account_only = (hal_u8)hal_param(s, slots->account_only);
	l->mean_segment = (hal_u8)hal_param(s, slots->mean_segment);
	if (!l->event_t)
		l->event_t = 1;
	l->state = LOGA_IDLE;
	l->epoch_start = hal_now(s);
	return 0;
}

static void loga_trace_open(struct hal_sched *s, struct loga *l)
{
	hal_u64 now = hal_now(s);

	if (now <= l->phase_start)
		return;
	if (l->state == LOGA_POLL)
		hal_trace_phase(s, "poll", l->phase_start, now);
	else if (l->state == LOGA_SLEEP)
		hal_trace_phase(s, "sleep", l->phase_start, now);
}

/* Free the entity's records; forget: its channels live on. */
static void entity_release(struct hal_sched *s, struct loga_task *lt,
			   int forget)
{
	acct_entity_release(s, lt, &lt->vt, &lt->chans,
			    ACCT_CHAN_OFF(struct loga_chan), forget);
}

static void loga_fini(struct hal_sched *s, struct loga *l)
{
	loga_trace_open(s, l);
	if (l->state == LOGA_POLL)
		hal_poll_stop(s);
	hal_timer_cancel(s, LOGA_TIMER_WAKE);
	l->seg = 0;
	while (!plist_empty(&l->vt.tasks))
		entity_release(s, task_of(l->vt.tasks.next), 0);
}

static struct loga_task *loga_entity_new(struct hal_sched *s, struct loga *l,
					 struct hal_task *t, hal_u32 weight)
{
	struct loga_task *lt = hal_zalloc(s, sizeof(*lt));

	if (!lt)
		return 0;
	lt->t = t;
	plist_init(&lt->chans);
	vt_task_add(&l->vt, &lt->vt, weight);
	hal_set_vtime(s, t, lt->vt.vtime);
	return lt;
}

static void loga_entity_free(struct hal_sched *s, struct loga *l,
			     struct loga_task *lt)
{
	/* what it was measured using in the unfinished poll phase */
	if (l->state == LOGA_POLL && lt->poll_ns && !lt->unreported)
		hal_account(s, lt->t, lt->poll_ns);
	entity_release(s, lt, 1);
}

static void loga_chan_attach(struct hal_sched *s, struct loga *l,
			     struct loga_task *lt, struct hal_chan *c)
{
	struct loga_chan *lc = ACCT_CHAN_NEW(s, struct loga_chan, &lt->chans,
					     c);

	if (!lc)
		return;
	lc->lt = lt;
	lc->on_gpu = hal_chan_gpu(c) == LOGA_GPU;
	gate_chan(s, c, lt->shadow_gate, lt->vt.denied);
	if (lc->on_gpu) {
		l->n_chans++;
		if (l->state == LOGA_IDLE)
			start_poll(s, l);
	}
}

static void loga_chan_detach(struct hal_sched *s, struct loga *l,
			     struct hal_chan *c)
{
	struct loga_chan *lc = hal_chan_data(c);

	if (!lc)
		return;
	/* its open segment ends now */
	if (l->seg == lc)
		close_segment(l, hal_now(s));
	if (lc->on_gpu && l->n_chans)
		l->n_chans--;
	acct_chan_free(s, lc, ACCT_CHAN_OFF(struct loga_chan));
}

static struct loga_task *chan_task(struct hal_chan *c)
{
	struct loga_chan *lc = hal_chan_data(c);

	return lc ? lc->lt : 0;
}

static int loga_submit(struct hal_sched *s, struct loga *l,
		       struct hal_chan *c)
{
	struct loga_task *lt = chan_task(c);

	(void)l; /* the entity's own denied flag tells */
	if (lt && lt->vt.denied)
		return GS_SUBMIT_HOLD;
	hal_trap_disarm(s, c); /* a stray trap: run free */
	return GS_SUBMIT_ALLOW;
}

/* A denied shadow-gated task's submission waits in the queue; any other
 * (a stray shadow) goes through with what is queued. */
static void loga_shadow_submit(struct hal_sched *s, struct loga *l,
			       struct hal_chan *c)
{
	struct loga_task *lt = chan_task(c);

	(void)l;
	if (!lt || !lt->vt.denied)
		hal_shadow_disable(s, c);
}

static void loga_timer(struct hal_sched *s, struct loga *l, hal_u32 id)
{
	/* LOGA_TIMER_WAKE is the only timer loga (and hdfq over it) arms */
	if (HAL_WARN_ON(s, id != LOGA_TIMER_WAKE) || l->state != LOGA_SLEEP)
		return;
	hal_trace_phase(s, "sleep", l->phase_start, hal_now(s));
	start_poll(s, l);
}

static void loga_poll_change(struct hal_sched *s, struct loga *l,
			     const struct hal_engine_status *st, hal_u64 when)
{
	struct loga_chan *owner;

	if (l->state != LOGA_POLL)
		return;
	owner = sample_owner(s, st);
	if (owner == l->seg)
		return; /* the same channel goes on (or the GPU stays idle) */
	close_segment(l, when);
	l->seg = owner;
	l->seg_start = when;
}

static void loga_poll_end(struct hal_sched *s, struct loga *l)
{
	if (l->state == LOGA_POLL)
		decide(s, l);
}

static void loga_st_poll_change(struct hal_sched *s, void *st,
				const struct hal_engine_status *es,
				hal_u64 when)
{
	loga_poll_change(s, st, es, when);
}

static void loga_st_poll_end(struct hal_sched *s, void *st)
{
	loga_poll_end(s, st);
}

ACCT_ENGINE(loga, struct loga, struct loga_task, loga_st_poll_change,
	    loga_st_poll_end);

static int loga_own_init(struct hal_sched *s)
{
	struct loga *l = acct_run_start(s, hal_priv(s), &loga_acct_engine);

	return l ? loga_init(s, l, &loga_own_slots) : -1;
}

const struct gs_policy_ops gs_policy_loga = {
	.name = "loga",
	.summary = "LoGA (SYSTOR'17): account GPU time by polling the engine "
		   "status register in short phases; DFQ vtime and deny rule",
	.priority = "ignored (weights only, from `weight`)",
	.params = loga_params,
	.n_params = sizeof(loga_params) / sizeof(loga_params[0]),
	.init = loga_own_init,
	ACCT_OWN_OPS,
	.poll_change = acct_own_poll_change,
	.poll_end = acct_own_poll_end,
};
