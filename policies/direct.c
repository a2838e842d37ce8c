/* direct: no scheduler. Tasks write their doorbells straight to the GPU and
 * the hardware's own round-robin decides; the unfair baseline of every
 * paper. It traps nothing and keeps no accounting.
 *
 * Priority (hal_task_priority): ignored; the hardware's round-robin
 * knows no priority.
 */
#include "policy.h"

const struct gs_policy_ops gs_policy_direct = {
	.name = "direct",
	.summary = "no OS scheduler: the GPU's own round-robin (baseline)",
	.priority = "ignored: the hardware round-robin knows none",
};
