/* Kernels that share the compute cores (gpu.h, struct gs_shared): the
 * node model of DCUDA, whose backend runs every application's kernels in
 * one context per GPU so that they execute side by side, each occupying
 * part of the cores. Below full occupancy nobody slows down; beyond it
 * every running kernel progresses at 1000 / (sum of occupancies) of full
 * speed, so the GPU's cores are shared in proportion to demand.
 *
 * A command of the compute engine (another context's kernel, which fills
 * the GPU when alone) is one more user of the cores, with occupancy 1000:
 * beside shared kernels it slows down and slows them down alike
 * (engine.c), so the work done never exceeds the time that passed.
 *
 * Progress is applied lazily: at every start or completion the time since
 * the last change is charged to every running kernel at the rate that
 * held, and one event waits for the next kernel to finish. */
#include "gpu_model/gpu_internal.h"

static void shared_done(void *ctx, struct gs_event *ev);

void gs_shared_init(struct gs_gpu *gpu)
{
	struct gs_shared *sh = &gpu->shared;

	sh->running = g_array_new(FALSE, FALSE,
				  sizeof(struct gs_shared_kernel));
	gs_event_init(&sh->done_ev, GS_EVC_GPU, shared_done, gpu);
}

void gs_shared_free(struct gs_gpu *gpu)
{
	gs_evq_cancel(gpu->q, &gpu->shared.done_ev);
	g_array_free(gpu->shared.running, TRUE);
}

/* Oversubscribed cores also interfere (caches, memory bandwidth, the
 * block scheduler interleaving more kernels than fit): the loss grows
 * with the overload and reaches the full interference at this much of it,
 * per-mille of one GPU. */
#define INTERFERENCE_RAMP_PM 250

/* per-mille divisor of the progress rate: 1000 up to full occupancy, the
 * demand D beyond, stretched by interference: D (1 + a min(1, (D - 1) /
 * ramp)) with a the interference, in units of one GPU. */
static uint64_t rate_div_of(const struct gs_gpu *gpu)
{
	uint64_t d = gpu->shared.demand_pm + gpu->shared.engine_pm, over;

	if (d <= 1000)
		return 1000;
	over = d - 1000 < INTERFERENCE_RAMP_PM ? d - 1000
					       : INTERFERENCE_RAMP_PM;
	return d + d * over * gpu->cfg.interference_pm /
		   (1000 * INTERFERENCE_RAMP_PM);
}

/* Full-speed time a kernel advanced in dt at the current rate, and the
 * GPU time that is. The same formula serves the lazy views (*_now). */
static gs_time_t progress(const struct gs_gpu *gpu,
			  const struct gs_shared_kernel *k, gs_time_t dt)
{
	gs_time_t p = (gs_time_t)((unsigned __int128)dt * 1000 /
				  rate_div_of(gpu));

	return p < k->left ? p : k->left;
}

static gs_time_t work_of(const struct gs_channel *ch, gs_time_t p)
{
	return (gs_time_t)((unsigned __int128)p * ch->occupancy_pm / 1000);
}

/* Charge the time since the last change to every running kernel. */
static void advance(struct gs_gpu *gpu)
{
	struct gs_shared *sh = &gpu->shared;
	gs_time_t dt = gs_shared_advance_cores(gpu);
	guint i;

	if (!dt || !sh->running->len)
		return;
	if (!sh->engine_pm)
		sh->active_ns += dt;
	for (i = 0; i < sh->running->len; i++) {
		struct gs_shared_kernel *k = &g_array_index(
			sh->running, struct gs_shared_kernel, i);
		gs_time_t p = progress(gpu, k, dt), w = work_of(k->ch, p);

		k->left -= p;
		sh->work_ns += w;
		if (gpu->hooks.work)
			gpu->hooks.work(gpu->hooks.ctx, k->ch, w);
	}
}

/* The next completion at the current rate. */
static void schedule_next(struct gs_gpu *gpu)
{
	struct gs_shared *sh = &gpu->shared;
	gs_time_t first = GS_TIME_NEVER;
	uint64_t div = rate_div_of(gpu);
	guint i;

	for (i = 0; i < sh->running->len; i++) {
		const struct gs_shared_kernel *k = &g_array_index(
			sh->running, struct gs_shared_kernel, i);
		/* smallest dt with dt * 1000 / div >= left (128-bit: a
		 * crowded GPU's divisor times a long kernel) */
		gs_time_t dt = (gs_time_t)(((unsigned __int128)k->left * div +
					    999) / 1000);

		if (dt < first)
			first = dt;
	}
	if (first == GS_TIME_NEVER)
		gs_evq_cancel(gpu->q, &sh->done_ev);
	else
		gs_evq_schedule(gpu->q, &sh->done_ev, gpu->q->now + first);
}

uint64_t gs_shared_rate_div(const struct gs_gpu *gpu)
{
	return rate_div_of(gpu);
}

/* The demand changed: the next completion, and the engine's rate. */
static void cores_changed(struct gs_gpu *gpu)
{
	schedule_next(gpu);
	gpu->notify.engine_rate_changed(&gpu->engines[GS_ENGINE_COMPUTE]);
}

void gs_shared_engine_load_beside(struct gs_gpu *gpu, uint32_t pm)
{
	advance(gpu);
	gpu->shared.engine_pm = pm;
	schedule_next(gpu);
}

void gs_shared_start(struct gs_gpu *gpu, struct gs_channel *ch,
		     const struct gs_cmd *cmd)
{
	struct gs_shared *sh = &gpu->shared;
	struct gs_shared_kernel k = {
		.ch = ch, .cmd = *cmd, .left = cmd->remaining,
		.start = gpu->q->now,
	};

	k.cmd.started = true;
	advance(gpu);
	g_array_append_val(sh->running, k);
	sh->demand_pm += ch->occupancy_pm;
	gpu->engines[GS_ENGINE_COMPUTE].commands++;
	if (!cmd->started && gpu->hooks.cmd_start)
		gpu->hooks.cmd_start(gpu->hooks.ctx, ch, &k.cmd);
	cores_changed(gpu);
}

static void remove_at(struct gs_gpu *gpu, guint i)
{
	struct gs_shared *sh = &gpu->shared;
	struct gs_shared_kernel *k = &g_array_index(
		sh->running, struct gs_shared_kernel, i);

	sh->demand_pm -= k->ch->occupancy_pm;
	if (gs_gpu_span_wanted(gpu, GS_ENGINE_COMPUTE, GS_SPAN_SHARED, k->ch))
		gpu->hooks.span(gpu->hooks.ctx, gpu, GS_ENGINE_COMPUTE,
				GS_SPAN_SHARED, k->ch, k->start, gpu->q->now);
	g_array_remove_index(sh->running, i);
}

static void shared_done(void *ctx, struct gs_event *ev)
{
	struct gs_gpu *gpu = ctx;
	struct gs_shared *sh = &gpu->shared;
	guint i = 0;
	(void)ev;

	advance(gpu);
	while (i < sh->running->len) {
		struct gs_shared_kernel k = g_array_index(
			sh->running, struct gs_shared_kernel, i);

		if (k.left) {
			i++;
			continue;
		}
		remove_at(gpu, i);
		k.ch->completed++;
		k.ch->in_flight--;
		if (k.cmd.flags & GS_CMD_FENCE)
			gs_chan_write_fence(k.ch, k.cmd.serial);
		if (gpu->hooks.cmd_complete)
			gpu->hooks.cmd_complete(gpu->hooks.ctx, k.ch, &k.cmd);
	}
	cores_changed(gpu);
}

/* The channel closes: its running kernels are dropped, what they ran so
 * far stays charged. */
void gs_shared_forget_channel(struct gs_gpu *gpu, struct gs_channel *ch)
{
	struct gs_shared *sh = &gpu->shared;
	guint i = 0;

	if (!ch->occupancy_pm)
		return;
	advance(gpu);
	while (i < sh->running->len) {
		if (g_array_index(sh->running, struct gs_shared_kernel,
				  i).ch != ch) {
			i++;
			continue;
		}
		remove_at(gpu, i);
		ch->dropped++;
		ch->in_flight--;
	}
	cores_changed(gpu);
}

gs_time_t gs_shared_active_now(const struct gs_gpu *gpu)
{
	const struct gs_shared *sh = &gpu->shared;

	return sh->active_ns + (sh->running->len && !sh->engine_pm
					? gpu->q->now - sh->last
					: 0);
}

gs_time_t gs_gpu_cores_used_now(const struct gs_gpu *gpu)
{
	const struct gs_shared *sh = &gpu->shared;

	return (sh->cores_pm_ns +
		(gpu->q->now - sh->last) * gs_shared_cores_pm(sh)) / 1000;
}

gs_time_t gs_shared_work_now(const struct gs_gpu *gpu,
			     const struct gs_channel *ch)
{
	const struct gs_shared *sh = &gpu->shared;
	gs_time_t dt = gpu->q->now - sh->last, w = ch ? 0 : sh->work_ns;
	guint i;

	for (i = 0; i < sh->running->len; i++) {
		const struct gs_shared_kernel *k = &g_array_index(
			sh->running, struct gs_shared_kernel, i);

		if (!ch || k->ch == ch)
			w += work_of(k->ch, progress(gpu, k, dt));
	}
	return w;
}
