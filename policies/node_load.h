/* The monitor shared by the node-level policies (round-robin,
 * least-loaded, dcuda): where each task is, and its compute demand read
 * from its kernel launches, in the manner of DCUDA's wrapper library.
 *
 * Every channel's submissions go through a shadow queue, so the policy sees
 * each launch and the engine time it asks for (hal_shadow_peek_hint, what
 * DCUDA derives from the launch parameters). A task's demand is the share
 * of time its kernels would keep one GPU busy if it ran alone:
 *
 *     demand = core time / (kernel time + time not spent in waits)
 *
 * where a kernel's core time is its length times the share of the cores
 * it occupies (hal_shadow_peek_occupancy; unknown counts as all of them).
 * since first launch. Time blocked in waits (hal_task_sync_ns) is left
 * out, because that is where contention shows: a task slowed down by
 * others keeps the demand it has alone. */
#ifndef GS_NODE_LOAD_H
#define GS_NODE_LOAD_H

#include "hal.h"
#include "util.h"

#define NL_MAX_GPUS 32
#define NL_PM 1000u /* loads and demands are in per-mille of one GPU */

struct nl_task;

/* A channel of a task, as the policy knows it (its hal_chan_data): a
 * policy may hold back the launches of every channel it records. */
struct nl_chan {
	struct plist link;    /* in nl_task.chans */
	struct hal_chan *c;
	struct nl_task *owner;
};

struct nl_task {
	struct plist link;
	struct hal_task *t;
	hal_u32 gpu;          /* where the policy put it (moves included) */
	hal_u8 launched;      /* a launch was seen */
	hal_u8 known;         /* demand_pm is an estimate */
	hal_u64 first_launch;
	hal_u64 sync_base;    /* hal_task_sync_ns at the first launch */
	hal_u64 kernel_ns;    /* engine time of its launches */
	hal_u64 core_ns;      /* ... times their core share */
	hal_u64 memory;       /* footprint, bytes (0: unknown) */
	hal_u32 demand_pm;
	hal_u32 group;        /* dcuda fairness slices */
	hal_u8 held;          /* launches kept in its shadow queues */
	struct plist chans;   /* struct nl_chan, one per open channel */
};

struct nl_node {
	struct plist tasks;
	hal_u32 n_gpus;
	hal_u64 min_sample;   /* time after the first launch before an
			       * estimate counts */
	hal_u32 load_pm[NL_MAX_GPUS];  /* sum of known demands */
	hal_u32 count[NL_MAX_GPUS];    /* tasks placed there */
	hal_u64 mem_used[NL_MAX_GPUS]; /* their footprints, bytes */
	hal_u64 mem_size[NL_MAX_GPUS]; /* hal_gpu_memory; 0: no limit */
	hal_u32 migrations;
};

void nl_init(struct hal_sched *s, struct nl_node *n, hal_u64 min_sample);
/* Free every task's record (ops->fini). */
void nl_fini(struct hal_sched *s, struct nl_node *n);
/* Record a task on the GPU it starts on (its current one). */
struct nl_task *nl_task_add(struct hal_sched *s, struct nl_node *n,
			    struct hal_task *t);
void nl_task_remove(struct hal_sched *s, struct nl_node *n,
		    struct hal_task *t);
static inline struct nl_task *nl_task_of(const struct hal_task *t)
{
	return (struct nl_task *)hal_task_data(t);
}
/* ops->channel_create: route the channel's launches to the policy and
 * record the channel (however many the task opens). channel_destroy:
 * forget it. */
void nl_chan_create(struct hal_sched *s, struct hal_chan *c);
void nl_chan_destroy(struct hal_sched *s, struct hal_chan *c);
/* Whether the task's channel is recorded (one the policy may hold). */
int nl_chan_known(const struct nl_task *nt, const struct hal_chan *c);
/* Forward everything the task has queued; returns the engine time
 * forwarded. */
hal_u64 nl_forward_all(struct hal_sched *s, struct nl_task *nt);
/* ops->shadow_submit: count the launch's engine time; the caller then
 * forwards it (or keeps it queued). */
void nl_launch(struct hal_sched *s, struct hal_chan *c);
/* Refresh every estimate and the per-GPU loads. */
void nl_update(struct hal_sched *s, struct nl_node *n);
/* Whether `bytes` more fit in the GPU's memory beside what is there. */
int nl_fits_memory(const struct nl_node *n, hal_u32 gpu, hal_u64 bytes);
/* Whether any GPU has room for `bytes`. */
int nl_fits_somewhere(const struct nl_node *n, hal_u64 bytes);
/* The GPU with the lowest load (ties: fewer tasks, then lower index)
 * among those with room for `memory`; among all GPUs if none has. */
hal_u32 nl_least_loaded(const struct nl_node *n, hal_u64 memory);
/* The same by another per-GPU measure (per-mille, lower is better). */
hal_u32 nl_lowest(const struct nl_node *n, const hal_u32 *metric,
		  hal_u64 memory);
/* Ask the HAL to move the task; loads follow at once. 0 on success; a
 * move whose footprint does not fit in the target's memory is refused. */
int nl_move(struct hal_sched *s, struct nl_node *n, struct nl_task *nt,
	    hal_u32 gpu);

#endif
