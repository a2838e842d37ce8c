/* Internals shared by the kernel HAL's files: the objects behind the
 * opaque handles of policies/hal.h. Not for driver ports (gs_linux.h). */
#ifndef GS_LINUX_PRIV_H
#define GS_LINUX_PRIV_H

#include <linux/hrtimer.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include "hal.h"
#include "policy.h"
#include "gs_linux.h"

#define GS_SHADOW_SLOTS 64

struct hal_timer_slot {
	struct hrtimer hr;
	struct hal_sched *s;
};

/* Counters shown in debugfs: the kernel has no results writer, so what
 * the simulator would put in summary.json is kept here. */
struct gs_linux_stats {
	u64 traps, holds, timer_fires, poll_samples, poll_changes, phases;
	u64 cpu_charge_ns, kills, shadow_queued, shadow_forwarded;
	u64 warnings; /* HAL_WARN_ON call sites that fired */
};

/* Objects alive in the whole module, in debugfs gpusim/live. With no
 * instance left every one must be zero: a nonzero count after the last
 * instance is gone is a leak (the stress test of make ktest checks it). */
struct gs_linux_live {
	atomic_t instances, tasks, chans;
	atomic_t timers;  /* hrtimers queued, neither expired nor cancelled */
	atomic_t held;    /* threads asleep in a doorbell fault (HOLD) */
	atomic_t queued;  /* GP_PUT values in shadow queues, not forwarded */
	atomic_t blocks;  /* hal_zalloc blocks not yet hal_free'd */
};
extern struct gs_linux_live gs_linux_live;

struct hal_sched {
	const struct gs_policy_ops *ops;
	/* Serialises every call into the policy (ops->*), and guards the
	 * task/channel lists and everything a policy can reach. */
	struct mutex lock;
	void *priv;
	u64 params[GS_MAX_PARAMS];
	struct gs_linux_gpu gpus[GS_LINUX_MAX_GPUS];
	u32 n_gpus;
	s32 vm_parent[GS_LINUX_MAX_VMS];
	u32 vm_weight[GS_LINUX_MAX_VMS];
	u32 n_vms;

	struct list_head tasks;
	struct ida task_ids;
	struct xarray chans;       /* gs_chan_key(gpu, chid) -> hal_chan */

	/* Timers: hrtimer callbacks run in hard irq, so they only mark the
	 * id and queue timer_work, which calls ops->timer under the mutex. */
	struct hal_timer_slot timers[HAL_MAX_TIMERS];
	unsigned long timer_fired; /* bit per id, atomic bitops */
	struct workqueue_struct *wq;
	struct work_struct timer_work;
	bool dying;                /* under lock: no more timer deliveries */

	/* The poll loop: one long-lived kthread, told what to poll through
	 * these fields (under poll_lock) so that starting or stopping a loop
	 * from inside a policy callback never waits for the thread. */
	struct task_struct *poll_thread;
	wait_queue_head_t poll_wq;
	spinlock_t poll_lock;
	u64 poll_gen;              /* bumped by every start and stop */
	bool poll_active;
	u32 poll_gpu, poll_engine;
	u64 poll_until;

	struct gs_linux_stats stats;
	struct dentry *debugfs;
	int slot;                  /* in the module's instance table */
};

struct hal_task {
	struct kref ref;           /* creation + each thread held in a fault */
	struct hal_sched *s;
	struct list_head node;     /* in s->tasks */
	struct list_head chans;
	struct pid *pid;
	char name[TASK_COMM_LEN];
	u32 id, weight, gpu;
	u32 priority;              /* enum hal_priority */
	s32 vm;
	void *data;
	/* held: set by a HOLD verdict, cleared by hal_task_release; read by
	 * the waiting thread without the mutex, hence READ_ONCE/WRITE_ONCE. */
	bool held, killed, exited;
	wait_queue_head_t wq;
	u64 accounted_ns, vtime;
};

struct hal_chan {
	struct hal_task *t;
	struct list_head node;     /* in t->chans */
	u32 id, gpu;
	u32 guest_id;              /* paravirtual hint, 0: none */
	void *port_chan;
	void *data;
	bool trapped, shadow;
	const u32 *fence;
	const u32 *gp_put;
	const void __iomem *gp_put_io;
	u32 ring_entries;
	/* 64-bit counts unwrapped from the 32-bit fence and ring index. */
	u32 fence_last, put_last;
	u64 fence_count, put_count;
	/* Shadow queue: GP_PUT values the task published while shadowed,
	 * oldest at head. A later value covers the earlier ones. */
	u32 shq[GS_SHADOW_SLOTS];
	u32 shq_head, shq_len;
};

/* Channel ids fit in 16 bits on every GPU we know (Kepler: 12). */
#define GS_MAX_CHID 0xffffu

static inline unsigned long gs_chan_key(u32 gpu, u32 chid)
{
	return ((unsigned long)gpu << 16) | chid;
}

/* hal_linux_sched.c */
void gs_linux_task_put(struct hal_task *t);

/* hal_linux_hw.c */
u32 gs_linux_read_put(const struct hal_chan *c);
int gs_linux_poll_init(struct hal_sched *s);
void gs_linux_poll_fini(struct hal_sched *s);

/* params.c: fill s->params from "name=value,..." and the defaults. */
int gs_linux_parse_params(const struct gs_policy_ops *ops, const char *text,
			  u64 *out);

/* debugfs.c */
void gs_linux_debugfs_add(struct hal_sched *s);
void gs_linux_debugfs_remove(struct hal_sched *s);
void gs_linux_debugfs_live(struct dentry *root);

/* module.c: the instance table and the module parameters. */
const char *gs_linux_default_policy(void);
const char *gs_linux_default_params(void);
int gs_linux_instance_add(struct hal_sched *s);
void gs_linux_instance_remove(struct hal_sched *s);
struct dentry *gs_linux_debugfs_root(void);

#endif
