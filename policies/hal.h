/* The hardware-abstraction seam between policies and their environment.
 *
 * Policy files include only this header and policy.h. What stands behind
 * it is chosen by the include path: sim/hal/hal_impl.h in the simulator,
 * policies/linux/hal_impl.h in the kernel module. Nothing here may need
 * libc, floating point or raw 64-bit division.
 */
#ifndef GS_HAL_H
#define GS_HAL_H

#include "hal_impl.h"

/* Opaque handles owned by the environment. */
struct hal_sched;   /* one policy instance */
struct hal_task;    /* a process using the GPU */
struct hal_chan;    /* one of its channels */

/* The current time in nanoseconds. */
hal_u64 hal_now(struct hal_sched *s);
/* The policy's private state (allocated by the framework from
 * gs_policy_ops.priv_size, zeroed). */
void *hal_priv(struct hal_sched *s);

#endif
