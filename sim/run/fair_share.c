/* The fair optimum (LoGA 5.5): what each task would get if the GPU's time
 * were shared fairly, by mechanism rather than by a fitted figure.
 *
 * LoGA computes its "Optimal" bar from the GPU times measured without
 * scheduling, assuming every application saturates the GPU alone, and
 * notes that this overestimates the slowdown fairness needs ("parts of
 * the application that do not run GPU computation ... are not slowed
 * down"). gpusim knows each task's demand instead: the fraction of time
 * it keeps the GPU busy when it runs alone (the standalone run that
 * slowdown already uses). A fair scheduler gives each task its weighted
 * max-min fair share of the GPU; a task held to share f < demand d runs
 * its GPU work at f/d of its standalone speed and, with its CPU work
 * overlapped as alone, at best d/f slower; a task whose demand fits is
 * not slowed (1). Context switches and non-preemptive commands cost more
 * on a real GPU, so the figure is a bound a scheduler can approach, not
 * reach exactly. */
#include <glib.h>
#include <math.h>

#include "sim/run/fair_share.h"

void gs_max_min_fair(const double *demand, const double *weight, uint32_t n,
		     double capacity, double *share)
{
	g_autofree bool *done = g_new0(bool, n ? n : 1);
	double left = capacity;
	uint32_t i, open = n;

	for (i = 0; i < n; i++)
		share[i] = 0;
	/* Each pass satisfies every claimant whose demand fits its
	 * proportional part of what is left, or, when none does, splits
	 * what is left among all the open ones. At most n passes. */
	while (open && left > 0) {
		double wsum = 0;
		bool fitted = false;

		for (i = 0; i < n; i++)
			if (!done[i])
				wsum += weight[i];
		for (i = 0; i < n; i++) {
			if (done[i] || demand[i] > left * weight[i] / wsum)
				continue;
			share[i] = demand[i];
			done[i] = true;
			fitted = true;
		}
		if (!fitted) {
			for (i = 0; i < n; i++)
				if (!done[i])
					share[i] = left * weight[i] / wsum;
			return;
		}
		left = capacity;
		open = 0;
		for (i = 0; i < n; i++) {
			if (done[i])
				left -= share[i];
			else
				open++;
		}
	}
}

/* The slowdown a fair share costs a task: demand / share, at least 1. */
static double fair_slowdown(double demand, double share)
{
	if (isnan(demand))
		return NAN;
	if (demand <= share || demand <= 0)
		return 1.0;
	return share > 0 ? demand / share : INFINITY;
}

void gs_fair_optimum(struct gs_results *r, const double *demand)
{
	uint32_t n = r->n_tasks, i, g, k;
	g_autofree double *d = g_new0(double, n ? n : 1);
	g_autofree double *w = g_new0(double, n ? n : 1);
	g_autofree double *f = g_new0(double, n ? n : 1);
	g_autofree uint32_t *idx = g_new0(uint32_t, n ? n : 1);

	for (i = 0; i < n; i++) {
		r->tasks[i].fair_share = NAN;
		r->tasks[i].fair_slowdown = NAN;
	}
	for (g = 0; g < (r->n_gpus ? r->n_gpus : 1); g++) {
		k = 0;
		for (i = 0; i < n; i++) {
			if (r->tasks[i].gpu != g || isnan(demand[i]))
				continue;
			d[k] = demand[i];
			w[k] = r->tasks[i].fair_weight > 0
				       ? r->tasks[i].fair_weight : 1;
			idx[k++] = i;
		}
		gs_max_min_fair(d, w, k, 1.0, f);
		for (i = 0; i < k; i++) {
			r->tasks[idx[i]].has_fair = true;
			r->tasks[idx[i]].fair_share = f[i];
			r->tasks[idx[i]].fair_slowdown =
				fair_slowdown(d[i], f[i]);
		}
	}
}
