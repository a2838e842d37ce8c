/* The DRM GPU scheduler's mechanism, shared by drm-fifo, drm-rr and
 * drm-fair (drm_sched.h). What is modelled, from the kernel's
 * documentation (Documentation/gpu/drm-mm.rst, "GPU Scheduler"), the
 * scheduler's KUnit tests (drivers/gpu/drm/scheduler/tests/) and the
 * dri-devel series that made "fair" the scheduler's policy (2025):
 *
 *  - Entities: one per task (a driver makes one per context: a task is a
 *    context here), with the task's priority (hal_task_priority), fixed.
 *    An entity joins its run queue's list at its first job and stays
 *    there (drm_sched_entity_push_job adds it when its queue was empty;
 *    the add is a no-op once it is listed): the list's order is the
 *    order of first jobs, not of creation.
 *  - Jobs: every submission on a task's channels is trapped into a
 *    shadow queue (the submit ioctl: the task pays a trap) and is a job of
 *    one credit. The entity keeps its jobs in submission order across its
 *    channels, with the submission time (drm-fifo's key).
 *  - The run-job worker: whenever a job arrives, a fence signals or a
 *    channel goes away, each GPU's scheduler pushes jobs while its jobs on
 *    the hardware are fewer than credit_limit: the policy picks the entity
 *    (drm_pick.select), its oldest job is forwarded to the hardware and
 *    timestamped (the scheduled fence). The worker's own CPU time and
 *    latency are not modelled.
 *  - Completion: the driver's interrupt handler signals the job's
 *    finished fence (ops->fence_signal); the job's credit returns, the
 *    entity's runtime grows by finished - scheduled (what
 *    drm_sched_entity_stats_job_add_gpu_time adds; with credit_limit > 1
 *    it includes time spent queued on the hardware behind another job),
 *    the same time is what the policy accounts (hal_account), and both
 *    the entity's and the scheduler's average job time (an EWMA, see
 *    drm_ewma_add) take it in.
 *  - Teardown: a channel's waiting jobs are dropped and its jobs on the
 *    hardware return their credits (the hardware ring is torn down).
 *  - A task's own max_inflight (the channel's credit limit) is enforced
 *    by the channel; a job forwarded past it holds a scheduler credit
 *    until its fence signals, as a job handed to a driver's run_job does.
 */
#include "drm_sched.h"

struct drm_state *drm_state(struct hal_sched *s)
{
	return hal_priv(s);
}

struct drm_entity *drm_entity_of(struct plist *n)
{
	return plist_entry(n, struct drm_entity, node);
}

int drm_init(struct hal_sched *s, const struct drm_pick *pick,
	     hal_u32 credit_limit)
{
	struct drm_state *st = drm_state(s);

	if (!credit_limit)
		return -DRM_EINVAL;
	st->pick = pick;
	st->credit_limit = credit_limit;
	plist_init(&st->entities);
	return 0;
}

/* ---- job queues -------------------------------------------------------- */

static int jobq_push(struct hal_sched *s, struct drm_jobq *q,
		     struct drm_chan *ch, hal_u64 when)
{
	if (q->len == q->cap) {
		hal_u32 cap = q->cap ? q->cap * 2 : 16, i;
		struct drm_job *jobs = hal_zalloc(s, sizeof(*jobs) * cap);

		if (!jobs)
			return -1;
		for (i = 0; i < q->len; i++)
			jobs[i] = q->jobs[(q->head + i) % q->cap];
		hal_free(s, q->jobs);
		q->jobs = jobs;
		q->head = 0;
		q->cap = cap;
	}
	q->jobs[(q->head + q->len) % q->cap].ch = ch;
	q->jobs[(q->head + q->len) % q->cap].when = when;
	q->len++;
	return 0;
}

static struct drm_job jobq_pop(struct drm_jobq *q)
{
	struct drm_job j = q->jobs[q->head];

	q->head = (q->head + 1) % q->cap;
	q->len--;
	return j;
}

/* Drop the jobs of channel ch, keeping the others in order. */
static void jobq_drop_chan(struct drm_jobq *q, const struct drm_chan *ch)
{
	hal_u32 i, kept = 0;

	for (i = 0; i < q->len; i++) {
		struct drm_job j = q->jobs[(q->head + i) % q->cap];

		if (j.ch != ch)
			q->jobs[(q->head + kept++) % q->cap] = j;
	}
	q->len = kept;
}

static void jobq_free(struct hal_sched *s, struct drm_jobq *q)
{
	hal_free(s, q->jobs);
	q->jobs = 0;
	q->head = q->len = q->cap = 0;
}

hal_u64 drm_head_time(const struct drm_entity *e)
{
	return e->queue.jobs[e->queue.head].when;
}

/* ---- averages ---------------------------------------------------------- */

#define DRM_EWMA_FRAC 6   /* bits of fraction kept */
#define DRM_EWMA_WEIGHT 2 /* log2 of the weight reciprocal (4) */

void drm_ewma_add(hal_u32 *avg, hal_u64 sample_us)
{
	hal_u64 v = sample_us > 0x3ffffffULL ? 0x3ffffffULL : sample_us;

	v <<= DRM_EWMA_FRAC;
	if (!*avg)
		*avg = (hal_u32)v;
	else
		*avg = (hal_u32)((((hal_u64)*avg << DRM_EWMA_WEIGHT) - *avg +
				  v) >> DRM_EWMA_WEIGHT);
}

hal_u32 drm_ewma_read(hal_u32 avg)
{
	return avg >> DRM_EWMA_FRAC;
}

/* ---- the run-job worker ------------------------------------------------ */

static void drm_run(struct hal_sched *s, hal_u32 gpu)
{
	struct drm_state *st = drm_state(s);
	struct drm_gpu *g = &st->gpus[gpu];

	while (g->credits < st->credit_limit) {
		struct drm_entity *e = st->pick->select(st, gpu);
		struct drm_job j;

		if (!e || HAL_WARN_ON(s, !drm_ready(e)))
			return;
		j = jobq_pop(&e->queue);
		j.when = hal_now(s);
		if (jobq_push(s, &j.ch->on_hw, j.ch, j.when) < 0)
			return; /* out of memory: the job is lost to us */
		g->credits++;
		e->on_hw++;
		hal_shadow_forward(s, j.ch->c, 1);
		if (st->pick->popped)
			st->pick->popped(st, e);
	}
}

static void drm_run_all(struct hal_sched *s)
{
	hal_u32 gpu, n = hal_gpu_count(s);

	for (gpu = 0; gpu < n && gpu < DRM_MAX_GPUS; gpu++)
		drm_run(s, gpu);
}

/* ---- ops --------------------------------------------------------------- */

void drm_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct drm_entity *e = hal_zalloc(s, sizeof(*e));

	if (!e)
		return; /* unmanaged: its channels are not shadowed */
	e->t = t;
	e->gpu = hal_task_gpu(t);
	if (e->gpu >= DRM_MAX_GPUS)
		e->gpu = DRM_MAX_GPUS - 1;
	e->prio = hal_task_priority(t);
	if (e->prio >= HAL_PRIO_COUNT)
		e->prio = HAL_PRIO_NORMAL;
	plist_add_tail(&drm_state(s)->entities, &e->node);
	hal_task_set_data(t, e);
}

void drm_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct drm_state *st = drm_state(s);
	struct drm_entity *e = hal_task_data(t);
	hal_u32 p;

	if (!e)
		return;
	if (st->pick->removed)
		st->pick->removed(st, e);
	for (p = 0; p < HAL_PRIO_COUNT; p++)
		if (st->gpus[e->gpu].rr_last[p] == e)
			st->gpus[e->gpu].rr_last[p] = 0;
	plist_del(&e->node);
	jobq_free(s, &e->queue);
	hal_task_set_data(t, 0);
	hal_free(s, e);
}

void drm_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	struct drm_entity *e = hal_task_data(hal_chan_task(c));
	struct drm_chan *ch;

	if (!e)
		return;
	ch = hal_zalloc(s, sizeof(*ch));
	if (!ch)
		return; /* unmanaged: its submissions go straight through */
	ch->e = e;
	ch->c = c;
	hal_chan_set_data(c, ch);
	hal_shadow_enable(s, c);
}

void drm_channel_destroy(struct hal_sched *s, struct hal_chan *c)
{
	struct drm_state *st = drm_state(s);
	struct drm_chan *ch = hal_chan_data(c);
	struct drm_entity *e;
	struct drm_gpu *g;

	if (!ch)
		return;
	e = ch->e;
	g = &st->gpus[e->gpu];
	jobq_drop_chan(&e->queue, ch);
	e->on_hw -= ch->on_hw.len;
	g->credits -= ch->on_hw.len;
	jobq_free(s, &ch->on_hw);
	if (!drm_ready(e) && st->pick->removed)
		st->pick->removed(st, e);
	hal_chan_set_data(c, 0);
	hal_free(s, ch);
	/* the freed credits go to the others from the worker, not from
	 * inside the teardown */
	hal_timer_arm(s, DRM_TIMER_KICK, hal_now(s));
}

void drm_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct drm_state *st = drm_state(s);
	struct drm_chan *ch = hal_chan_data(c);
	struct drm_entity *e;

	if (!ch)
		return;
	e = ch->e;
	if (jobq_push(s, &e->queue, ch, hal_now(s)) < 0) {
		/* out of memory: let the command through unscheduled */
		hal_shadow_forward(s, c, hal_shadow_pending(s, c));
		return;
	}
	if (!e->joined) {
		/* created earlier, joins the run queue now (drm-rr's turns,
		 * drm-fifo's ties follow this order) */
		plist_del(&e->node);
		plist_add_tail(&st->entities, &e->node);
		e->joined = 1;
	}
	if (e->queue.len == 1 && st->pick->activated)
		st->pick->activated(st, e);
	drm_run(s, e->gpu);
}

void drm_fence_signal(struct hal_sched *s, struct hal_chan *c, hal_u32 n)
{
	struct drm_state *st = drm_state(s);
	struct drm_chan *ch = hal_chan_data(c);
	hal_u64 now = hal_now(s);
	struct drm_entity *e;
	struct drm_gpu *g;

	if (!ch)
		return;
	e = ch->e;
	g = &st->gpus[e->gpu];
	for (; n && ch->on_hw.len; n--) {
		struct drm_job j = jobq_pop(&ch->on_hw);
		hal_u64 ran = now - j.when;
		hal_u64 us = hal_div64(ran, 1000);

		e->runtime += ran;
		hal_account(s, e->t, ran);
		drm_ewma_add(&e->avg_us, us);
		drm_ewma_add(&g->avg_us, us);
		e->on_hw--;
		g->credits--;
	}
	drm_run(s, e->gpu);
}

void drm_timer(struct hal_sched *s, hal_u32 id)
{
	/* drm policies arm no other timer */
	if (HAL_WARN_ON(s, id != DRM_TIMER_KICK))
		return;
	drm_run_all(s);
}
