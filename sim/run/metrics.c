/* The figures of a finished simulation (gs_sim_collect): per task, per
 * VM, per GPU of a node, and the run's metrics. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "base/latency.h"
#include "base/thread_quiet.h"
#include "base/zero_table.h"
#include "sim/host/sim_internal.h"
#include "sim/run/sim.h"

static const char *vm_name(const struct gs_scenario *sc, int32_t vm)
{
	return vm >= 0 ? sc->vms[vm].name : NULL;
}

/* What of a task is read while the simulation is whole: what needs its
 * GPU or channel handles, and what a policy's exit hook could still
 * change through the HAL (the teardown that calls them may come between
 * this and the making of the task's record: gs_sim_collect_and_free).
 * The rest of the record is read from the task's own fields, which only
 * events change. */
struct task_final {
	gs_time_t gpu_time;       /* ground truth, the work running now in */
	uint64_t accounted;
	uint32_t monitored_pm;
	bool has_monitored;
	bool killed;
};

/* Channel time open and shadowed by the host's policy (VM figures). */
struct chan_times {
	gs_time_t open, shadowed;
};

struct finals {
	struct task_final *task;  /* one per task */
	struct chan_times *chan;  /* one per task with VMs, else NULL */
	/* the latency log's length (and its slots') at the end */
	struct gs_latency_mark latency;
};

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

/* Per VM, what its own scheduler did: its name and CPU time (read while
 * the schedulers are alive: gs_hal_stop frees them). */
static void collect_vm_schedulers(struct gs_sim *sim, struct gs_results *r)
{
	const struct gs_scenario *sc = sim->sc;
	gs_time_t elapsed = sim->q.now;
	uint32_t v;

	r->n_vms = sc->n_vms;
	r->vms = g_new0(struct gs_vm_result, sc->n_vms ? sc->n_vms : 1);
	for (v = 0; v < sc->n_vms; v++) {
		struct gs_vm_result *vr = &r->vms[v];
		const struct hal_sched *g = sim->vm_sched[v];

		vr->name = g_strdup(sc->vms[v].name);
		vr->scheduler = g ? g_strdup(g->ops->name) : NULL;
		vr->scheduler_cpu = g && elapsed ? (double)g->cpu /
						   (double)elapsed : 0;
	}
}

/* Per VM, of its subtree's tasks: their share and accounting error, and
 * how long the host's policy kept their channels shadowed (what a
 * scheduler inside it cannot see: its nested interference). */
static void collect_vm_tasks(const struct gs_sim *sim, struct gs_results *r,
			     const struct chan_times *chan)
{
	const struct gs_scenario *sc = sim->sc;
	uint32_t v, i;

	for (v = 0; v < sc->n_vms; v++) {
		struct gs_vm_result *vr = &r->vms[v];
		double err = 0, truth = 0, open = 0, shadowed = 0;

		for (i = 0; i < sim->n_tasks; i++) {
			const struct gs_task_result *tr = &r->tasks[i];

			if (!in_subtree(sc, sim->tasks[i].cfg->vm, (int32_t)v))
				continue;
			vr->gpu_share += tr->gpu_share;
			err += fabs((double)tr->accounted_gpu_time_ns -
				    (double)tr->gpu_time_ns);
			truth += (double)tr->gpu_time_ns;
			open += (double)chan[i].open;
			shadowed += (double)chan[i].shadowed;
		}
		vr->accounting_error = sim->policy_accounts && truth
					       ? err / truth : NAN;
		vr->host_shadowed = open ? shadowed / open : 0;
	}
}

const char *const gs_estimate_kind_names[GS_ESTIMATE_KINDS] = {
	"class", "texture", "swap", "vertices", "bytes",
};
_Static_assert(GS_ESTIMATE_KINDS == HAL_EST_KINDS, "one name per kind");

/* GERM's figures (Dwarakinath 2008): Utime (6.2), over the tasks' ground
 * truth GPU times, each divided by its fair weight so that a weighted
 * task's larger share is not counted as unfairness (with equal weights it
 * is the thesis's formula). */
static void collect_utime(struct gs_results *r)
{
	double tmax = 0, tmin = 0, sum = 0;
	uint32_t i;

	for (i = 0; i < r->n_tasks; i++) {
		const struct gs_task_result *tr = &r->tasks[i];
		double t = tr->fair_weight > 0
				   ? (double)tr->gpu_time_ns / tr->fair_weight
				   : 0;

		if (!i || t > tmax)
			tmax = t;
		if (!i || t < tmin)
			tmin = t;
		sum += t;
	}
	r->metrics.utime = r->n_tasks >= 2 && sum > 0 ? (tmax - tmin) / sum
						       : NAN;
}

/* GERM 6.4: the accuracy of the policy's estimates per heuristic. */
static void collect_estimates(const struct gs_sim *sim, struct gs_results *r)
{
	uint32_t i;

	for (i = 0; i < GS_ESTIMATE_KINDS; i++) {
		const struct gs_estimate_stats *st = &sim->estimates[i];
		struct gs_estimate_result *er = &r->metrics.estimates[i];

		er->n = st->n;
		er->mean_error = st->n ? st->sum_error / (double)st->n : NAN;
		er->max_error = st->n ? st->max_error : NAN;
	}
}

static void put_task_latency(void *ctx, uint32_t task, uint32_t kind,
			     const struct gs_latency_stats *st)
{
	struct gs_task_result *tr = &((struct gs_results *)ctx)->tasks[task];

	if (kind == GS_LATENCY_ROUND)
		tr->round = *st;
	else if (kind == GS_LATENCY_WAIT)
		tr->wait = *st;
}

/* Below this many samples a second thread costs more than it saves. */
#define LATENCY_THREAD_MIN_LOG 65536

/* Each task's round times and job waits (base/latency.h: a slot's
 * samples sorted where they are, or a part of the run's log grouped),
 * over the samples before the mark: the run's, not its teardown's. The
 * tasks are taken a unit at a time (gs_latency_log_unit: a part of the
 * log, half of a log of one part, or one task in slot mode) by two
 * threads in turn, each writing only its units' records' round and wait
 * (fields of their own), so the figures are what one thread gives. The
 * second thread starts before the task records are made and takes units
 * until this one, done with the records, takes the rest with it: at
 * 65,536 tasks the records take 6-14 ms, in which the other thread does
 * a third of the 64 units, where halves fixed in advance left it idle
 * at the end for that long. At 16 tasks each task's hundred thousand
 * samples to sort are a unit. */
struct latencies {
	const struct gs_sim *sim;
	struct gs_results *r;
	const struct gs_latency_mark *mark;
	uint32_t unit, n_units;
	gint next_unit;           /* the next unit to take (atomic) */
	GThread *thread;
};

static gpointer take_latency_units(gpointer data)
{
	struct latencies *l = data;
	struct gs_latency_room room = { 0 };
	uint32_t n_tasks = l->sim->n_tasks, u;

	while ((u = (uint32_t)g_atomic_int_add(&l->next_unit, 1)) <
	       l->n_units) {
		uint32_t first = u * l->unit;

		gs_latency_log_stats_in(&l->sim->latency, l->mark,
					GS_LATENCY_KINDS, first,
					MIN(n_tasks - first, l->unit) + first,
					&room, put_task_latency, l->r);
	}
	gs_latency_room_free(&room);
	return NULL;
}

static void latencies_start(const struct gs_sim *sim, struct gs_results *r,
			    const struct gs_latency_mark *mark,
			    struct latencies *l)
{
	uint32_t unit = gs_latency_log_unit(&sim->latency);

	*l = (struct latencies){ .sim = sim, .r = r, .mark = mark,
				 .unit = unit };
	/* in 64 bits: n_tasks + unit - 1 may pass 2^32 */
	l->n_units = (uint32_t)(((uint64_t)sim->n_tasks + unit - 1) / unit);
	if (l->n_units < 2 || mark->n < LATENCY_THREAD_MIN_LOG)
		return;
	l->thread = gs_thread_new_quiet("gpusim-collect", take_latency_units,
					l);
}

static void latencies_finish(struct latencies *l)
{
	take_latency_units(l);
	if (l->thread)
		g_thread_join(l->thread);
}

/* *from's elements appended to *to, leaving *from empty. Into an empty
 * *to (always so from gs_run_scenario) the arrays are swapped: a
 * timeline's million spans are not copied, nor held twice at the peak. */
static void move_array(GArray **to, GArray **from)
{
	GArray *empty = *to;

	if (empty->len == 0) {
		*to = *from;
		*from = empty;
		return;
	}
	g_array_append_vals(*to, (*from)->data, (*from)->len);
	g_array_set_size(*from, 0);
}

/* The recorder's spans and tracks move into r (before an exit hook
 * could add to them). */
static void move_record(struct gs_sim *sim, struct gs_results *r)
{
	uint32_t i;

	g_array_append_vals(r->tracks, sim->rec->tracks->data,
			    sim->rec->tracks->len);
	g_array_set_size(sim->rec->tracks, 0); /* labels now owned by r */
	move_array(&r->spans, &sim->rec->spans);
	/* The sink goes with the results, which end it: spans the teardown
	 * still records (channels closed with work on them) must not reach
	 * a stream freed by then (gs_pftrace_run_commit before gs_sim_free). */
	r->span_sink = g_steal_pointer(&sim->opt.span_sink);
	move_array(&r->cmd_marks, &sim->rec->cmd_marks);
	g_byte_array_append(r->chunk_order, sim->rec->chunk_order->data,
			    sim->rec->chunk_order->len);
	/* Into an empty table the names move whole, numbers unchanged (at
	 * 65,536 tasks a copy would be a second table at the run's peak). */
	if (!r->names.n) {
		gs_strtab_clear(&r->names);
		r->names = sim->rec->names;
		sim->rec->names = (struct gs_strtab)GS_STRTAB_INIT;
	}
	for (i = 0; i < sim->rec->names.n; i++)
		gs_results_intern(r, gs_strtab_get(&sim->rec->names, i));
	r->timeline_truncated = sim->rec->timeline_truncated;
}

/* What of each task needs the whole simulation, into *f. */
static void read_finals(const struct gs_sim *sim, struct finals *f)
{
	uint32_t i;

	f->task = g_new0(struct task_final, MAX(sim->n_tasks, 1));
	f->chan = sim->sc->n_vms ? g_new0(struct chan_times, sim->n_tasks)
				 : NULL;
	gs_latency_log_mark(&sim->latency, &f->latency);
	for (i = 0; i < sim->n_tasks; i++) {
		const struct gs_task *t = &sim->tasks[i];
		struct task_final *tf = &f->task[i];

		tf->gpu_time = gs_task_gpu_time_now(t);
		tf->accounted = gs_task_figs(t)->accounted;
		tf->monitored_pm = t->monitored_pm;
		tf->has_monitored = t->has_monitored;
		tf->killed = t->killed;
		if (f->chan)
			gs_task_chan_times(t, &f->chan[i].open,
					   &f->chan[i].shadowed);
	}
}

/* The figures that need the whole simulation: the recorder's, the run's
 * own, the GPUs', the VM schedulers', and each task's in *f. */
static void collect_live(struct gs_sim *sim, struct gs_results *r,
			 struct finals *f)
{
	const struct gs_scenario *sc = sim->sc;
	gs_time_t elapsed = sim->q.now, busy = 0;
	uint32_t i;
	uint8_t k;

	gs_hal_flush(sim);
	gs_record_close(sim);
	gs_record_series_hand(sim);
	move_record(sim, r);
	r->config = g_strdup(sc->file);
	r->name = g_strdup(sc->name);
	r->seed = sc->seed;
	r->policy = g_strdup(sc->policy.name);
	r->sim_time_ns = elapsed;
	r->events = sim->q.dispatched;
	r->event_checksum = sim->event_checksum;
	r->invariant_violation = g_strdup(sim->violation);
	r->policy_warnings = sim->policy_warnings;
	r->policy_warning = g_strdup(sim->policy_warning);
	r->n_gpus = sim->n_gpus;
	read_finals(sim, f);
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
	r->metrics.energy_j = energy_joules(sim, elapsed);
	r->metrics.jain_index = NAN;
	r->metrics.concurrency_efficiency = NAN;
	r->metrics.mean_normalized_time = NAN;
	r->metrics.qos = NAN;
	r->metrics.monitor_accuracy = NAN;
	gs_node_collect(sim, r);
	collect_vm_schedulers(sim, r);
	collect_estimates(sim, r);
}

/* Every task's name and VM, copied into one block (r->task_text): at
 * 65,536 tasks a string of its own each was 65,536 allocations here and
 * as many frees with the results, scattered over the heap. */
static void copy_task_text(const struct gs_sim *sim, struct gs_results *r)
{
	const struct gs_scenario *sc = sim->sc;
	size_t size = 0, at = 0, n;
	uint32_t i;

	for (i = 0; i < sim->n_tasks; i++) {
		const char *vm = vm_name(sc, sim->tasks[i].cfg->vm);

		size += strlen(sim->tasks[i].name) + 1 + (vm ? strlen(vm) + 1 : 0);
	}
	r->task_text = g_malloc(MAX(size, 1));
	for (i = 0; i < sim->n_tasks; i++) {
		const char *vm = vm_name(sc, sim->tasks[i].cfg->vm);

		n = strlen(sim->tasks[i].name) + 1;
		r->tasks[i].name = memcpy(r->task_text + at, sim->tasks[i].name,
					  n);
		at += n;
		if (vm) {
			n = strlen(vm) + 1;
			r->tasks[i].vm = memcpy(r->task_text + at, vm, n);
			at += n;
		}
	}
}

/* Each task's record, from *f and the task's own fields (which the
 * teardown leaves as they were), and the figures made of the records. */
static void collect_tasks(const struct gs_sim *sim, struct gs_results *r,
			  const struct finals *f)
{
	const struct gs_scenario *sc = sim->sc;
	gs_time_t total = 0;
	uint64_t acc_err = 0, acc_truth = 0;
	bool accounts = false, node = gs_node_reported(sc);
	struct latencies lat;
	uint32_t i;

	r->n_tasks = sim->n_tasks;
	r->tasks = g_new0(struct gs_task_result, sim->n_tasks ? sim->n_tasks : 1);
	/* every record is written below and by the collecting thread: 13 MB
	 * at 65,536 tasks, 3,200 page faults on the two threads otherwise */
	gs_populate_for_writing(r->tasks, sim->n_tasks * sizeof(*r->tasks));
	latencies_start(sim, r, &f->latency, &lat);
	copy_task_text(sim, r);
	for (i = 0; i < sim->n_tasks; i++)
		total += f->task[i].gpu_time;
	for (i = 0; i < sim->n_tasks; i++) {
		const struct gs_task *t = &sim->tasks[i];
		const struct task_final *tf = &f->task[i];
		struct gs_task_result *tr = &r->tasks[i];
		gs_time_t truth = tf->gpu_time;

		tr->weight = t->cfg->weight;
		tr->gpu = t->gpu;
		tr->rounds = t->rounds;
		tr->round_mean_ns = t->rounds ? (double)t->round_total /
						(double)t->rounds : NAN;
		tr->gpu_time_ns = truth;
		tr->has_accounted = sim->policy_accounts;
		tr->accounted_gpu_time_ns = tf->accounted;
		tr->gpu_share = total ? (double)truth / (double)total : 0;
		tr->slowdown = NAN;
		tr->fair_share = NAN;
		tr->fair_slowdown = NAN;
		tr->killed = tf->killed;
		if (node) {
			tr->has_monitored = tf->has_monitored;
			tr->monitored_demand = tf->has_monitored
						       ? tf->monitored_pm /
								 1000.0
						       : NAN;
		}
		if (tr->has_accounted) {
			accounts = true;
			acc_err += tf->accounted > truth ? tf->accounted - truth
							 : truth - tf->accounted;
			acc_truth += truth;
		}
	}
	r->metrics.accounting_error =
		accounts && acc_truth ? (double)acc_err / (double)acc_truth
				      : NAN;
	latencies_finish(&lat);
	gs_node_collect_tasks(sim, r);
	collect_vm_tasks(sim, r, f->chan);
	tree_weights(sim, r);
	collect_utime(r);
}

static void finals_free(struct finals *f)
{
	g_free(f->task);
	g_free(f->chan);
	gs_latency_mark_free(&f->latency);
}

/* The series into r, last: with a series sink its thread appends and
 * writes the samples handed over at the collect's start (a sample of
 * every task: 2-3 ms at 65,536 tasks) while the collect goes on, and is
 * waited for only now. */
static void move_series(struct gs_sim *sim, struct gs_results *r)
{
	gs_record_series_end(sim);
	gs_series_move(&r->series, &sim->rec->series);
	gs_series_end_appending(r->series);
	r->series_sink = g_steal_pointer(&sim->rec->series_sink);
}

void gs_sim_collect(struct gs_sim *sim, struct gs_results *r)
{
	struct finals f;

	collect_live(sim, r, &f);
	collect_tasks(sim, r, &f);
	move_series(sim, r);
	finals_free(&f);
}

void gs_sim_collect_and_free(struct gs_sim *sim, struct gs_results *r)
{
	struct finals f;

	collect_live(sim, r, &f);
	gs_sim_teardown(sim);
	collect_tasks(sim, r, &f);
	move_series(sim, r);
	finals_free(&f);
	gs_sim_free(sim);
}
