/* A lone task under any policy keeps (1 - the policy's stated overhead) of
 * the throughput it has with no scheduler (`direct`). Checked with the
 * policy's published parameters (its defaults), for which the overheads
 * are stated. */
#include "tests/proptest/proptest.h"

#include <stdio.h>
#include <string.h>

#include "policies/policy.h"
#include "workloads/config_load.h"

/* The stated overhead, as a fraction of standalone throughput, of a task
 * whose rounds launch `launches` commands in `round_ns`:
 * - timeslice, disengaged: NEON 5.2 (Figs. 4, 5): "no more than 2%";
 * - timeslice, engaged: every submission is trapped (NEON 5.2: "large
 *   request interception overhead imposed on all requests"), so a round
 *   costs launches x trap more, plus the 2% of the polling thread;
 * - drr: every command goes through the scheduler's queue (GERM 6.3.2),
 *   a trap each; with `exclusive` a task's next batch is forwarded once
 *   the last one is seen complete (GERM 4: by the completion counter,
 *   which the host sees ref_writeback late, probed every early_probe
 *   after the batch's estimated end, 8 times at most, then at the tick;
 *   drr.c documents this price), so a blocking round costs launches x
 *   (trap + ref_writeback + early_probe) more when its commands have one
 *   length (the estimate is exact once learnt), and launches x (trap +
 *   tick) when they are drawn (a long draw outlasts the retries); plus
 *   2% for the timing thread;
 * - dfq and hdfq: NEON 5.2, Fig. 5: "no more than 5%" (hdfq is DFQ over a
 *   tree, Fleig 3.3; a lone task has no tree);
 * - loga: LoGA Fig. 7b: +0.7% turnaround;
 * - direct and the node policies' placements: none. DCUDA's monitor runs
 *   on the CPU and a lone task has nothing to be balanced against. */
static double stated_overhead(const struct gs_gen_scenario *g,
			      double launches, double round_ns, bool drawn)
{
	double trapped = launches * (double)g->trap / round_ns;
	double wait = drawn ? (double)gs_gen_param(g, "tick", 0) :
		(double)(g->ref_writeback + gs_gen_param(g, "early_probe", 0));

	if (!strcmp(g->policy, "timeslice"))
		return 0.02 + (gs_gen_param(g, "engaged", 0) ? trapped : 0);
	if (!strcmp(g->policy, "drr"))
		return 0.02 + trapped + (gs_gen_param(g, "exclusive", 1) ?
			launches * wait / round_ns : 0);
	if (!strcmp(g->policy, "dfq") || !strcmp(g->policy, "hdfq"))
		return 0.05;
	if (!strcmp(g->policy, "loga"))
		return 0.007;
	return 0;
}

/* Commands launched per round of a throttle or looping script; 0 when
 * not known beforehand (apps, traces, scripts that run once). */
static double launches_per_round(const struct gs_gen_task *t)
{
	uint32_t i, inner = 1, n = 0;

	if (t->behavior == GS_GEN_THROTTLE)
		return 1;
	if (t->behavior != GS_GEN_SCRIPT || t->steps[0].kind != GS_GEN_REPEAT)
		return 0;
	for (i = 1; i < t->n_steps; i++) {
		if (t->steps[i].kind == GS_GEN_REPEAT)
			inner = t->steps[i].count;
		else if (t->steps[i].kind == GS_GEN_LAUNCH)
			n += inner;
	}
	return n;
}

/* Whether any command length of the task is drawn from a distribution. */
static bool drawn_lengths(const struct gs_gen_task *t)
{
	uint32_t i;

	if (t->behavior == GS_GEN_THROTTLE)
		return t->kernel.dist != GS_GEN_CONST;
	for (i = 0; i < t->n_steps; i++)
		if (t->steps[i].kind == GS_GEN_LAUNCH &&
		    t->steps[i].dur.dist != GS_GEN_CONST)
			return true;
	return false;
}

/* Open defect: DFQ's overhead on a lone two-channel app (oclParticles,
 * simpleTexture3D) is 5.4-6.1% where NEON Fig. 4 measures at most 5%
 * (its drains idle the GPU until a 1 ms poll sees both channels' fences,
 * twice per epoch). Reported as known, not failed, until dfq.c is fixed;
 * pt_known says so when it passes again. */
static bool dfq_two_channels(const struct gs_gen_scenario *g)
{
	return (!strcmp(g->policy, "dfq") || !strcmp(g->policy, "hdfq")) &&
	       g->tasks[0].channels > 1;
}

static void default_params(struct gs_gen_scenario *g)
{
	const struct gs_policy_ops *ops = gs_policy_find(g->policy);
	uint32_t i;

	for (i = 0; i < g->n_params && i < ops->n_params; i++) {
		struct gs_gen_param *p = &g->params[i];

		g_strlcpy(p->text, ops->params[i].def, sizeof(p->text));
		if (p->is_duration)
			gs_parse_duration(p->text, 1000000000, &p->ns);
	}
}

static void check_one(struct pt_case *c, uint32_t index)
{
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct gs_gen_scenario *d = g_new(struct gs_gen_scenario, 1);
	struct gs_results rp, rd;
	char *why = NULL;

	*g = c->base;
	gs_gen_keep_task(g, index);
	default_params(g);
	*d = *g;
	g_strlcpy(d->policy, "direct", sizeof(d->policy));
	d->n_params = 0;
	c->checks++;
	if (!pt_run(d, NULL, 0, &rd, &why)) {
		pt_fail(c, "lone-task", "direct: %s", why);
		goto out;
	}
	if (!pt_run(g, NULL, 0, &rp, &why)) {
		pt_fail(c, "lone-task", "%s", why);
		gs_results_clear(&rd);
		goto out;
	}
	if (rd.n_tasks && rp.n_tasks && rd.tasks[0].rounds >= 10) {
		const struct gs_task_result *td = &rd.tasks[0];
		double launches = launches_per_round(&g->tasks[0]);
		double ovh = stated_overhead(g, launches, td->round_mean_ns,
					     drawn_lengths(&g->tasks[0]));
		/* the last round may be cut by the end of the run */
		double need = (1 - ovh) * (double)td->rounds - 1;

		if (launches || !strcmp(g->policy, "direct") ||
		    stated_overhead(g, 0, 1, true) ==
		    stated_overhead(g, 1, 1, true)) {
			if ((double)rp.tasks[0].rounds >= need)
				;
			/* Open defect: dcuda intercepts launches through
			 * shadow channels, which the host model charges as a
			 * kernel trap (host.trap) each; DCUDA intercepts in a
			 * user-space wrapper library with "negligible
			 * overhead" (DCUDA 3.2, 4.2), so a lone task should
			 * lose nothing. Known until the model has a cost for
			 * user-space interception. */
			else if (!strcmp(g->policy, "dcuda"))
				pt_known(c, "lone-task", "dcuda-intercept: %s "
					 "alone: %" G_GUINT64_FORMAT " rounds "
					 "under dcuda, %" G_GUINT64_FORMAT
					 " direct", g->tasks[0].name,
					 rp.tasks[0].rounds, td->rounds);
			else if (dfq_two_channels(g))
				pt_known(c, "lone-task", "dfq-drain: %s alone: "
					 "%" G_GUINT64_FORMAT " rounds under "
					 "%s, %" G_GUINT64_FORMAT " direct",
					 g->tasks[0].name, rp.tasks[0].rounds,
					 g->policy, td->rounds);
			else
				pt_fail(c, "lone-task", "task %s alone: %"
					G_GUINT64_FORMAT " rounds under %s, %"
					G_GUINT64_FORMAT " under direct "
					"(stated overhead %.1f%%)",
					g->tasks[0].name, rp.tasks[0].rounds,
					g->policy, td->rounds, 100 * ovh);
		}
	}
	gs_results_clear(&rp);
	gs_results_clear(&rd);
out:
	g_free(why);
	g_free(g);
	g_free(d);
}

/* The first and the last task of the scenario, each alone. */
void pt_check_lone_task(struct pt_case *c)
{
	check_one(c, 0);
	if (c->base.n_tasks > 1)
		check_one(c, c->base.n_tasks - 1);
}
