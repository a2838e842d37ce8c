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
 * and an idle one keeps its last estimate, is charged only what it ran in
 * the free run (vtime.h, rule 1: idle at every barrier, in step with the
 * free runs, it was once never charged) and is pulled forward like any
 * idle task. The status is the engagement's, not one instant's: when the
 * drain is empty and a task that ran in the free run has nothing out,
 * the scheduler looks once more a poll later (a blocking task between
 * two requests has submitted by then; seed 1325) before deciding.
 * With `active_at_barrier: false`, a task is
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
 *   `free_run` fixes the length instead, as Fleig's evaluation does
 *   (5.1: "sample each application for 10 ms and set the duration of
 *   the freerun phase to 50 ms"; 4.4: a guest scheduler's 1 ms).
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
 *
 * Files: this one holds the parameters, the ops and the entities' and
 * channels' comings and goings; dfq_entity.c what dfq knows of an entity
 * (requests out and done, gates, waiting submissions, kills);
 * dfq_episode.c the episode (barrier, drain, samples, free run).
 *
 * Priority (hal_task_priority): ignored; only `weight` scales a task's share.
 */
#include "acct_engine_def.h"
#include "dfq_priv.h"

static const struct gs_param_desc dfq_params[] = {
	DFQ_PARAM_DESCS
};
_Static_assert(sizeof(dfq_params) / sizeof(dfq_params[0]) == DFQ_N_PARAMS,
	       "one descriptor per index");

/* ---- ops ---------------------------------------------------------------- */

int dfq_init(struct hal_sched *s, struct dfq *d)
{
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
	d->free_fixed = hal_param(s, DFQ_P_FREE_RUN);
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
	dfq_timer_arm(s, DFQ_TIMER_PHASE, d->free_start);
	return 0;
}

static void dfq_trace_open(struct hal_sched *s, struct dfq *d)
{
	if (d->state == DFQ_FREE)
		dfq_trace(s, "free-run", d->free_start);
	else if (d->state == DFQ_DRAIN)
		dfq_trace(s, "drain", d->episode_start);
	else if (d->cur)
		dfq_trace(s, d->cur->label, d->cur->s_start);
}

/* Free the entity's records; forget: its channels live on. */
static void entity_release(struct hal_sched *s, struct dfq_task *dt,
			   int forget)
{
	acct_entity_release(s, dt, &dt->vt, &dt->chans,
			    ACCT_CHAN_OFF(struct dfq_chan), forget);
}

static void dfq_fini(struct hal_sched *s, struct dfq *d)
{
	if (d->state == DFQ_FREE)
		dfq_trace(s, "free-run", d->free_start);

	while (!plist_empty(&d->vt.tasks))
		entity_release(s, dfq_task_of(d->vt.tasks.next), 0);
}

static struct dfq_task *dfq_entity_new(struct hal_sched *s, struct dfq *d,
				       struct hal_task *t, hal_u32 weight)
{
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

static void dfq_entity_free(struct hal_sched *s, struct dfq *d,
			    struct dfq_task *dt)
{
	if (d->cur == dt) {
		dfq_trace(s, dt->label, dt->s_start);
		d->cur = 0;
	}
	/* What waited on this task (drain, its sample) is re-checked. */
	if (d->state != DFQ_FREE)
		dfq_kick(s);
	entity_release(s, dt, 1);
}

static void dfq_chan_attach(struct hal_sched *s, struct dfq *d,
			    struct dfq_task *dt, struct hal_chan *c)
{
	struct dfq_chan *dc = ACCT_CHAN_NEW(s, struct dfq_chan, &dt->chans, c);

	if (!dc)
		return;
	dc->dt = dt;
	dfq_chan_gate(s, dt, c, d->state != DFQ_FREE || dt->vt.denied);
	/* requests published before this call would count as work */
	dt->snap_submitted += hal_chan_submitted(s, c);
}

static struct dfq_task *dfq_chan_entity(struct hal_sched *s,
					struct hal_chan *c)
{
	struct dfq_chan *dc = dfq_chan_get(s, c);

	return dc ? dc->dt : 0;
}

static void dfq_chan_detach(struct hal_sched *s, struct dfq *d,
			    struct hal_chan *c)
{
	struct dfq_chan *dc = dfq_chan_get(s, c);
	struct dfq_task *dt = dfq_chan_entity(s, c);
	hal_u64 sub;

	if (!dc)
		return;
	sub = hal_chan_submitted(s, c);
	if (dt) {
		/* keep the task's sums consistent without this channel */
		dt->snap_submitted -= sub < dt->snap_submitted
					      ? sub : dt->snap_submitted;
		if (d->cur == dt) {
			hal_u64 f = dfq_chan_done(s, dc);

			dfq_observe(s, dt);
			dt->s_fence -= f < dt->s_fence ? f : dt->s_fence;
		}
	}
	acct_chan_free(s, dc, ACCT_CHAN_OFF(struct dfq_chan));
	if (dt && d->cur == dt)
		dt->s_out = dfq_task_outstanding(s, dt);
}

/* A submission on c that the scheduler sees (a trapped doorbell write, or
 * one that went into a shadow channel): 1 if it may reach the GPU now, 0
 * if it must wait (held, or left in the shadow queue). */
static int on_submission(struct hal_sched *s, struct dfq *d,
			 struct dfq_task *dt, struct hal_chan *c)
{

	dt->had_work = 1;
	if (d->state == DFQ_FREE && !dt->vt.denied) {
		dfq_chan_gate(s, dt, c, 0); /* a stray trap or shadow: run free */
		return 1;
	}
	if (d->state == DFQ_SAMPLE && dt == d->cur) {
		dfq_observe(s, dt);
		dt->s_requests++;
		dt->s_out++;
		if (dt->s_requests >= d->sample_requests)
			dfq_stop_sample_counting(s, d, dt);
		return 1;
	}
	/* stopped: does that end what the scheduler waits for? */
	dfq_note_held(s, d, c);
	if (d->state == DFQ_DRAIN && dfq_drained(s, d))
		dfq_kick(s);
	if (d->state == DFQ_SAMPLE_WAIT && dt == d->cur) {
		dfq_observe(s, dt);
		if (!dt->s_out)
			dfq_kick(s);
	}
	return 0;
}

static int dfq_submit(struct hal_sched *s, struct dfq *d,
		      struct hal_chan *c)
{
	struct dfq_task *dt = dfq_chan_entity(s, c);

	if (!dt)
		return GS_SUBMIT_ALLOW;
	return on_submission(s, d, dt, c) ? GS_SUBMIT_ALLOW : GS_SUBMIT_HOLD;
}

static void dfq_shadow_submit(struct hal_sched *s, struct dfq *d,
			      struct hal_chan *c)
{
	struct dfq_task *dt = dfq_chan_entity(s, c);

	if (!dt) {
		hal_shadow_disable(s, c); /* not ours: let it through */
		return;
	}
	if (on_submission(s, d, dt, c) && hal_shadow_pending(s, c))
		hal_shadow_forward(s, c, 1);
}

ACCT_ENGINE(dfq, struct dfq, struct dfq_task, 0, 0);

static int dfq_own_init(struct hal_sched *s)
{
	struct dfq *d = acct_run_start(s, hal_priv(s), &dfq_acct_engine);

	return d ? dfq_init(s, d) : -1;
}

const struct gs_policy_ops gs_policy_dfq = {
	.name = "dfq",
	.summary = "Disengaged Fair Queueing (NEON 3.3): drain, sample each "
		   "task alone, free-run; deny tasks ahead in virtual time",
	.priority = "ignored (weights only, from `weight`)",
	.params = dfq_params,
	.n_params = sizeof(dfq_params) / sizeof(dfq_params[0]),
	.init = dfq_own_init,
	ACCT_OWN_OPS,
};
