/* The simulator's implementation of policies/hal.h: each service acts on
 * the model and charges its cost where the host model says it falls —
 * MMIO reads and kernel-thread wake-ups to policy CPU time, traps to the
 * task (host.c). */
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>

#include "policies/param_value.h"
#include "sim/sim_internal.h"

static struct gs_sim *sim_of(struct hal_sched *s)
{
	return s->sim;
}

/* HAL_WARN_ON fired: counted for the run, the first kept for
 * summary.json. A policy bug, not the scenario's: the run goes on. */
void hal_warn(struct hal_sched *s, const char *file, int line,
	      const char *cond)
{
	struct gs_sim *sim = sim_of(s);

	if (!sim->policy_warnings++)
		sim->policy_warning = g_strdup_printf(
			"policy %s at %" PRIu64 " ns: %s:%d: WARN_ON(%s)",
			s->ops->name, (uint64_t)sim->q.now, file, line, cond);
}

/* ---- instance ------------------------------------------------------- */

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
		gs_policy_timer(s, i);
	}
	schedule_timers(s);
}

static void poll_sample(void *ctx, struct gs_event *ev);
static void poll_end(void *ctx, struct gs_event *ev);

/* The first VM index after vm's subtree (VMs are numbered in
 * pre-order, so a subtree is a range). */
static uint32_t subtree_end(const struct gs_scenario *sc, int32_t vm)
{
	uint32_t j;

	if (vm < 0)
		return sc->n_vms;
	for (j = (uint32_t)vm + 1; j < sc->n_vms; j++) {
		int32_t p = sc->vms[j].parent;

		while (p >= 0 && p != vm)
			p = sc->vms[p].parent;
		if (p != vm)
			break;
	}
	return j;
}

void gs_hal_prepare(struct gs_sim *sim)
{
	const struct gs_scenario *sc = sim->sc;
	uint32_t i, n = 0;

	sim->sched.vm = -1;
	sim->sched.vm_end = sc->n_vms;
	sim->vm_sched = g_new0(struct hal_sched *, sc->n_vms ? sc->n_vms : 1);
	for (i = 0; i < sc->n_vms; i++)
		n += sc->vms[i].scheduler.name != NULL;
	/* a policy under test runs alone unless a guest is under test too */
	if (sim->opt.policy_ops && !sim->opt.guest_ops)
		n = 0;
	sim->guests = g_new0(struct hal_sched, n ? n : 1);
	for (i = 0; i < sc->n_vms && sim->n_guests < n; i++) {
		struct hal_sched *g;

		if (!sc->vms[i].scheduler.name)
			continue;
		g = &sim->guests[sim->n_guests++];
		g->vm = (int32_t)i;
		g->vm_end = subtree_end(sc, (int32_t)i);
		g->track = sim->n_guests;
		sim->vm_sched[i] = g;
	}
}

void gs_hal_levels(struct gs_sim *sim, struct gs_task *t)
{
	const struct gs_scenario *sc = sim->sc;
	uint32_t n = 0, k = 0, i;
	int32_t vm;

	for (vm = t->cfg->vm; vm >= 0; vm = sc->vms[vm].parent)
		n += sim->vm_sched[vm] != NULL;
	t->n_levels = n + 1;
	t->levels = g_new0(struct gs_task_level, n + 1);
	t->guest_hal = n ? g_new0(struct hal_task, n) : NULL;
	t->guest_chans = n ? g_new0(struct hal_chan, n * t->cfg->channels)
			   : NULL;
	for (vm = t->cfg->vm; vm >= 0; vm = sc->vms[vm].parent) {
		if (!sim->vm_sched[vm])
			continue;
		t->levels[k].s = sim->vm_sched[vm];
		t->levels[k].hal = &t->guest_hal[k];
		t->levels[k].chans = &t->guest_chans[k * t->cfg->channels];
		k++;
	}
	t->levels[k].s = &sim->sched;
	t->levels[k].hal = &t->hal;
	t->levels[k].chans = t->chans;
	for (i = 0; i <= k; i++) {
		t->levels[i].hal->task = t;
		t->levels[i].hal->s = t->levels[i].s;
		t->levels[i].hal->level = i;
	}
}

static bool instance_start(struct gs_sim *sim, struct hal_sched *s,
			   const struct gs_policy_ops *ops,
			   const struct gs_policy_config *pc, GError **error)
{
	g_autofree char *stream = NULL;
	uint32_t i;

	g_assert(ops); /* the loader checked the name */
	g_assert(ops->n_params <= GS_MAX_PARAMS);
	s->sim = sim;
	s->ops = ops;
	s->priv = ops->priv_size ? g_malloc0(ops->priv_size) : NULL;
	/* the defaults from the descriptors, then what the scenario set,
	 * as the loader checked and converted it */
	if (gs_param_defaults(ops, s->params) < 0)
		g_error("policy %s: a malformed default", ops->name);
	for (i = 0; pc && i < pc->n_params; i++)
		s->params[pc->params[i].index] = pc->params[i].n;
	for (i = 0; i < HAL_MAX_TIMERS; i++)
		s->timer_when[i] = GS_TIME_NEVER;
	gs_event_init(&s->timer_ev, GS_EVC_POLICY, timers_fired, s);
	gs_event_init(&s->poll.sample_ev, GS_EVC_POLICY, poll_sample, s);
	gs_event_init(&s->poll.end_ev, GS_EVC_POLICY, poll_end, s);
	/* a VM's scheduler draws from a stream of its own */
	stream = s->vm < 0 ? g_strdup_printf("policy/%s", ops->name)
			   : g_strdup_printf("vm/%s/policy/%s",
					     sim->sc->vms[s->vm].name,
					     ops->name);
	gs_rng_seed(&s->rng, sim->sc->seed, stream);
	if (gs_policy_init(s) != 0) {
		/* where the scenario chose it, when it did */
		g_autofree char *where =
			pc && pc->where ? g_strdup_printf("%s: ", pc->where)
					: g_strdup("");

		if (s->vm < 0)
			g_set_error(error, g_quark_from_static_string("gs-sim"),
				    GS_SIM_ERROR_POLICY_INIT, "%spolicy %s failed to initialise",
				    where, ops->name);
		else
			g_set_error(error, g_quark_from_static_string("gs-sim"),
				    GS_SIM_ERROR_POLICY_INIT, "%svm %s: its scheduler %s failed to "
				    "initialise", where,
				    sim->sc->vms[s->vm].name, ops->name);
		return false;
	}
	return true;
}

bool gs_hal_start(struct gs_sim *sim, GError **error)
{
	const struct gs_policy_config *pc = &sim->sc->policy;
	uint32_t i;

	if (!instance_start(sim, &sim->sched,
			    sim->opt.policy_ops ? sim->opt.policy_ops
						: gs_policy_find(pc->name),
			    sim->opt.policy_ops ? NULL : pc, error))
		return false;
	for (i = 0; i < sim->n_guests; i++) {
		struct hal_sched *g = &sim->guests[i];
		const struct gs_policy_config *gpc =
			&sim->sc->vms[g->vm].scheduler;

		if (!instance_start(sim, g,
				    sim->opt.guest_ops ? sim->opt.guest_ops
						       : gs_policy_find(gpc->name),
				    sim->opt.guest_ops ? NULL : gpc, error))
			return false;
	}
	return true;
}

static void instance_stop(struct gs_sim *sim, struct hal_sched *s)
{
	if (!s->ops)
		return;
	gs_policy_fini(s);
	gs_evq_cancel(&sim->q, &s->timer_ev);
	gs_evq_cancel(&sim->q, &s->poll.sample_ev);
	gs_evq_cancel(&sim->q, &s->poll.end_ev);
	g_free(s->priv);
	s->priv = NULL;
}

void gs_hal_stop(struct gs_sim *sim)
{
	uint32_t i;

	for (i = sim->n_guests; i-- > 0;)
		instance_stop(sim, &sim->guests[i]);
	instance_stop(sim, &sim->sched);
	g_free(sim->guests);
	g_free(sim->vm_sched);
	sim->guests = NULL;
	sim->vm_sched = NULL;
	sim->n_guests = 0;
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

hal_u64 hal_param(struct hal_sched *s, hal_u32 idx)
{
	if (HAL_WARN_ON(s, idx >= s->ops->n_params))
		return 0;
	return s->params[idx];
}

/* ---- tasks and channels ------------------------------------------------ */

/* The handle of host channel handle hc at instance s's level, or NULL
 * when s does not schedule its task (another VM's channel). */
static struct hal_chan *gs_hal_chan_at(struct hal_sched *s,
				       struct hal_chan *hc)
{
	const struct gs_task *t;
	uint32_t k, chan;

	if (!hc || s == &s->sim->sched)
		return hc;
	t = hc->task;
	chan = (uint32_t)(hc - t->chans);
	for (k = 0; k < t->n_levels; k++)
		if (t->levels[k].s == s)
			return &t->levels[k].chans[chan];
	return NULL;
}

hal_u32 hal_task_id(const struct hal_task *t) { return t->task->index; }
const char *hal_task_name(const struct hal_task *t) { return t->task->name; }
hal_u32 hal_task_weight(const struct hal_task *t) { return t->task->cfg->weight; }
/* A VM index as instance s sees it: its own VM is where its tasks are
 * (-1, the "host" of a guest kernel), the VMs below it numbered from 0. */
static hal_s32 vm_view(const struct hal_sched *s, int32_t vm)
{
	return vm == s->vm ? -1 : vm - (s->vm + 1);
}

hal_s32 hal_task_vm(const struct hal_task *t)
{
	return vm_view(t->s, t->task->cfg->vm);
}
hal_u32 hal_task_gpu(const struct hal_task *t) { return t->task->gpu; }
void *hal_task_data(const struct hal_task *t) { return t->data; }
void hal_task_set_data(struct hal_task *t, void *data) { t->data = data; }
struct hal_task *hal_chan_task(const struct hal_chan *c) { return c->owner; }
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
	return ch->open ? gs_hal_chan_at(s, ch->owner) : NULL;
}

/* Guest task ids: what a VM's guest driver would pass at channel
 * allocation. The simulator uses the task's index + 1, unique in the VM
 * and constant, as the thesis's guest pid. */
hal_u32 hal_chan_guest_id(const struct hal_chan *c)
{
	int32_t vm = c->task->cfg->vm;

	/* a VM's own scheduler knows its processes: no hints needed */
	if (vm == c->owner->s->vm || !c->task->sim->sc->vms[vm].hints)
		return HAL_GUEST_NONE;
	return c->task->index + 1;
}

hal_u32 hal_vm_count(struct hal_sched *s)
{
	return s->vm_end - (uint32_t)(s->vm + 1);
}

/* VM `vm` of s's view as a scenario VM index, or -1 if out of range. */
static int32_t vm_global(const struct hal_sched *s, hal_s32 vm)
{
	return vm >= 0 && (hal_u32)vm < hal_vm_count((struct hal_sched *)s)
		       ? vm + s->vm + 1 : -1;
}

hal_s32 hal_vm_parent(struct hal_sched *s, hal_s32 vm)
{
	int32_t g = vm_global(s, vm);

	return g < 0 ? -1 : vm_view(s, sim_of(s)->sc->vms[g].parent);
}

hal_u32 hal_vm_weight(struct hal_sched *s, hal_s32 vm)
{
	int32_t g = vm_global(s, vm);

	return g < 0 ? 1 : sim_of(s)->sc->vms[g].weight;
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

/* Held by this handle's level (another level's hold is not its own). */
int hal_task_held(const struct hal_task *t)
{
	return t->task->state == GS_TASK_HELD &&
	       t->task->held_level == t->level;
}

void hal_task_release(struct hal_sched *s, struct hal_task *t)
{
	(void)s;
	if (hal_task_held(t))
		gs_task_release(t->task);
}

/* Switching a VM task's channel to or from its shadow copies its control
 * registers and remaps it: the VM's `shadow_copy`, policy CPU time. A
 * host task's software queue (GERM) costs nothing to switch. */
static void charge_shadow_switch(struct hal_sched *s, struct hal_chan *c)
{
	int32_t vm = c->task->cfg->vm;

	if (vm >= 0)
		gs_policy_charge(s, s->sim->sc->vms[vm].shadow_copy);
}

void hal_shadow_enable(struct hal_sched *s, struct hal_chan *c)
{
	if (!c->shadow) {
		charge_shadow_switch(s, c);
		c->shadow_since = s->sim->q.now;
	}
	c->shadow = true;
}

void hal_shadow_disable(struct hal_sched *s, struct hal_chan *c)
{
	if (c->shadow) {
		charge_shadow_switch(s, c);
		if (s == &s->sim->sched)
			c->task->host_shadowed_ns += s->sim->q.now -
						     c->shadow_since;
	}
	c->shadow = false;
	gs_task_forward(c, c->queued);
}

hal_u32 hal_shadow_pending(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return c->queued;
}

/* The oldest command of c's level's queue: the outer levels' queues hold
 * older ones (unpublished commands are in order, outermost first). */
static const struct gs_cmd *shadow_head(const struct hal_chan *c)
{
	const struct gs_task *t = c->task;
	uint32_t k, before = 0, chan;

	if (!c->queued)
		return NULL;
	chan = (uint32_t)(c - t->levels[c->owner->level].chans);
	for (k = c->owner->level + 1; k < t->n_levels; k++)
		before += t->levels[k].chans[chan].queued;
	return gs_chan_unpublished_at(c->ch, before);
}

hal_u64 hal_shadow_peek_hint(struct hal_sched *s, struct hal_chan *c)
{
	const struct gs_cmd *head = shadow_head(c);

	(void)s;
	return head ? head->duration : 0;
}

hal_u32 hal_shadow_peek_class(struct hal_sched *s, struct hal_chan *c)
{
	const struct gs_cmd *head = shadow_head(c);

	(void)s;
	return head ? head->cls : 0;
}

hal_u32 hal_shadow_peek_occupancy(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	if (!shadow_head(c))
		return 0;
	return c->ch->occupancy_pm ? c->ch->occupancy_pm : 1000;
}

void hal_shadow_forward(struct hal_sched *s, struct hal_chan *c, hal_u32 n)
{
	(void)s;
	gs_task_forward(c, n);
}

/* ---- observing the GPU ------------------------------------------------- */

static void charge_mmio(struct hal_sched *s, struct gs_gpu *gpu)
{
	/* a read made by the running poll loop's thread is already in the
	 * loop's busy time */
	if (!s->poll.active)
		gs_policy_charge(s, gpu->cfg.mmio_read);
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

static void poll_notice(struct hal_sched *s, struct gs_gpu *gpu,
			uint8_t engine)
{
	struct hal_poll *p = &s->poll;
	gs_time_t at;

	if (!p->active || p->gpu != gpu->index || p->engine != engine)
		return;
	at = next_boundary(p, s->sim->q.now);
	if (at >= p->until)
		return;
	if (!gs_event_queued(&p->sample_ev) || p->sample_ev.time > at)
		gs_evq_schedule(&s->sim->q, &p->sample_ev, at);
}

/* Every instance's poll loop on that engine sees the change. */
void gs_hal_status_change(void *ctx, struct gs_gpu *gpu, uint8_t engine)
{
	struct gs_sim *sim = ctx;
	uint32_t i;

	poll_notice(&sim->sched, gpu, engine);
	for (i = 0; i < sim->n_guests; i++)
		poll_notice(&sim->guests[i], gpu, engine);
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
	gs_policy_poll_change(s, &st, s->sim->q.now);
}

/* Charge the loop's reads and busy CPU time from start to now. */
static void poll_finish(struct hal_sched *s)
{
	struct hal_poll *p = &s->poll;
	struct gs_sim *sim = s->sim;
	gs_time_t elapsed = sim->q.now - p->start;

	gs_policy_charge(s, elapsed);
	/* reads at start, start + period, ... before now */
	sim->gpus[p->gpu]->mmio_reads +=
		(elapsed + p->period - 1) / p->period;
	p->active = false;
	gs_evq_cancel(&sim->q, &p->sample_ev);
	gs_evq_cancel(&sim->q, &p->end_ev);
}

/* Results are being collected: charge a loop still running up to now
 * (it goes on from here, so it is not charged twice). */
static void poll_flush(struct hal_sched *s)
{
	struct hal_poll *p = &s->poll;
	gs_time_t elapsed;

	if (!p->active)
		return;
	/* whole periods, so the read grid stays where it was */
	elapsed = (s->sim->q.now - p->start) / p->period * p->period;
	gs_policy_charge(s, elapsed);
	s->sim->gpus[p->gpu]->mmio_reads += elapsed / p->period;
	p->start += elapsed;
}

void gs_hal_flush(struct gs_sim *sim)
{
	uint32_t i;

	poll_flush(&sim->sched);
	for (i = 0; i < sim->n_guests; i++)
		poll_flush(&sim->guests[i]);
}

static void poll_end(void *ctx, struct gs_event *ev)
{
	struct hal_sched *s = ctx;
	(void)ev;

	poll_finish(s);
	gs_policy_poll_end(s);
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
	gs_record_policy_span(s, name, start, end);
}

void hal_cpu_charge(struct hal_sched *s, hal_u64 ns)
{
	gs_policy_charge(s, ns);
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
	/* kernels sharing the cores: time any of them ran, as the GPU's
	 * utilisation counter (nvidia-smi) reports it */
	return gs_gpu_compute_active_now(sim_of(s)->gpus[gpu]);
}

int hal_task_migrate(struct hal_sched *s, struct hal_task *t, hal_u32 gpu)
{
	struct gs_task *task = t->task;

	/* a VM's scheduler cannot move its tasks off the VM's GPU */
	if (s->vm >= 0 || gpu >= sim_of(s)->n_gpus ||
	    task->state == GS_TASK_DONE ||
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
