/* GPU model parameters and presets. Every field can be overridden in YAML
 * (the loader starts from a preset and applies the keys it finds). */
#ifndef GS_GPU_CONFIG_H
#define GS_GPU_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/event.h"

enum gs_engine_kind {
	GS_ENGINE_COMPUTE = 0,
	GS_ENGINE_COPY = 1,
	GS_ENGINE_KINDS = 2,
};

/* How the dispatcher chooses the next channel to fetch from. */
enum gs_sched_mode {
	/* Kepler: one command (or batch) per channel visit, round-robin. */
	GS_SCHED_ROUND_ROBIN = 0,
	/* Volta+: stay with one channel group (a task's channels) for a
	 * timeslice of engine time, then move on if another group has work. */
	GS_SCHED_TIMESLICE = 1,
};

struct gs_gpu_config {
	char preset[16];
	uint64_t clock_hz;        /* for "N cycles" durations */
	uint32_t ring_entries;    /* command slots per channel ring */
	uint32_t max_channels;    /* channels per GPU */
	uint32_t dispatch_batch;  /* commands fetched per channel visit */
	gs_time_t fetch;          /* time to fetch one command */
	gs_time_t ctx_switch;     /* engine context switch, charged to nobody */
	gs_time_t mmio_read;      /* one status-register read */
	gs_time_t ref_writeback;  /* lag of the host-visible fence copy */
	gs_time_t irq_latency;    /* completion interrupt delivery */
	bool copy_engine;         /* a separate copy engine exists */
	enum gs_sched_mode sched;
	gs_time_t timeslice;      /* GS_SCHED_TIMESLICE: engine time per group */
	bool preemption;          /* compute preemption at slice end */
	gs_time_t preempt_save;   /* saving a preempted context */
	uint32_t idle_mw;         /* power model: milliwatts when idle */
	uint32_t active_mw;       /* ... and when an engine is busy */
	/* Kernels sharing the cores beyond 100% (shared.c) run this much
	 * slower again once the overload reaches 25% (linearly before),
	 * per-mille: interference in caches, memory bandwidth and block
	 * scheduling. 0: pure proportional sharing. node.interference. */
	uint32_t interference_pm;
};

/* Fill cfg from a named preset ("kepler", "volta"); -1 if unknown. */
int gs_gpu_preset(const char *name, struct gs_gpu_config *cfg);
/* NULL-terminated list of preset names, for `gpusim list`. */
extern const char *const gs_gpu_preset_names[];
/* One line describing a preset. */
const char *gs_gpu_preset_summary(const char *name);

#endif
