/* gpusim policies in the kernel: the glue a GPU driver port calls.
 *
 * The module (gpusim_policies.ko) holds every policy file of policies/ and
 * the kernel implementation of policies/hal.h. It knows no GPU by itself:
 * a driver port describes its GPUs (BAR mapping, register layout, doorbell
 * hooks), creates a scheduler instance, and reports tasks, channels and
 * doorbell faults to it. README.md in this folder walks through a port.
 *
 * Locking: every call into the policy is serialised by the instance's
 * mutex, so all functions here may sleep and must be called from process
 * context. None may be called with a lock the port's own hooks take.
 */
#ifndef GS_LINUX_H
#define GS_LINUX_H

#include <linux/types.h>

struct pid;
struct hal_sched;
struct hal_task;
struct hal_chan;

#define GS_LINUX_MAX_GPUS 8
#define GS_LINUX_MAX_VMS 64

/* ---- what the port describes ------------------------------------------- */

/* Where the status registers live in BAR0 and how their fields decode.
 * The default, gs_linux_kepler_regs, follows the Kepler-class PFIFO layout
 * (ENGINE_STATUS at 0x2640 + 8 * engine, channel RAM/PCCSR at
 * 0x800004 + 8 * chid); it must be verified per GPU before use. */
struct gs_linux_regs {
	/* ENGINE_STATUS offset for HAL_ENGINE_COMPUTE and HAL_ENGINE_COPY. */
	u32 engine_status[2];
	u32 es_cur_id_mask, es_cur_id_shift;    /* loaded channel id */
	u32 es_next_id_mask, es_next_id_shift;  /* channel being loaded */
	u32 es_ctx_mask, es_ctx_shift;          /* context status field */
	u32 es_busy_bit;                        /* engine busy (mask) */
	/* Context status field value -> enum hal_ctx_status. */
	u8 es_ctx_map[8];
	/* Channel RAM word of channel `chid`: chram_base + chid * stride. */
	u32 chram_base, chram_stride;
	u32 chram_status_mask, chram_status_shift;
	u32 chram_busy_bit;                     /* channel busy (mask) */
	/* Channel status field value -> enum hal_chram_status. */
	u8 chram_status_map[16];
};

/* es_ctx_map entries: an enum hal_ctx_status in the low bits, plus which
 * id fields hold a channel in that state (the others read as none). */
#define GS_LINUX_ES_STATUS 0x0f
#define GS_LINUX_ES_CUR 0x10
#define GS_LINUX_ES_NEXT 0x20

extern const struct gs_linux_regs gs_linux_kepler_regs;

/* Hooks into the port. `port_chan` is the cookie given at channel
 * creation. All are called under the instance mutex, in process context. */
struct gs_linux_hw_ops {
	/* Protect (arm) or unprotect (disarm) the channel's doorbell page in
	 * the task's address space: when protected, the next doorbell write
	 * faults into the port's handler, which calls gs_linux_doorbell_fault.
	 * Typically unmap_mapping_range() on the doorbell mapping; the fault
	 * handler maps the page back only while the trap is disarmed. */
	void (*doorbell_protect)(void *port_chan, bool protect);
	/* Publish GP_PUT value `put` to the GPU (write the doorbell / USERD
	 * GP_PUT). Needed only for shadow queues: the HAL calls it when a
	 * policy forwards queued submissions. */
	void (*doorbell_write)(void *port_chan, u32 put);
	/* Cumulative busy time of the compute engine in ns, from the driver's
	 * own utilisation counters. Optional: without it hal_gpu_busy_ns is 0. */
	u64 (*busy_ns)(void *port_gpu);
	/* The same for the copy engine. Optional: without it
	 * hal_engine_busy_ns(HAL_ENGINE_COPY) is 0. */
	u64 (*copy_busy_ns)(void *port_gpu);
};

struct gs_linux_gpu {
	void __iomem *bar0;                  /* ioremapped register BAR */
	const struct gs_linux_regs *regs;    /* NULL: gs_linux_kepler_regs */
	const struct gs_linux_hw_ops *ops;
	void *port_gpu;                      /* passed to ops->busy_ns */
};

/* ---- instances --------------------------------------------------------- */

struct gs_linux_sched_args {
	const char *policy;   /* NULL: the module parameter policy= */
	const char *params;   /* NULL: params= if the policy is policy=, else
			       * the policy's defaults */
	const struct gs_linux_gpu *gpus;     /* copied */
	u32 n_gpus;                          /* 1..GS_LINUX_MAX_GPUS */
};

/* Create a policy instance over the given GPUs and run its init op.
 * Returns an ERR_PTR on failure (-ENOENT unknown policy, -EINVAL bad
 * params, -ENOMEM, or the policy's init error). */
struct hal_sched *gs_linux_sched_create(const struct gs_linux_sched_args *a);
/* Stops timers and the poll loop, runs the fini op, frees the instance.
 * All its tasks must have exited. */
void gs_linux_sched_destroy(struct hal_sched *s);

/* Add a VM to the instance's VM tree (for hierarchical policies): parent
 * is -1 for a top-level VM. Returns the VM index or a negative errno. */
int gs_linux_vm_add(struct hal_sched *s, s32 parent, u32 weight);

/* ---- tasks and channels ------------------------------------------------- */

struct gs_linux_task_args {
	struct pid *pid;      /* NULL: the calling process (its tgid) */
	u32 weight;           /* 0 means 1 */
	/* enum hal_priority: the context's drm_sched priority
	 * (DRM_SCHED_PRIORITY_*, same order); 0 is kernel, so a port sets
	 * it (HAL_PRIO_NORMAL for an ordinary process) */
	u32 priority;
	s32 vm;               /* -1: host (0 is the first VM: set it) */
	u32 gpu;              /* GPU the task runs on */
};

/* A process opened the GPU: call from the driver's open(). */
struct hal_task *gs_linux_task_create(struct hal_sched *s,
				      const struct gs_linux_task_args *a);
/* The process is gone: call from the driver's release(), after its
 * channels were destroyed. Wakes a thread still held, frees the task. */
void gs_linux_task_exit(struct hal_task *t);

struct gs_linux_chan_args {
	u32 chid;             /* id as it appears in ENGINE_STATUS/channel RAM */
	u32 gpu;              /* index into the instance's GPUs */
	void *port_chan;      /* the port's channel cookie, for the hooks */
	/* The channel's reference counter in pinned system memory: the GPU
	 * adds 1 per completed request (SET_REF / semaphore release). */
	const u32 *fence;
	/* Where the GPU's GP_PUT of this channel can be read, and the ring
	 * size in entries: exactly one of gp_put (pinned memory) or
	 * gp_put_io (USERD in a BAR). Unwrapped into a 64-bit count. */
	const u32 *gp_put;
	const void __iomem *gp_put_io;
	u32 ring_entries;
	/* Paravirtual hint for a channel of a VM's process: the guest task
	 * id the guest's virtual GPU driver passed with the allocation (Fleig
	 * piggybacks the guest pid on an unused HOST_MAP ioctl parameter);
	 * 0 (HAL_GUEST_NONE) for host processes and hint-less guests. */
	u32 guest_id;
};

/* A channel was created: call after the channel is set up and before the
 * task can ring its doorbell. */
struct hal_chan *gs_linux_chan_create(struct hal_task *t,
				      const struct gs_linux_chan_args *a);
/* The channel is being torn down: call before its memory goes away. */
void gs_linux_chan_destroy(struct hal_chan *c);

/* What the port's doorbell fault handler does next. */
enum gs_linux_doorbell {
	GS_LINUX_DB_WRITE = 0,   /* let the write reach the GPU */
	GS_LINUX_DB_QUEUED = 1,  /* it went to the shadow queue: drop it */
	GS_LINUX_DB_KILLED = 2,  /* the task is being killed: drop it */
};

/* A write hit the channel's protected doorbell page. Call from the fault
 * handler in the faulting thread's context (it may sleep: a held task
 * waits here until the policy releases it). `put` is the GP_PUT value the
 * write publishes, when the port knows it (used by shadow queues only). */
enum gs_linux_doorbell gs_linux_doorbell_fault(struct hal_chan *c, u32 put);

/* n more of the channel's commands completed (a completion interrupt's
 * handler read the fence): the policy's fence_signal op, what drm_sched's
 * scheduler learns from the dma_fence callbacks. It takes the instance's
 * mutex: call it from process context, e.g. a work item the interrupt
 * handler queues. */
void gs_linux_fence_signal(struct hal_chan *c, u32 n);

/* Whether the channel's doorbell trap is armed, so the fault handler can
 * tell "keep the page unmapped" from "map it back". */
bool gs_linux_chan_trapped(const struct hal_chan *c);

#endif
