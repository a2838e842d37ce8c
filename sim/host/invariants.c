/* Invariants of a simulation that must hold after every event, checked at
 * the end of every run and periodically during it (sim.c), in every
 * build:
 *   - time monotonic: simulated time never goes back, nothing is queued
 *     in the past and no engine phase starts in the future;
 *   - rings never cross: GET, GP_PUT and PUT stay ordered on the ring and
 *     the stored commands match the slots in use;
 *   - no command lost: every published command is completed, dropped with
 *     its channel, queued, or fetched; and every fetched one is somewhere
 *     (on an engine, held by the dispatcher, running as a shared kernel or
 *     saved by a preemption);
 *   - engine time <= elapsed: no engine is busy (running plus switching)
 *     for longer than the time that passed, and the compute engine's
 *     commands and the shared kernels together do at most the work of
 *     one GPU (utilisation <= 1);
 *   - GPU time conserved: the tasks' ground-truth GPU time is exactly what
 *     the engines ran;
 *   - no work waits for ever: while channels hold published work, the
 *     dispatcher is due to run (queued, or something on the GPU whose end
 *     wakes it), and no channel with work is passed over by more moves of
 *     the round's front than there were channels ahead of it.
 * A violation is described as: invariant, simulated time, GPU, channel and
 * its task, and what was seen. */
#include <glib.h>
#include <stdarg.h>

#include "gpu_model/ring.h"
#include "sim/host/sim_internal.h"

#define INV_TIME "time monotonic"
#define INV_RING "rings never cross"
#define INV_LOST "no command lost"
#define INV_ENGINE "engine time <= elapsed"
#define INV_CONSERVED "GPU time conserved"
#define INV_WAIT "no work waits for ever"

G_GNUC_PRINTF(5, 6)
static char *violated(const struct gs_sim *sim, const char *invariant,
		      const struct gs_gpu *gpu, const struct gs_channel *ch,
		      const char *fmt, ...)
{
	GString *s = g_string_new(NULL);
	va_list ap;

	g_string_append_printf(s, "invariant '%s' violated at %"
			       G_GUINT64_FORMAT " ns", invariant, sim->q.now);
	if (gpu)
		g_string_append_printf(s, ", GPU %u", gpu->index);
	if (ch) {
		const struct hal_chan *hc = ch->owner;

		g_string_append_printf(s, ", channel %u", ch->id);
		if (hc && hc->task)
			g_string_append_printf(s, " (task %s)", hc->task->name);
		else
			g_string_append(s, " (closed)");
	}
	g_string_append(s, ": ");
	va_start(ap, fmt);
	g_string_append_vprintf(s, fmt, ap);
	va_end(ap);
	return g_string_free(s, FALSE);
}

/* Commands of ch that are fetched and somewhere other than its saved
 * queue: on an engine (loading or running), held by the stalled
 * dispatcher, or running as shared kernels. */
static uint32_t held_by_gpu(const struct gs_gpu *gpu,
			    const struct gs_channel *ch)
{
	uint32_t n = 0;
	guint i;
	uint8_t k;

	for (k = 0; k < GS_ENGINE_KINDS; k++) {
		const struct gs_engine *eng = &gpu->engines[k];

		if (eng->running_chan == ch &&
		    (eng->state == GS_ENG_RUNNING ||
		     eng->state == GS_ENG_SWITCHING))
			n++;
	}
	if (gpu->disp.stalled && gpu->disp.stall_chan == ch)
		n++;
	for (i = 0; i < gpu->shared.running->len; i++)
		n += g_array_index(gpu->shared.running,
				   struct gs_shared_kernel, i).ch == ch;
	return n;
}

static uint32_t held_total(const struct gs_gpu *gpu)
{
	uint32_t n = gpu->disp.stalled + gpu->shared.running->len;
	uint8_t k;

	for (k = 0; k < GS_ENGINE_KINDS; k++)
		n += gpu->engines[k].running_chan &&
		     (gpu->engines[k].state == GS_ENG_RUNNING ||
		      gpu->engines[k].state == GS_ENG_SWITCHING);
	return n;
}

static char *check_channel(const struct gs_sim *sim, const struct gs_gpu *gpu,
			   const struct gs_channel *ch, uint64_t *elsewhere)
{
	uint32_t queued = gs_ring_distance(ch->get, ch->put_visible,
					   ch->entries);
	uint32_t used = gs_ring_distance(ch->get, ch->put, ch->entries);
	uint32_t saved = gs_chan_saved_len(ch);
	uint64_t dropped = ch->dropped;

	if (used >= ch->entries || queued > used)
		return violated(sim, INV_RING, gpu, ch, "GET %u, GP_PUT %u and "
				"PUT %u have crossed", ch->get,
				ch->put_visible, ch->put);
	if (ch->cmds.len != used)
		return violated(sim, INV_RING, gpu, ch, "%u commands stored for "
				"%u ring slots in use", ch->cmds.len, used);
	if (ch->submitted !=
	    ch->completed + dropped + queued + ch->in_flight)
		return violated(sim, INV_LOST, gpu, ch,
			"%" G_GUINT64_FORMAT " submitted but %"
			G_GUINT64_FORMAT " completed + %" G_GUINT64_FORMAT
			" dropped + %u queued + %u fetched", ch->submitted,
			ch->completed, dropped, queued, ch->in_flight);
	if (ch->in_flight < saved)
		return violated(sim, INV_LOST, gpu, ch, "%u commands saved by "
				"preemption but only %u fetched",
				saved, ch->in_flight);
	/* Fetched and not saved: the GPU must hold them. Counted exactly only
	 * where some are, so a check stays one pass over the channels. */
	if (ch->in_flight > saved) {
		uint32_t held = held_by_gpu(gpu, ch);

		if (held != ch->in_flight - saved)
			return violated(sim, INV_LOST, gpu, ch,
					"%u commands fetched, %u saved by "
					"preemption, but %u on the GPU",
					ch->in_flight, saved, held);
		*elsewhere += held;
	}
	return NULL;
}

/* Published work that nothing will fetch: the dispatcher is not queued,
 * and no engine or shared kernel is busy (each of their ends wakes it);
 * or a channel the round's front has moved more often than there were
 * channels in the round when it joined, was last served or was passed
 * with its group's slice spent, i.e. went to the end of the round (the
 * dispatcher's round left it behind). */
static char *check_waiting(const struct gs_sim *sim, const struct gs_gpu *gpu)
{
	const struct gs_dispatcher *d = &gpu->disp;
	const struct gs_channel *ch = d->cursor;
	bool busy = gs_event_queued(&d->ev) || gpu->shared.running->len;
	uint32_t i;
	uint8_t k;

	for (k = 0; k < GS_ENGINE_KINDS; k++)
		busy |= gpu->engines[k].state != GS_ENG_IDLE;
	if ((d->pending || d->stalled) && !busy)
		return violated(sim, INV_WAIT, gpu,
				d->stalled ? d->stall_chan : d->cursor,
				"%u channels with work and %s, but the GPU is "
				"idle and the dispatcher not due to run",
				d->pending, d->stalled ? "a command held" :
				"none held");
	for (i = 0; i < d->pending; i++, ch = ch->rr_next)
		if (d->front_moves - ch->wait_from > ch->wait_bound)
			return violated(sim, INV_WAIT, gpu, ch, "passed over "
					"%" G_GUINT64_FORMAT " times with work "
					"(%u channels were in the round)",
					d->front_moves - ch->wait_from,
					ch->wait_bound);
	return NULL;
}

static char *check_engine(const struct gs_sim *sim, const struct gs_gpu *gpu,
			  const struct gs_engine *eng, gs_time_t *busy)
{
	gs_time_t now = sim->q.now;

	if ((eng->state == GS_ENG_RUNNING && eng->run_start > now) ||
	    (eng->state != GS_ENG_IDLE && eng->state != GS_ENG_RUNNING &&
	     eng->phase_start > now))
		return violated(sim, INV_TIME, gpu, eng->running_chan,
				"engine %u is in a phase that starts in the "
				"future", eng->kind);
	*busy = gs_engine_busy_now(eng);
	if (*busy + eng->switch_time > now)
		return violated(sim, INV_ENGINE, gpu, eng->running_chan,
				"engine %u busy %" G_GUINT64_FORMAT " ns + "
				"switching %" G_GUINT64_FORMAT " ns in %"
				G_GUINT64_FORMAT " ns", eng->kind, *busy,
				eng->switch_time, now);
	return NULL;
}

static char *check_gpu(const struct gs_sim *sim, const struct gs_gpu *gpu,
		       gs_time_t *engines)
{
	gs_time_t now = sim->q.now, shared = gs_shared_work_now(gpu, NULL);
	gs_time_t cores;
	uint64_t elsewhere = 0;
	uint32_t i;
	uint8_t k;
	char *err;

	for (i = 0; i < gpu->slots_touched; i++) {
		const struct gs_channel *ch = &gpu->channels[i];

		if (!ch->open && !ch->in_flight)
			continue;
		err = check_channel(sim, gpu, ch, &elsewhere);
		if (err)
			return err;
	}
	/* Something on the GPU for a channel that does not count it fetched
	 * (a command duplicated, or run for a closed channel). */
	if (elsewhere != held_total(gpu))
		return violated(sim, INV_LOST, gpu, NULL, "%u commands on the "
				"GPU, %" G_GUINT64_FORMAT " counted fetched by "
				"their channels", held_total(gpu), elsewhere);
	for (k = 0; k < GS_ENGINE_KINDS; k++) {
		gs_time_t busy = 0;

		err = check_engine(sim, gpu, &gpu->engines[k], &busy);
		if (err)
			return err;
		*engines += busy;
	}
	cores = gs_engine_busy_now(&gpu->engines[GS_ENGINE_COMPUTE]) + shared;
	if (cores > now)
		return violated(sim, INV_ENGINE, gpu, NULL, "compute commands "
				"and shared kernels used %" G_GUINT64_FORMAT
				" ns of the cores in %" G_GUINT64_FORMAT " ns "
				"(shared kernels %" G_GUINT64_FORMAT " ns)",
				cores, now, shared);
	*engines += shared;
	return check_waiting(sim, gpu);
}

char *gs_sim_check_invariants(const struct gs_sim *sim)
{
	gs_time_t now = sim->q.now, engines = 0, tasks = 0;
	uint32_t g, i;
	char *err;

	if (now < sim->checked_at)
		return violated(sim, INV_TIME, NULL, NULL, "time went back from "
				"%" G_GUINT64_FORMAT " ns", sim->checked_at);
	if (gs_evq_peek_time(&sim->q) < now)
		return violated(sim, INV_TIME, NULL, NULL, "an event is queued "
				"at %" G_GUINT64_FORMAT " ns, in the past",
				gs_evq_peek_time(&sim->q));
	for (g = 0; g < sim->n_gpus; g++) {
		err = check_gpu(sim, sim->gpus[g], &engines);
		if (err)
			return err;
	}
	for (i = 0; i < sim->n_tasks; i++)
		tasks += gs_task_gpu_time_now(&sim->tasks[i]);
	if (tasks != engines)
		return violated(sim, INV_CONSERVED, NULL, NULL, "tasks' GPU "
				"time %" G_GUINT64_FORMAT " ns, engines ran %"
				G_GUINT64_FORMAT " ns", tasks, engines);
	return NULL;
}
