/* dfq (see dfq.c): what the engine knows of an entity and its channels:
 * requests submitted and done, the trap gates, submissions waiting at a
 * held doorbell, the sample's counters, and killing a task whose request
 * never ends. */
#include "dfq_priv.h"

void dfq_timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when)
{
	hal_timer_arm(s, id, when);
}

void dfq_timer_cancel(struct hal_sched *s, hal_u32 id)
{
	hal_timer_cancel(s, id);
}

/* The engine's record of a channel. */
struct dfq_chan *dfq_chan_get(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return hal_chan_data(c);
}

struct dfq_task *dfq_task_of(struct plist *pos)
{
	return plist_entry(plist_entry(pos, struct vt_task, link),
			   struct dfq_task, vt);
}

/* Requests of the channel known complete: its fence, or more when a held
 * submission showed its last request done. */
hal_u64 dfq_chan_done(struct hal_sched *s, struct dfq_chan *dc)
{
	hal_u64 sub = hal_chan_submitted(s, dc->ac.c);
	hal_u64 done = hal_fence_read(s, dc->ac.c);

	if (dc->done_hint > done)
		done = dc->done_hint;
	return done < sub ? done : sub;
}

static hal_u64 chan_submitted(struct hal_sched *s, struct dfq_chan *dc)
{
	return hal_chan_submitted(s, dc->ac.c);
}

static hal_u64 chan_outstanding(struct hal_sched *s, struct dfq_chan *dc)
{
	return hal_chan_submitted(s, dc->ac.c) - dfq_chan_done(s, dc);
}

/* The sum of `count` over the task's live channels. */
static hal_u64 sum_live_chans(struct hal_sched *s, struct dfq_task *dt,
			      hal_u64 (*count)(struct hal_sched *s,
					       struct dfq_chan *dc))
{
	struct plist *pos;
	hal_u64 n = 0;

	plist_for_each(pos, &dt->chans) {
		struct dfq_chan *dc = plist_entry(pos, struct dfq_chan, ac.link);

		if (!dc->dead)
			n += count(s, dc);
	}
	return n;
}

hal_u64 dfq_task_submitted(struct hal_sched *s, struct dfq_task *dt)
{
	return sum_live_chans(s, dt, chan_submitted);
}

hal_u64 dfq_task_done(struct hal_sched *s, struct dfq_task *dt)
{
	return sum_live_chans(s, dt, dfq_chan_done);
}

hal_u64 dfq_task_outstanding(struct hal_sched *s, struct dfq_task *dt)
{
	return sum_live_chans(s, dt, chan_outstanding);
}

/* The task is being held at c's doorbell. The fence the host reads lags
 * the GPU, so a blocking task usually submits again before its last
 * request shows complete. NEON's code takes the held submission itself as
 * the completion of the channel's last request; a task that pipelines
 * would fool that, so we confirm with one channel-RAM read (an MMIO read):
 * an idle channel has nothing left to run. */
void dfq_note_held(struct hal_sched *s, struct dfq *d, struct hal_chan *c)
{
	struct dfq_chan *dc = dfq_chan_get(s, c);
	hal_u64 sub;

	if (!dc || !d->check_chram)
		return;
	sub = hal_chan_submitted(s, c);
	if (dfq_chan_done(s, dc) < sub &&
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
void dfq_chan_gate(struct hal_sched *s, struct dfq_task *dt,
		   struct hal_chan *c, int arm)
{
	chan_gate_state(s, dt, c, arm ? DFQ_GATE_STOP : DFQ_GATE_GO);
}

void dfq_task_set_traps(struct hal_sched *s, struct dfq_task *dt, int arm)
{
	struct plist *pos;

	plist_for_each(pos, &dt->chans)
		dfq_chan_gate(s, dt, plist_entry(pos, struct dfq_chan, ac.link)->ac.c,
			      arm);
}

/* Submissions stopped and waiting: the task held at a trap, or requests
 * in the entity's shadow channels. */
hal_u32 dfq_entity_waiting(struct hal_sched *s, struct dfq_task *dt)
{
	struct plist *pos;
	hal_u32 n = 0;

	plist_for_each(pos, &dt->chans)
		n += gate_chan_waiting(s,
			plist_entry(pos, struct dfq_chan, ac.link)->ac.c,
			dt->shadow_gate);
	return n;
}

/* The sampled entity's waiting submissions go through as its first
 * requests: the held write, or up to `limit` shadowed ones (Fleig 4.3.2:
 * forwarded and counted, the rest stay queued). Below the limit, a
 * shadow-gated entity's channels go back to the GPU with their traps
 * armed (EPT traps, at the VM's trap cost) so that its further
 * submissions are counted as a held task's are. Returns how many. */
hal_u32 dfq_let_waiting_in(struct hal_sched *s, struct dfq_task *dt,
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
		struct hal_chan *c = plist_entry(pos, struct dfq_chan, ac.link)->ac.c;
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
						    ac.link)->ac.c,
					DFQ_GATE_COUNT);
	return n;
}

/* The sampled entity's sample is over (time or request count): nothing
 * more of it is let through. A shadow-gated one is shadowed again; a held
 * one's traps are armed already. */
void dfq_stop_sample_counting(struct hal_sched *s, struct dfq *d,
			      struct dfq_task *dt)
{
	d->state = DFQ_SAMPLE_WAIT;
	dfq_timer_cancel(s, DFQ_TIMER_PHASE);
	if (dt->shadow_gate)
		dfq_task_set_traps(s, dt, 1);
}

/* An observation point of the sampled task: credit the busy time since the
 * previous one and the completions seen. */
void dfq_observe(struct hal_sched *s, struct dfq_task *dt)
{
	hal_u64 now = hal_now(s);
	hal_u64 fence = dfq_task_done(s, dt);

	if (dt->s_out)
		dt->s_busy += now - dt->s_obs;
	if (fence > dt->s_fence)
		dt->s_completed += fence - dt->s_fence;
	dt->s_fence = fence;
	dt->s_obs = now;
	dt->s_out = dfq_task_outstanding(s, dt);
}

/* A span on the policy track, from `start` to now; empty ones are left
 * out (a drain that found nothing outstanding). */
void dfq_trace(struct hal_sched *s, const char *name, hal_u64 start)
{
	hal_u64 now = hal_now(s);

	if (now > start)
		hal_trace_phase(s, name, start, now);
}

/* Run the next state change from the poll timer, now. */
void dfq_kick(struct hal_sched *s)
{
	dfq_timer_arm(s, DFQ_TIMER_POLL, hal_now(s));
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
					      ac.link)->ac.c) != dt->t)
			return 0;
	return 1;
}

/* The task to kill when the entity's work shows no progress: a task of
 * one of its channels with work outstanding that no other task's running
 * command holds up. 0 if none. */
struct hal_task *dfq_stuck_task(struct hal_sched *s, struct dfq_task *dt)
{
	struct plist *pos;

	if (single_task(dt))
		return dfq_task_outstanding(s, dt) &&
		       engines_running(s, hal_task_gpu(dt->t), dt->t) !=
		       ENGINES_RUN_OTHER ? dt->t : 0;
	plist_for_each(pos, &dt->chans) {
		struct dfq_chan *dc = plist_entry(pos, struct dfq_chan, ac.link);
		struct hal_task *t = hal_chan_task(dc->ac.c);

		if (!dc->dead && hal_chan_submitted(s, dc->ac.c) != dfq_chan_done(s, dc) &&
		    engines_running(s, hal_chan_gpu(dc->ac.c), t) !=
		    ENGINES_RUN_OTHER)
			return t;
	}
	return 0;
}

/* Kill task t of the entity: the entity itself if it is t's alone;
 * otherwise only t, whose channels the entity ignores from now on. */
void dfq_kill_stuck(struct hal_sched *s, struct dfq_task *dt,
		    struct hal_task *t, const char *why)
{
	struct plist *pos;

	if (single_task(dt)) {
		kill_task(s, dt, why);
		return;
	}
	plist_for_each(pos, &dt->chans) {
		struct dfq_chan *dc = plist_entry(pos, struct dfq_chan, ac.link);

		if (hal_chan_task(dc->ac.c) == t)
			dc->dead = 1;
	}
	hal_task_kill(s, t, why);
}
