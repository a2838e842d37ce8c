/* Stopping a scheduling entity's submissions, shared by dfq, loga and
 * hdfq. A host task is stopped at its doorbell: the channel's trap is
 * armed, its next write faults and the policy holds the task (NEON). A
 * VM's channels belong to the VM's process, which runs its vCPUs, so a
 * guest entity is stopped by its shadow channel instead (Fleig 3.3.2):
 * writes queue in software, seen one by one by ops->shadow_submit, and
 * letting it go forwards what queued; the rest of the VM keeps running. */
#ifndef GS_POLICY_GATE_H
#define GS_POLICY_GATE_H

#include "hal.h"

/* Stop (`stop` 1) or let go channel c of an entity that is `shadow_gate`d
 * or not. Letting a held task go also needs hal_task_release. */
static inline void gate_chan(struct hal_sched *s, struct hal_chan *c,
			     int shadow_gate, int stop)
{
	if (shadow_gate) {
		hal_trap_disarm(s, c);
		if (stop)
			hal_shadow_enable(s, c);
		else
			hal_shadow_disable(s, c);
	} else if (stop) {
		hal_trap_arm(s, c);
	} else {
		hal_trap_disarm(s, c);
	}
}

/* Submissions of channel c waiting to be let go: 1 if its task is held
 * (for a trap-gated entity), the shadow queue's length otherwise. */
static inline hal_u32 gate_chan_waiting(struct hal_sched *s,
					struct hal_chan *c, int shadow_gate)
{
	if (!shadow_gate)
		return (hal_u32)hal_task_held(hal_chan_task(c));
	return hal_shadow_pending(s, c);
}

#endif
