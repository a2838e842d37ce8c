/* The job behind `gpusim run`: the scenario itself, then each task
 * definition alone on the same GPU under `direct` (the papers' reference
 * for slowdown), then the metrics that compare the two. */
#include <glib.h>
#include <math.h>

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

/* Mean round time of task definition `def` running alone, and in
 * *demand the fraction of that run its GPU was busy for it (the fair
 * optimum's input). A violation of the invariants in that run is the
 * scenario's (the first one kept). */
static double alone_round_mean(const struct gs_scenario *sc, uint32_t def,
			       const struct gs_sim_options *parent,
			       struct gs_results *out, double *demand,
			       GError **error)
{
	struct gs_sim_options opt = { .check_invariants =
					      parent->check_invariants };
	struct gs_scenario *alone = gs_scenario_alone(sc, def);
	struct gs_results r;
	double mean = NAN;

	gs_results_init(&r);
	*demand = NAN;
	if (run_one(alone, &opt, &r, error) && r.n_tasks) {
		mean = r.tasks[0].round_mean_ns;
		if (r.sim_time_ns)
			*demand = (double)r.tasks[0].gpu_time_ns /
				  (double)r.sim_time_ns;
	}
	if (r.invariant_violation && !out->invariant_violation)
		out->invariant_violation = g_strdup_printf(
			"standalone run of task %s: %s", sc->tasks[def].name,
			r.invariant_violation);
	gs_results_clear(&r);
	gs_scenario_free(alone);
	return mean;
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
	double *alone, *demand, *task_demand;
	uint32_t d, i = 0, rep;

	if (!run_one(sc, opt, out, error))
		return FALSE;
	if (!opt || !opt->standalone_runs)
		return TRUE;
	alone = g_new0(double, sc->n_tasks ? sc->n_tasks : 1);
	demand = g_new0(double, sc->n_tasks ? sc->n_tasks : 1);
	task_demand = g_new0(double, out->n_tasks ? out->n_tasks : 1);
	for (d = 0; d < sc->n_tasks; d++) {
		alone[d] = alone_round_mean(sc, d, opt, out, &demand[d], error);
		if (error && *error) {
			g_free(alone);
			g_free(demand);
			g_free(task_demand);
			return FALSE;
		}
	}
	for (d = 0; d < sc->n_tasks; d++) {
		for (rep = 0; rep < sc->tasks[d].count; rep++, i++) {
			struct gs_task_result *t = &out->tasks[i];

			if (!isnan(alone[d]) && alone[d] > 0 &&
			    !isnan(t->round_mean_ns))
				t->slowdown = t->round_mean_ns / alone[d];
			task_demand[i] = demand[d];
		}
	}
	gs_fair_optimum(out, task_demand);
	g_free(alone);
	g_free(demand);
	g_free(task_demand);
	fairness_metrics(out);
	node_time_metrics(sc, out);
	return TRUE;
}
