/* The simulator's implementation of policies/hal.h: each service acts on
 * the model and charges its cost where the host model says it falls —
 * MMIO reads and kernel-thread wake-ups to policy CPU time, traps to the
 * task (host.c). */
#include <glib.h>
#include <stdarg.h>

#include "sim/sim_internal.h"
#include "workloads/config_load.h"

static struct gs_sim *sim_of(struct hal_sched *s)
{
	return s->sim;
}

/* ---- instance ------------------------------------------------------- */

static uint64_t parse_param(const struct gs_sim *sim,
			    const struct gs_param_desc *d, const char *text)
{
	gs_time_t ns = 0;

	switch (d->type) {
	case GS_PARAM_DURATION:
		if (gs_parse_duration(text, sim->sc->host.clock_hz, &ns) < 0)
			g_error("policy parameter %s: bad default '%s'",
				d->name, text);
		return ns;
	case GS_PARAM_BOOL:
		return !g_ascii_strcasecmp(text, "true");
	default:
		return g_ascii_strtoull(text, NULL, 10);
	}
}

static void schedule_timers(struct hal_sched *s)
{
	gs_time_t first = GS_TIME_NEVER;
	uint32_t i;

	for (i = 0; i < HAL_MAX_TIMERS; i++)
		if (s->timer_when[i] < first)
			first = s->timer_when[i];
	if (first == GS_TIME_NEVER)
		gs_evq_cancel(&s->sim->q, &s->timer_ev);
	else if (!gs_event_queued(&s->timer_ev) || s->timer_ev.time != first)
		gs_evq_schedule(&s->sim->q, &s->timer_ev, first);
}

/* Every timer due now, in id order; each expiry is one wake-up of the
 * policy's kernel thread. */
static void timers_fired(void *ctx, struct gs_event *ev)
{
	struct hal_sched *s = ctx;
	gs_time_t now = s->sim->q.now;
	uint32_t i;
	(void)ev;

	for (i = 0; i < HAL_MAX_TIMERS; i++) {
		if (s->timer_when[i] > now)
			continue;
		s->timer_when[i] = GS_TIME_NEVER;
		s->sim->policy_cpu += s->sim->sc->host.policy_wakeup;
		if (s->ops->timer)
			s->ops->timer(s, i);
	}
	schedule_timers(s);
}

static void poll_sample(void *ctx, struct gs_event *ev);
static void poll_end(void *ctx, struct gs_event *ev);

bool gs_hal_start(struct gs_sim *sim, GError **error)
{
	const struct gs_policy_config *pc = &sim->sc->policy;
	const struct gs_policy_ops *ops = sim->opt.policy_ops
						  ? sim->opt.policy_ops
						  : gs_policy_find(pc->name);
	struct hal_sched *s = &sim->sched;
	g_autofree char *stream = NULL;
	uint32_t i;

	g_assert(ops); /* the loader checked the name */
	g_assert(ops->n_params <= GS_MAX_PARAMS);
	s->sim = sim;
	s->ops = ops;
	s->priv = ops->priv_size ? g_malloc0(ops->priv_size) : NULL;
	for (i = 0; i < ops->n_params; i++)
		s->params[i] = parse_param(sim, &ops->params[i],
					   ops->params[i].def);
	for (i = 0; i < pc->n_params && !sim->opt.policy_ops; i++) {
		int idx = gs_policy_param_index(ops, pc->params[i].key);

		g_assert(idx >= 0); /* the loader checked the names */
		s->params[idx] = parse_param(sim, &ops->params[idx],
					     pc->params[i].value);
	}
	for (i = 0; i < HAL_MAX_TIMERS; i++)
		s->timer_when[i] = GS_TIME_NEVER;
	gs_event_init(&s->timer_ev, GS_EVC_POLICY, timers_fired, s);
	gs_event_init(&s->poll.sample_ev, GS_EVC_POLICY, poll_sample, s);
	gs_event_init(&s->poll.end_ev, GS_EVC_POLICY, poll_end, s);
	stream = g_strdup_printf("policy/%s", ops->name);
	gs_rng_seed(&s->rng, sim->sc->seed, stream);
	if (ops->init && ops->init(s) != 0) {
		g_set_error(error, g_quark_from_static_string("gs-sim"), 1,
			    "policy %s failed to initialise", ops->name);
		return false;
	}
	return true;
}

void gs_hal_stop(struct gs_sim *sim)
{
	struct hal_sched *s = &sim->sched;

	if (!s->ops)
		return;
	if (s->ops->fini)
		s->ops->fini(s);
	gs_evq_cancel(&sim->q, &s->timer_ev);
	gs_evq_cancel(&sim->q, &s->poll.sample_ev);
	gs_evq_cancel(&sim->q, &s->poll.end_ev);
	g_free(s->priv);
	s->priv = NULL;
}

/* ---- time, timers, memory, parameters -------------------------------- */

hal_u64 hal_now(struct hal_sched *s)
{
	return sim_of(s)->q.now;
}

void hal_timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when)
{
	gs_time_t now = sim_of(s)->q.now;

	g_return_if_fail(id < HAL_MAX_TIMERS);
	s->timer_when[id] = when < now ? now : when;
	schedule_timers(s);
}

void hal_timer_cancel(struct hal_sched *s, hal_u32 id)
{
	g_return_if_fail(id < HAL_MAX_TIMERS);
	s->timer_when[id] = GS_TIME_NEVER;
	schedule_timers(s);
}

void *hal_zalloc(struct hal_sched *s, hal_u64 size)
{
	(void)s;
	return g_malloc0(size);
}

void hal_free(struct hal_sched *s, void *p)
{
	(void)s;
	g_free(p);
}

void *hal_priv(struct hal_sched *s)
{
	return s->priv;
}

hal_u64 hal_param(struct hal_sched *s, const char *name)
{
	int i = gs_policy_param_index(s->ops, name);

	if (i < 0) {
		g_critical("policy %s asked for undeclared parameter %s",
			   s->ops->name, name);
		return 0;
	}
	return s->params[i];
}

/* ---- tasks and channels ------------------------------------------------ */

hal_u32 hal_task_id(const struct hal_task *t) { return t->task->index; }
const char *hal_task_name(const struct hal_task *t) { return t->task->name; }
hal_u32 hal_task_weight(const struct hal_task *t) { return t->task->cfg->weight; }
hal_s32 hal_task_vm(const struct hal_task *t) { return t->task->cfg->vm; }
hal_u32 hal_task_gpu(const struct hal_task *t) { return t->task->gpu; }
void *hal_task_data(const struct hal_task *t) { return t->data; }
void hal_task_set_data(struct hal_task *t, void *data) { t->data = data; }
struct hal_task *hal_chan_task(const struct hal_chan *c) { return &c->task->hal; }
hal_u32 hal_chan_id(const struct hal_chan *c) { return c->ch->id; }
hal_u32 hal_chan_gpu(const struct hal_chan *c) { return c->ch->gpu->index; }
void *hal_chan_data(const struct hal_chan *c) { return c->data; }
void hal_chan_set_data(struct hal_chan *c, void *data) { c->data = data; }

struct hal_chan *hal_chan_lookup(struct hal_sched *s, hal_u32 gpu, hal_u32 id)
{
	struct gs_sim *sim = sim_of(s);
	struct gs_channel *ch;

	if (gpu >= sim->n_gpus || id >= sim->gpus[gpu]->cfg.max_channels)
		return NULL;
	ch = &sim->gpus[gpu]->channels[id];
	return ch->open ? ch->owner : NULL;
}

/* Guest task ids: what a VM's guest driver would pass at channel
 * allocation. The simulator uses the task's index + 1, unique in the VM
 * and constant, as the thesis's guest pid. */
hal_u32 hal_chan_guest_id(const struct hal_chan *c)
{
	int32_t vm = c->task->cfg->vm;

	if (vm < 0 || !c->task->sim->sc->vms[vm].hints)
		return HAL_GUEST_NONE;
	return c->task->index + 1;
}

hal_u32 hal_vm_count(struct hal_sched *s) { return sim_of(s)->sc->n_vms; }

hal_s32 hal_vm_parent(struct hal_sched *s, hal_s32 vm)
{
	return vm >= 0 && (hal_u32)vm < sim_of(s)->sc->n_vms
		       ? sim_of(s)->sc->vms[vm].parent : -1;
}

hal_u32 hal_vm_weight(struct hal_sched *s, hal_s32 vm)
{
	return vm >= 0 && (hal_u32)vm < sim_of(s)->sc->n_vms
		       ? sim_of(s)->sc->vms[vm].weight : 1;
}

/* ---- submission control ------------------------------------------------ */

void hal_trap_arm(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	c->trap_armed = true;
}

void hal_trap_disarm(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	c->trap_armed = false;
}

void hal_task_release(struct hal_sched *s, struct hal_task *t)
{
	(void)s;
	gs_task_release(t->task);
}

int hal_task_held(const struct hal_task *t)
{
	return t->task->state == GS_TASK_HELD;
}

/* Switching a VM task's channel to or from its shadow copies its control
 * registers and remaps it: the VM's `shadow_copy`, policy CPU time. A
 * host task's software queue (GERM) costs nothing to switch. */
static void charge_shadow_switch(struct hal_sched *s, struct hal_chan *c)
{
	int32_t vm = c->task->cfg->vm;

	if (vm >= 0)
		s->sim->policy_cpu += s->sim->sc->vms[vm].shadow_copy;
}

void hal_shadow_enable(struct hal_sched *s, struct hal_chan *c)
{
	if (!c->shadow)
		charge_shadow_switch(s, c);
	c->shadow = true;
}

void hal_shadow_disable(struct hal_sched *s, struct hal_chan *c)
{
	if (c->shadow)
		charge_shadow_switch(s, c);
	c->shadow = false;
	gs_chan_doorbell(c->ch);
}

hal_u32 hal_shadow_pending(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return gs_chan_unpublished(c->ch);
}

hal_u64 hal_shadow_peek_hint(struct hal_sched *s, struct hal_chan *c)
{
	const struct gs_cmd *head = gs_chan_unpublished_head(c->ch);

	(void)s;
	return head ? head->duration : 0;
}

hal_u32 hal_shadow_peek_class(struct hal_sched *s, struct hal_chan *c)
{
	const struct gs_cmd *head = gs_chan_unpublished_head(c->ch);

	(void)s;
	return head ? head->cls : 0;
}

hal_u32 hal_shadow_peek_occupancy(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	if (!gs_chan_unpublished_head(c->ch))
		return 0;
	return c->ch->occupancy_pm ? c->ch->occupancy_pm : 1000;
}

void hal_shadow_forward(struct hal_sched *s, struct hal_chan *c, hal_u32 n)
{
	(void)s;
	gs_chan_publish(c->ch, n);
}

/* ---- observing the GPU ------------------------------------------------- */

static void charge_mmio(struct hal_sched *s, struct gs_gpu *gpu)
{
	/* a read made by the running poll loop's thread is already in the
	 * loop's busy time */
	if (!s->poll.active)
		s->sim->policy_cpu += gpu->cfg.mmio_read;
}

static void read_status(struct gs_gpu *gpu, hal_u32 engine,
			struct hal_engine_status *out)
{
	struct gs_engine_status st;

	gs_gpu_peek_engine_status(gpu, (uint8_t)engine, &st);
	out->cur_id = st.cur_id;
	out->next_id = st.next_id;
	out->ctx_status = st.ctx_status;
	out->busy = st.busy;
}

void hal_read_engine_status(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
			    struct hal_engine_status *out)
{
	struct gs_gpu *g = sim_of(s)->gpus[gpu];

	g->mmio_reads++;
	read_status(g, engine, out);
	charge_mmio(s, g);
}

hal_u32 hal_read_chram(struct hal_sched *s, struct hal_chan *c)
{
	charge_mmio(s, c->ch->gpu);
	return gs_gpu_read_chram(c->ch->gpu, c->ch->id);
}

hal_u64 hal_fence_read(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return gs_chan_fence_visible(c->ch);
}

hal_u64 hal_chan_submitted(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return c->ch->submitted;
}

/* The poll loop reads the register every `period` (one MMIO read) from
 * `start`. Rather than an event per read, it wakes at the first read
 * boundary at or after each change of the register, which is exactly the
 * read a step-by-step loop would first see it in: reads in between see
 * the old value. The thread is busy all along: its CPU time and reads are
 * charged for the whole loop when it ends. */
static gs_time_t next_boundary(const struct hal_poll *p, gs_time_t t)
{
	gs_time_t k = (t - p->start + p->period - 1) / p->period;

	return p->start + k * p->period;
}

void gs_hal_status_change(void *ctx, struct gs_gpu *gpu, uint8_t engine)
{
	struct gs_sim *sim = ctx;
	struct hal_poll *p = &sim->sched.poll;
	gs_time_t at;

	if (!p->active || p->gpu != gpu->index || p->engine != engine)
		return;
	at = next_boundary(p, sim->q.now);
	if (at >= p->until)
		return;
	if (!gs_event_queued(&p->sample_ev) || p->sample_ev.time > at)
		gs_evq_schedule(&sim->q, &p->sample_ev, at);
}

static void poll_sample(void *ctx, struct gs_event *ev)
{
	struct hal_sched *s = ctx;
	struct hal_poll *p = &s->poll;
	struct hal_engine_status st;
	(void)ev;

	read_status(s->sim->gpus[p->gpu], p->engine, &st);
	if (st.cur_id == p->last.cur_id && st.next_id == p->last.next_id &&
	    st.ctx_status == p->last.ctx_status && st.busy == p->last.busy)
		return;
	p->last = st;
	if (s->ops->poll_change)
		s->ops->poll_change(s, &st, s->sim->q.now);
}

/* Charge the loop's reads and busy CPU time from start to now. */
static void poll_finish(struct hal_sched *s)
{
	struct hal_poll *p = &s->poll;
	struct gs_sim *sim = s->sim;
	gs_time_t elapsed = sim->q.now - p->start;

	sim->policy_cpu += elapsed;
	/* reads at start, start + period, ... before now */
	sim->gpus[p->gpu]->mmio_reads +=
		(elapsed + p->period - 1) / p->period;
	p->active = false;
	gs_evq_cancel(&sim->q, &p->sample_ev);
	gs_evq_cancel(&sim->q, &p->end_ev);
}

/* Results are being collected: charge a loop still running up to now
 * (it goes on from here, so it is not charged twice). */
void gs_hal_flush(struct gs_sim *sim)
{
	struct hal_poll *p = &sim->sched.poll;
	gs_time_t elapsed;

	if (!p->active)
		return;
	/* whole periods, so the read grid stays where it was */
	elapsed = (sim->q.now - p->start) / p->period * p->period;
	sim->policy_cpu += elapsed;
	sim->gpus[p->gpu]->mmio_reads += elapsed / p->period;
	p->start += elapsed;
}

static void poll_end(void *ctx, struct gs_event *ev)
{
	struct hal_sched *s = ctx;
	(void)ev;

	poll_finish(s);
	if (s->ops->poll_end)
		s->ops->poll_end(s);
}

void hal_poll_start(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
		    hal_u64 until)
{
	struct gs_sim *sim = sim_of(s);
	struct hal_poll *p = &s->poll;
	struct gs_gpu *g = sim->gpus[gpu];

	if (p->active)
		poll_finish(s);
	p->active = true;
	p->gpu = gpu;
	p->engine = engine;
	p->start = sim->q.now;
	p->until = until > p->start ? until : p->start;
	p->period = g->cfg.mmio_read ? g->cfg.mmio_read : 1;
	/* The loop's first read is reported too (as by the kernel HAL): no
	 * earlier sample can equal it. */
	p->last.ctx_status = 0xff;
	gs_evq_schedule(&sim->q, &p->sample_ev, p->start);
	gs_evq_schedule(&sim->q, &p->end_ev, p->until);
}

void hal_poll_stop(struct hal_sched *s)
{
	if (s->poll.active)
		poll_finish(s);
}

/* ---- acting on tasks --------------------------------------------------- */

void hal_task_kill(struct hal_sched *s, struct hal_task *t, const char *why)
{
	struct gs_task *task = t->task;

	g_message("%s: task %s killed: %s", s->ops->name, task->name, why);
	/* Deferred to an event of its own: killing tears down channels and
	 * calls back into the policy, which is in the middle of a call now. */
	gs_evq_schedule(&s->sim->q, &task->kill_ev, s->sim->q.now);
}

/* ---- reporting --------------------------------------------------------- */

void hal_account(struct hal_sched *s, struct hal_task *t, hal_u64 gpu_ns)
{
	s->sim->policy_accounts = true;
	t->task->accounted += gpu_ns;
}

void hal_set_vtime(struct hal_sched *s, struct hal_task *t, hal_u64 vtime)
{
	(void)s;
	t->task->vtime = vtime;
}

void hal_trace_phase(struct hal_sched *s, const char *name, hal_u64 start,
		     hal_u64 end)
{
	gs_record_policy_span(s->sim, name, start, end);
}

void hal_cpu_charge(struct hal_sched *s, hal_u64 ns)
{
	s->sim->policy_cpu += ns;
}

void hal_log(struct hal_sched *s, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *msg = NULL;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_debug("%" G_GUINT64_FORMAT " %s: %s", s->sim->q.now, s->ops->name,
		msg);
}

hal_u64 hal_random(struct hal_sched *s)
{
	return gs_rng_next(&s->rng);
}

/* ---- node-level services ----------------------------------------------- */

hal_u32 hal_gpu_count(struct hal_sched *s)
{
	return sim_of(s)->n_gpus;
}

hal_u64 hal_gpu_busy_ns(struct hal_sched *s, hal_u32 gpu)
{
	const struct gs_gpu *g = sim_of(s)->gpus[gpu];
	const struct gs_engine *eng = &g->engines[GS_ENGINE_COMPUTE];
	hal_u64 busy = eng->busy_time;

	if (eng->state == GS_ENG_RUNNING)
		busy += g->q->now - eng->run_start;
	/* kernels sharing the cores: time any of them ran, as the GPU's
	 * utilisation counter (nvidia-smi) reports it */
	return busy + gs_shared_active_now(g);
}

int hal_task_migrate(struct hal_sched *s, struct hal_task *t, hal_u32 gpu)
{
	struct gs_task *task = t->task;

	if (gpu >= sim_of(s)->n_gpus || task->state == GS_TASK_DONE ||
	    task->state == GS_TASK_KILLED)
		return -1;
	if (!task->channels_open && !task->resident) {
		/* from task_create: placement, free */
		task->gpu = gpu;
		return 0;
	}
	/* host.c moves it at its next launch with nothing outstanding */
	task->migrate_to = gpu == task->gpu ? GS_GPU_AUTO : gpu;
	return 0;
}

hal_u64 hal_task_sync_ns(struct hal_sched *s, const struct hal_task *t)
{
	(void)s;
	return gs_task_sync_now(t->task);
}

hal_u64 hal_gpu_memory(struct hal_sched *s, hal_u32 gpu)
{
	(void)gpu;
	return sim_of(s)->sc->gpu_memory;
}

hal_u64 hal_task_memory(struct hal_sched *s, const struct hal_task *t)
{
	(void)s;
	return t->task->cfg->memory_bytes;
}
