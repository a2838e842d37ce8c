/* The hardware-abstraction seam between policies and their environment.
 *
 * Policy files include only this header and policy.h (and the policies'
 * own shared helpers). What stands behind it is chosen by the include path:
 * sim/host/hal/hal_impl.h in the simulator, policies/linux/hal_impl.h in the
 * kernel module, tests/freestanding/hal_impl.h for the freestanding check.
 * hal_impl.h provides the integer types and the math helpers hal_div64
 * and hal_mul_div64 (inline or not, as the environment needs); everything
 * declared here is a real function of each environment.
 *
 * Rules for policy code: no libc, no floating point, no raw 64-bit
 * division (use hal_div64 / hal_mul_div64), no mutable static state, no
 * recursion, no VLAs. The framework serialises every call into a policy
 * (ops callbacks never run concurrently), so policies take no locks.
 * All times are nanoseconds.
 */
#ifndef GS_HAL_H
#define GS_HAL_H

#include "hal_impl.h"

/* Opaque handles owned by the environment. */
struct hal_sched;   /* one policy instance */
struct hal_task;    /* a process using the GPU */
struct hal_chan;    /* one of its channels */

/* ---- time, timers, memory ---------------------------------------------- */

hal_u64 hal_now(struct hal_sched *s);

/* One-shot timers, HAL_MAX_TIMERS per policy instance, named by a small
 * id. Arming an armed timer moves it; at expiry ops->timer(s, id) runs in
 * the policy's kernel thread (each expiry costs a thread wake-up of policy
 * CPU time); timers due at the same time run in id order. `when` is
 * absolute; a time in the past fires at once. */
#define HAL_MAX_TIMERS 16
void hal_timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when);
void hal_timer_cancel(struct hal_sched *s, hal_u32 id);

void *hal_zalloc(struct hal_sched *s, hal_u64 size);
void hal_free(struct hal_sched *s, void *p);

/* The policy instance's state (ops->priv_size bytes, zeroed). */
void *hal_priv(struct hal_sched *s);

/* Value of parameter `idx`, its index in ops->params (each policy names
 * them with an enum beside its table): nanoseconds for durations, the
 * number for integers, 0/1 for booleans; the default when the scenario
 * does not set it. The environment checked and converted every value
 * when the instance was made; an index past the table is a policy bug
 * (reported, 0). */
hal_u64 hal_param(struct hal_sched *s, hal_u32 idx);

/* ---- tasks and channels ------------------------------------------------ */

hal_u32 hal_task_id(const struct hal_task *t);      /* small, stable */
const char *hal_task_name(const struct hal_task *t);
hal_u32 hal_task_weight(const struct hal_task *t);  /* >= 1 */
hal_s32 hal_task_vm(const struct hal_task *t);      /* VM index, -1: host */
hal_u32 hal_task_gpu(const struct hal_task *t);
/* The scheduling priority the task asked for: the scenario's `priority:`
 * in the simulator, the context's priority in a kernel port (what a
 * driver passes to drm_sched_entity_init). The four levels are
 * drm_sched's (enum drm_sched_priority), highest first; a policy says in
 * its file header and ops->priority what it does with them. */
enum hal_priority {
	HAL_PRIO_KERNEL = 0, HAL_PRIO_HIGH = 1, HAL_PRIO_NORMAL = 2,
	HAL_PRIO_LOW = 3,
};
#define HAL_PRIO_COUNT 4
hal_u32 hal_task_priority(const struct hal_task *t); /* enum hal_priority */
void *hal_task_data(const struct hal_task *t);      /* policy's per-task */
void hal_task_set_data(struct hal_task *t, void *data);

struct hal_task *hal_chan_task(const struct hal_chan *c);
hal_u32 hal_chan_id(const struct hal_chan *c);      /* id in status regs */
hal_u32 hal_chan_gpu(const struct hal_chan *c);
void *hal_chan_data(const struct hal_chan *c);
void hal_chan_set_data(struct hal_chan *c, void *data);
/* The open channel with status-register id `id` on `gpu`, or 0. */
struct hal_chan *hal_chan_lookup(struct hal_sched *s, hal_u32 gpu, hal_u32 id);

/* Paravirtual hint (Fleig 3.3.1): the guest task id a VM's guest driver
 * gave when it allocated the channel. A VM's channels all belong to one
 * host process (its VMM); the id, unique within the VM and constant, is
 * what tells its guest tasks apart. HAL_GUEST_NONE for a host channel or
 * a VM that gives no hints. The VM is hal_task_vm(hal_chan_task(c)). */
#define HAL_GUEST_NONE 0u
hal_u32 hal_chan_guest_id(const struct hal_chan *c);

/* The VM tree: parent (-1 for a top-level VM) and user weight. An
 * instance that is a VM's own scheduler (nested scheduling) sees its VM
 * as its host: its VM's tasks have hal_task_vm -1 and no guest ids, and
 * the VMs below it are its tree. */
hal_u32 hal_vm_count(struct hal_sched *s);
hal_s32 hal_vm_parent(struct hal_sched *s, hal_s32 vm);
hal_u32 hal_vm_weight(struct hal_sched *s, hal_s32 vm);

/* ---- submission control ------------------------------------------------ */

/* Arm a channel's doorbell trap: its next doorbell write faults into
 * ops->submit (costing the task the trap time). Disarming lets writes go
 * straight to the GPU again. Both stay in force until changed. */
void hal_trap_arm(struct hal_sched *s, struct hal_chan *c);
void hal_trap_disarm(struct hal_sched *s, struct hal_chan *c);
/* Let a task held at a trapped doorbell (ops->submit returned
 * GS_SUBMIT_HOLD) complete its write and go on. No-op if not held. */
void hal_task_release(struct hal_sched *s, struct hal_task *t);
int hal_task_held(const struct hal_task *t);

/* Shadow queues: while enabled, the channel's submissions go to a software
 * queue instead of the GPU (ops->shadow_submit is told) and reach the GPU
 * only when forwarded, oldest first. Disabling forwards what is queued. */
void hal_shadow_enable(struct hal_sched *s, struct hal_chan *c);
void hal_shadow_disable(struct hal_sched *s, struct hal_chan *c);
hal_u32 hal_shadow_pending(struct hal_sched *s, struct hal_chan *c);
/* Engine time the oldest queued command will take, as a hint the
 * simulator can give exactly; the kernel gives 0 (unknown). */
hal_u64 hal_shadow_peek_hint(struct hal_sched *s, struct hal_chan *c);
/* Class (0..7) of the oldest queued command, 0 if none or unknown: what a
 * driver learns by inspecting the command it queued (GERM's texture /
 * buffer-swap / vertex / byte heuristics). The simulator returns the
 * workload's `class:` tag; a kernel port classifies from the pushbuffer. */
hal_u32 hal_shadow_peek_class(struct hal_sched *s, struct hal_chan *c);
/* Contents of the oldest queued command group, as a driver reads them
 * from the group's header (GERM, Dwarakinath 2008, 4.5 and 4.7.3): the
 * texture bytes it dispatches, its buffer swaps, its vertices and its
 * command bytes. Returns 1 and fills *out when the environment knows them
 * (the simulator: the workload's `content:`, zeros where it says
 * nothing); 0 with *out zeroed when nothing is queued or the environment
 * cannot tell (the kernel HAL until a driver port decodes its groups). */
struct hal_cmd_content {
	hal_u32 texture_bytes;
	hal_u32 swaps;
	hal_u32 vertices;
	hal_u32 cmd_bytes;
};
int hal_shadow_peek_content(struct hal_sched *s, struct hal_chan *c,
			    struct hal_cmd_content *out);
/* Share of the GPU's cores (per-mille) the oldest queued kernel occupies,
 * from its launch geometry (what DCUDA's monitor computes with the CUDA
 * occupancy calculator); 0 if none or unknown. The simulator gives the
 * channel's occupancy, 1000 for kernels that run alone on the engine. */
hal_u32 hal_shadow_peek_occupancy(struct hal_sched *s, struct hal_chan *c);
void hal_shadow_forward(struct hal_sched *s, struct hal_chan *c, hal_u32 n);

/* ---- observing the GPU ------------------------------------------------- */

enum hal_engine { HAL_ENGINE_COMPUTE = 0, HAL_ENGINE_COPY = 1 };
enum hal_ctx_status {
	HAL_CTX_INVALID = 0, HAL_CTX_VALID = 1, HAL_CTX_LOADING = 2,
	HAL_CTX_SAVING = 3,
};
#define HAL_CHAN_NONE 0xffffffffu

struct hal_engine_status {
	hal_u32 cur_id;   /* loaded channel, HAL_CHAN_NONE if none */
	hal_u32 next_id;  /* channel being loaded, HAL_CHAN_NONE if none */
	hal_u8 ctx_status;/* enum hal_ctx_status */
	hal_u8 busy;      /* a command is executing */
};

enum hal_chram_status {
	HAL_CHRAM_IDLE = 0, HAL_CHRAM_PENDING = 1, HAL_CHRAM_ON_ENGINE = 2,
	HAL_CHRAM_BUSY = 3,
};

/* Register reads: one MMIO read each, charged to policy CPU time. */
void hal_read_engine_status(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
			    struct hal_engine_status *out);
hal_u32 hal_read_chram(struct hal_sched *s, struct hal_chan *c);

/* The channel's reference counter as the host sees it (it lags the GPU):
 * the number of the channel's requests known complete. */
hal_u64 hal_fence_read(struct hal_sched *s, struct hal_chan *c);
/* Requests the channel has published to the GPU (its GP_PUT, as a count;
 * excludes what sits in a shadow queue). Outstanding work is
 * hal_chan_submitted - hal_fence_read. */
hal_u64 hal_chan_submitted(struct hal_sched *s, struct hal_chan *c);

/* A kernel thread that polls one engine's status register back to back
 * (one MMIO read per iteration, the thread busy all along) until `until`:
 * ops->poll_change(s, status, when) runs for the first sample and for every
 * sample that differs from the one before, ops->poll_end(s) when the loop
 * reaches `until` (not when hal_poll_stop ends it). One loop at a time;
 * starting another replaces it. */
void hal_poll_start(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
		    hal_u64 until);
void hal_poll_stop(struct hal_sched *s);

/* ---- acting on tasks --------------------------------------------------- */

/* Kill a task: its channels are torn down and it exits; others go on. */
void hal_task_kill(struct hal_sched *s, struct hal_task *t, const char *why);

/* ---- reporting --------------------------------------------------------- */

/* Add to the GPU time the policy believes the task used. */
void hal_account(struct hal_sched *s, struct hal_task *t, hal_u64 gpu_ns);
/* Publish the task's virtual time (series.csv). */
void hal_set_vtime(struct hal_sched *s, struct hal_task *t, hal_u64 vtime);
/* The policy's estimate `est` of the oldest queued command's engine time,
 * made by heuristic `kind`, told before it forwards the command: the
 * simulator compares it with the command's true length per kind
 * (summary.json's estimate_error_* metrics, GERM 6.4's accuracy of each
 * heuristic); the kernel HAL ignores it. */
enum hal_estimate_kind {
	HAL_EST_CLASS = 0,    /* a running average per task and class */
	HAL_EST_TEXTURE = 1,  /* per texture byte */
	HAL_EST_SWAP = 2,     /* per buffer swap */
	HAL_EST_VERTICES = 3, /* per vertex */
	HAL_EST_BYTES = 4,    /* per command byte */
	HAL_EST_KINDS = 5,
};
void hal_note_estimate(struct hal_sched *s, struct hal_chan *c,
		       hal_u32 kind, hal_u64 est);
/* The policy's estimate of a task's demand, per-mille of one GPU (what
 * its kernels would keep busy alone; DCUDA's monitor), for the results
 * to set beside the demand the task declares (DCUDA 3.2's "higher than
 * 90% accuracy"); the kernel HAL ignores it. */
void hal_note_demand(struct hal_sched *s, struct hal_task *t,
		     hal_u32 demand_pm);
/* A span on the policy's timeline track, e.g. "drain" or "sample". */
void hal_trace_phase(struct hal_sched *s, const char *name, hal_u64 start,
		     hal_u64 end);
/* Extra CPU time of the policy's threads not covered above. */
void hal_cpu_charge(struct hal_sched *s, hal_u64 ns);
/* Debug log line (printk / stderr when verbose). */
void hal_log(struct hal_sched *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* HAL_WARN_ON(s, cond): a state the policy's own logic rules out. It
 * evaluates to cond (true or false), so a policy can still leave the op
 * safely: `if (HAL_WARN_ON(s, !e)) return;`. Where it is true, the
 * environment is told through hal_warn: the kernel HAL makes it the
 * kernel's WARN_ON_ONCE (one report per call site, its once-flag kept by
 * the kernel), the simulator counts it per run (summary.json's
 * policy_warnings and the first message) and the policy tests' mock HAL
 * fails the test. An environment may define HAL_WARN_ON in hal_impl.h;
 * this is the definition of those that do not. */
void hal_warn(struct hal_sched *s, const char *file, int line,
	      const char *cond);
#ifndef HAL_WARN_ON
#define HAL_WARN_ON(s, cond) \
	((cond) ? (hal_warn((s), __FILE__, __LINE__, #cond), 1) : 0)
#endif

/* A seeded random source (the simulator's is deterministic). */
hal_u64 hal_random(struct hal_sched *s);

/* ---- node-level services (multi-GPU policies) -------------------------- */

hal_u32 hal_gpu_count(struct hal_sched *s);
/* Cumulative busy time of a GPU's compute engine. */
hal_u64 hal_gpu_busy_ns(struct hal_sched *s, hal_u32 gpu);
/* Cumulative busy time of one engine (enum hal_engine), from the GPU's
 * per-engine activity counters: the compute engine's is hal_gpu_busy_ns,
 * the copy engine's the time it spent moving data (0 on a GPU whose
 * copies run on the compute engine, or where the counter is unknown). */
hal_u64 hal_engine_busy_ns(struct hal_sched *s, hal_u32 gpu, hal_u32 engine);
/* Move a task to another GPU between its kernel launches; 0 on success.
 * Called from ops->task_create (before the task's channels exist) it only
 * places the task, at no cost. Otherwise the move happens at the task's
 * next launch with nothing outstanding: its channels are destroyed and
 * created on the target (ops->channel_destroy / channel_create) and the
 * task stalls for the migration cost; hal_task_gpu changes then. A later
 * call replaces a pending target. */
int hal_task_migrate(struct hal_sched *s, struct hal_task *t, hal_u32 gpu);
/* Cumulative time the task has spent blocked in waits for its GPU work
 * (synchronisation calls, and launch calls blocked on a full ring), as a
 * wrapper library timing them sees it; 0 where the environment cannot
 * tell. */
hal_u64 hal_task_sync_ns(struct hal_sched *s, const struct hal_task *t);
/* A GPU's memory in bytes; 0 where unknown (no limit is then applied). */
hal_u64 hal_gpu_memory(struct hal_sched *s, hal_u32 gpu);
/* A task's memory footprint in bytes, what a migration must move and
 * what must fit in the target GPU's memory; 0 where unknown. */
hal_u64 hal_task_memory(struct hal_sched *s, const struct hal_task *t);

#endif
