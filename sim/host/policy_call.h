/* The one place the simulator calls into a policy: a wrapper per op of
 * struct gs_policy_ops (policies/policy.h). Each wrapper skips an op the
 * policy leaves NULL (with the neutral answer), charges the CPU time the
 * host model puts on that call, and counts it (gs_policy_calls): the
 * point where recording calls for replay or injecting faults would go.
 * Nothing else in the simulator touches s->ops->X. */
#ifndef GS_POLICY_CALL_H
#define GS_POLICY_CALL_H

#include <stdint.h>

#include "policies/policy.h"
#include "sim/host/policy_ops.h"

/* gs_policy_submit's answer when the policy has no submit op: the trap
 * does not stop the write (it costs nothing and decides nothing). */
#define GS_SUBMIT_NO_OP (-1)

/* Policy CPU time, of this instance and of all the run's policies. */
void gs_policy_charge(struct hal_sched *s, uint64_t ns);
/* How many times op has been called on s (whether the policy has it). */
uint64_t gs_policy_calls(const struct hal_sched *s, enum gs_policy_op op);

int gs_policy_init(struct hal_sched *s);       /* 0 when it has no init */
void gs_policy_fini(struct hal_sched *s);
void gs_policy_task_create(struct hal_sched *s, struct hal_task *t);
void gs_policy_task_exit(struct hal_sched *s, struct hal_task *t);
void gs_policy_channel_create(struct hal_sched *s, struct hal_chan *c);
void gs_policy_channel_destroy(struct hal_sched *s, struct hal_chan *c);
/* GS_SUBMIT_ALLOW / GS_SUBMIT_HOLD, or GS_SUBMIT_NO_OP. */
int gs_policy_submit(struct hal_sched *s, struct hal_chan *c);
void gs_policy_shadow_submit(struct hal_sched *s, struct hal_chan *c);
/* c's fence moved and the interrupt reached the host. */
void gs_policy_fence_signal(struct hal_sched *s, struct hal_chan *c,
			    uint32_t n);
/* Timer `id` expired: one wake-up of the policy's kernel thread. */
void gs_policy_timer(struct hal_sched *s, uint32_t id);
void gs_policy_poll_change(struct hal_sched *s,
			   const struct hal_engine_status *st, uint64_t when);
void gs_policy_poll_end(struct hal_sched *s);
void gs_policy_trace_open(struct hal_sched *s);

#endif
