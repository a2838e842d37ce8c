/* The series.csv samples of a run: every task's cumulative figures at
 * every sample time. The simulation thread only reads them into a block
 * (base/series.h); with a series sink (sim_options.h) full blocks go to
 * a thread that appends them to the compact series and writes series.csv
 * while the run goes on (sim/results/series_stream.h), else each sample
 * is appended here as it is taken. At 65,536 tasks appending the two
 * million rows on the simulation thread was a twentieth of its run
 * (issue 20). */
#include <glib.h>
#include <string.h>

#include "sim/host/sim_internal.h"

/* A command running on an engine at a sample: its task (by index) and
 * the work it has done so far, not yet in the task's gpu_time. */
struct running_work {
	uint32_t task;
	gs_time_t work;
};

/* The commands running now on the engines of every GPU, counted for the
 * task that owns each channel when the channel's GPU is the task's (as
 * task_gpu_time_in counts them), in task order and, for one task, in
 * engine order; the number of them. */
static uint32_t running_now(const struct gs_sim *sim,
			    struct running_work *run)
{
	uint32_t g, n = 0, i;
	uint8_t k;

	for (g = 0; g < sim->n_gpus; g++) {
		const struct gs_gpu *gpu = sim->gpus[g];

		for (k = 0; k < GS_ENGINE_KINDS; k++) {
			const struct gs_engine *eng = &gpu->engines[k];
			const struct hal_chan *hc;
			const struct gs_task *t;

			if (eng->state != GS_ENG_RUNNING ||
			    !eng->running_chan || !eng->running_chan->owner)
				continue;
			hc = eng->running_chan->owner;
			t = hc->task;
			if (t->gpu != g || t->state == GS_TASK_NOT_STARTED)
				continue;
			run[n].task = (uint32_t)(t - sim->tasks);
			run[n].work = gs_engine_run_work_now(eng);
			/* insertion in task order, after equal tasks */
			for (i = n; i > 0 && run[i - 1].task > run[i].task;
			     i--) {
				struct running_work tmp = run[i - 1];

				run[i - 1] = run[i];
				run[i] = tmp;
			}
			n++;
		}
	}
	return n;
}

/* gs_task_gpu_time_now with t's sim given, so that a series sample reads
 * no more of each task than its figures. */
static gs_time_t task_gpu_time_in(const struct gs_sim *sim,
				  const struct gs_task *t)
{
	gs_time_t total = sim->task_figs[t - sim->tasks].gpu_time;
	const struct gs_gpu *gpu;
	uint32_t i;
	uint8_t k;

	if (t->state == GS_TASK_NOT_STARTED)
		return total;
	gpu = sim->gpus[t->gpu];
	for (k = 0; k < GS_ENGINE_KINDS; k++) {
		const struct gs_engine *eng = &gpu->engines[k];
		const struct hal_chan *hc;

		if (eng->state != GS_ENG_RUNNING || !eng->running_chan)
			continue;
		hc = eng->running_chan->owner;
		if (hc && hc->task == t)
			total += gs_engine_run_work_now(eng);
	}
	/* shared kernels running now (their finished parts are in gpu_time);
	 * with none on the GPU the channels are not read: a series sample
	 * asks this of every task, and at 65,536 tasks their channels'
	 * cache misses were most of its time */
	if (!gpu->shared.running || !gpu->shared.running->len)
		return total;
	/* a task may have more than 255 channels: not an engine-kind index */
	for (i = 0; t->channels_open && i < t->cfg->channels; i++)
		if (t->chans[i].ch->occupancy_pm)
			total += gs_shared_work_now(gpu, t->chans[i].ch);
	return total;
}

/* Here rather than in host.c: it reads the engines and shared kernels
 * running now, as the recording does, and host.c calls the recorder, never
 * the reverse. */
gs_time_t gs_task_gpu_time_now(const struct gs_task *t)
{
	return task_gpu_time_in(t->sim, t);
}

/* Samples a block holds with a sink: about 65,536 rows (1.5 MB), a
 * sample of every task at least, so that handing a block over is rare
 * against the rows it carries. */
#define SERIES_BLOCK_ROWS 65536u

/* The block the next sample goes into: with a sink, a full one is
 * handed over first (with the accounted column as it stands now: rows
 * are written as the last word on it when they are written). */
static struct gs_series_block *sample_block(struct gs_sim *sim)
{
	struct gs_series_sink *sink = sim->opt.series_sink;
	struct gs_series_block *b = sim->sample_block;
	uint32_t cap;

	if (b && b->n_samples < b->cap)
		return b;
	if (!sim->series_names) {
		uint32_t i;

		sim->series_names = g_new(const char *, MAX(sim->n_tasks, 1u));
		for (i = 0; i < sim->n_tasks; i++)
			sim->series_names[i] = sim->tasks[i].name;
	}
	if (b) {
		b->accounts = sim->policy_accounts;
		sink->take(sink, b);
	}
	cap = sink ? MAX(SERIES_BLOCK_ROWS / MAX(sim->n_tasks, 1u), 1u) : 1;
	b = sink ? sink->block(sink, sim->n_tasks, cap)
		 : gs_series_block_new(sim->n_tasks, cap);
	b->names = sim->series_names;
	sim->sample_block = b;
	return b;
}

/* A sample of every task into the next rows of the block. A task's GPU
 * time is its finished work plus what its command running now has done:
 * the running commands are found once per sample (at most one per
 * engine), so each task costs its three figures (struct gs_task_figs,
 * read in order), not a look at its GPU's engines; a task on a GPU with
 * shared kernels running asks task_gpu_time_in, which reads its
 * channels. */
void gs_record_sample(void *ctx, struct gs_event *ev)
{
	struct gs_sim *sim = ctx;
	struct gs_series_block *b = sample_block(sim);
	struct gs_series_base *row = b->rows + (size_t)b->n_samples * b->n_tasks;
	g_autofree struct running_work *run =
		g_new(struct running_work,
		      MAX(sim->n_gpus, 1u) * GS_ENGINE_KINDS);
	g_autofree bool *shared = g_new0(bool, MAX(sim->n_gpus, 1u));
	bool any_shared = false;
	uint32_t i, g, n_run = running_now(sim, run);

	for (g = 0; g < sim->n_gpus; g++) {
		const struct gs_gpu *gpu = sim->gpus[g];

		shared[g] = gpu->shared.running && gpu->shared.running->len;
		any_shared |= shared[g];
	}
	for (i = 0; i < sim->n_tasks; i++) {
		const struct gs_task_figs *f = &sim->task_figs[i];

		row[i].gpu_time_ns = f->gpu_time;
		row[i].accounted_gpu_time_ns = f->accounted;
		row[i].vtime_ns = f->vtime;
	}
	/* the task itself is read only on a GPU with shared kernels running:
	 * its time then counts its running commands too */
	for (i = 0; any_shared && i < sim->n_tasks; i++) {
		const struct gs_task *t = &sim->tasks[i];

		if (t->state != GS_TASK_NOT_STARTED && shared[t->gpu])
			row[i].gpu_time_ns = task_gpu_time_in(sim, t);
	}
	for (i = 0; i < n_run; i++) {
		const struct gs_task *t = &sim->tasks[run[i].task];

		/* (running_now leaves out tasks not started) */
		if (!(any_shared && shared[t->gpu]))
			row[run[i].task].gpu_time_ns += run[i].work;
	}
	b->t[b->n_samples++] = sim->q.now;
	sim->sampled = true;
	sim->last_sample = sim->q.now;
	if (!sim->opt.series_sink) {
		gs_series_append_block(sim->rec->series, b);
		b->n_samples = 0;
	}
	gs_evq_schedule(&sim->q, ev, sim->q.now + sim->sample_interval);
}

bool gs_record_sampled_now(const struct gs_sim *sim)
{
	return sim->sampled && sim->last_sample == sim->q.now;
}

void gs_record_series_hand(struct gs_sim *sim)
{
	struct gs_series_sink *sink = sim->opt.series_sink;
	struct gs_series_block *b = g_steal_pointer(&sim->sample_block);

	if (sink && b && b->n_samples) {
		b->accounts = sim->policy_accounts;
		sink->take(sink, b);
	} else {
		g_free(b);
	}
}

void gs_record_series_end(struct gs_sim *sim)
{
	struct gs_series_sink *sink = sim->opt.series_sink;

	gs_record_series_hand(sim);
	if (!sink)
		return;
	gs_series_free(sim->rec->series);
	sim->rec->series = sink->finish(sink);
	sim->rec->series_sink = g_steal_pointer(&sim->opt.series_sink);
}

void gs_record_series_free(struct gs_sim *sim)
{
	gs_record_series_end(sim);
	g_free(sim->series_names);
	sim->series_names = NULL;
}
