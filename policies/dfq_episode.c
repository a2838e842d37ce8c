/* dfq (see dfq.c): the episode. A barrier engages the scheduler, the
 * drain waits for the GPU to empty, each active task is sampled alone,
 * and the free run that follows lets the tasks behind in virtual time
 * in; the poll timer drives drain and samples. */
#include "dfq_priv.h"

/* ---- the episode -------------------------------------------------------- */

static void next_sample(struct hal_sched *s, struct dfq *d);

static void start_free_run(struct hal_sched *s, struct dfq *d, hal_u64 len)
{
	struct plist *pos;

	d->state = DFQ_FREE;
	d->free_start = hal_now(s);
	dfq_timer_cancel(s, DFQ_TIMER_POLL);
	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = dfq_task_of(pos);

		dt->ran_free = !dt->vt.denied;
		dt->had_work = 0;
		dt->snap_submitted = dfq_task_submitted(s, dt);
		if (dt->vt.denied)
			continue;
		dfq_task_set_traps(s, dt, 0);
		if (!dt->shadow_gate)
			hal_task_release(s, dt->t);
	}
	dfq_timer_arm(s, DFQ_TIMER_PHASE, d->free_start + len);
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
static void decide(struct hal_sched *s, struct dfq *d)
{
	hal_u64 now = hal_now(s), sum_avg = 0, sum_count = 0, free_len;
	hal_u32 slots = 0;
	struct plist *pos;

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = dfq_task_of(pos);

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
	if (d->free_fixed) {
		free_len = d->free_fixed;
	} else if (d->measured && slots) {
		hal_u64 ep = now - d->episode_start;

		free_len = d->factor * (ep > d->poll ? ep : d->poll);
	} else {
		/* nothing sampled: one nominal slot, as NEON's code */
		free_len = (hal_u64)d->factor * d->sample * (slots ? slots : 1);
	}

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = dfq_task_of(pos);
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
		struct dfq_task *dt = dfq_task_of(pos);

		if (!dt->unreported)
			hal_set_vtime(s, dt->t, dt->vt.vtime);
	}
	start_free_run(s, d, free_len);
}

static void finish_sample(struct hal_sched *s, struct dfq *d)
{
	struct dfq_task *dt = d->cur;

	dfq_timer_cancel(s, DFQ_TIMER_PHASE);
	dfq_trace(s, dt->label, dt->s_start);
	if (dt->s_requests) {
		hal_u64 n = dt->s_completed ? dt->s_completed : 1;

		dt->avg = hal_div64(dt->s_busy, n);
		if (!dt->avg)
			dt->avg = 1;
	}
	d->cur = 0;
	next_sample(s, d);
}

/* The only task that wants the GPU in this episode (work since the free
 * run began, or outstanding), or 0 if there are none or several. */
static struct dfq_task *lone_contender(struct hal_sched *s, struct dfq *d)
{
	struct dfq_task *lone = 0;
	struct plist *pos;

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = dfq_task_of(pos);

		if (dt->killed ||
		    (!dt->had_work && !dfq_task_outstanding(s, dt)))
			continue;
		if (lone)
			return 0;
		lone = dt;
	}
	return lone;
}

/* The sampled task's time (or request count) is up: hold its further
 * submissions and wait for what it has outstanding. The wait only makes
 * the GPU idle so that the task's last requests show in its estimate;
 * when no other task wants the GPU, nobody's share depends on the
 * estimate's last digits (NEON 3.3 samples to compare tasks), so the
 * completions already seen give it and the free run starts now (the
 * requests still out run in it) instead of idling the GPU until a poll
 * sees them done, the overhead NEON 5.2 names. */
static void sample_over(struct hal_sched *s, struct dfq *d)
{

	dfq_stop_sample_counting(s, d, d->cur);
	dfq_observe(s, d->cur);
	if (!d->cur->s_out ||
	    (d->cur->s_completed && lone_contender(s, d) == d->cur))
		finish_sample(s, d);
	else
		dfq_timer_arm(s, DFQ_TIMER_POLL, hal_now(s) + d->poll);
}

/* Whether a sample is due (see next_sample) for a task that is the
 * only one wanting the GPU. */
static int sampled_next(const struct dfq *d, const struct dfq_task *t)
{
	return !t->sampled && t->had_work && !t->vt.denied && !t->killed &&
	       (!d->status_at_barrier || t->busy_at_barrier);
}

static int lone_sampled(struct hal_sched *s, struct dfq *d)
{
	struct dfq_task *lone = lone_contender(s, d);

	return lone && sampled_next(d, lone);
}

static void next_sample(struct hal_sched *s, struct dfq *d)
{
	struct dfq_task *dt = 0;
	struct plist *pos;
	hal_u64 now = hal_now(s);

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *t = dfq_task_of(pos);

		if (sampled_next(d, t)) {
			dt = t;
			break;
		}
	}
	if (!dt) {
		decide(s, d);
		return;
	}
	d->cur = dt;
	d->state = DFQ_SAMPLE;
	dt->sampled = 1;
	dt->s_start = now;
	dt->s_requests = 0;
	dt->s_completed = 0;
	dt->s_busy = 0;
	dt->s_fence = dfq_task_done(s, dt);
	dt->s_obs = now;
	dt->s_out = dfq_task_outstanding(s, dt);
	dfq_timer_arm(s, DFQ_TIMER_PHASE, now + d->sample);
	dfq_timer_arm(s, DFQ_TIMER_POLL, now + d->poll);
	dt->s_requests = dfq_let_waiting_in(s, dt, d->sample_requests);
	if (dt->s_requests) {
		/* its stopped submissions go through: its first requests */
		dt->s_out += dt->s_requests;
		if (dt->s_requests >= d->sample_requests)
			/* the poll tick finishes it (no call cycle here) */
			dfq_stop_sample_counting(s, d, dt);
	}
}

/* Drained when no task (but one being killed) has outstanding requests. */
int dfq_drained(struct hal_sched *s, struct dfq *d)
{
	struct plist *pos;

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = dfq_task_of(pos);

		if (!dt->killed && dfq_task_outstanding(s, dt))
			return 0;
	}
	return 1;
}

/* Whether a task that ran in the free run but has nothing out at the
 * barrier is to be watched for one poll (see drain_check). */
static int idle_after_running(const struct dfq *d, const struct dfq_task *dt)
{
	return d->status_at_barrier && dt->had_work && !dt->busy_at_barrier &&
	       !dt->vt.denied && !dt->killed;
}

/* Starts or ends the one-poll look at such tasks; 1 while it lasts.
 * NEON decides on each task's "active/idle status" at the engagement
 * (3.3); an empty drain makes the engagement one instant, and a blocking
 * task whose period is in step with the free runs was then seen between
 * two requests every time (seed 1325: a busy task counted idle and pulled
 * forward). A poll is the scheduler's own resolution of status (its
 * completions are seen only then). Only an empty drain gets the look:
 * counting as busy whatever submits during a drain that is not empty
 * (tried) made NEON Fig. 9's sleepy Throttle active, and it suffered
 * (slowdown 1.29, the paper's 1x; row R16 failed). */
static int status_window(struct hal_sched *s, struct dfq *d)
{
	struct plist *pos;
	int any = 0;

	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = dfq_task_of(pos);

		if (!idle_after_running(d, dt))
			continue;
		any = 1;
		if (d->status_wait &&
		    (dfq_entity_waiting(s, dt) || dfq_task_outstanding(s, dt)))
			dt->busy_at_barrier = 1;
	}
	if (d->status_wait) {
		d->status_wait = 0;
		return 0;
	}
	d->status_wait = any && hal_now(s) == d->episode_start;
	return d->status_wait;
}

static void drain_check(struct hal_sched *s, struct dfq *d)
{
	hal_u64 now = hal_now(s);

	if (d->kill_clock < d->episode_start)
		d->kill_clock = d->episode_start;
	if (!dfq_drained(s, d) && now - d->kill_clock >= d->kill_after) {
		struct plist *pos = d->vt.tasks.next;

		while (pos != &d->vt.tasks) {
			struct dfq_task *dt = dfq_task_of(pos);

			struct hal_task *stuck;

			pos = pos->next; /* dt may be gone after the kill */
			/* a task whose work waits behind another task's
			 * running command is not the one that is stuck */
			stuck = dt->killed ? 0 : dfq_stuck_task(s, dt);
			if (stuck) {
				d->kill_clock = now;
				dfq_kill_stuck(s, dt, stuck, "dfq: request ran past "
					       "kill_after while draining");
			}
		}
	}
	/* The drain is there so that the first sampled task has the GPU
	 * alone (NEON 3.3: exclusive access while sampling); a task that is
	 * the only one wanting it has it already, so its sample starts now
	 * and counts its requests still out, rather than idling the GPU
	 * until a poll sees them done (NEON 5.2's "idleness during
	 * draining"). */
	if (!dfq_drained(s, d) && !lone_sampled(s, d)) {
		dfq_timer_arm(s, DFQ_TIMER_POLL, now + d->poll);
		return;
	}
	if (status_window(s, d)) {
		dfq_timer_arm(s, DFQ_TIMER_POLL, now + d->poll);
		return;
	}
	dfq_trace(s, "drain", d->episode_start);
	next_sample(s, d);
}

static void barrier(struct hal_sched *s, struct dfq *d)
{
	hal_u64 now = hal_now(s);
	struct plist *pos;

	dfq_trace(s, "free-run", d->free_start);
	d->free_prev = now - d->free_start;
	d->state = DFQ_DRAIN;
	d->episode_start = now;
	d->status_wait = 0;
	plist_for_each(pos, &d->vt.tasks) {
		struct dfq_task *dt = dfq_task_of(pos);

		dfq_task_set_traps(s, dt, 1);
		dt->free_requests = dfq_task_submitted(s, dt) - dt->snap_submitted;
		dt->busy_at_barrier = dfq_entity_waiting(s, dt) ||
				      dfq_task_outstanding(s, dt);
		if (dfq_task_submitted(s, dt) != dt->snap_submitted ||
		    dfq_entity_waiting(s, dt) || dfq_task_outstanding(s, dt))
			dt->had_work = 1;
		dt->sampled = 0;
		/* With the status taken at the barrier, a task idle there is
		 * not sampled and keeps its last estimate. */
		if (!d->status_at_barrier)
			dt->avg = 0;
		dt->s_busy = 0;
	}
	drain_check(s, d);
}

static void dfq_poll(struct hal_sched *s, struct dfq *d)
{
	struct dfq_task *dt = d->cur;
	hal_u64 now = hal_now(s);

	switch (d->state) {
	case DFQ_DRAIN:
		drain_check(s, d);
		return;
	case DFQ_SAMPLE:
	case DFQ_SAMPLE_WAIT:
		if (!dt || dt->killed) { /* the sampled task is gone */
			if (dt)
				dfq_trace(s, dt->label, dt->s_start);
			d->cur = 0;
			dfq_timer_cancel(s, DFQ_TIMER_PHASE);
			next_sample(s, d);
			return;
		}
		dfq_observe(s, dt);
		if (d->state == DFQ_SAMPLE_WAIT) {
			if (!dt->s_out) {
				finish_sample(s, d);
				return;
			}
			if (now - dt->s_start >= d->kill_after) {
				struct hal_task *stuck = dfq_stuck_task(s, dt);

				dfq_kill_stuck(s, dt, stuck ? stuck : dt->t,
					       "dfq: request ran past "
					       "kill_after while sampling");
				dfq_kick(s);
				return;
			}
		}
		dfq_timer_arm(s, DFQ_TIMER_POLL, now + d->poll);
		return;
	default:
		return;
	}
}

void dfq_timer(struct hal_sched *s, struct dfq *d, hal_u32 id)
{

	if (id == DFQ_TIMER_POLL) {
		dfq_poll(s, d);
		return;
	}
	if (d->state == DFQ_FREE)
		barrier(s, d);
	else if (d->state == DFQ_SAMPLE && d->cur)
		sample_over(s, d);
}
