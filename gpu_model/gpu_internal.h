/* Functions shared between the GPU model's files, not part of its API. */
#ifndef GS_GPU_INTERNAL_H
#define GS_GPU_INTERNAL_H

#include "gpu_model/gpu.h"

/* channel_gpu.c */
/* Free a slot's blocks (its FIFOs and rare fields). */
void gs_chan_free_blocks(struct gs_channel *ch);
bool gs_chan_has_work(const struct gs_channel *ch);
/* Take the next command: a saved (preempted) one first, else the one at GET
 * (advancing GET and telling the owner about the freed slot). */
void gs_chan_fetch(struct gs_channel *ch, struct gs_cmd *out);
void gs_chan_write_fence(struct gs_channel *ch, uint64_t serial);

/* dispatcher.c (engines reach it through gpu->notify) */
void gs_disp_init(struct gs_gpu *gpu);
void gs_disp_kick(struct gs_gpu *gpu);
void gs_disp_link(struct gs_gpu *gpu, struct gs_channel *ch);
void gs_disp_unlink(struct gs_gpu *gpu, struct gs_channel *ch);
/* A channel is being closed: drop a stalled command that belongs to it. */
void gs_disp_forget(struct gs_gpu *gpu, struct gs_channel *ch);
/* A preemption of `group` on eng: a command of that group held for eng
 * goes back to its channel's saved queue. */
void gs_disp_take_back(struct gs_gpu *gpu, const struct gs_engine *eng,
		       uint32_t group);
/* Another group than `group` has work waiting (timeslice rule). */
bool gs_disp_other_group_waiting(const struct gs_gpu *gpu, uint32_t group);

/* engine.c (shared.c reaches it through gpu->notify) */
void gs_engine_init(struct gs_gpu *gpu, struct gs_engine *eng, uint8_t kind);
bool gs_engine_accepts(const struct gs_engine *eng);
void gs_engine_start(struct gs_engine *eng, struct gs_channel *ch,
		     const struct gs_cmd *cmd);
void gs_engine_forget_channel(struct gs_engine *eng, struct gs_channel *ch);
/* The cores' load changed: the running command goes on at the new rate. */
void gs_engine_rate_changed(struct gs_engine *eng);

/* shared.c */
void gs_shared_init(struct gs_gpu *gpu);
void gs_shared_free(struct gs_gpu *gpu);
void gs_shared_start(struct gs_gpu *gpu, struct gs_channel *ch,
		     const struct gs_cmd *cmd);
void gs_shared_forget_channel(struct gs_gpu *gpu, struct gs_channel *ch);
/* Share of the cores occupied now, per-mille: oversubscribed cores are
 * all in use, no more. */
static inline uint64_t gs_shared_cores_pm(const struct gs_shared *sh)
{
	uint64_t d = (uint64_t)sh->demand_pm + sh->engine_pm;

	return d < 1000 ? d : 1000;
}

/* Charge the time since the last change to the cores' integral; the
 * time it covered. */
static inline gs_time_t gs_shared_advance_cores(struct gs_gpu *gpu)
{
	struct gs_shared *sh = &gpu->shared;
	gs_time_t dt = gpu->q->now - sh->last;

	sh->last = gpu->q->now;
	sh->cores_pm_ns += dt * gs_shared_cores_pm(sh);
	return dt;
}

/* gs_shared_engine_load with shared kernels running. */
void gs_shared_engine_load_beside(struct gs_gpu *gpu, uint32_t pm);

/* The compute engine starts (1000) or stops (0) using the cores. Without
 * shared kernels (every GPU but a DCUDA node's, twice per compute
 * command) only the cores' integral moves: no kernel progresses, and no
 * completion is pending, for shared.c cancelled it when the last kernel
 * left; inline, as the engine does it for every command. */
static inline void gs_shared_engine_load(struct gs_gpu *gpu, uint32_t pm)
{
	if (gpu->shared.running->len) {
		gs_shared_engine_load_beside(gpu, pm);
		return;
	}
	gs_shared_advance_cores(gpu);
	gpu->shared.engine_pm = pm;
}
/* Divisor of every core user's progress rate (per-mille): 1000 is full
 * speed. */
uint64_t gs_shared_rate_div(const struct gs_gpu *gpu);

static inline struct gs_engine *gs_gpu_engine_for(struct gs_gpu *gpu,
						  uint8_t kind)
{
	/* Without a copy engine, copies run on the compute engine. */
	if (kind == GS_ENGINE_COPY && !gpu->cfg.copy_engine)
		kind = GS_ENGINE_COMPUTE;
	return &gpu->engines[kind];
}

#endif
