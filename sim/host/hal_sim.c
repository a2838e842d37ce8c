/* The simulator's implementation of policies/hal.h: each service acts on
 * the model and charges its cost where the host model says it falls —
 * MMIO reads and kernel-thread wake-ups to policy CPU time, traps to the
 * task (host.c). This file: the policy instances (start, stop, the VM
 * levels of a task), time, timers, memory, parameters and reporting;
 * hal_sim_chan.c: tasks, channels, submission control and node services;
 * hal_sim_gpu.c: register reads, fences and the poll loop. */
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>

#include "policies/param_value.h"
#include "sim/host/policy_call.h"
#include "sim/host/record_hal.h"
#include "sim/host/sim_internal.h"

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

	/* the file's path differs between builds, its line does not */
	GS_REC(s, "hal_warn", "us", GS_RV((hal_u64)line, (uintptr_t)cond),
	       NULL, NULL);
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

/* n guest levels of a task of `chans` channels in one block (one malloc
 * header, freed by one g_free of the levels): the levels, then their task
 * handles, then their channel handles, level by level; all three are
 * multiples of 8 bytes, so each part stays aligned. */
static struct gs_task_level *guest_block(uint32_t n, uint32_t chans)
{
	gsize levels = sizeof(struct gs_task_level) * n;
	gsize hals = sizeof(struct hal_task) * n;
	struct gs_task_level *l =
		g_malloc0(levels + hals + sizeof(struct hal_chan) * n * chans);
	struct hal_task *hal = (struct hal_task *)(void *)((char *)l + levels);
	struct hal_chan *hc = (struct hal_chan *)(void *)((char *)hal + hals);
	uint32_t k;

	G_STATIC_ASSERT(sizeof(struct gs_task_level) % 8 == 0 &&
			sizeof(struct hal_task) % 8 == 0);
	for (k = 0; k < n; k++) {
		l[k].hal = &hal[k];
		l[k].chans = &hc[(gsize)k * chans];
	}
	return l;
}

void gs_hal_levels(struct gs_sim *sim, struct gs_task *t)
{
	const struct gs_scenario *sc = sim->sc;
	uint32_t n = 0, k = 0, i;
	int32_t vm;

	for (vm = t->cfg->vm; vm >= 0; vm = sc->vms[vm].parent)
		n += sim->vm_sched[vm] != NULL;
	/* A byte: the loader nests YAML at most 64 levels deep
	 * (CFG_MAX_DEPTH), and each VM of a `vms` list inside another
	 * takes two of them, so no task is under more than 32 VMs. */
	if (n + 1 > UINT8_MAX)
		g_error("task %s: under %u VM schedulers, more than %u",
			t->name, n, UINT8_MAX - 1);
	t->n_levels = (uint8_t)(n + 1);
	t->guest_levels = n ? guest_block(n, t->cfg->channels) : NULL;
	for (vm = t->cfg->vm; vm >= 0; vm = sc->vms[vm].parent) {
		if (!sim->vm_sched[vm])
			continue;
		t->guest_levels[k].s = sim->vm_sched[vm];
		k++;
	}
	for (i = 0; i <= k; i++) {
		struct gs_task_level l = gs_task_level_of(t, i);

		l.hal->task = t;
		l.hal->s = l.s;
		l.hal->level = i;
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
	if (ops->fence_signal)
		sim->fence_signal_used = true;
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
	gs_hal_poll_init(s);
	/* a VM's scheduler draws from a stream of its own */
	stream = s->vm < 0 ? g_strdup_printf("policy/%s", ops->name)
			   : g_strdup_printf("vm/%s/policy/%s",
					     sim->sc->vms[s->vm].name,
					     ops->name);
	gs_rng_seed(&s->rng, sim->sc->seed, stream);
	if (sim->opt.hal_record)
		gs_hal_rec_attach(sim->opt.hal_record, s);
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
						: pc->ops ? pc->ops
						: gs_policy_find(pc->name),
			    sim->opt.policy_ops ? NULL : pc, error))
		return false;
	for (i = 0; i < sim->n_guests; i++) {
		struct hal_sched *g = &sim->guests[i];
		const struct gs_policy_config *gpc =
			&sim->sc->vms[g->vm].scheduler;

		if (!instance_start(sim, g,
				    sim->opt.guest_ops ? sim->opt.guest_ops
						       : gpc->ops ? gpc->ops
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
	GS_REC(s, "hal_now", NULL, NULL, "u", GS_RV(sim_of(s)->q.now));
	return sim_of(s)->q.now;
}

void hal_timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when)
{
	gs_time_t now = sim_of(s)->q.now;

	GS_REC(s, "hal_timer_arm", "uu", GS_RV(id, when), NULL, NULL);
	g_return_if_fail(id < HAL_MAX_TIMERS);
	s->timer_when[id] = when < now ? now : when;
	schedule_timers(s);
}

void hal_timer_cancel(struct hal_sched *s, hal_u32 id)
{
	GS_REC(s, "hal_timer_cancel", "u", GS_RV(id), NULL, NULL);
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
	hal_u64 v = idx < s->ops->n_params ? s->params[idx] : 0;

	GS_REC(s, "hal_param", "u", GS_RV(idx), "u", GS_RV(v));
	HAL_WARN_ON(s, idx >= s->ops->n_params);
	return v;
}

/* ---- reporting --------------------------------------------------------- */

void hal_account(struct hal_sched *s, struct hal_task *t, hal_u64 gpu_ns)
{
	GS_REC(s, "hal_account", "tu", GS_RV(gs_hal_rec_task(t), gpu_ns),
	       NULL, NULL);
	s->sim->policy_accounts = true;
	gs_task_figs(t->task)->accounted += gpu_ns;
}

void hal_set_vtime(struct hal_sched *s, struct hal_task *t, hal_u64 vtime)
{
	GS_REC(s, "hal_set_vtime", "tu", GS_RV(gs_hal_rec_task(t), vtime),
	       NULL, NULL);
	gs_task_figs(t->task)->vtime = vtime;
}

void hal_trace_phase(struct hal_sched *s, const char *name, hal_u64 start,
		     hal_u64 end)
{
	GS_REC(s, "hal_trace_phase", "suu",
	       GS_RV((uintptr_t)name, start, end), NULL, NULL);
	gs_record_policy_span(s, name, start, end);
}

void hal_cpu_charge(struct hal_sched *s, hal_u64 ns)
{
	GS_REC(s, "hal_cpu_charge", "u", GS_RV(ns), NULL, NULL);
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
	hal_u64 v = gs_rng_next(&s->rng);

	GS_REC(s, "hal_random", NULL, NULL, "u", GS_RV(v));
	return v;
}
