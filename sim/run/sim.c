/* Building and running one simulation (its figures: metrics.c). */
#include <glib.h>
#include <math.h>

#include "base/event_checksum.h"
#include "base/zero_table.h"
#include "sim/host/sim_internal.h"
#include "sim/run/sim.h"

#define PROGRESS_EVERY 65536
/* Periodic invariant checks: a check walks every channel slot and task,
 * so the period grows with them (CHECK_EVENTS_PER_ITEM events per item)
 * to keep its cost a fixed small share of the run (`gpusim bench`
 * measures it), and is never below CHECK_MIN_PERIOD events. */
#ifdef GS_CHECK_INVARIANTS
/* sanitizer builds (make asan): speed matters less than catching a
 * violation close to its cause */
#define CHECK_MIN_PERIOD 4096
#define CHECK_EVENTS_PER_ITEM 1
#else
#define CHECK_MIN_PERIOD 65536
#define CHECK_EVENTS_PER_ITEM 64
#endif
/* series.csv stays below this many rows however many tasks there are */
#define MAX_SERIES_ROWS 2000000ULL

static void on_stop(void *ctx, struct gs_event *ev)
{
	struct gs_sim *sim = ctx;
	(void)ev;

	sim->stopped = true;
}

static void make_gpus(struct gs_sim *sim)
{
	struct gs_gpu_hooks hooks = {
		.ctx = sim,
		.cmd_start = gs_host_cmd_start,
		.cmd_complete = gs_host_cmd_complete,
		.ring_space = gs_host_ring_space,
		.status_change = gs_hal_status_change,
		/* spans are the timeline's alone (their GPU time comes
		 * through .work): no call per span without it */
		.span = sim->opt.timeline ? gs_record_span : NULL,
		.work = gs_record_work,
	};
	uint32_t i;

	sim->n_gpus = sim->sc->n_gpus ? sim->sc->n_gpus : 1;
	sim->gpus = g_new0(struct gs_gpu *, sim->n_gpus);
	for (i = 0; i < sim->n_gpus; i++)
		sim->gpus[i] = gs_gpu_new(&sim->sc->gpu, i, &sim->q, &hooks);
}

/* How deep p's loops nest: the loop stack its tasks need. The program
 * is structured (each END_LOOP closes the innermost LOOP, and a repeat
 * jumps back inside its LOOP), so a task's stack is never deeper when it
 * runs than the loops nest here. */
static uint32_t loop_nesting(const struct gs_program *p)
{
	uint32_t i, depth = 0, most = 0;

	for (i = 0; i < p->n_steps; i++) {
		if (p->steps[i].op == GS_OP_LOOP)
			most = MAX(most, ++depth);
		else if (p->steps[i].op == GS_OP_END_LOOP && depth)
			depth--;
	}
	return most;
}

static void make_tasks(struct gs_sim *sim)
{
	const struct gs_scenario *sc = sim->sc;
	uint32_t d, r, n = 0, next_gpu = 0;
	gsize chans = 0, loops = 0;

	for (d = 0; d < sc->n_tasks; d++) {
		n += sc->tasks[d].count;
		chans += (gsize)sc->tasks[d].count * sc->tasks[d].channels;
		loops += (gsize)sc->tasks[d].count *
			 loop_nesting(&sc->tasks[d].program);
	}
	sim->n_tasks = n;
	/* a reference run's samples would be read by nobody: a log of no
	 * owners drops each (base/latency.h) and its statistics are empty */
	if (sim->opt.reference)
		gs_latency_log_init_mode(&sim->latency, 0, GS_LATENCY_KINDS,
					 true);
	else
		gs_latency_log_init(&sim->latency, n, GS_LATENCY_KINDS);
	sim->tasks = g_new0(struct gs_task, n ? n : 1);
	/* added to and checked before written: base/zero_table.h */
	sim->task_figs = gs_zeroed_written(sizeof(*sim->task_figs) *
					   (n ? n : 1));
	sim->task_chans = gs_zeroed_written(sizeof(*sim->task_chans) *
					    (chans ? chans : 1));
	sim->loop_stacks = g_new0(uint32_t, loops ? loops : 1);
	sim->task_names = g_string_chunk_new(4096);
	n = 0;
	chans = 0;
	loops = 0;
	for (d = 0; d < sc->n_tasks; d++) {
		uint32_t nesting = loop_nesting(&sc->tasks[d].program);

		for (r = 0; r < sc->tasks[d].count; r++, n++) {
			struct gs_task *t = &sim->tasks[n];

			gs_task_init(sim, t, d, r, &sim->task_chans[chans]);
			t->loop_left = &sim->loop_stacks[loops];
			loops += nesting;
			chans += sc->tasks[d].channels;
			/* Placement: as configured, else round-robin. */
			if (sc->tasks[d].gpu != GS_GPU_AUTO)
				t->gpu = sc->tasks[d].gpu;
			else
				t->gpu = next_gpu++ % sim->n_gpus;
			gs_evq_schedule(&sim->q, &t->ev, sc->tasks[d].start);
		}
	}
	sim->live_tasks = n;
}

static uint64_t check_period(const struct gs_sim *sim)
{
	uint64_t items = sim->n_tasks;
	uint32_t i;

	for (i = 0; i < sim->n_gpus; i++)
		items += sim->gpus[i]->cfg.max_channels;
	return MAX(CHECK_MIN_PERIOD, items * CHECK_EVENTS_PER_ITEM);
}

struct gs_sim *gs_sim_new(const struct gs_scenario *sc,
			  const struct gs_sim_options *opt, GError **error)
{
	struct gs_sim *sim = g_new0(struct gs_sim, 1);
	uint64_t rows;

	sim->sc = sc;
	if (opt)
		sim->opt = *opt;
	gs_evq_init(&sim->q);
	sim->event_checksum = GS_EVENT_CHECKSUM_INIT;
	sim->rec = g_new0(struct gs_results, 1);
	gs_results_init(sim->rec);
	gs_record_init(sim);
	make_gpus(sim);
	gs_node_init(sim);
	gs_hal_prepare(sim);
	make_tasks(sim);

	sim->invariant_period = check_period(sim);
	sim->next_check = sim->invariant_period;
	gs_event_init(&sim->stop_ev, GS_EVC_STOP, on_stop, sim);
	gs_evq_schedule(&sim->q, &sim->stop_ev, sc->duration);
	sim->sample_interval = sc->output.series_interval ?
			       sc->output.series_interval : sc->duration / 100;
	rows = sim->n_tasks ? (sc->duration / (sim->sample_interval ?
					       sim->sample_interval : 1) + 1) *
			      sim->n_tasks : 0;
	if (rows > MAX_SERIES_ROWS)
		sim->sample_interval = sc->duration /
				       (MAX_SERIES_ROWS / sim->n_tasks);
	if (!sim->sample_interval)
		sim->sample_interval = 1;
	gs_event_init(&sim->sample_ev, GS_EVC_SAMPLE, gs_record_sample, sim);
	gs_evq_schedule(&sim->q, &sim->sample_ev, 0);

	if (!gs_hal_start(sim, error)) {
		gs_sim_free(sim);
		return NULL;
	}
	return sim;
}

void gs_sim_teardown(struct gs_sim *sim)
{
	uint32_t i;

	if (sim->torn_down)
		return;
	sim->torn_down = true;
	for (i = 0; sim->sched.ops && i < sim->n_tasks; i++)
		gs_task_teardown(&sim->tasks[i]);
	gs_hal_stop(sim);
	for (i = 0; i < sim->n_tasks; i++)
		gs_task_destroy(&sim->tasks[i]);
	for (i = 0; i < sim->n_gpus; i++)
		gs_gpu_free(sim->gpus[i]);
	g_free(sim->gpus);
	sim->gpus = NULL;
	sim->n_gpus = 0;
	gs_evq_destroy(&sim->q);
	g_free(sim->task_chans);
	sim->task_chans = NULL;
}

void gs_sim_free(struct gs_sim *sim)
{
	if (!sim)
		return;
	/* first: a series sink's thread may read the tasks' names */
	gs_record_series_free(sim);
	gs_sim_teardown(sim);
	gs_node_free(sim);
	gs_latency_log_free(&sim->latency);
	g_free(sim->tasks);
	g_free(sim->task_figs);
	g_free(sim->loop_stacks);
	if (sim->task_names)
		g_string_chunk_free(sim->task_names);
	gs_record_free(sim);
	gs_results_clear(sim->rec);
	g_free(sim->rec);
	g_free(sim->violation);
	g_free(sim->policy_warning);
	g_free(sim);
}

struct gs_evq *gs_sim_queue(struct gs_sim *sim)
{
	return &sim->q;
}

/* The first violation is kept and the run goes on to its end, so its
 * results are complete; later checks would only repeat it. */
static void check_now(struct gs_sim *sim)
{
	sim->next_check = sim->q.dispatched + sim->invariant_period;
	if (sim->violation)
		return;
	sim->invariant_checks++;
	sim->violation = gs_sim_check_invariants(sim);
	sim->checked_at = sim->q.now;
}

void gs_sim_run(struct gs_sim *sim, bool *capped)
{
	uint64_t cap = sim->sc->max_events ? sim->sc->max_events
					   : GS_DEFAULT_MAX_EVENTS;
	uint64_t next_progress = PROGRESS_EVERY;
	if (capped)
		*capped = false;
	while (!sim->stopped) {
		struct gs_event *ev;

		if (sim->q.dispatched >= cap) {
			if (capped)
				*capped = true;
			break;
		}
		ev = gs_evq_pop(&sim->q);
		if (!ev)
			break;
		/* before the handler, which may free the event's owner */
		sim->event_checksum = gs_event_checksum_fold(
			sim->event_checksum, ev->time, (uint8_t)ev->cls);
		gs_evq_run(&sim->q, ev);
		if (sim->q.dispatched >= sim->next_check)
			check_now(sim);
		if (sim->opt.progress && sim->q.dispatched >= next_progress) {
			next_progress += PROGRESS_EVERY;
			sim->opt.progress(sim->opt.progress_ctx, sim->q.now,
					  sim->sc->duration, sim->q.dispatched);
		}
	}
	/* A last sample at the end, unless one was just taken. */
	if (!gs_record_sampled_now(sim))
		gs_record_sample(sim, &sim->sample_ev);
	gs_evq_cancel(&sim->q, &sim->sample_ev);
	check_now(sim);
}

const char *gs_sim_invariant_violation(const struct gs_sim *sim)
{
	return sim->violation;
}

uint64_t gs_sim_invariant_checks(const struct gs_sim *sim)
{
	return sim->invariant_checks;
}
