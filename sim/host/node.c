/* The multi-GPU node: what each GPU carries (the demand of its resident
 * tasks, integrated into the DCUDA utilisation bands), whether it is
 * awake, task migration between GPUs, and the node power model.
 *
 * A job's demand is declared. Any other task's (throttle, app, script,
 * trace) is measured as dcuda's monitor measures it (policies/node_load.h),
 * but over each 100 ms window rather than since the first launch, so
 * it follows a task's phases: the compute time it launched over that
 * time plus the time it was not blocked on the GPU,
 *
 *     demand = launched / (launched + (window - blocked)),
 *
 * where blocked is the time in waits and on full rings. It is the share of
 * one GPU the task would keep busy alone, and contention does not lower
 * it: two saturating throttles on one GPU read 100% each, 200% together,
 * overloaded, while their busy shares would add up to 100% at most. A
 * window with nothing launched and nothing free (one long wait) keeps the
 * last value. The value of a window applies to the next one.
 *
 * A task is resident on its GPU from its start to its exit. A GPU with
 * no resident task idles; the first task to arrive wakes it. */
#include <glib.h>
#include <math.h>

#include "sim/host/record_hal.h"
#include "sim/host/sim_internal.h"

#define NODE_WINDOW (100 * GS_NS_PER_MS)

static bool measured(const struct gs_task *t)
{
	return !t->cfg->demand_pm;
}

static uint32_t demand_of(const struct gs_task *t)
{
	const struct gs_task_node *tn = gs_task_node(t);

	if (!measured(t))
		return t->cfg->demand_pm;
	return tn ? tn->measured_pm : 0;
}

bool gs_node_reported(const struct gs_scenario *sc)
{
	uint32_t i;

	if (sc->n_gpus > 1 || sc->power.set)
		return true;
	for (i = 0; i < sc->n_tasks; i++)
		if (sc->tasks[i].demand_pm)
			return true;
	return false;
}

/* The measured task's demand over the window just ended. */
static void measure(struct gs_task *t)
{
	struct gs_node_gpu *g = &t->sim->node.gpu[t->gpu];
	struct gs_task_node *tn = gs_task_node(t);
	gs_time_t now = t->sim->q.now, sync = gs_task_sync_now(t);
	gs_time_t launched = tn->launched_ns - tn->win_launched;
	gs_time_t blocked = sync - tn->win_sync, wall = now - tn->win_at;
	gs_time_t free_ns = wall > blocked ? wall - blocked : 0;
	uint64_t pm;

	tn->win_at = now;
	tn->win_launched = tn->launched_ns;
	tn->win_sync = sync;
	if (!launched && !free_ns)
		return;
	pm = (uint64_t)((unsigned __int128)launched * 1000 /
			(launched + free_ns));
	if (pm > 1000)
		pm = 1000;
	g->demand_pm += (uint32_t)pm - tn->measured_pm;
	tn->measured_pm = (uint32_t)pm;
}

static void on_window(void *ctx, struct gs_event *ev)
{
	struct gs_sim *sim = ctx;
	uint32_t i;

	gs_node_advance(sim);
	for (i = 0; i < sim->n_tasks; i++)
		if (sim->tasks[i].resident && measured(&sim->tasks[i]))
			measure(&sim->tasks[i]);
	gs_evq_schedule(&sim->q, ev, sim->q.now + NODE_WINDOW);
}

void gs_node_init(struct gs_sim *sim)
{
	const struct gs_scenario *sc = sim->sc;
	bool any = false;
	uint32_t i;
	gsize tasks = 0;

	sim->node.gpu = g_new0(struct gs_node_gpu, sim->n_gpus);
	/* before the tasks are made (sim.c): they look it up */
	for (i = 0; i < sc->n_tasks; i++)
		tasks += sc->tasks[i].count;
	sim->task_nodes = gs_node_reported(sc)
		? g_new0(struct gs_task_node, tasks ? tasks : 1) : NULL;
	sim->node.last = 0;
	sim->node.imbalanced_ns = 0;
	for (i = 0; i < sc->n_tasks; i++)
		any = any || !sc->tasks[i].demand_pm;
	gs_event_init(&sim->node.window_ev, GS_EVC_SAMPLE, on_window, sim);
	/* only where bands are reported and some task is not a job: the
	 * other scenarios keep their event streams */
	if (any && gs_node_reported(sc))
		gs_evq_schedule(&sim->q, &sim->node.window_ev, NODE_WINDOW);
}

void gs_node_free(struct gs_sim *sim)
{
	g_free(sim->node.gpu);
	sim->node.gpu = NULL;
	g_free(sim->task_nodes);
	sim->task_nodes = NULL;
}

static enum gs_band band_of(uint32_t demand_pm)
{
	if (demand_pm > 1000)
		return GS_BAND_OVER;
	return demand_pm > 500 ? GS_BAND_HIGH : GS_BAND_LOW;
}

/* DCUDA's load imbalance (section 2.3, Fig. 2): "at least one GPU is
 * overloaded and some other GPUs are still underloaded", underloaded
 * meaning the 0-50% band of that figure. */
static bool imbalanced(const struct gs_sim *sim)
{
	bool over = false, low = false;
	uint32_t i;

	for (i = 0; i < sim->n_gpus; i++) {
		enum gs_band b = band_of(sim->node.gpu[i].demand_pm);

		over = over || b == GS_BAND_OVER;
		low = low || b == GS_BAND_LOW;
	}
	return over && low;
}

/* Integrate every GPU's state from the last change up to now. */
void gs_node_advance(struct gs_sim *sim)
{
	gs_time_t dt = sim->q.now - sim->node.last;
	uint32_t i;

	for (i = 0; i < sim->n_gpus && dt; i++) {
		struct gs_node_gpu *g = &sim->node.gpu[i];

		g->band_ns[band_of(g->demand_pm)] += dt;
		/* utilisation as DCUDA 4.3 defines it: demand over
		 * capacity, a GPU cannot be used beyond its capacity */
		g->used_pm_ns += dt * (g->demand_pm < 1000 ? g->demand_pm
							   : 1000);
		if (g->residents)
			g->awake_ns += dt;
	}
	if (dt && imbalanced(sim))
		sim->node.imbalanced_ns += dt;
	sim->node.last = sim->q.now;
}

void gs_node_join(struct gs_task *t)
{
	struct gs_node_gpu *g = &t->sim->node.gpu[t->gpu];
	struct gs_task_node *tn = gs_task_node(t);

	gs_node_advance(t->sim);
	if (g->residents++ == 0)
		g->wakeups++;
	g->demand_pm += demand_of(t);
	t->resident = true;
	/* a measurement window starts (again, after a migration) */
	if (tn) {
		tn->win_at = t->sim->q.now;
		tn->win_launched = tn->launched_ns;
		tn->win_sync = gs_task_sync_now(t);
	}
}

void gs_node_leave(struct gs_task *t)
{
	struct gs_node_gpu *g = &t->sim->node.gpu[t->gpu];

	gs_node_advance(t->sim);
	g->residents--;
	g->demand_pm -= demand_of(t);
	t->resident = false;
}

/* Awake power grows with the cores in use (dynamic power): active_watts
 * with none, busy_watts with all; asleep, idle_watts. mW x ns = 1e-12 J */
static double gpu_energy(const struct gs_node_power *p,
			 const struct gs_node_gpu *g, const struct gs_gpu *gpu,
			 gs_time_t elapsed)
{
	gs_time_t awake = g->awake_ns < elapsed ? g->awake_ns : elapsed;
	gs_time_t cores = gs_gpu_cores_used_now(gpu);

	if (cores > awake)
		cores = awake;
	return ((double)p->active_mw * (double)awake +
		(double)(p->busy_mw - p->active_mw) * (double)cores +
		(double)p->idle_mw * (double)(elapsed - awake)) * 1e-12 +
	       (double)p->wake_mj * 1e-3 * g->wakeups;
}

/* DCUDA's monitor against the demands the jobs declare: each task's
 * last estimate, and the accuracy over the jobs it estimated. */
/* The records' monitored demands were filled from what the policy noted
 * (sim/run/metrics.c); beside them, the declared ones. */
static void collect_monitor(const struct gs_sim *sim, struct gs_results *r)
{
	double err = 0;
	uint32_t i, n = 0;

	for (i = 0; i < sim->n_tasks; i++) {
		const struct gs_task *t = &sim->tasks[i];
		struct gs_task_result *tr = &r->tasks[i];
		double d = t->cfg->demand_pm / 1000.0;

		tr->declared_demand = t->cfg->demand_pm ? d : NAN;
		if (!tr->has_monitored || !t->cfg->demand_pm)
			continue;
		err += fabs(tr->monitored_demand - d) / d;
		n++;
	}
	r->metrics.monitor_accuracy = n ? 1.0 - err / n : NAN;
}

void gs_node_collect(struct gs_sim *sim, struct gs_results *r)
{
	const struct gs_scenario *sc = sim->sc;
	gs_time_t elapsed = sim->q.now, over = 0;
	double energy = 0, used = 0;
	uint32_t i;

	if (!gs_node_reported(sc))
		return;
	gs_node_advance(sim);
	r->node_report = true;
	r->gpus = g_new0(struct gs_gpu_result, sim->n_gpus);
	for (i = 0; i < sim->n_gpus; i++) {
		const struct gs_node_gpu *g = &sim->node.gpu[i];
		struct gs_gpu_result *gr = &r->gpus[i];

		gr->band_low_ns = g->band_ns[GS_BAND_LOW];
		gr->band_high_ns = g->band_ns[GS_BAND_HIGH];
		gr->band_over_ns = g->band_ns[GS_BAND_OVER];
		gr->awake_ns = g->awake_ns;
		gr->wakeups = g->wakeups;
		gr->demand_utilization = elapsed ? (double)g->used_pm_ns /
						   (1000.0 * (double)elapsed)
						 : 0;
		used += gr->demand_utilization;
		gr->energy_j = sc->power.set ? gpu_energy(&sc->power, g,
							    sim->gpus[i], elapsed)
					     : NAN;
		if (sc->power.set)
			energy += gr->energy_j;
		over += g->band_ns[GS_BAND_OVER];
	}
	if (sc->power.set)
		r->metrics.energy_j = energy;
	r->metrics.overloaded_time = elapsed ? (double)over /
					       ((double)elapsed * sim->n_gpus)
					     : 0;
	r->metrics.demand_utilization = sim->n_gpus ? used / sim->n_gpus : 0;
	r->metrics.time_imbalanced = elapsed ? (double)sim->node.imbalanced_ns /
					       (double)elapsed
					     : 0;
	r->metrics.migrations = sim->node.migrations;
}

void gs_node_collect_tasks(const struct gs_sim *sim, struct gs_results *r)
{
	uint32_t i;

	if (!gs_node_reported(sim->sc))
		return;
	for (i = 0; i < sim->n_tasks; i++) {
		r->tasks[i].migrations = sim->task_nodes[i].migrations;
		r->tasks[i].migration_stall_ns =
			sim->task_nodes[i].migration_stall_ns;
	}
	collect_monitor(sim, r);
}

/* The simulator knows a job's declared demand; keep the policy's latest
 * estimate to set beside it (DCUDA's monitor accuracy). */
void hal_note_demand(struct hal_sched *s, struct hal_task *t,
		     hal_u32 demand_pm)
{
	GS_REC(s, "hal_note_demand", "tu", GS_RV(gs_hal_rec_task(t), demand_pm),
	       NULL, NULL);
	t->task->has_monitored = true;
	t->task->monitored_pm = demand_pm;
}
