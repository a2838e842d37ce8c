/* A parameter's default, from its descriptor (policy.h's gs_param_desc,
 * the one place it is written) to the value hal_param returns. Shared by
 * every environment: the simulator's HAL and loader, the kernel's
 * params=. Kernel-clean. */
#ifndef GS_POLICY_PARAM_VALUE_H
#define GS_POLICY_PARAM_VALUE_H

#include "policy.h"

/* d->def as nanoseconds (a duration, no clock: defaults are not in
 * cycles), a decimal number, or 0/1 ("false"/"true"); 0 on success, -1
 * when the default is malformed (a policy bug). */
int gs_param_default(const struct gs_param_desc *d, hal_u64 *out);
/* Every parameter of ops at its default, values[i] for ops->params[i];
 * -1 - i when parameter i's default is malformed, else 0. */
int gs_param_defaults(const struct gs_policy_ops *ops, hal_u64 *values);

#endif
