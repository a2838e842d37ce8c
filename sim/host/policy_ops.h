/* The ops of struct gs_policy_ops by number, for the per-instance call
 * counts that struct hal_sched keeps (sim_internal.h) and that
 * policy_call.c fills. A header of its own so that the instance struct
 * needs nothing of the wrappers. */
#ifndef GS_POLICY_OPS_H
#define GS_POLICY_OPS_H

enum gs_policy_op {
	GS_OP_INIT, GS_OP_FINI, GS_OP_TASK_CREATE, GS_OP_TASK_EXIT,
	GS_OP_CHANNEL_CREATE, GS_OP_CHANNEL_DESTROY, GS_OP_SUBMIT,
	GS_OP_SHADOW_SUBMIT, GS_OP_TIMER, GS_OP_POLL_CHANGE, GS_OP_POLL_END,
	GS_OP_TRACE_OPEN, GS_OP_FENCE_SIGNAL,
	GS_POLICY_OPS
};

#endif
