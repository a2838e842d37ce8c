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

/* Rows a block holds: 16,384 (512 KB), so that at 65,536 tasks the
 * blocks in use (gs_series_stream_max_blocks: a sample's four and one)
 * hold 2.5 MB, not the 6 MB of a block per sample and two more, and a
 * block is still handed over once in many rows. */
#define SERIES_BLOCK_ROWS 16384u

/* The block with room for the next row, of task `task`: a full one is
 * handed to the sink first (with the accounted column as it stands now:
 * rows are written as the last word on it when they are written), or,
 * without a sink, its rows appended to the series and the block used
 * again. */
static G_GNUC_NO_INLINE struct gs_series_block *
block_for_row(struct gs_sim *sim, uint32_t task)
{
	struct gs_series_sink *sink = sim->opt.series_sink;
	struct gs_series_block *b = sim->sample_block;

	if (!sim->series_names) {
		uint32_t i;

		sim->series_names = g_new(const char *, MAX(sim->n_tasks, 1u));
		for (i = 0; i < sim->n_tasks; i++)
			sim->series_names[i] = sim->tasks[i].name;
	}
	if (b && !sink) {
		gs_series_append_block(sim->rec->series, b);
	} else if (b) {
		b->accounts = sim->policy_accounts;
		sink->take(sink, b);
		b = NULL;
	}
	if (!b)
		b = sink ? sink->block(sink, sim->n_tasks, SERIES_BLOCK_ROWS)
			 : gs_series_block_new(sim->n_tasks,
					       SERIES_BLOCK_ROWS);
	b->n_rows = 0;
	b->first = task;
	b->names = sim->series_names;
	sim->sample_block = b;
	return b;
}

/* A task's figures are a series row as they stand: the fast path below
 * copies them in bulk. */
G_STATIC_ASSERT(sizeof(struct gs_task_figs) == sizeof(struct gs_series_base));
G_STATIC_ASSERT(G_STRUCT_OFFSET(struct gs_task_figs, gpu_time) ==
		G_STRUCT_OFFSET(struct gs_series_base, gpu_time_ns));
G_STATIC_ASSERT(G_STRUCT_OFFSET(struct gs_task_figs, accounted) ==
		G_STRUCT_OFFSET(struct gs_series_base, accounted_gpu_time_ns));
G_STATIC_ASSERT(G_STRUCT_OFFSET(struct gs_task_figs, vtime) ==
		G_STRUCT_OFFSET(struct gs_series_base, vtime_ns));

/* The rows of a sample taken while no GPU runs shared kernels: each
 * task's figures as they are, plus the work of its commands running now
 * (run[0..n_run), in task order). A block's run of rows is one copy of
 * the tasks' figures and a fill of the time, then the few running
 * commands added; at 65,536 tasks that is 1.5 MB copied per sample
 * rather than a loop over every task (gs_record_sample's instructions
 * 59 M -> 12 M over a 60 s run), with the same rows. */
static void sample_in_bulk(struct gs_sim *sim, const struct running_work *run,
			   uint32_t n_run)
{
	struct gs_series_block *b = sim->sample_block;
	uint32_t i = 0, next = 0;

	while (i < sim->n_tasks) {
		uint32_t r0, n, k;

		if (!b || b->n_rows == b->cap)
			b = block_for_row(sim, i);
		r0 = b->n_rows;
		n = MIN(b->cap - r0, sim->n_tasks - i);
		memcpy(&b->rows[r0], &sim->task_figs[i],
		       (size_t)n * sizeof(b->rows[0]));
		for (k = 0; k < n; k++)
			b->t[r0 + k] = sim->q.now;
		for (; next < n_run && run[next].task < i + n; next++)
			b->rows[r0 + run[next].task - i].gpu_time_ns +=
				run[next].work;
		b->n_rows += n;
		i += n;
	}
}

/* The rows of a sample taken while some GPU runs shared kernels, task by
 * task: a task on such a GPU asks task_gpu_time_in, which reads its
 * channels; any other counts its running commands (run[0..n_run), in
 * task order) as sample_in_bulk does. */
static void sample_by_task(struct gs_sim *sim, const struct running_work *run,
			   uint32_t n_run, const bool *shared)
{
	struct gs_series_block *b = sim->sample_block;
	uint32_t i, next = 0;

	for (i = 0; i < sim->n_tasks; i++) {
		const struct gs_task_figs *f = &sim->task_figs[i];
		const struct gs_task *t = &sim->tasks[i];
		gs_time_t gpu_time = f->gpu_time;
		uint32_t r;

		if (t->state != GS_TASK_NOT_STARTED && shared[t->gpu]) {
			gpu_time = task_gpu_time_in(sim, t);
			while (next < n_run && run[next].task == i)
				next++;
		}
		while (next < n_run && run[next].task == i)
			gpu_time += run[next++].work;
		if (G_UNLIKELY(!b || b->n_rows == b->cap))
			b = block_for_row(sim, i);
		r = b->n_rows++;
		b->t[r] = sim->q.now;
		b->rows[r] = (struct gs_series_base){
			.gpu_time_ns = gpu_time,
			.accounted_gpu_time_ns = f->accounted,
			.vtime_ns = f->vtime,
		};
	}
}

/* A row of every task into the block, in task order. A task's GPU time
 * is its finished work plus what its command running now has done: the
 * running commands are found once per sample (at most one per engine,
 * in task order), so each task costs its three figures (struct
 * gs_task_figs, read in order), not a look at its GPU's engines; a task
 * on a GPU with shared kernels running asks task_gpu_time_in, which
 * reads its channels. Without a sink the rows are appended to the
 * series at the sample's end. */
void gs_record_sample(void *ctx, struct gs_event *ev)
{
	struct gs_sim *sim = ctx;
	struct gs_series_block *b;
	g_autofree struct running_work *run =
		g_new(struct running_work,
		      MAX(sim->n_gpus, 1u) * GS_ENGINE_KINDS);
	g_autofree bool *shared = g_new0(bool, MAX(sim->n_gpus, 1u));
	bool any_shared = false;
	uint32_t g, n_run = running_now(sim, run);

	for (g = 0; g < sim->n_gpus; g++) {
		const struct gs_gpu *gpu = sim->gpus[g];

		shared[g] = gpu->shared.running && gpu->shared.running->len;
		any_shared |= shared[g];
	}
	if (any_shared)
		sample_by_task(sim, run, n_run, shared);
	else
		sample_in_bulk(sim, run, n_run);
	b = sim->sample_block;
	sim->sampled = true;
	sim->last_sample = sim->q.now;
	if (b && !sim->opt.series_sink) {
		gs_series_append_block(sim->rec->series, b);
		b->n_rows = 0;
		b->first = 0;
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

	if (sink && b && b->n_rows) {
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
