/* dfq: Disengaged Fair Queueing (NEON, Menychtas et al., ASPLOS'14, 3.3).
 *
 * Tasks run disengaged (doorbell traps off) most of the time. Every so often
 * the scheduler engages for an episode:
 *
 *   barrier  arm every channel's trap: new submissions fault and are held;
 *   drain    wait until no task has outstanding requests (outstanding =
 *            hal_chan_submitted - hal_fence_read), checked every `poll`
 *            and at every trapped submission;
 *   sample   each active task in turn has the GPU alone: its submissions
 *            still trap (to be counted) and are allowed, everybody else's
 *            are held; the sample ends after `sample` or at the
 *            `sample_requests`-th request, whichever comes first, and then
 *            waits for the task's outstanding requests;
 *   decide   virtual times are updated and tasks too far ahead are denied;
 *   free run the traps of the tasks not denied are disarmed and held tasks
 *            released, for free_run_factor x the engagement (below); then
 *            the next barrier. Denied tasks stay trapped and held.
 *
 * The average request size of a task is its busy time during its sample
 * divided by the requests completed in it. Completions are seen through
 * the host-visible fences at observation points: every poll tick and every
 * trapped submission of the sampled task. The task counts as busy between
 * two observation points when it had outstanding requests at the first,
 * so the estimate is high by the time from a completion to the next
 * observation that sees it: the host-side gap between requests for a task
 * that submits back to back, up to its sleep or `poll` for one that
 * sleeps, plus the fence's own lag. The estimate is a proxy for the
 * task's share of a saturated round-robin GPU (see the limitation below).
 *
 * Virtual time (policies/vtime.h; NEON 3.3 steps 1-3): at each decision,
 * each active task's vtime advances by its GPU time in the free run that
 * just ended (length F_prev, measured). By default (`charge_by_count`) that
 * is the number of requests it published in the free run times its
 * sampled average size, scaled down in proportion if the tasks together
 * come to more than F_prev: the paper's "resource usage in the previous
 * interval", read from the reference counters NEON polls anyway. With
 * `charge_by_count: false` the free run is split among the tasks allowed
 * in it in proportion to their average request sizes (round-robin hardware
 * serves one request per channel in turn, so a saturating task's share is
 * its request size over the sum): usage_i = avg_i * F_prev / sum_j avg_j,
 * DESIGN.md's formula; it charges a task with long off periods as if it
 * had competed all along (NEON Fig. 10's sleepy Throttle: 4x its use).
 * Which tasks are active (`active_at_barrier`, default): those with work
 * outstanding or held at the barrier, the paper's "knowledge of each
 * task's active/idle status" at each engagement; only they are sampled,
 * and an idle one keeps its last estimate, is not charged and is pulled
 * forward like any idle task. With `active_at_barrier: false`, a task is
 * active (and sampled) if it submitted anything in the free run, so a
 * mostly sleeping task holds the system vtime down, gets its co-runner
 * denied, and is sampled alone while the GPU idles through its sleeps.
 * The two defaults give NEON Fig. 10's "essentially 0%" efficiency loss
 * (gpusim: 4%); both off, 22%. The system vtime is the minimum over active
 * tasks; idle tasks are pulled forward to it; a task that starts later
 * starts at it. A task whose vtime is ahead of the system vtime by at
 * least the length of the next free run is denied that free run (NEON 3.3
 * step 3: "ahead ... by at least the length of the interval").
 * hal_account gets usage_i plus the busy time measured in the task's
 * sample.
 *
 * Decisions where the paper, NEON's published code and gpusim's brief
 * differ (the published code is GPL; only facts were taken from it):
 *
 * - Free-run length. Paper (5.2) and code: free run = 5 x the nominal
 *   sampling time, `sample` per sampled task ("25 ms standalone even if the
 *   request mark was hit before 5 ms"; 50 ms for two tasks), drain not
 *   included; the code also counts a nominal slot for each denied task that
 *   was not sampled ("or else freerun will be unnecessarily short"), and
 *   with `active_at_barrier` so do we for a task idle at the barrier that
 *   submitted in the free run. That is the default. `measure_episode: true` uses free_run_factor x the
 *   measured episode (barrier to decision, drain included) instead.
 * - Epoch of the vtime rule. The code scales the shares by the coming free
 *   run's length; we use the measured length of the free run the shares
 *   estimate (equal in steady state; right when the task set changes). The
 *   exclusive sampling time is not in vtime (as in the code); it is in the
 *   accounted GPU time.
 * - Deny threshold: paper "at least" (>=), code strictly greater; we use
 *   >= against the length of the next free run (the code's epoch_dt).
 * - Tasks sampled. Paper: only tasks that issued requests in the preceding
 *   free run ("we do not waste sampling time on idle tasks"); the code
 *   gives every non-denied task a slot. We follow the paper: a task is
 *   sampled if it published requests since the free run began or is held
 *   at a trap. Denied tasks are not sampled (paper and code).
 * - Denied tasks count as active for the system vtime (code) only while
 *   they try to submit; one that does not is idle like any other.
 * - A task's sample ends early after `sample_requests` requests (code: 96;
 *   the paper also mentions 32). The code detects the end at the next,
 *   held, submission; we end it when the last one is allowed and wait for
 *   its completion, which a blocking task's next (held) submission shows.
 * - Drain completion is seen by 1 ms fence polling (paper). The fence
 *   the host reads lags the GPU, so a blocking task submits again (and is
 *   held) before its last request shows complete, and waiting for the next
 *   poll idles the GPU for up to `poll` per drain and per sample end (9%
 *   slowdown of a lone 19us Throttle instead of the paper's <= 5%).
 *   NEON's code takes a held submission as the completion of its
 *   channel's last request; a task that pipelines would fool that, so
 *   (`check_chram`, default on) we confirm it with one channel-RAM status
 *   read: an idle channel has nothing left to run. Off: fences only.
 * - A request running past `kill_after` while the scheduler waits for it
 *   (drain, end of a sample) gets its task killed (paper 3.1/3.3).
 * - Limitation of the defaults: a task that is never busy at a barrier
 *   is never sampled nor charged; NEON's randomised engagement (not
 *   modelled yet) is the paper's answer to such timing games.
 *
 * Timers: 0 = phase end (free run, sample), 1 = poll tick (also armed "now"
 * to run a state change outside a submission callback, where the task
 * about to be held cannot be released yet).
 */
#include "dfq.h"
#include "engines.h"
#include "gate.h"

static const struct gs_param_desc dfq_params[] = {
	DFQ_PARAM_DESCS
};
_Static_assert(sizeof(dfq_params) / sizeof(dfq_params[0]) == DFQ_N_PARAMS,
	       "one descriptor per index");

/* ---- small helpers ------------------------------------------------------ */

/* The engine: at the start of the policy's private state. */
static struct dfq *dfq_of(struct hal_sched *s)
{
	return hal_priv(s);
}

static void timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when)
{
	hal_timer_arm(s, id, when);
}

static void timer_cancel(struct hal_sched *s, hal_u32 id)
{
	hal_timer_cancel(s, id);
}

/* The engine's record of a channel. */
static struct dfq_chan *chan_get(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return hal_chan_data(c);
}

static void chan_set(struct hal_sched *s, struct hal_chan *c,
		     struct dfq_chan *dc)
{
	(void)s;
	hal_chan_set_data(c, dc);
}

static struct dfq_task *task_of(struct plist *pos)
{
	return plist_entry(plist_entry(pos, struct vt_task, link),
			   struct dfq_task, vt);
}

static hal_u64 task_submitted(struct hal_sched *s, struct dfq_task *dt)
{
	struct plist *pos;
	hal_u64 n = 0;

	plist_for_each(pos, &dt->chans) {
		struct dfq_chan *dc = plist_entry(pos, struct dfq_chan, link);

		if (!dc->dead)
			n += hal_chan_submitted(s, dc->c);
	}
	return n;
}

/* Requests of the channel known complete: its fence, or more when a held
 * submission showed its last request done. */
static hal_u64 chan_done(struct hal_sched *s, struct dfq_chan *dc)
{
	hal_u64 sub = hal_chan_submitted(s, dc->c);
	hal_u64 done = hal_fence_read(s, dc->c);

	if (dc->done_hint > done)
		done = dc->done_hint;
	return done < sub ? done : sub;
}

static hal_u64 task_done(struct hal_sched *s, struct dfq_task *dt)
{
	struct plist *pos;
	hal_u64 n = 0;

	plist_for_each(pos, &dt->chans) {
		struct dfq_chan *dc = plist_entry(pos, struct dfq_chan, link);

		if (!dc->dead)
			n += chan_done(s, dc);
	}
	return n;
}

static hal_u64 task_outstanding(struct hal_sched *s, struct dfq_task *dt)
{
	struct plist *pos;
	hal_u64 n = 0;

	plist_for_each(pos, &dt->chans) {
		struct dfq_chan *dc = plist_entry(pos, struct dfq_chan, link);

		if (!dc->dead)
			n += hal_chan_submitted(s, dc->c) - chan_done(s, dc);
	}
	return n;
}

/* The task is being held at c's doorbell. The fence the host reads lags
 * the GPU, so a blocking task usually submits again before its last
 * request shows complete. NEON's code takes the held submission itself as
 * the completion of the channel's last request; a task that pipelines
 * would fool that, so we confirm with one channel-RAM read (an MMIO read):
 * an idle channel has nothing left to run. */
static void note_held(struct hal_sched *s, struct hal_chan *c)
{
	struct dfq_chan *dc = chan_get(s, c);
	hal_u64 sub;

	if (!dc || !dfq_of(s)->check_chram)
		return;
	sub = hal_chan_submitted(s, c);
	if (chan_done(s, dc) < sub &&
	    hal_read_chram(s, c) == HAL_CHRAM_IDLE)
		dc->done_hint = sub;
}

/* Put a channel's gate in `state` (enum dfq_gate; gate.h): let it go,
 * stop it, or (a shadow-gated entity being sampled) trap its writes to
 * count them. */
static void chan_gate_state(struct hal_sched *s, struct dfq_task *dt,
			    struct hal_chan *c, hal_u32 state)
{
	if (state == DFQ_GATE_COUNT) {
		hal_shadow_disable(s, c);
		hal_trap_arm(s, c);
	} else {
		gate_chan(s, c, dt->shadow_gate, state == DFQ_GATE_STOP);
	}
}

/* Stop (`arm`) or let go a channel's submissions. */
static void chan_gate(struct hal_sched *s, struct dfq_task *dt,
		      struct hal_chan *c, int arm)
{
	chan_gate_state(s, dt, c, arm ? DFQ_GATE_STOP : DFQ_GATE_GO);
}

static void task_set_traps(struct hal_sched *s, struct dfq_task *dt, int arm)
{
	struct plist *pos;

	plist_for_each(pos, &dt->chans)
		chan_gate(s, dt, plist_entry(pos, struct dfq_chan, link)->c,
			  arm);
}

/* Submissions stopped and waiting: the task held at a trap, or requests
 * in the entity's shadow channels. */
static hal_u32 entity_waiting(struct hal_sched *s, struct dfq_task *dt)
{
	struct plist *pos;
	hal_u32 n = 0;

	plist_for_each(pos, &dt->chans)
		n += gate_chan_waiting(s,
			plist_entry(pos, struct dfq_chan, link)->c,
			dt->shadow_gate);
	return n;
}

/* The sampled entity's waiting submissions go through as its first
 * requests: the held write, or up to `limit` shadowed ones (Fleig 4.3.2:
 * forwarded and counted, the rest stay queued). Below the limit, a
 * shadow-gated entity's channels go back to the GPU with their traps
 * armed (EPT traps, at the VM's trap cost) so that its further
 * submissions are counted as a held task's are. Returns how many. */
static hal_u32 let_waiting_in(struct hal_sched *s, struct dfq_task *dt,
			      hal_u32 limit)
{
	struct plist *pos;
	hal_u32 n = 0;

	if (!dt->shadow_gate) {
		if (!hal_task_held(dt->t))
			return 0;
		hal_task_release(s, dt->t);
		return 1;
	}
	plist_for_each(pos, &dt->chans) {
		struct hal_chan *c = plist_entry(pos, struct dfq_chan, link)->c;
		hal_u32 q = hal_shadow_pending(s, c);

		if (q > limit - n)
			q = limit - n;
		hal_shadow_forward(s, c, q);
		n += q;
	}
	if (n < limit)
		plist_for_each(pos, &dt->chans)
			chan_gate_state(s, dt,
					plist_entry(pos, struct dfq_chan,
						    link)->c,
					DFQ_GATE_COUNT);
	return n;
}

/* The sampled entity's sample is over (time or request count): nothing
 * more of it is let through. A shadow-gated one is shadowed again; a held
 * one's traps are armed already. */
static void stop_sample_counting(struct hal_sched *s, struct dfq_task *dt)
{
	struct dfq *d = dfq_of(s);

	d->state = DFQ_SAMPLE_WAIT;
	timer_cancel(s, DFQ_TIMER_PHASE);
	if (dt->shadow_gate)
		task_set_traps(s, dt, 1);
}

/* An observation point of the sampled task: credit the busy time since the
 * previous one and the completions seen. */
static void observe(struct hal_sched *s, struct dfq_task *dt)
{
	hal_u64 now = hal_now(s);
	hal_u64 fence = task_done(s, dt);

	if (dt->s_out)
		dt->s_busy += now - dt->s_obs;
	if (fence > dt->s_fence)
		dt->s_completed += fence - dt->s_fence;
	dt->s_fence = fence;
	dt->s_obs = now;
	dt->s_out = task_outstanding(s, dt);
}

/* A span on the policy track, from `start` to now; empty ones are left
 * out (a drain that found nothing outstanding). */
static void trace(struct hal_sched *s, const char *name, hal_u64 start)
{
	hal_u64 now = hal_now(s);

	if (now > start)
		hal_trace_phase(s, name, start, now);
}

/* Run the next state change from the poll timer, now. */
static void kick(struct hal_sched *s)
{
	timer_arm(s, DFQ_TIMER_POLL, hal_now(s));
}

static void kill_task(struct hal_sched *s, struct dfq_task *dt,
		      const char *why)
{
	dt->killed = 1;
	/* may call back into task_exit and free dt (it does in tests) */
	hal_task_kill(s, dt->t, why);
}

/* Whether all the entity's channels are its reporting task's (always, but
 * for a VM without hints: several tasks). */
static int single_task(const struct dfq_task *dt)
{
	struct plist *pos;

	plist_for_each(pos, &dt->chans)
		if (hal_chan_task(plist_entry(pos, struct dfq_chan,
					      link)->c) != dt->t)
			return 0;
	return 1;
}

/* The task to kill when the entity's work shows no progress: a task of
 * one of its channels with work outstanding that no other task's running
 * command holds up. 0 if none. */
static struct hal_task *stuck_task(struct hal_sched *s, struct dfq_task *dt)
{
	struct plist *pos;

	if (single_task(dt))
		return task_outstanding(s, dt) &&
		       engines_running(s, hal_task_gpu(dt->t), dt->t) !=
		       ENGINES_RUN_OTHER ? dt->t : 0;
	plist_for_each(pos, &dt->chans) {
		struct dfq_chan *dc = plist_entry(pos, struct dfq_chan, link);
		struct hal_task *t = hal_chan_task(dc->c);

		if (!dc->dead && hal_chan_submitted(s, dc->c) != chan_done(s, dc) &&
		    engines_running(s, hal_chan_gpu(dc->c), t) !=
		    ENGINES_RUN_OTHER)
			return t;
	}
	return 0;
}

/* Kill task t of the entity: the entity itself if it is t's alone;
 * otherwise only t, whose channels the entity ignores from now on. */
static void kill_stuck(struct hal_sched *s, struct dfq_task *dt,
		       struct hal_task *t, const char *why)
{
	struct plist *pos;

	if (single_task(dt)) {
		kill_task(s, dt, why);
		return;
	}
	plist_for_each(pos, &dt->chans) {
		struct dfq_chan *dc = plist_entry(pos, struct dfq_chan, link);

		if (hal_chan_task(dc->c) == t)
			dc->dead = 1;
	}
	hal_task_kill(s, t, why);
}

/* ---- the episode -------------------------------------------------------- */

static void next_sample(struct hal_sched *s);

static void start_free_run(struct hal_sched *s, hal_u64 len)
{
	struct dfq *d = dfq_of(s);
	struct plist *pos;

	d->state = DFQ_FREE;
	d->free_start = hal_now(s);
	timer_cancel(s, DFQ_TIMER_POLL);
	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = task_of(pos);

		dt->ran_free = !dt->vt.denied;
		dt->had_work = 0;
		dt->snap_submitted = task_submitted(s, dt);
		if (dt->vt.denied)
			continue;
		task_set_traps(s, dt, 0);
		if (!dt->shadow_gate)
			hal_task_release(s, dt->t);
	}
	timer_arm(s, DFQ_TIMER_PHASE, d->free_start + len);
}

/* The task's GPU time in the free run that just ended. By count: the
 * requests it ran there times its sampled average size, scaled down if
 * the tasks together would have used more than the free run. By share:
 * the free run split in proportion to average request sizes. */
static hal_u64 free_run_usage(const struct dfq *d, const struct dfq_task *dt,
			      hal_u64 sum_avg, hal_u64 sum_count)
{
	hal_u64 mine = dt->free_requests * dt->avg;

	if (!d->by_count)
		return vt_share(dt->avg, sum_avg, d->free_prev);
	if (sum_count > d->free_prev)
		return vt_share(mine, sum_count, d->free_prev);
	return mine;
}

/* End of the episode: vtime update, deny decision, then the free run. */
static void decide(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);
	hal_u64 now = hal_now(s), sum_avg = 0, sum_count = 0, free_len;
	hal_u32 slots = 0;
	struct plist *pos;

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = task_of(pos);

		/* a slot for every task that wants the GPU, sampled or not
		 * (denied, or idle at the barrier), as NEON's code does for
		 * denied ones, or the free run would be needlessly short */
		if (dt->sampled ||
		    (dt->had_work && (dt->vt.denied || d->status_at_barrier)))
			slots++;
		if (dt->ran_free && dt->avg) {
			sum_avg += dt->avg;
			sum_count += dt->free_requests * dt->avg;
		}
	}
	if (d->measured && slots) {
		hal_u64 ep = now - d->episode_start;

		free_len = d->factor * (ep > d->poll ? ep : d->poll);
	} else {
		/* nothing sampled: one nominal slot, as NEON's code */
		free_len = (hal_u64)d->factor * d->sample * (slots ? slots : 1);
	}

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = task_of(pos);
		hal_u64 usage = 0;

		if (dt->ran_free && dt->avg)
			usage = free_run_usage(d, dt, sum_avg, sum_count);
		dt->vt.usage = usage;
		if (d->charge_sample && dt->sampled)
			dt->vt.usage += dt->s_busy;
		dt->vt.active = dt->avg || (dt->vt.denied && dt->had_work);
		if (d->status_at_barrier)
			dt->vt.active = dt->busy_at_barrier;
		if (!dt->unreported && (usage || (dt->sampled && dt->s_busy)))
			hal_account(s, dt->t,
				    usage + (dt->sampled ? dt->s_busy : 0));
	}
	vt_epoch_end(&d->vt);
	vt_decide(&d->vt, free_len, !d->account_only);
	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = task_of(pos);

		if (!dt->unreported)
			hal_set_vtime(s, dt->t, dt->vt.vtime);
	}
	start_free_run(s, free_len);
}

static void finish_sample(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);
	struct dfq_task *dt = d->cur;

	timer_cancel(s, DFQ_TIMER_PHASE);
	trace(s, dt->label, dt->s_start);
	if (dt->s_requests) {
		hal_u64 n = dt->s_completed ? dt->s_completed : 1;

		dt->avg = hal_div64(dt->s_busy, n);
		if (!dt->avg)
			dt->avg = 1;
	}
	d->cur = 0;
	next_sample(s);
}

/* The sampled task's time (or request count) is up: hold its further
 * submissions and wait for what it has outstanding. */
static void sample_over(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);

	stop_sample_counting(s, d->cur);
	observe(s, d->cur);
	if (!d->cur->s_out)
		finish_sample(s);
	else
		timer_arm(s, DFQ_TIMER_POLL, hal_now(s) + d->poll);
}

static void next_sample(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);
	struct dfq_task *dt = 0;
	struct plist *pos;
	hal_u64 now = hal_now(s);

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *t = task_of(pos);

		if (!t->sampled && t->had_work && !t->vt.denied &&
		    !t->killed &&
		    (!d->status_at_barrier || t->busy_at_barrier)) {
			dt = t;
			break;
		}
	}
	if (!dt) {
		decide(s);
		return;
	}
	d->cur = dt;
	d->state = DFQ_SAMPLE;
	dt->sampled = 1;
	dt->s_start = now;
	dt->s_requests = 0;
	dt->s_completed = 0;
	dt->s_busy = 0;
	dt->s_fence = task_done(s, dt);
	dt->s_obs = now;
	dt->s_out = task_outstanding(s, dt);
	timer_arm(s, DFQ_TIMER_PHASE, now + d->sample);
	timer_arm(s, DFQ_TIMER_POLL, now + d->poll);
	dt->s_requests = let_waiting_in(s, dt, d->sample_requests);
	if (dt->s_requests) {
		/* its stopped submissions go through: its first requests */
		dt->s_out += dt->s_requests;
		if (dt->s_requests >= d->sample_requests)
			/* the poll tick finishes it (no call cycle here) */
			stop_sample_counting(s, dt);
	}
}

/* Drained when no task (but one being killed) has outstanding requests. */
static int drained(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);
	struct plist *pos;

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = task_of(pos);

		if (!dt->killed && task_outstanding(s, dt))
			return 0;
	}
	return 1;
}

static void drain_check(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);
	hal_u64 now = hal_now(s);

	if (d->kill_clock < d->episode_start)
		d->kill_clock = d->episode_start;
	if (!drained(s) && now - d->kill_clock >= d->kill_after) {
		struct plist *pos = d->vt.tasks.next;

		while (pos != &d->vt.tasks) {
			struct dfq_task *dt = task_of(pos);

			struct hal_task *stuck;

			pos = pos->next; /* dt may be gone after the kill */
			/* a task whose work waits behind another task's
			 * running command is not the one that is stuck */
			stuck = dt->killed ? 0 : stuck_task(s, dt);
			if (stuck) {
				d->kill_clock = now;
				kill_stuck(s, dt, stuck, "dfq: request ran past "
					   "kill_after while draining");
			}
		}
	}
	if (!drained(s)) {
		timer_arm(s, DFQ_TIMER_POLL, now + d->poll);
		return;
	}
	trace(s, "drain", d->episode_start);
	next_sample(s);
}

static void barrier(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);
	hal_u64 now = hal_now(s);
	struct plist *pos;

	trace(s, "free-run", d->free_start);
	d->free_prev = now - d->free_start;
	d->state = DFQ_DRAIN;
	d->episode_start = now;
	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = task_of(pos);

		task_set_traps(s, dt, 1);
		dt->free_requests = task_submitted(s, dt) - dt->snap_submitted;
		dt->busy_at_barrier = entity_waiting(s, dt) ||
				      task_outstanding(s, dt);
		if (task_submitted(s, dt) != dt->snap_submitted ||
		    entity_waiting(s, dt) || task_outstanding(s, dt))
			dt->had_work = 1;
		dt->sampled = 0;
		/* With the status taken at the barrier, a task idle there is
		 * not sampled and keeps its last estimate. */
		if (!d->status_at_barrier)
			dt->avg = 0;
		dt->s_busy = 0;
	}
	drain_check(s);
}

/* ---- ops ---------------------------------------------------------------- */

int dfq_init(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);

	vt_init(&d->vt);
	d->poll = hal_param(s, DFQ_P_POLL);
	d->sample = hal_param(s, DFQ_P_SAMPLE);
	d->sample_requests = (hal_u32)hal_param(s, DFQ_P_SAMPLE_REQUESTS);
	d->factor = (hal_u32)hal_param(s, DFQ_P_FREE_RUN_FACTOR);
	d->measured = (hal_u8)hal_param(s, DFQ_P_MEASURE_EPISODE);
	d->check_chram = (hal_u8)hal_param(s, DFQ_P_CHECK_CHRAM);
	d->account_only = (hal_u8)hal_param(s, DFQ_P_ACCOUNT_ONLY);
	d->by_count = (hal_u8)hal_param(s, DFQ_P_CHARGE_BY_COUNT);
	d->status_at_barrier = (hal_u8)hal_param(s, DFQ_P_ACTIVE_AT_BARRIER);
	d->kill_after = hal_param(s, DFQ_P_KILL_AFTER);
	if (!d->poll)
		d->poll = 1;
	if (!d->sample)
		d->sample = 1;
	if (!d->sample_requests)
		d->sample_requests = 1;
	if (!d->factor)
		d->factor = 1;
	/* Begin with an (empty) episode now; tasks that appear during the
	 * first free run run disengaged until the next barrier. */
	d->state = DFQ_FREE;
	d->free_start = hal_now(s);
	timer_arm(s, DFQ_TIMER_PHASE, d->free_start);
	return 0;
}

void dfq_trace_open(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);

	if (d->state == DFQ_FREE)
		trace(s, "free-run", d->free_start);
	else if (d->state == DFQ_DRAIN)
		trace(s, "drain", d->episode_start);
	else if (d->cur)
		trace(s, d->cur->label, d->cur->s_start);
}

void dfq_fini(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);

	if (d->state == DFQ_FREE)
		trace(s, "free-run", d->free_start);

	while (!plist_empty(&d->vt.tasks)) {
		struct dfq_task *dt = task_of(d->vt.tasks.next);

		while (!plist_empty(&dt->chans)) {
			struct plist *c = dt->chans.next;

			plist_del(c);
			hal_free(s, plist_entry(c, struct dfq_chan, link));
		}
		vt_task_del(&dt->vt);
		hal_free(s, dt);
	}
}

struct dfq_task *dfq_entity_new(struct hal_sched *s, struct hal_task *t,
				hal_u32 weight)
{
	struct dfq *d = dfq_of(s);
	struct dfq_task *dt = hal_zalloc(s, sizeof(*dt));
	const char *name = hal_task_name(t);
	const char *prefix = "sample ";
	hal_u32 i = 0;

	if (!dt)
		return 0;
	dt->t = t;
	plist_init(&dt->chans);
	while (*prefix)
		dt->label[i++] = *prefix++;
	while (*name && i < DFQ_LABEL_LEN - 1)
		dt->label[i++] = *name++;
	vt_task_add(&d->vt, &dt->vt, weight);
	/* a task that appears during a free run takes part in it */
	dt->ran_free = d->state == DFQ_FREE;
	hal_set_vtime(s, t, dt->vt.vtime);
	return dt;
}

static void dfq_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct dfq_task *dt = dfq_entity_new(s, t, hal_task_weight(t));

	if (dt)
		hal_task_set_data(t, dt);
}

void dfq_entity_free(struct hal_sched *s, struct dfq_task *dt)
{
	struct dfq *d = dfq_of(s);

	if (d->cur == dt) {
		trace(s, dt->label, dt->s_start);
		d->cur = 0;
	}
	/* What waited on this task (drain, its sample) is re-checked. */
	if (d->state != DFQ_FREE)
		kick(s);
	while (!plist_empty(&dt->chans)) {
		struct plist *c = dt->chans.next;

		plist_del(c);
		chan_set(s, plist_entry(c, struct dfq_chan, link)->c, 0);
		hal_free(s, plist_entry(c, struct dfq_chan, link));
	}
	vt_task_del(&dt->vt);
	hal_free(s, dt);
}

static void dfq_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct dfq_task *dt = hal_task_data(t);

	if (!dt)
		return;
	dfq_entity_free(s, dt);
	hal_task_set_data(t, 0);
}

void dfq_chan_attach(struct hal_sched *s, struct dfq_task *dt,
		     struct hal_chan *c)
{
	struct dfq *d = dfq_of(s);
	struct dfq_chan *dc = hal_zalloc(s, sizeof(*dc));

	if (!dc)
		return;
	dc->c = c;
	dc->dt = dt;
	plist_add_tail(&dt->chans, &dc->link);
	chan_set(s, c, dc);
	chan_gate(s, dt, c, d->state != DFQ_FREE || dt->vt.denied);
	/* requests published before this call would count as work */
	dt->snap_submitted += hal_chan_submitted(s, c);
}

static void dfq_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	struct dfq_task *dt = hal_task_data(hal_chan_task(c));

	if (dt)
		dfq_chan_attach(s, dt, c);
}

struct dfq_task *dfq_chan_entity(struct hal_sched *s, struct hal_chan *c)
{
	struct dfq_chan *dc = chan_get(s, c);

	return dc ? dc->dt : 0;
}

void dfq_chan_detach(struct hal_sched *s, struct hal_chan *c)
{
	struct dfq_chan *dc = chan_get(s, c);
	struct dfq_task *dt = dfq_chan_entity(s, c);
	hal_u64 sub;

	if (!dc)
		return;
	sub = hal_chan_submitted(s, c);
	if (dt) {
		/* keep the task's sums consistent without this channel */
		dt->snap_submitted -= sub < dt->snap_submitted
					      ? sub : dt->snap_submitted;
		if (dfq_of(s)->cur == dt) {
			hal_u64 f = chan_done(s, dc);

			observe(s, dt);
			dt->s_fence -= f < dt->s_fence ? f : dt->s_fence;
		}
	}
	plist_del(&dc->link);
	chan_set(s, c, 0);
	hal_free(s, dc);
	if (dt && dfq_of(s)->cur == dt)
		dt->s_out = task_outstanding(s, dt);
}

/* A submission on c that the scheduler sees (a trapped doorbell write, or
 * one that went into a shadow channel): 1 if it may reach the GPU now, 0
 * if it must wait (held, or left in the shadow queue). */
static int on_submission(struct hal_sched *s, struct dfq_task *dt,
			 struct hal_chan *c)
{
	struct dfq *d = dfq_of(s);

	dt->had_work = 1;
	if (d->state == DFQ_FREE && !dt->vt.denied) {
		chan_gate(s, dt, c, 0); /* a stray trap or shadow: run free */
		return 1;
	}
	if (d->state == DFQ_SAMPLE && dt == d->cur) {
		observe(s, dt);
		dt->s_requests++;
		dt->s_out++;
		if (dt->s_requests >= d->sample_requests)
			stop_sample_counting(s, dt);
		return 1;
	}
	/* stopped: does that end what the scheduler waits for? */
	note_held(s, c);
	if (d->state == DFQ_DRAIN && drained(s))
		kick(s);
	if (d->state == DFQ_SAMPLE_WAIT && dt == d->cur) {
		observe(s, dt);
		if (!dt->s_out)
			kick(s);
	}
	return 0;
}

int dfq_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct dfq_task *dt = dfq_chan_entity(s, c);

	if (!dt)
		return GS_SUBMIT_ALLOW;
	return on_submission(s, dt, c) ? GS_SUBMIT_ALLOW : GS_SUBMIT_HOLD;
}

void dfq_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct dfq_task *dt = dfq_chan_entity(s, c);

	if (!dt) {
		hal_shadow_disable(s, c); /* not ours: let it through */
		return;
	}
	if (on_submission(s, dt, c) && hal_shadow_pending(s, c))
		hal_shadow_forward(s, c, 1);
}

static void dfq_poll(struct hal_sched *s)
{
	struct dfq *d = dfq_of(s);
	struct dfq_task *dt = d->cur;
	hal_u64 now = hal_now(s);

	switch (d->state) {
	case DFQ_DRAIN:
		drain_check(s);
		return;
	case DFQ_SAMPLE:
	case DFQ_SAMPLE_WAIT:
		if (!dt || dt->killed) { /* the sampled task is gone */
			if (dt)
				trace(s, dt->label, dt->s_start);
			d->cur = 0;
			timer_cancel(s, DFQ_TIMER_PHASE);
			next_sample(s);
			return;
		}
		observe(s, dt);
		if (d->state == DFQ_SAMPLE_WAIT) {
			if (!dt->s_out) {
				finish_sample(s);
				return;
			}
			if (now - dt->s_start >= d->kill_after) {
				struct hal_task *stuck = stuck_task(s, dt);

				kill_stuck(s, dt, stuck ? stuck : dt->t,
					   "dfq: request ran past "
					   "kill_after while sampling");
				kick(s);
				return;
			}
		}
		timer_arm(s, DFQ_TIMER_POLL, now + d->poll);
		return;
	default:
		return;
	}
}

void dfq_timer(struct hal_sched *s, hal_u32 id)
{
	struct dfq *d = dfq_of(s);

	if (id == DFQ_TIMER_POLL) {
		dfq_poll(s);
		return;
	}
	if (d->state == DFQ_FREE)
		barrier(s);
	else if (d->state == DFQ_SAMPLE && d->cur)
		sample_over(s);
}

const struct gs_policy_ops gs_policy_dfq = {
	.name = "dfq",
	.summary = "Disengaged Fair Queueing (NEON 3.3): drain, sample each "
		   "task alone, free-run; deny tasks ahead in virtual time",
	.params = dfq_params,
	.n_params = sizeof(dfq_params) / sizeof(dfq_params[0]),
	.priv_size = sizeof(struct dfq),
	.init = dfq_init,
	.fini = dfq_fini,
	.trace_open = dfq_trace_open,
	.task_create = dfq_task_create,
	.task_exit = dfq_task_exit,
	.channel_create = dfq_channel_create,
	.channel_destroy = dfq_chan_detach,
	.submit = dfq_submit,
	.shadow_submit = dfq_shadow_submit,
	.timer = dfq_timer,
};
