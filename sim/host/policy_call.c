/* The wrappers of sim/policy_call.h. Every call goes through enter(),
 * which counts it per instance and op; that is the hook where a recorder
 * for replay (op, arguments, time) or a fault injector (skip the call,
 * delay it, fail init) belongs. Neither exists yet. */
#include "sim/host/policy_call.h"
#include "sim/host/sim_internal.h"

void gs_policy_charge(struct hal_sched *s, uint64_t ns)
{
	s->cpu += ns;
	s->sim->policy_cpu += ns;
}

uint64_t gs_policy_calls(const struct hal_sched *s, enum gs_policy_op op)
{
	return s->op_calls[op];
}

/* The hook point: before every call into s's policy. */
static void enter(struct hal_sched *s, enum gs_policy_op op)
{
	s->op_calls[op]++;
}

int gs_policy_init(struct hal_sched *s)
{
	enter(s, GS_OP_INIT);
	return s->ops->init ? s->ops->init(s) : 0;
}

void gs_policy_fini(struct hal_sched *s)
{
	enter(s, GS_OP_FINI);
	if (s->ops->fini)
		s->ops->fini(s);
}

void gs_policy_task_create(struct hal_sched *s, struct hal_task *t)
{
	enter(s, GS_OP_TASK_CREATE);
	if (s->ops->task_create)
		s->ops->task_create(s, t);
}

void gs_policy_task_exit(struct hal_sched *s, struct hal_task *t)
{
	enter(s, GS_OP_TASK_EXIT);
	if (s->ops->task_exit)
		s->ops->task_exit(s, t);
}

void gs_policy_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	enter(s, GS_OP_CHANNEL_CREATE);
	if (s->ops->channel_create)
		s->ops->channel_create(s, c);
}

void gs_policy_channel_destroy(struct hal_sched *s, struct hal_chan *c)
{
	enter(s, GS_OP_CHANNEL_DESTROY);
	if (s->ops->channel_destroy)
		s->ops->channel_destroy(s, c);
}

/* The trap's cost falls on the task (host.c), not on the policy. */
int gs_policy_submit(struct hal_sched *s, struct hal_chan *c)
{
	enter(s, GS_OP_SUBMIT);
	return s->ops->submit ? s->ops->submit(s, c) : GS_SUBMIT_NO_OP;
}

void gs_policy_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	enter(s, GS_OP_SHADOW_SUBMIT);
	if (s->ops->shadow_submit)
		s->ops->shadow_submit(s, c);
}

/* The interrupt handler runs whether or not the policy has the op; its
 * cost is the interrupt's (the task's wake-up pays nothing for it
 * either), so nothing is charged here. */
void gs_policy_fence_signal(struct hal_sched *s, struct hal_chan *c,
			    uint32_t n)
{
	enter(s, GS_OP_FENCE_SIGNAL);
	if (s->ops->fence_signal)
		s->ops->fence_signal(s, c, n);
}

/* The thread wakes up whether or not the policy has a timer op. */
void gs_policy_timer(struct hal_sched *s, uint32_t id)
{
	enter(s, GS_OP_TIMER);
	gs_policy_charge(s, s->sim->sc->host.policy_wakeup);
	if (s->ops->timer)
		s->ops->timer(s, id);
}

/* The poll loop's CPU time is charged by the loop (hal_sim.c), which is
 * busy whether or not the sample changed. */
void gs_policy_poll_change(struct hal_sched *s,
			   const struct hal_engine_status *st, uint64_t when)
{
	enter(s, GS_OP_POLL_CHANGE);
	if (s->ops->poll_change)
		s->ops->poll_change(s, st, when);
}

void gs_policy_poll_end(struct hal_sched *s)
{
	enter(s, GS_OP_POLL_END);
	if (s->ops->poll_end)
		s->ops->poll_end(s);
}

void gs_policy_trace_open(struct hal_sched *s)
{
	enter(s, GS_OP_TRACE_OPEN);
	if (s->ops->trace_open)
		s->ops->trace_open(s);
}
