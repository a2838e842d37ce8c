/* The policy interface: one const ops table per policy, a registry by
 * name. The framework serialises calls into a policy; policies take no
 * locks. Every op is optional: NULL means "nothing to do". */
#ifndef GS_POLICY_H
#define GS_POLICY_H

#include "hal.h"

enum gs_param_type {
	GS_PARAM_DURATION = 0, /* "30ms"; nanoseconds */
	GS_PARAM_UINT = 1,
	GS_PARAM_BOOL = 2,
};

/* Every GS_PARAM_UINT parameter is at most 2^32 - 1 (GS_PARAM_UINT_MAX);
 * a policy lowers that for the ones its arithmetic needs smaller (a shift
 * count, a factor that multiplies durations). */
#define GS_PARAM_UINT_MAX 0xffffffffULL

/* One parameter, bounds included: the one place they are written. The
 * YAML loader, `gpusim list` and the kernel module's params= parser all
 * read `max` here, and a policy that shares another's parameters (hdfq:
 * dfq's and loga's) shares their descriptors (DFQ_PARAM_DESCS, ...), so
 * it cannot get other bounds. */
struct gs_param_desc {
	const char *name;
	hal_u8 type;           /* enum gs_param_type */
	const char *def;       /* default, as it would be written in YAML */
	const char *help;
	hal_u64 max;           /* GS_PARAM_UINT: largest value the policy
				* takes (GS_PARAM_UINT_MAX when its
				* arithmetic has no lower limit); 0 for the
				* other types */
};

#define GS_MAX_PARAMS 24

/* What a trapped doorbell write does. */
enum gs_submit_verdict {
	GS_SUBMIT_ALLOW = 0, /* let the write through now */
	GS_SUBMIT_HOLD = 1,  /* block the task until hal_task_release() */
};

/* The version of the interface between gpusim and a policy: this ops
 * table, struct gs_param_desc and the hal_* functions of hal.h. A policy
 * built outside the tree (a module: docs/writing-a-policy.md) sets
 * `.abi = GS_POLICY_ABI` and is refused when its number is not the one
 * gpusim was built with. Bump it with any change to those declarations
 * that an already built module would not survive. A built-in policy,
 * compiled with these headers, may leave it 0. */
#define GS_POLICY_ABI 1

struct gs_policy_ops {
	/* First, so that a module of any layout is read here correctly. */
	hal_u32 abi;
	const char *name;
	const char *summary;
	/* What the policy does with hal_task_priority, for `gpusim list`
	 * ("ignored", or how it maps the levels). */
	const char *priority;
	const struct gs_param_desc *params; /* n_params entries */
	hal_u32 n_params;
	hal_u32 priv_size;
	/* Places or moves tasks between the node's GPUs (hal_task_migrate):
	 * only the host runs it, never a VM's own scheduler. */
	hal_u8 node_level;

	int (*init)(struct hal_sched *s);
	void (*fini)(struct hal_sched *s);
	/* A task appeared (before its channels are created) / exits (after
	 * its channels are destroyed). */
	void (*task_create)(struct hal_sched *s, struct hal_task *t);
	void (*task_exit)(struct hal_sched *s, struct hal_task *t);
	void (*channel_create)(struct hal_sched *s, struct hal_chan *c);
	void (*channel_destroy)(struct hal_sched *s, struct hal_chan *c);
	/* A doorbell write hit an armed trap: GS_SUBMIT_ALLOW or _HOLD. */
	int (*submit)(struct hal_sched *s, struct hal_chan *c);
	/* A command went into c's shadow queue. */
	void (*shadow_submit)(struct hal_sched *s, struct hal_chan *c);
	/* n more of c's commands completed (oldest first), as the
	 * completion interrupt's handler finds them: it reads the fence in
	 * memory, where the GPU wrote it before raising the interrupt, and
	 * signals each command's fence, as a driver signals the dma_fences
	 * drm_sched's scheduler waits on. Completions that come before the
	 * handler reads are in the same call. (hal_fence_read is the
	 * user-visible copy, which may lag.) */
	void (*fence_signal)(struct hal_sched *s, struct hal_chan *c,
			     hal_u32 n);
	/* Timer `id` expired. */
	void (*timer)(struct hal_sched *s, hal_u32 id);
	/* The poll loop saw the status register change at `when`. */
	void (*poll_change)(struct hal_sched *s,
			    const struct hal_engine_status *st, hal_u64 when);
	void (*poll_end)(struct hal_sched *s);
	/* The run ends now: report each phase still in progress with
	 * hal_trace_phase(s, name, start, hal_now(s)), changing nothing. A
	 * phase is traced when it ends, so without this a run's last phase
	 * would be missing from its timeline; the simulator marks these
	 * spans as cut. */
	void (*trace_open)(struct hal_sched *s);
};

/* The registry: a NULL-terminated const array. */
extern const struct gs_policy_ops *const gs_policy_registry[];
const struct gs_policy_ops *gs_policy_find(const char *name);
const struct gs_param_desc *gs_policy_param(const struct gs_policy_ops *ops,
					    const char *name);
/* Index of a parameter in ops->params, or -1. */
int gs_policy_param_index(const struct gs_policy_ops *ops, const char *name);

#endif
