/* A scripted HAL for policy unit tests, in the manner of the DRM
 * scheduler's mock: the test owns the clock and plays the GPU and the
 * tasks by hand, and a policy runs against it exactly as it would against
 * the simulator or the kernel. Tests link the policy objects with this
 * file instead of the simulator.
 *
 *   struct mock_hal *m = mock_hal_new(&gs_policy_timeslice, params);
 *   struct hal_task *a = mock_task_add(m, "a", 1);
 *   struct hal_chan *ca = mock_chan_add(m, a);
 *   assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
 *   mock_complete(m, ca, 1);
 *   mock_advance(m, 30 * MOCK_MS);   // fires due timers in order
 */
#ifndef GS_MOCK_HAL_H
#define GS_MOCK_HAL_H

#include <stdbool.h>
#include <stdint.h>

#include "policies/policy.h"

#define MOCK_US 1000ULL
#define MOCK_MS 1000000ULL
#define MOCK_NEVER UINT64_MAX

struct mock_hal;

/* params: NULL-terminated "name=value" strings ("slice=30ms",
 * "engaged=true", "max=96"); undeclared names fail the test. */
struct mock_hal *mock_hal_new(const struct gs_policy_ops *ops,
			      const char *const *params);
/* The same with a VM tree in place before ops->init (VM i's parent is
 * parents[i], weight 1). With init_rc, ops->init's result is stored there
 * (a failed instance may only be freed); without, it must be 0. */
struct mock_hal *mock_hal_new_vms(const struct gs_policy_ops *ops,
				  const char *const *params,
				  const int32_t *parents, uint32_t n_vms,
				  int *init_rc);
void mock_hal_free(struct mock_hal *m);
struct hal_sched *mock_sched(struct mock_hal *m);

/* Tasks and channels; these call ops->task_create / channel_create. */
struct hal_task *mock_task_add(struct mock_hal *m, const char *name,
			       uint32_t weight);
void mock_task_set_vm(struct mock_hal *m, struct hal_task *t, int32_t vm);
/* The next task added has this enum hal_priority (then normal again). */
void mock_set_next_priority(struct mock_hal *m, uint32_t priority);
/* A task that is in VM `vm` from its creation on (-1: the host). */
struct hal_task *mock_task_add_in_vm(struct mock_hal *m, const char *name,
				     uint32_t weight, int32_t vm);
struct hal_chan *mock_chan_add(struct mock_hal *m, struct hal_task *t);
/* A channel with a paravirtual hint: the guest task id its VM gave. */
struct hal_chan *mock_chan_add_guest(struct mock_hal *m, struct hal_task *t,
				     uint32_t guest_id);
/* ops->channel_destroy for each channel, then ops->task_exit. */
void mock_task_exit(struct mock_hal *m, struct hal_task *t);
/* VM tree for hal_vm_*: returns the new VM's index. */
int32_t mock_vm_add(struct mock_hal *m, int32_t parent, uint32_t weight);

/* The task writes the doorbell of c once (one request). */
enum mock_submit_result {
	MOCK_SUBMIT_DIRECT = -1,   /* no trap: went straight to the GPU */
	MOCK_SUBMIT_SHADOWED = -2, /* went into the shadow queue */
	MOCK_SUBMIT_HELD = -3,     /* the task is already held; refused */
	/* otherwise the policy's verdict: GS_SUBMIT_ALLOW / GS_SUBMIT_HOLD */
};
int mock_submit(struct mock_hal *m, struct hal_chan *c);
/* The class tag (0..7) that c's submissions carry from now on (default 0);
 * hal_shadow_peek_class returns the oldest queued command's. */
void mock_set_next_class(struct mock_hal *m, struct hal_chan *c, uint8_t cls);
/* n more of c's requests completed; the host-visible fence moves now and
 * ops->fence_signal(c, n) runs. */
void mock_complete(struct mock_hal *m, struct hal_chan *c, uint64_t n);
/* What register reads return from now on. */
void mock_set_engine_status(struct mock_hal *m, uint32_t gpu, uint32_t engine,
			    const struct hal_engine_status *st);
void mock_set_chram(struct mock_hal *m, struct hal_chan *c, uint32_t status);
void mock_set_gpu_busy(struct mock_hal *m, uint32_t gpu, uint64_t busy_ns);
/* The copy engine's busy counter (hal_engine_busy_ns). */
void mock_set_copy_busy(struct mock_hal *m, uint32_t gpu, uint64_t busy_ns);

/* Advance the clock to `t` (absolute), firing due timers in time order
 * (ties by id). The poll loop is not run by the mock: call
 * ops->poll_change / poll_end yourself, as the hardware would. */
void mock_advance(struct mock_hal *m, uint64_t t);

/* HAL_WARN_ON fails the test at once, unless the test means to drive the
 * policy into an impossible state: then the reports are only counted. */
void mock_expect_warnings(struct mock_hal *m);
uint32_t mock_warnings(const struct mock_hal *m);
uint64_t mock_now(struct mock_hal *m);

/* Observations. */
bool mock_trap_armed(struct mock_hal *m, struct hal_chan *c);
bool mock_shadowed(struct mock_hal *m, struct hal_chan *c);
bool mock_held(struct mock_hal *m, struct hal_task *t);
uint32_t mock_releases(struct mock_hal *m, struct hal_task *t);
bool mock_killed(struct mock_hal *m, struct hal_task *t);
uint64_t mock_submitted(struct mock_hal *m, struct hal_chan *c);
uint64_t mock_accounted(struct mock_hal *m, struct hal_task *t);
uint64_t mock_vtime(struct mock_hal *m, struct hal_task *t);
uint64_t mock_timer_when(struct mock_hal *m, uint32_t id); /* MOCK_NEVER */
uint64_t mock_mmio_reads(struct mock_hal *m);
uint64_t mock_cpu_ns(struct mock_hal *m);
uint32_t mock_phases(struct mock_hal *m, const char *name); /* spans seen */
bool mock_poll_active(struct mock_hal *m, uint64_t *until);
uint32_t mock_migrations(struct mock_hal *m, struct hal_task *t);
/* Node: how many GPUs hal_gpu_count reports, and the time a task has
 * spent blocked in waits (hal_task_sync_ns). hal_task_migrate moves a
 * task at once in the mock. */
void mock_set_gpu_count(struct mock_hal *m, uint32_t n);
/* The engine time and core share (per-mille) hal_shadow_peek_hint and
 * hal_shadow_peek_occupancy report for c's queued commands. */
void mock_set_next_hint(struct mock_hal *m, struct hal_chan *c,
			uint64_t ns, uint32_t occupancy_pm);
void mock_task_set_sync(struct mock_hal *m, struct hal_task *t,
			uint64_t sync_ns);
/* Node memory: every GPU's size (hal_gpu_memory; 0, the default: unknown)
 * and tasks created with a footprint (hal_task_memory). */
void mock_set_gpu_memory(struct mock_hal *m, uint64_t bytes);
struct hal_task *mock_task_add_with_memory(struct mock_hal *m,
					   const char *name, uint64_t memory);
struct hal_task *mock_task_add_full(struct mock_hal *m, const char *name,
				    uint32_t weight, int32_t vm,
				    uint64_t memory);

/* GERM's heuristics: the contents c's submissions carry from now on
 * (hal_shadow_peek_content returns the oldest queued command's), how many
 * hal_note_estimate calls named `kind`, and the last one's estimate (and
 * kind). */
void mock_set_next_content(struct mock_hal *m, struct hal_chan *c,
			   const struct hal_cmd_content *content);
uint32_t mock_estimates(const struct mock_hal *m, uint32_t kind);
uint64_t mock_last_estimate(const struct mock_hal *m, uint32_t *kind);

#endif
