/* Building, running and measuring one simulation. */
#include <glib.h>
#include <math.h>

#include "sim/sim_internal.h"

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
		.cmd_complete = gs_host_cmd_complete,
		.ring_space = gs_host_ring_space,
		.status_change = gs_hal_status_change,
		.span = gs_record_span,
		.shared_work = gs_record_work,
	};
	uint32_t i;

	sim->n_gpus = sim->sc->n_gpus ? sim->sc->n_gpus : 1;
	sim->gpus = g_new0(struct gs_gpu *, sim->n_gpus);
	for (i = 0; i < sim->n_gpus; i++)
		sim->gpus[i] = gs_gpu_new(&sim->sc->gpu, i, &sim->q, &hooks);
}

static void make_tasks(struct gs_sim *sim)
{
	const struct gs_scenario *sc = sim->sc;
	uint32_t d, r, n = 0, next_gpu = 0;

	for (d = 0; d < sc->n_tasks; d++)
		n += sc->tasks[d].count;
	sim->n_tasks = n;
	sim->tasks = g_new0(struct gs_task, n ? n : 1);
	n = 0;
	for (d = 0; d < sc->n_tasks; d++) {
		for (r = 0; r < sc->tasks[d].count; r++, n++) {
			struct gs_task *t = &sim->tasks[n];

			gs_task_init(sim, t, n, d, r);
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

void gs_sim_free(struct gs_sim *sim)
{
	uint32_t i;

	if (!sim)
		return;
	for (i = 0; sim->sched.ops && i < sim->n_tasks; i++)
		gs_task_teardown(&sim->tasks[i]);
	gs_hal_stop(sim);
	for (i = 0; i < sim->n_tasks; i++)
		gs_task_destroy(&sim->tasks[i]);
	for (i = 0; i < sim->n_gpus; i++)
		gs_gpu_free(sim->gpus[i]);
	gs_node_free(sim);
	gs_evq_destroy(&sim->q);
	g_free(sim->gpus);
	g_free(sim->tasks);
	if (sim->tracks)
		g_hash_table_destroy(sim->tracks);
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
		if (sim->q.dispatched >= cap) {
			if (capped)
				*capped = true;
			break;
		}
		if (!gs_evq_step(&sim->q))
			break;
		if (sim->q.dispatched >= sim->next_check)
			check_now(sim);
		if (sim->opt.progress && sim->q.dispatched >= next_progress) {
			next_progress += PROGRESS_EVERY;
			sim->opt.progress(sim->opt.progress_ctx, sim->q.now,
					  sim->sc->duration, sim->q.dispatched);
		}
	}
	/* A last sample at the end, unless one was just taken. */
	if (!sim->rec->series->len ||
	    g_array_index(sim->rec->series, struct gs_series_point,
			  sim->rec->series->len - 1).t != sim->q.now)
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

static const char *vm_name(const struct gs_scenario *sc, int32_t vm)
{
	return vm >= 0 ? sc->vms[vm].name : NULL;
}

/* Energy from the power model: active power while the compute cores are
 * in use (a command running at the end included), idle power otherwise.
 * mW x ns = 1e-12 J. */
static double energy_joules(const struct gs_sim *sim, gs_time_t elapsed)
{
	double j = 0;
	uint32_t i;

	for (i = 0; i < sim->n_gpus; i++) {
		const struct gs_gpu *g = sim->gpus[i];
		gs_time_t busy = gs_gpu_compute_active_now(g);

		if (busy > elapsed)
			busy = elapsed;
		j += ((double)g->cfg.active_mw * (double)busy +
		      (double)g->cfg.idle_mw * (double)(elapsed - busy)) * 1e-12;
	}
	return j;
}

/* Each task's share of the GPU by the VM tree (Fleig's formula 3.1 with
 * user weights, as policies/vmtree.h): every node splits its share among
 * its children with tasks in proportion to their weights. Without VMs,
 * the task's own weight. */
static void tree_weights(const struct gs_sim *sim, struct gs_results *r)
{
	const struct gs_scenario *sc = sim->sc;
	uint32_t n = sc->n_vms, i;
	/* index n is the host */
	g_autofree double *sum = g_new0(double, n + 1);
	g_autofree double *share = g_new0(double, n + 1);
	g_autofree bool *used = g_new0(bool, n + 1);

	for (i = 0; i < sim->n_tasks; i++)
		r->tasks[i].fair_weight = sim->tasks[i].cfg->weight;
	if (!n)
		return;
	for (i = 0; i < sim->n_tasks; i++) {
		int32_t vm = sim->tasks[i].cfg->vm;

		sum[vm < 0 ? n : (uint32_t)vm] += sim->tasks[i].cfg->weight;
		for (; vm >= 0; vm = sc->vms[vm].parent)
			used[vm] = true;
	}
	for (i = 0; i < n; i++) {
		int32_t p = sc->vms[i].parent;

		if (used[i])
			sum[p < 0 ? n : (uint32_t)p] += sc->vms[i].weight;
	}
	share[n] = 1;
	for (i = 0; i < n; i++) {   /* pre-order: parents first */
		uint32_t p = sc->vms[i].parent < 0 ? n
						   : (uint32_t)sc->vms[i].parent;

		if (used[i])
			share[i] = share[p] * sc->vms[i].weight / sum[p];
	}
	for (i = 0; i < sim->n_tasks; i++) {
		int32_t vm = sim->tasks[i].cfg->vm;
		uint32_t p = vm < 0 ? n : (uint32_t)vm;

		r->tasks[i].fair_weight = share[p] *
					  sim->tasks[i].cfg->weight / sum[p];
	}
}

static bool in_subtree(const struct gs_scenario *sc, int32_t vm,
		       int32_t root)
{
	for (; vm >= 0; vm = sc->vms[vm].parent)
		if (vm == root)
			return true;
	return false;
}

/* Per VM: its subtree's share and accounting error, its own scheduler's
 * CPU time, and how long the host's policy kept its channels shadowed
 * (what a scheduler inside it cannot see: its nested interference). */
static void collect_vms(struct gs_sim *sim, struct gs_results *r)
{
	const struct gs_scenario *sc = sim->sc;
	gs_time_t elapsed = sim->q.now;
	uint32_t v, i;

	r->n_vms = sc->n_vms;
	r->vms = g_new0(struct gs_vm_result, sc->n_vms ? sc->n_vms : 1);
	for (v = 0; v < sc->n_vms; v++) {
		struct gs_vm_result *vr = &r->vms[v];
		const struct hal_sched *g = sim->vm_sched[v];
		double err = 0, truth = 0, open = 0, shadowed = 0;

		vr->name = g_strdup(sc->vms[v].name);
		vr->scheduler = g ? g_strdup(g->ops->name) : NULL;
		vr->scheduler_cpu = g && elapsed ? (double)g->cpu /
						   (double)elapsed : 0;
		for (i = 0; i < sim->n_tasks; i++) {
			const struct gs_task *t = &sim->tasks[i];
			const struct gs_task_result *tr = &r->tasks[i];
			gs_time_t o, sh;

			if (!in_subtree(sc, t->cfg->vm, (int32_t)v))
				continue;
			vr->gpu_share += tr->gpu_share;
			err += fabs((double)tr->accounted_gpu_time_ns -
				    (double)tr->gpu_time_ns);
			truth += (double)tr->gpu_time_ns;
			gs_task_chan_times(t, &o, &sh);
			open += (double)o;
			shadowed += (double)sh;
		}
		vr->accounting_error = sim->policy_accounts && truth
					       ? err / truth : NAN;
		vr->host_shadowed = open ? shadowed / open : 0;
	}
}

void gs_sim_collect(struct gs_sim *sim, struct gs_results *r)
{
	const struct gs_scenario *sc = sim->sc;
	gs_time_t elapsed = sim->q.now, busy = 0, total = 0;
	uint64_t acc_err = 0, acc_truth = 0;
	bool accounts = false;
	uint32_t i;
	uint8_t k;

	gs_hal_flush(sim);
	gs_record_close(sim);
	r->config = g_strdup(sc->file);
	r->name = g_strdup(sc->name);
	r->seed = sc->seed;
	r->policy = g_strdup(sc->policy.name);
	r->sim_time_ns = elapsed;
	r->events = sim->q.dispatched;
	r->event_checksum = sim->q.checksum;
	r->invariant_violation = g_strdup(sim->violation);
	r->policy_warnings = sim->policy_warnings;
	r->policy_warning = g_strdup(sim->policy_warning);
	r->n_gpus = sim->n_gpus;
	r->n_tasks = sim->n_tasks;
	r->tasks = g_new0(struct gs_task_result, sim->n_tasks ? sim->n_tasks : 1);

	for (i = 0; i < sim->n_tasks; i++)
		total += gs_task_gpu_time_now(&sim->tasks[i]);
	for (i = 0; i < sim->n_tasks; i++) {
		const struct gs_task *t = &sim->tasks[i];
		struct gs_task_result *tr = &r->tasks[i];
		gs_time_t truth = gs_task_gpu_time_now(t);

		tr->name = g_strdup(t->name);
		tr->vm = g_strdup(vm_name(sc, t->cfg->vm));
		tr->weight = t->cfg->weight;
		tr->gpu = t->gpu;
		tr->rounds = t->rounds;
		tr->round_mean_ns = t->rounds ? (double)t->round_total /
						(double)t->rounds : NAN;
		tr->gpu_time_ns = truth;
		tr->has_accounted = sim->policy_accounts;
		tr->accounted_gpu_time_ns = t->accounted;
		tr->gpu_share = total ? (double)truth / (double)total : 0;
		tr->slowdown = NAN;
		tr->killed = t->killed;
		if (tr->has_accounted) {
			accounts = true;
			acc_err += t->accounted > truth ? t->accounted - truth
							: truth - t->accounted;
			acc_truth += truth;
		}
	}

	for (i = 0; i < sim->n_gpus; i++) {
		/* the compute engine's time and the shared kernels' GPU
		 * time, each with the work in progress at the end, as the
		 * tasks' ground-truth GPU time counts it */
		busy += gs_engine_busy_now(
				&sim->gpus[i]->engines[GS_ENGINE_COMPUTE]) +
			gs_shared_work_now(sim->gpus[i], NULL);
		for (k = 0; k < GS_ENGINE_KINDS; k++)
			r->metrics.ctx_switches +=
				sim->gpus[i]->engines[k].ctx_switches;
	}
	r->metrics.gpu_utilization =
		elapsed ? (double)busy / ((double)elapsed * sim->n_gpus) : 0;
	r->metrics.policy_cpu_overhead =
		elapsed ? (double)sim->policy_cpu / (double)elapsed : 0;
	r->metrics.accounting_error =
		accounts && acc_truth ? (double)acc_err / (double)acc_truth
				      : NAN;
	r->metrics.energy_j = energy_joules(sim, elapsed);
	r->metrics.jain_index = NAN;
	r->metrics.concurrency_efficiency = NAN;
	r->metrics.mean_normalized_time = NAN;
	r->metrics.qos = NAN;
	gs_node_collect(sim, r);
	collect_vms(sim, r);
	tree_weights(sim, r);

	/* The recorder's series, spans and tracks move into r. */
	g_array_append_vals(r->series, sim->rec->series->data,
			    sim->rec->series->len);
	g_array_append_vals(r->tracks, sim->rec->tracks->data,
			    sim->rec->tracks->len);
	g_array_set_size(sim->rec->tracks, 0); /* labels now owned by r */
	g_array_append_vals(r->spans, sim->rec->spans->data,
			    sim->rec->spans->len);
	for (i = 0; i < sim->rec->names->len; i++)
		gs_results_intern(r, g_ptr_array_index(sim->rec->names, i));
	r->timeline_truncated = sim->rec->timeline_truncated;
}
