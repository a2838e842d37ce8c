/* The job behind `gpusim run`: the scenario itself, then each task
 * definition alone on the same GPU under `direct` (the papers' reference
 * for slowdown), then the metrics that compare the two. */
#include <glib.h>
#include <math.h>

#include "base/thread_quiet.h"
#include "sim/host/sim_internal.h"
#include "sim/run/fair_share.h"
#include "sim/run/sim.h"

/* A violated invariant is a failure of the simulator (exit 1), never a
 * config error (exit 2): the codes must differ. */
G_STATIC_ASSERT(GS_SIM_ERROR_INVARIANT != GS_SIM_ERROR_POLICY_INIT);

/* Invariants are checked inside every run (sim.c); a violation is
 * recorded in the results, or with opt->check_invariants fails the run. */
static bool invariants_fail(const struct gs_scenario *sc,
			    const struct gs_sim_options *opt,
			    const char *violation, GError **error)
{
	if (!violation || !opt || !opt->check_invariants)
		return false;
	g_set_error(error, g_quark_from_static_string("gs-sim"),
		    GS_SIM_ERROR_INVARIANT, "%s: %s", sc->name, violation);
	return true;
}

static bool run_one(const struct gs_scenario *sc,
		    const struct gs_sim_options *opt, struct gs_results *out,
		    GError **error)
{
	struct gs_sim *sim = gs_sim_new(sc, opt, error);
	bool capped;

	if (!sim)
		return false;
	gs_sim_run(sim, &capped);
	if (invariants_fail(sc, opt, gs_sim_invariant_violation(sim),
			    error)) {
		gs_sim_free(sim);
		return false;
	}
	gs_sim_collect_and_free(sim, out);
	out->event_capped = capped;
	return true;
}

/* The standalone run of one definition, as gs_run_scenario applies it:
 * its figures, or its error if it failed; known: given by the caller
 * (gs_sim_options.standalone_known), not run here. */
struct alone_fig {
	struct gs_standalone_fig f;
	GError *error;
	bool known;
};

/* The standalone runs of every definition, taken in definition order by
 * whichever thread is free: the threads started beside the scenario's
 * run and, once that run is done, the one that ran it. Each run is its
 * own simulation, the same whoever runs it and whenever, so the figures
 * and what is reported from them are the same as one after the other. */
struct alone_runs {
	const struct gs_scenario *sc;
	bool check_invariants;
	struct alone_fig *fig;  /* one per definition */
	gint next;              /* the next definition to take */
	gint stop;              /* a run failed, or the scenario's: no more */
};

gboolean gs_run_standalone(const struct gs_scenario *sc, uint32_t def,
			   bool check_invariants,
			   struct gs_standalone_fig *out, GError **error)
{
	struct gs_sim_options opt = {
		.check_invariants = check_invariants,
		.reference = true,
	};
	struct gs_scenario *alone = gs_scenario_alone(sc, def);
	struct gs_results r;
	gboolean ok;

	*out = (struct gs_standalone_fig){ .mean = NAN, .demand = NAN };
	if (!alone) {
		g_set_error(error, g_quark_from_static_string("gs-sim"), 0,
			    "%s: no task definition %u", sc->name, def);
		return FALSE;
	}
	gs_results_init(&r);
	ok = run_one(alone, &opt, &r, error);
	if (ok && r.n_tasks) {
		out->mean = r.tasks[0].round_mean_ns;
		if (r.sim_time_ns)
			out->demand = (double)r.tasks[0].gpu_time_ns /
				      (double)r.sim_time_ns;
	}
	out->violation = g_steal_pointer(&r.invariant_violation);
	gs_results_clear(&r);
	gs_scenario_free(alone);
	return ok;
}

void gs_standalone_fig_clear(struct gs_standalone_fig *f)
{
	g_free(f->violation);
	*f = (struct gs_standalone_fig){ .mean = NAN, .demand = NAN };
}

static void alone_run(const struct alone_runs *a, uint32_t def,
		      struct alone_fig *f)
{
	gs_run_standalone(a->sc, def, a->check_invariants, &f->f, &f->error);
}

/* Takes definitions until none is left or a run failed: as when run one
 * after the other, none after a failed one is started (those before it
 * were all taken, so the first failure in definition order is found). */
static gpointer alone_worker(gpointer data)
{
	struct alone_runs *a = data;
	gint d;

	while (!g_atomic_int_get(&a->stop) &&
	       (d = g_atomic_int_add(&a->next, 1)) < (gint)a->sc->n_tasks) {
		if (a->fig[d].known)
			continue;
		alone_run(a, (uint32_t)d, &a->fig[d]);
		if (a->fig[d].error)
			g_atomic_int_set(&a->stop, 1);
	}
	return NULL;
}

/* The most threads started for standalone runs (those asked for are one
 * per definition and per core but one, the scenario's run's). */
#define ALONE_THREADS_MAX 64u

static unsigned start_alone_threads(struct alone_runs *a, GThread **threads)
{
	unsigned cores = g_get_num_processors(), want, n;

	want = MIN(MIN(a->sc->n_tasks, cores > 1 ? cores - 1 : 0),
		   ALONE_THREADS_MAX);
	for (n = 0; n < want; n++) {
		threads[n] = gs_thread_new_quiet("gpusim-alone", alone_worker,
						 a);
		if (!threads[n])
			break;
	}
	return n;
}

/* *src into *dst, its violation a copy of its own. */
static void copy_fig(struct gs_standalone_fig *dst,
		     const struct gs_standalone_fig *src)
{
	*dst = *src;
	dst->violation = g_strdup(src->violation);
}

/* The figures the caller gives (known[d] for definition d, NULL: none)
 * copied in; how many definitions have them. */
static uint32_t take_known(struct alone_runs *a,
			   const struct gs_standalone_fig *const *known)
{
	uint32_t d, n = 0;

	for (d = 0; known && d < a->sc->n_tasks; d++) {
		if (!known[d])
			continue;
		copy_fig(&a->fig[d].f, known[d]);
		a->fig[d].known = true;
		n++;
	}
	return n;
}

static void join_alone_threads(GThread **threads, unsigned n)
{
	while (n)
		g_thread_join(threads[--n]);
}

/* The first failure in definition order, if any (the caller's to free). */
static GError *first_alone_error(struct alone_runs *a)
{
	uint32_t d;

	for (d = 0; d < a->sc->n_tasks; d++)
		if (a->fig[d].error)
			return g_steal_pointer(&a->fig[d].error);
	return NULL;
}

/* What the runs left, once no thread runs any more. */
static void free_alone_runs(struct alone_runs *a)
{
	uint32_t d;

	for (d = 0; d < a->sc->n_tasks; d++) {
		g_clear_error(&a->fig[d].error);
		gs_standalone_fig_clear(&a->fig[d].f);
	}
	g_free(a->fig);
}

/* The figures used, for the caller (gs_sim_options.standalone_out). */
static void copy_out_alone_runs(const struct alone_runs *a,
				struct gs_standalone_fig *out)
{
	uint32_t d;

	for (d = 0; out && d < a->sc->n_tasks; d++)
		copy_fig(&out[d], &a->fig[d].f);
}

/* Each task's slowdown, and in task_demand its definition's demand; the
 * first violation of a standalone run, in definition order, as the
 * scenario's if it had none. */
static void apply_alone_runs(const struct alone_runs *a,
			     struct gs_results *out, double *task_demand)
{
	const struct gs_scenario *sc = a->sc;
	uint32_t d, i = 0, rep;

	for (d = 0; d < sc->n_tasks; d++) {
		const struct gs_standalone_fig *f = &a->fig[d].f;

		if (f->violation && !out->invariant_violation)
			out->invariant_violation = g_strdup_printf(
				"standalone run of task %s: %s",
				sc->tasks[d].name, f->violation);
		for (rep = 0; rep < sc->tasks[d].count; rep++, i++) {
			struct gs_task_result *t = &out->tasks[i];

			if (!isnan(f->mean) && f->mean > 0 &&
			    !isnan(t->round_mean_ns))
				t->slowdown = t->round_mean_ns / f->mean;
			task_demand[i] = f->demand;
		}
	}
}

/* Jain's index over weight-normalised throughput x_i = (1/slowdown_i)/w_i:
 * 1 when every task gets throughput in proportion to its weight (with
 * VMs, w_i is the task's share of the tree: gs_task_result.fair_weight). */
static void fairness_metrics(struct gs_results *r)
{
	double sum = 0, sum_sq = 0, eff = 0;
	uint32_t i, n = 0;

	for (i = 0; i < r->n_tasks; i++) {
		const struct gs_task_result *t = &r->tasks[i];
		double x;

		if (isnan(t->slowdown) || t->slowdown <= 0)
			continue;
		eff += 1.0 / t->slowdown;
		x = 1.0 / t->slowdown /
		    (t->fair_weight > 0 ? t->fair_weight : 1);
		sum += x;
		sum_sq += x * x;
		n++;
	}
	r->metrics.concurrency_efficiency = n ? eff : NAN;
	r->metrics.jain_index = n && sum_sq > 0 ? sum * sum / (n * sum_sq)
						: NAN;
}

/* Node scenarios: the mean normalised execution time (a job's one round
 * is its whole run, so its slowdown is time shared / time alone) and the
 * DCUDA QoS figure (section 4.5), the share of tasks slowed by less than
 * node.qos_degradation (the paper's 20% by default). */
static void node_time_metrics(const struct gs_scenario *sc,
			      struct gs_results *r)
{
	double sum = 0, limit = 1.0 + sc->qos_degradation_pm / 1000.0;
	uint32_t i, n = 0, ok = 0;

	if (!r->node_report)
		return;
	for (i = 0; i < r->n_tasks; i++) {
		const struct gs_task_result *t = &r->tasks[i];

		if (isnan(t->slowdown) || t->killed)
			continue;
		sum += t->slowdown;
		ok += t->slowdown < limit;
		n++;
	}
	r->metrics.mean_normalized_time = n ? sum / n : NAN;
	r->metrics.qos = n ? (double)ok / n : NAN;
	r->metrics.qos_degradation = sc->qos_degradation_pm / 1000.0;
}

gboolean gs_run_scenario(const struct gs_scenario *sc,
			 const struct gs_sim_options *opt,
			 struct gs_results *out, GError **error)
{
	struct alone_runs a = { .sc = sc };
	GThread *threads[ALONE_THREADS_MAX];
	unsigned n_threads = 0;
	double *task_demand;
	GError *alone_error;

	if (!opt || !opt->standalone_runs)
		return run_one(sc, opt, out, error);
	a.check_invariants = opt->check_invariants;
	a.fig = g_new0(struct alone_fig, sc->n_tasks ? sc->n_tasks : 1);
	if (take_known(&a, opt->standalone_known) < sc->n_tasks &&
	    opt->standalone_beside)
		n_threads = start_alone_threads(&a, threads);
	if (!run_one(sc, opt, out, error)) {
		/* the threads finish the runs they have begun, no more */
		g_atomic_int_set(&a.stop, 1);
		join_alone_threads(threads, n_threads);
		free_alone_runs(&a);
		return FALSE;
	}
	alone_worker(&a); /* what the threads have not taken yet */
	join_alone_threads(threads, n_threads);
	alone_error = first_alone_error(&a);
	if (alone_error) {
		free_alone_runs(&a);
		g_propagate_error(error, alone_error);
		return FALSE;
	}
	task_demand = g_new0(double, out->n_tasks ? out->n_tasks : 1);
	apply_alone_runs(&a, out, task_demand);
	copy_out_alone_runs(&a, opt->standalone_out);
	free_alone_runs(&a);
	gs_fair_optimum(out, task_demand);
	g_free(task_demand);
	fairness_metrics(out);
	node_time_metrics(sc, out);
	return TRUE;
}
