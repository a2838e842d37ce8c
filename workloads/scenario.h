/* A loaded, validated scenario: everything `gpusim run` needs, with every
 * duration already converted to nanoseconds. Produced by gs_scenario_load()
 * (workloads/config_load.c); the simulator only reads it. */
#ifndef GS_SCENARIO_H
#define GS_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu_model/gpu_config.h"
#include "workloads/program.h"

#define GS_GPU_AUTO UINT32_MAX

/* Defaults of a VM's virtualisation costs: a trapped doorbell costs this
 * many times host.trap; a switch to or from a shadow channel this long. */
#define GS_VM_TRAP_FACTOR 8
#define GS_VM_SHADOW_COPY 2000 /* ns */

/* CPU-side costs of the host model. */
struct gs_host_config {
	uint64_t clock_hz;     /* for "N cycles" in host durations */
	gs_time_t launch;      /* user-space driver work to prepare a command */
	gs_time_t doorbell;    /* the doorbell MMIO write */
	gs_time_t trap;        /* doorbell fault handled by a policy, including
				* the single-step and re-protect */
	gs_time_t spin_poll;   /* a spinning waiter notices a completion */
	gs_time_t wakeup;      /* scheduling a sleeping waiter after an IRQ */
	gs_time_t policy_wakeup; /* one wake-up of a policy's kernel thread
				  * (timer expiry), counted as policy CPU */
};

struct gs_policy_param {
	char *key;
	char *value;          /* scalar text as written in YAML */
	uint32_t index;       /* the parameter's in the policy's table */
	uint64_t n;           /* its value, checked: ns, number or 0/1 */
	char *file;           /* where it was written, for errors */
	uint32_t line, column;/* 1-based */
};

struct gs_policy_config {
	char *name;
	/* The policy's ops: a built-in's, or those of the module that
	 * `module:` loaded (workloads/policy_module.h); NULL: find `name`
	 * among the built-ins. */
	const struct gs_policy_ops *ops;
	struct gs_policy_param *params;
	uint32_t n_params;
	uint32_t line, column; /* of the policy name, for errors */
	char *where;           /* "file:line:col" of its name, or "--set
				* TEXT" when an override gave it; NULL: not
				* written in the scenario */
};

/* A scheduling entity of the VM tree (host -> VMs -> nested VMs). */
struct gs_vm_config {
	char *name;
	uint32_t weight;  /* user weight, default 1 */
	int32_t parent;   /* index into vms, -1 for a top-level VM */
	/* Paravirtual hints: the guest driver gives a guest task id with each
	 * channel it allocates (hal_chan_guest_id); false: the VM's channels
	 * are told apart by nothing, the VM is one scheduling entity. */
	bool hints;
	/* Virtualisation costs: a trapped or shadowed doorbell write of a task
	 * in this VM (EPT violation, VM exit, monitor-trap single step), in
	 * place of host.trap; switching one channel to or from its shadow
	 * (copying the control registers, remapping), policy CPU time. */
	gs_time_t trap;
	gs_time_t shadow_copy;
	/* What a scheduler outside the VM's kill of one of the VM's tasks
	 * does (Fleig 6.1: "there is no easy way for the hypervisor to kill
	 * malicious guest tasks"): false (`on_kill: vm`), the hypervisor's
	 * "last resort", the whole VM is killed; true (`on_kill: notify`),
	 * the VM is told which task and its guest kernel kills that one (a
	 * cooperating guest). A VM without hints is always killed whole:
	 * the host cannot name the task. */
	bool kill_notify;
	/* The VM's own scheduler (Fleig 3.4, nested): a registered policy
	 * run as a separate instance inside the VM over the VM's tasks;
	 * name NULL: none (the GPU's own order among its tasks). */
	struct gs_policy_config scheduler;
};

struct gs_task_config {
	char *name;
	uint32_t count;       /* replicas: name, name#1, ... when count > 1 */
	int32_t vm;           /* index into vms, -1: on the host */
	uint32_t weight;      /* default 1 */
	uint8_t priority;     /* enum hal_priority, default normal */
	uint32_t ring_entries;/* each channel's ring; 0: the GPU's */
	uint32_t max_inflight;/* commands per channel on the hardware
			       * (published, not complete); 0: no limit */
	uint32_t channels;    /* channels the task opens, default 1 */
	gs_time_t start;      /* when the task starts */
	uint32_t gpu;         /* GPU index, or GS_GPU_AUTO (round-robin) */
	uint64_t rounds;      /* stop after this many rounds; 0: no limit */
	char *behavior_kind;  /* "throttle", "app", "script", "trace" */
	char *behavior_label; /* e.g. the app's name, for tables */
	struct gs_program program;
	/* `job` behaviour (multi-GPU node): the share of one GPU's compute
	 * the task keeps busy when alone, in per-mille, and its memory
	 * footprint; 0 for other behaviours. */
	uint32_t demand_pm;
	uint64_t memory_bytes;
};

/* The node's power model (node.power): a GPU with no task resident idles
 * at idle_mw (lowest power state); one or more resident tasks keep it
 * awake (clocks up) at active_mw with no core in use, rising linearly to
 * busy_mw with every core in use; every wake-up from idle costs wake_mj. */
struct gs_node_power {
	bool set;             /* node.power given: this model replaces the
			       * per-GPU idle/active_watts one */
	uint32_t idle_mw, active_mw;
	uint32_t busy_mw;     /* at least active_mw; equal: no dynamic part */
	uint64_t wake_mj;
};

/* The cost of moving a task to another GPU (node.migration): the task
 * stalls for clone (runtime cloned from a pool of prepared handles) plus
 * the on-demand share of its memory moved at bandwidth; the rest is
 * prefetched in the background while it runs. */
struct gs_migration_config {
	gs_time_t clone;
	uint64_t bandwidth;   /* bytes per second */
	uint32_t on_demand_pm;/* per-mille of the footprint faulted in */
};

/* node.unified_memory (DCUDA 3.4 and Fig. 8): every allocation is
 * unified memory, so a task's first kernel faults its footprint in, one
 * `page` per fault, each costing `fault`. Off unless given. */
struct gs_paging_config {
	bool set;
	uint64_t page;        /* bytes migrated per fault */
	gs_time_t fault;      /* the kernel's stall per fault */
};

struct gs_output_config {
	gs_time_t series_interval; /* 0: duration / 100 */
	bool timeline;             /* write timeline.json */
	uint64_t timeline_max_spans;
};

/* How a sweep row turns its points into one value: the peak check, or
 * the mean or the largest of the points (a paper's "average/max over the
 * request sizes"). */
enum gs_expect_reduce {
	GS_REDUCE_PEAK = 0,
	GS_REDUCE_MEAN = 1,
	GS_REDUCE_MAX = 2,
	GS_REDUCE_MIN = 3,
};

enum gs_expect_compare {
	GS_COMPARE_NONE = 0,
	/* report (v_direct - v) / v_direct, with v_direct from the same
	 * scenario under policy direct: e.g. efficiency loss vs direct */
	GS_COMPARE_LOSS_VS_DIRECT = 1,
	/* report (v - v_direct) / v_direct: e.g. turnaround increase */
	GS_COMPARE_INCREASE_VS_DIRECT = 2,
	/* (v_base - v) / v_base and (v - v_base) / v_base, with v_base from
	 * the same scenario under the policy named by `baseline` */
	GS_COMPARE_REDUCTION_VS_BASELINE = 3,
	GS_COMPARE_INCREASE_VS_BASELINE = 4,
	/* (v_ref - v) / v_ref, value by value, with v_ref from the same
	 * scenario and policy under `set` plus the `reference` overrides:
	 * another setting of one mechanism (DCUDA Fig. 9: NVCR's
	 * migration against DCUDA's, application by application) */
	GS_COMPARE_REDUCTION_VS_REFERENCE = 5,
	/* (v - v_ref) / v_ref: the cost of a mechanism the reference turns
	 * off (DCUDA Fig. 8: unified memory) */
	GS_COMPARE_INCREASE_VS_REFERENCE = 6,
};

/* One paper target this scenario reproduces (`gpusim reproduce`). */
/* The largest seed: results record seeds as JSON integers, which
 * json-glib (and most readers) hold as signed 64-bit, so a seed above this
 * could not be read back from summary.json to replay the run. */
#define GS_SEED_MAX ((uint64_t)INT64_MAX)

struct gs_expect {
	char *id;          /* "R2" */
	char *figure;      /* "NEON Fig. 5" */
	char *quantity;    /* what is measured, in words */
	char *paper;       /* the paper's value, as text */
	bool has_paper_value;
	double paper_value; /* the paper's value as a number (non-zero), for
			     * the relative-error column */
	char *known_gap;   /* why the row misses the paper (a section of
			    * docs/decisions.md): a miss is shown, not failed */
	char *far_from_paper; /* why the row, inside its band, lies more than
			       * 25% from paper_value (docs/decisions.md); a
			       * miss still fails */
	char *value;       /* tasks.NAME.FIELD, tasks.*.FIELD, gpus.N.FIELD,
			    * gpus.*.FIELD, metrics.FIELD */
	char **set;        /* overrides for this check, NULL-terminated */
	uint8_t compare;   /* enum gs_expect_compare */
	char *baseline;    /* policy of the reference run; NULL: direct */
	char **reference;  /* the overrides of the run compared with, on top
			    * of `set` (a *_vs_baseline or *_vs_reference
			    * compare), NULL-terminated; NULL: none */
	uint32_t seeds;    /* average over seeds seed..seed+seeds-1; 0: one */
	char **sweep;      /* peak check: one override per point, NULL-ended */
	uint32_t peak;     /* value = v[peak] - max of the other points */
	uint8_t reduce;    /* enum gs_expect_reduce: instead of a peak, the
			    * sweep's points reduced to one value */
	bool has_min, has_max;
	double min, max;   /* pass range, inclusive */
	uint32_t line;     /* where it is written */
};

/* One axis of a `sweep:` grid: a key path, as --set takes it, and the
 * values it runs through, each as --set value text ("dfq", "19us",
 * "{uniform: [50us, 150us]}") with the position it is written at. */
struct gs_sweep_axis {
	char *key;
	char **values;       /* n_values strings, NULL-terminated */
	uint32_t *lines;     /* 1-based line and column of each value */
	uint32_t *columns;
	uint32_t n_values;
};

/* The `sweep:` block: axes in file order (the first varies slowest), then
 * the seeds (fastest). n_seeds 0: the scenario's own seed. */
struct gs_sweep_config {
	struct gs_sweep_axis *axes;
	uint32_t n_axes;
	uint64_t *seeds;
	uint32_t n_seeds;
	uint32_t line, column; /* of the `sweep` key; 0: no sweep block */
};

struct gs_scenario {
	char *file;         /* path as given */
	char *name;
	uint64_t seed;
	gs_time_t duration;
	uint64_t max_events;        /* 0: default cap */
	uint32_t n_gpus;            /* node size, >= 1 */
	struct gs_gpu_config gpu;   /* every GPU of the node is alike */
	struct gs_node_power power;
	struct gs_migration_config migration;
	struct gs_paging_config paging;
	uint64_t gpu_memory;        /* node.memory: bytes per GPU */
	uint32_t qos_degradation_pm; /* node.qos_degradation: the slowdown
				      * a task may suffer and still meet
				      * its QoS, per-mille (DCUDA 4.5: 20%) */
	struct gs_host_config host;
	struct gs_policy_config policy;
	struct gs_vm_config *vms;
	uint32_t n_vms;
	struct gs_task_config *tasks;
	uint32_t n_tasks;
	struct gs_output_config output;
	struct gs_expect *expect;
	uint32_t n_expect;
	struct gs_sweep_config sweep;
};

/* Default host costs. */
void gs_host_defaults(struct gs_host_config *host);

void gs_scenario_free(struct gs_scenario *sc);
/* Frees what a policy configuration holds and zeroes it. */
void gs_policy_config_clear(struct gs_policy_config *p);
void gs_expect_clear(struct gs_expect *e);
void gs_sweep_config_clear(struct gs_sweep_config *sw);
/* A deep copy holding only task `task_index` (count 1, replica 0: same
 * name and random stream), policy "direct": the standalone reference run. */
struct gs_scenario *gs_scenario_alone(const struct gs_scenario *sc,
				      uint32_t task_index);

#endif
