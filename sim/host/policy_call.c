/* The wrappers of sim/policy_call.h. Every call goes through enter(),
 * which counts it per instance and op and, with --record-hal, writes the
 * op line of the record (record_hal.c); leave() writes the line after it
 * returns. That is also where a fault injector (skip the call, delay it,
 * fail init) would belong. */
#include "sim/host/policy_call.h"
#include "sim/host/record_hal.h"
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

/* The hook point: before every call into s's policy. The op's name and
 * arguments as the record writes them (kinds of record_hal.h). */
static void enter(struct hal_sched *s, enum gs_policy_op op, const char *name,
		  const char *kinds, const hal_u64 *args)
{
	s->op_calls[op]++;
	gs_hal_rec_op(s, name, kinds, args);
}

static void leave(struct hal_sched *s)
{
	gs_hal_rec_op_end(s, FALSE, 0);
}

static int leave_with(struct hal_sched *s, int ret)
{
	gs_hal_rec_op_end(s, TRUE, ret);
	return ret;
}

int gs_policy_init(struct hal_sched *s)
{
	enter(s, GS_OP_INIT, "init", NULL, NULL);
	return leave_with(s, s->ops->init ? s->ops->init(s) : 0);
}

void gs_policy_fini(struct hal_sched *s)
{
	enter(s, GS_OP_FINI, "fini", NULL, NULL);
	if (s->ops->fini)
		s->ops->fini(s);
	leave(s);
}

void gs_policy_task_create(struct hal_sched *s, struct hal_task *t)
{
	enter(s, GS_OP_TASK_CREATE, "task_create", "t",
	      GS_RV(gs_hal_rec_new_task(s, t)));
	if (s->ops->task_create)
		s->ops->task_create(s, t);
	leave(s);
}

void gs_policy_task_exit(struct hal_sched *s, struct hal_task *t)
{
	enter(s, GS_OP_TASK_EXIT, "task_exit", "t", GS_RV(gs_hal_rec_task(t)));
	if (s->ops->task_exit)
		s->ops->task_exit(s, t);
	leave(s);
}

/* The record names the channel's task: the replay makes the channel
 * from this line alone. */
void gs_policy_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	enter(s, GS_OP_CHANNEL_CREATE, "channel_create", "ct",
	      GS_RV(gs_hal_rec_new_chan(s, c), gs_hal_rec_task(c->owner)));
	if (s->ops->channel_create)
		s->ops->channel_create(s, c);
	leave(s);
}

void gs_policy_channel_destroy(struct hal_sched *s, struct hal_chan *c)
{
	enter(s, GS_OP_CHANNEL_DESTROY, "channel_destroy", "c",
	      GS_RV(gs_hal_rec_chan(c)));
	if (s->ops->channel_destroy)
		s->ops->channel_destroy(s, c);
	leave(s);
}

/* The trap's cost falls on the task (host.c), not on the policy. */
int gs_policy_submit(struct hal_sched *s, struct hal_chan *c)
{
	enter(s, GS_OP_SUBMIT, "submit", "c", GS_RV(gs_hal_rec_chan(c)));
	return leave_with(s, s->ops->submit ? s->ops->submit(s, c)
					    : GS_SUBMIT_NO_OP);
}

void gs_policy_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	enter(s, GS_OP_SHADOW_SUBMIT, "shadow_submit", "c",
	      GS_RV(gs_hal_rec_chan(c)));
	if (s->ops->shadow_submit)
		s->ops->shadow_submit(s, c);
	leave(s);
}

/* The interrupt handler runs whether or not the policy has the op; its
 * cost is the interrupt's (the task's wake-up pays nothing for it
 * either), so nothing is charged here. */
void gs_policy_fence_signal(struct hal_sched *s, struct hal_chan *c,
			    uint32_t n)
{
	enter(s, GS_OP_FENCE_SIGNAL, "fence_signal", "cu",
	      GS_RV(gs_hal_rec_chan(c), n));
	if (s->ops->fence_signal)
		s->ops->fence_signal(s, c, n);
	leave(s);
}

/* The thread wakes up whether or not the policy has a timer op. */
void gs_policy_timer(struct hal_sched *s, uint32_t id)
{
	enter(s, GS_OP_TIMER, "timer", "u", GS_RV(id));
	gs_policy_charge(s, s->sim->sc->host.policy_wakeup);
	if (s->ops->timer)
		s->ops->timer(s, id);
	leave(s);
}

/* The poll loop's CPU time is charged by the loop (hal_sim.c), which is
 * busy whether or not the sample changed. */
void gs_policy_poll_change(struct hal_sched *s,
			   const struct hal_engine_status *st, uint64_t when)
{
	enter(s, GS_OP_POLL_CHANGE, "poll_change", "uuuuu",
	      GS_RV(st->cur_id, st->next_id, st->ctx_status, st->busy, when));
	if (s->ops->poll_change)
		s->ops->poll_change(s, st, when);
	leave(s);
}

void gs_policy_poll_end(struct hal_sched *s)
{
	enter(s, GS_OP_POLL_END, "poll_end", NULL, NULL);
	if (s->ops->poll_end)
		s->ops->poll_end(s);
	leave(s);
}

void gs_policy_trace_open(struct hal_sched *s)
{
	enter(s, GS_OP_TRACE_OPEN, "trace_open", NULL, NULL);
	if (s->ops->trace_open)
		s->ops->trace_open(s);
	leave(s);
}
