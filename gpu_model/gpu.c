/* A GPU: its engines, dispatcher and channel table; register reads. */
#include <glib.h>

#include "base/zero_table.h"
#include "gpu_model/gpu_internal.h"

struct gs_gpu *gs_gpu_new(const struct gs_gpu_config *cfg, uint32_t index,
			  struct gs_evq *q, const struct gs_gpu_hooks *hooks)
{
	struct gs_gpu *gpu = g_new0(struct gs_gpu, 1);
	uint8_t k;

	g_assert(cfg->ring_entries >= 2 && cfg->max_channels >= 1);
	gpu->index = index;
	gpu->cfg = *cfg;
	if (!gpu->cfg.dispatch_batch)
		gpu->cfg.dispatch_batch = 1;
	gpu->q = q;
	if (hooks)
		gpu->hooks = *hooks;
	gpu->notify = (struct gs_gpu_notify){
		.disp_kick = gs_disp_kick,
		.disp_link = gs_disp_link,
		.disp_take_back = gs_disp_take_back,
		.disp_other_group_waiting = gs_disp_other_group_waiting,
		.engine_rate_changed = gs_engine_rate_changed,
	};
	for (k = 0; k < GS_ENGINE_KINDS; k++)
		gs_engine_init(gpu, &gpu->engines[k], k);
	gs_disp_init(gpu);
	gs_shared_init(gpu);
	/* untouched slots cost nothing: a node's four GPUs, of which a task
	 * alone uses one channel of one */
	gpu->channels = gs_zero_table_new(sizeof(struct gs_channel) *
					  (size_t)cfg->max_channels);
	return gpu;
}

void gs_gpu_free(struct gs_gpu *gpu)
{
	uint32_t i;
	uint8_t k;

	if (!gpu)
		return;
	for (k = 0; k < GS_ENGINE_KINDS; k++) {
		gs_evq_cancel(gpu->q, &gpu->engines[k].done_ev);
		gs_evq_cancel(gpu->q, &gpu->engines[k].slice_ev);
	}
	gs_evq_cancel(gpu->q, &gpu->disp.ev);
	gs_shared_free(gpu);
	for (i = 0; i < gpu->slots_touched; i++)
		gs_chan_free_blocks(&gpu->channels[i]);
	gs_zero_table_free(gpu->channels, sizeof(struct gs_channel) *
					  (size_t)gpu->cfg.max_channels);
	g_free(gpu);
}

void gs_gpu_read_engine_status(struct gs_gpu *gpu, uint8_t engine,
			       struct gs_engine_status *out)
{
	gpu->mmio_reads++;
	gs_gpu_peek_engine_status(gpu, engine, out);
}

void gs_gpu_peek_engine_status(const struct gs_gpu *gpu, uint8_t engine,
			       struct gs_engine_status *out)
{
	const struct gs_engine *eng =
		gs_gpu_engine_for((struct gs_gpu *)gpu, engine);

	out->cur_id = eng->cur ? eng->cur->id : GS_CHAN_NONE;
	out->next_id = eng->next ? eng->next->id : GS_CHAN_NONE;
	out->busy = eng->state == GS_ENG_RUNNING;
	switch (eng->state) {
	case GS_ENG_SWITCHING:
		out->ctx_status = GS_CTX_LOADING;
		break;
	case GS_ENG_SAVING:
		out->ctx_status = GS_CTX_SAVING;
		break;
	default:
		out->ctx_status = eng->cur ? GS_CTX_VALID : GS_CTX_INVALID;
	}
}

enum gs_chram_status gs_gpu_read_chram(struct gs_gpu *gpu, uint32_t chid)
{
	const struct gs_channel *ch;
	uint8_t k;
	bool loaded = false;

	gpu->mmio_reads++;
	if (chid >= gpu->cfg.max_channels)
		return GS_CHRAM_IDLE;
	ch = &gpu->channels[chid];
	for (k = 0; k < GS_ENGINE_KINDS; k++) {
		const struct gs_engine *eng = &gpu->engines[k];

		/* running, or its context being loaded to run */
		if (eng->running_chan == ch)
			return eng->state == GS_ENG_RUNNING ? GS_CHRAM_BUSY
							    : GS_CHRAM_ON_ENGINE;
		if (eng->cur == ch || eng->next == ch)
			loaded = true;
	}
	if (!gs_chan_has_work(ch) &&
	    !(gpu->disp.stalled && gpu->disp.stall_chan == ch))
		return GS_CHRAM_IDLE;
	return loaded ? GS_CHRAM_ON_ENGINE : GS_CHRAM_PENDING;
}

gs_time_t gs_gpu_next_status_change(const struct gs_gpu *gpu, uint8_t engine)
{
	const struct gs_engine *eng =
		gs_gpu_engine_for((struct gs_gpu *)gpu, engine);

	return gs_event_queued(&eng->done_ev) ? eng->done_ev.time
					      : GS_TIME_NEVER;
}

gs_time_t gs_engine_busy_now(const struct gs_engine *eng)
{
	return eng->busy_time + gs_engine_run_work_now(eng);
}

gs_time_t gs_gpu_busy_time(const struct gs_gpu *gpu)
{
	gs_time_t t = 0;
	uint8_t k;

	for (k = 0; k < GS_ENGINE_KINDS; k++)
		t += gs_engine_busy_now(&gpu->engines[k]);
	return t;
}

gs_time_t gs_gpu_compute_active_now(const struct gs_gpu *gpu)
{
	const struct gs_engine *eng = &gpu->engines[GS_ENGINE_COMPUTE];

	return eng->busy_wall + (eng->state == GS_ENG_RUNNING
					 ? gpu->q->now - eng->run_start
					 : 0) +
	       gs_shared_active_now(gpu);
}
