/* Invariants of a simulation that must hold after every event: nothing
 * published is lost, rings are consistent, engines are never busy for more
 * than the time that passed, and the tasks' ground-truth GPU time is
 * exactly what the engines ran. Checked at the end of test runs and, in
 * builds with GS_CHECK_INVARIANTS (make asan), every few thousand events. */
#include <glib.h>

#include "gpu_model/ring.h"
#include "sim/sim_internal.h"

static char *check_channel(const struct gs_channel *ch)
{
	uint32_t queued = gs_ring_distance(ch->get, ch->put_visible,
					   ch->entries);
	uint32_t used = gs_ring_distance(ch->get, ch->put, ch->entries);

	if (used >= ch->entries || queued > used)
		return g_strdup_printf("channel %u: GET %u, GP_PUT %u and PUT "
				       "%u have crossed", ch->id, ch->get,
				       ch->put_visible, ch->put);
	if (ch->cmds.len != used)
		return g_strdup_printf("channel %u: %u commands stored for %u "
				       "ring slots in use", ch->id,
				       ch->cmds.len, used);
	if (ch->submitted !=
	    ch->completed + ch->dropped + queued + ch->in_flight)
		return g_strdup_printf(
			"channel %u: %" G_GUINT64_FORMAT " submitted but %"
			G_GUINT64_FORMAT " completed + %" G_GUINT64_FORMAT
			" dropped + %u queued + %u fetched", ch->id,
			ch->submitted, ch->completed, ch->dropped, queued,
			ch->in_flight);
	return NULL;
}

static gs_time_t running_part(const struct gs_engine *eng, gs_time_t now)
{
	return eng->state == GS_ENG_RUNNING ? now - eng->run_start : 0;
}

char *gs_sim_check_invariants(const struct gs_sim *sim)
{
	gs_time_t now = sim->q.now, engines = 0, tasks = 0;
	uint32_t g, i;
	uint8_t k;

	for (g = 0; g < sim->n_gpus; g++) {
		const struct gs_gpu *gpu = sim->gpus[g];

		for (i = 0; i < gpu->cfg.max_channels; i++) {
			const struct gs_channel *ch = &gpu->channels[i];
			char *err;

			if (!ch->open && !ch->in_flight)
				continue;
			err = check_channel(ch);
			if (err)
				return err;
		}
		for (k = 0; k < GS_ENGINE_KINDS; k++) {
			const struct gs_engine *eng = &gpu->engines[k];
			gs_time_t busy = eng->busy_time + running_part(eng, now);

			if (busy + eng->switch_time > now)
				return g_strdup_printf(
					"GPU %u engine %u busy %" G_GUINT64_FORMAT
					" ns + switching %" G_GUINT64_FORMAT
					" ns in %" G_GUINT64_FORMAT " ns", g, k,
					busy, eng->switch_time, now);
			engines += busy;
		}
		engines += gs_shared_work_now(gpu, NULL);
		if (gs_shared_work_now(gpu, NULL) > now)
			return g_strdup_printf("GPU %u: shared kernels used %"
					       G_GUINT64_FORMAT " ns of GPU time in %"
					       G_GUINT64_FORMAT " ns", g,
					       gs_shared_work_now(gpu, NULL), now);
	}
	for (i = 0; i < sim->n_tasks; i++)
		tasks += gs_task_gpu_time_now(&sim->tasks[i]);
	if (tasks != engines)
		return g_strdup_printf("tasks' GPU time %" G_GUINT64_FORMAT
				       " ns, engines ran %" G_GUINT64_FORMAT
				       " ns", tasks, engines);
	return NULL;
}
