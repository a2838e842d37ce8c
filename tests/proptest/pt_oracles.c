/* Oracles: scenarios where theory gives the answer. Each is built from
 * the case's generated costs (host, context switch) with saturating
 * throttles whose kernel lengths come from the case's seed. */
#include "tests/proptest/proptest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/rng.h"

#define US 1000ULL

/* n saturating throttles (2 to 8) of constant kernels 50us..2ms, equal
 * weights, on one GPU without VMs, under `policy` with its defaults. */
static void saturating(struct gs_gen_scenario *g, const struct pt_case *c,
		       const char *policy, const char *preset, bool blocking)
{
	struct gs_rng r;
	uint32_t i;

	*g = c->base;
	gs_rng_seed(&r, c->base.seed, "oracle");
	g_strlcpy(g->policy, policy, sizeof(g->policy));
	g_strlcpy(g->preset, preset, sizeof(g->preset));
	g->n_params = 0;
	g->n_vms = 0;
	g->gpus = 0;
	g->arrivals_every = 0;
	/* the preset's own GPU: the oracles' theory is of its dispatcher */
	memset(&g->more, 0, sizeof(g->more));
	g->dispatch_batch = 1;
	g->duration = 500000 * US;
	g->n_tasks = 2 + (uint32_t)gs_rng_below(&r, 7);
	for (i = 0; i < g->n_tasks; i++) {
		struct gs_gen_task *t = &g->tasks[i];

		memset(t, 0, sizeof(*t));
		snprintf(t->name, sizeof(t->name), "t%u", i);
		t->behavior = GS_GEN_THROTTLE;
		t->weight = 1;
		t->channels = 1;
		t->vm = -1;
		t->app = -1;
		t->blocking = blocking;
		t->kernel.v[0] = (50 + gs_rng_below(&r, 1951)) * US;
	}
}

/* Blocking throttles under `direct` on kepler, one command per channel
 * visit: the round-robin dispatcher runs one command of every task per
 * turn (NEON 2.2, Fig. 6: round-robin favours long requests), so
 * share_i = a_i / sum(a) and utilisation = sum(a) / (sum(a) + n
 * ctx_switch) (every visit loads another task's context). A task's next
 * command is in its ring before its turn comes again, since its host
 * costs (launch, doorbell, spin poll: at most 12 us here) are below the
 * others' commands (at least 50 us). Tolerance: the run ends inside a
 * turn, which leaves each task up to one command (at most max_a) off
 * its count: 2 max_a / duration. */
static void check_direct_shares(struct pt_case *c, gs_time_t ctx_switch)
{
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct gs_results r;
	double sum = 0, max_a = 0, tol, util;
	char *why = NULL;
	uint32_t i;

	saturating(g, c, "direct", "kepler", true);
	g->fetch = 0;
	g->ctx_switch = ctx_switch;
	for (i = 0; i < g->n_tasks; i++) {
		sum += (double)g->tasks[i].kernel.v[0];
		max_a = fmax(max_a, (double)g->tasks[i].kernel.v[0]);
	}
	tol = 2 * max_a / (double)g->duration;
	c->checks++;
	if (!pt_run(g, NULL, 0, &r, &why)) {
		pt_fail(c, "oracle-direct-shares", "%s", why);
		g_free(why);
		g_free(g);
		return;
	}
	for (i = 0; i < g->n_tasks; i++) {
		double want = (double)g->tasks[i].kernel.v[0] / sum;
		double got = pt_share(&r, g->tasks[i].name);

		if (fabs(got - want) > tol) {
			pt_fail(c, "oracle-direct-shares", "task %s (kernel "
				"%.0f us of %u tasks): share %.4f, a_i/sum(a) "
				"= %.4f (tolerance %.4f)", g->tasks[i].name,
				(double)g->tasks[i].kernel.v[0] / 1e3,
				g->n_tasks, got, want, tol);
			break;
		}
	}
	util = sum / (sum + (double)g->n_tasks * (double)g->ctx_switch);
	if (fabs(r.metrics.gpu_utilization - util) > tol)
		pt_fail(c, "oracle-direct-shares", "utilisation %.4f, "
			"sum(a)/(sum(a)+n ctx_switch) = %.4f (tolerance "
			"%.4f)", r.metrics.gpu_utilization, util, tol);
	gs_results_clear(&r);
	g_free(g);
}

/* Without context-switch cost and with the case's (0 to 50 us). */
void pt_check_direct_shares(struct pt_case *c)
{
	check_direct_shares(c, 0);
	if (c->base.ctx_switch)
		check_direct_shares(c, c->base.ctx_switch);
}

/* Equal weights, saturating (non-blocking: the ring stays full) tasks:
 * a work-conserving policy leaves an engine idle only while it switches
 * contexts, so utilisation = 1 - ctx_switches x ctx_switch / duration.
 * Work-conserving here: `direct` (the GPU's own scheduling) and `loga`
 * (it never stops the GPU; a denied task leaves the others running, LoGA
 * 3). Not: timeslice (NEON 3.1 "not work-conserving"), dfq and hdfq
 * (drain idles the GPU until a 1 ms poll notices, NEON 5.2), drr with
 * `exclusive` (one task's batch at a time, GERM 4). On volta preemption
 * saves are set to 0, so a switch is the only non-work. Tolerance: one
 * command and switch cut by the end: (max_a + ctx_switch) / duration. */
static void check_conserving(struct pt_case *c, const char *policy,
			     const char *preset)
{
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct gs_results r;
	double max_a = 0, tol, want;
	char *why = NULL;
	uint32_t i;

	saturating(g, c, policy, preset, false);
	g->preempt_save = 0;
	if (g->ring_entries < 4)
		g->ring_entries = 4;
	for (i = 0; i < g->n_tasks; i++)
		max_a = fmax(max_a, (double)g->tasks[i].kernel.v[0]);
	tol = (max_a + (double)g->ctx_switch) / (double)g->duration;
	c->checks++;
	if (!pt_run(g, NULL, 0, &r, &why)) {
		pt_fail(c, "oracle-work-conserving", "%s on %s: %s", policy,
			preset, why);
		g_free(why);
		g_free(g);
		return;
	}
	want = 1 - (double)r.metrics.ctx_switches * (double)g->ctx_switch /
		   (double)g->duration;
	if (fabs(r.metrics.gpu_utilization - want) > tol)
		pt_fail(c, "oracle-work-conserving", "%s on %s, %u tasks: "
			"utilisation %.4f, 1 - %" G_GUINT64_FORMAT
			" switches x %.0f us / duration = %.4f (tolerance "
			"%.4f)", policy, preset, g->n_tasks,
			r.metrics.gpu_utilization, r.metrics.ctx_switches,
			(double)g->ctx_switch / 1e3, want, tol);
	gs_results_clear(&r);
	g_free(g);
}

void pt_check_work_conserving(struct pt_case *c)
{
	check_conserving(c, "direct", "kepler");
	check_conserving(c, "direct", "volta");
	check_conserving(c, "loga", "kepler");
	check_conserving(c, "loga", "volta");
}
