/* A lone task under any policy keeps (1 - the policy's stated overhead) of
 * the throughput it has with no scheduler (`direct`). Checked with the
 * policy's published parameters (its defaults), for which the overheads
 * are stated. */
#include "tests/proptest/proptest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "policies/policy.h"
#include "workloads/config_load.h"
#include "workloads/scenario.h"

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
 *   tick) when their lengths differ (drawn, or several in one class: a
 *   command longer than the class average outlasts the retries); plus
 *   2% for the timing thread;
 * - dfq and hdfq: NEON 5.2, Fig. 5: "no more than 5%" (hdfq is DFQ over a
 *   tree, Fleig 3.3; a lone task has no tree), measured with NEON's own
 *   trap cost, which the host default models (gs_host_defaults: 10 us).
 *   A scenario whose trap costs more pays the difference on each trapped
 *   submission of its sample: at most sample_requests of them per epoch,
 *   and an epoch is at least the free run, free_run_factor x sample;
 * - loga: LoGA Fig. 7b: +0.7% turnaround;
 * - drm-fifo, drm-rr, drm-fair: every submission is a job through the
 *   submit ioctl, a trap each (drm_sched.c); and at most credit_limit
 *   jobs are on the GPU, a credit coming back irq_latency after its job
 *   ends (the fence interrupt), so a stream of commands of length L no
 *   shorter than the task's shortest keeps the GPU busy for at least
 *   credit_limit x L of every L + irq_latency;
 * - direct and the node policies: none. DCUDA's monitor runs on the CPU,
 *   intercepts launches in a user-space library at "negligible overhead"
 *   (DCUDA 3.2, 4.2), and a lone task has nothing to be balanced
 *   against. */
static double dfq_extra_trap(const struct gs_gen_scenario *g)
{
	struct gs_host_config neon;
	double epoch;

	gs_host_defaults(&neon);
	if (g->trap <= neon.trap)
		return 0;
	epoch = (double)gs_gen_param(g, "free_run_factor", 5) *
		(double)gs_gen_param(g, "sample", 5 * GS_NS_PER_MS);
	return (double)(g->trap - neon.trap) *
	       (double)gs_gen_param(g, "sample_requests", 96) / epoch;
}

static gs_time_t min_command(const struct gs_gen_task *t);

/* drm_sched's credits: the share of a stream of back-to-back commands
 * lost waiting for fences (see above). */
static double drm_credit_stall(const struct gs_gen_scenario *g)
{
	double len = (double)min_command(&g->tasks[0]);
	double credits = (double)gs_gen_param(g, "credit_limit", 2);
	double busy = credits * len / (len + (double)g->irq_latency);

	return busy >= 1 ? 0 : 1 - busy;
}

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
		return 0.05 + dfq_extra_trap(g);
	if (!strcmp(g->policy, "loga"))
		return 0.007;
	if (!strncmp(g->policy, "drm-", 4))
		return trapped + drm_credit_stall(g);
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

/* The least a duration can be. */
static gs_time_t dur_min(const struct gs_gen_dur *d)
{
	switch (d->dist) {
	case GS_GEN_UNIFORM:
	case GS_GEN_EMPIRICAL:
		return d->v[0];
	case GS_GEN_EXPONENTIAL:
	case GS_GEN_NORMAL:
		return 0;
	default:
		return d->v[0];
	}
}

/* Whether the task's commands differ in length (drawn from a
 * distribution, or several lengths in one class): then drr's one running
 * average per class cannot predict each command's end. */
static bool drawn_lengths(const struct gs_gen_task *t)
{
	gs_time_t first = 0;
	uint32_t i;

	if (t->behavior == GS_GEN_THROTTLE)
		return t->kernel.dist != GS_GEN_CONST;
	for (i = 0; i < t->n_steps; i++) {
		const struct gs_gen_step *st = &t->steps[i];

		if (st->kind != GS_GEN_LAUNCH)
			continue;
		if (st->dur.dist != GS_GEN_CONST ||
		    (first && st->dur.v[0] != first))
			return true;
		first = st->dur.v[0];
	}
	return false;
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

/* The shortest command the task launches (0 when a distribution can
 * give 0: exponential, normal). */
static gs_time_t min_command(const struct gs_gen_task *t)
{
	gs_time_t m = GS_TIME_NEVER;
	uint32_t i;

	if (t->behavior == GS_GEN_THROTTLE)
		return dur_min(&t->kernel);
	for (i = 0; i < t->n_steps; i++)
		if (t->steps[i].kind == GS_GEN_LAUNCH)
			m = MIN(m, dur_min(&t->steps[i].dur));
	for (i = 0; i < t->n_rows; i++)
		m = MIN(m, t->rows[i].duration);
	return m;
}

/* Whether a stated overhead covers this lone task: a per-launch cost
 * needs the launches per round; DFQ's 5% is NEON Fig. 5's, measured on
 * throttles of 19 us and longer requests (below that the paper states
 * nothing, and the drain's 1 ms poll weighs more in a short epoch). */
static bool stated_for(const struct gs_gen_scenario *g, double launches)
{
	bool per_launch = stated_overhead(g, 0, 1, true) !=
			  stated_overhead(g, 1, 1, true);

	if (per_launch && !launches)
		return false;
	if ((!strcmp(g->policy, "dfq") || !strcmp(g->policy, "hdfq")) &&
	    (g->tasks[0].behavior == GS_GEN_APP ? false :
	     min_command(&g->tasks[0]) < 19000))
		return false;
	return true;
}

/* Rounds of drawn length: an overhead of ovh per round costs the rounds
 * that fill ovh of the run, about ovh x rounds of them, and those are a
 * sample of the task's rounds: their sum errs by std x sqrt(their
 * count), which fits that many round means more or fewer. Three
 * standard errors of that sum, as GPU time (seed 581: a 15 us throttle
 * with exponential 529 us sleeps lost 1.93% of its rounds to a trap
 * that is 1.88% of its mean round; with the trap at the doorbell's cost
 * the drm run gives direct's rounds exactly). */
static double draw_spread(const struct gs_task_result *td, double ovh)
{
	double lost = ovh * (double)td->rounds;

	if (!td->rounds || !(td->round_mean_ns > 0) || !(td->round.std > 0))
		return 0;
	return 3 * td->round.std * sqrt(lost) / td->round_mean_ns *
	       (double)td->gpu_time_ns / (double)td->rounds;
}

/* Throughput is GPU time (work done; a non-blocking task's rounds count
 * its submissions, which a full ring lets run ahead of the work), less
 * one command that the end of the run may cut, less the draws' spread. */
static void verdict(struct pt_case *c, const struct gs_gen_scenario *g,
		    const struct gs_task_result *tp,
		    const struct gs_task_result *td)
{
	double launches = launches_per_round(&g->tasks[0]);
	double ovh = stated_overhead(g, launches, td->round_mean_ns,
				     drawn_lengths(&g->tasks[0]));
	double need = (1 - ovh) * (double)td->gpu_time_ns -
		      (double)gs_gen_max_command(g) - draw_spread(td, ovh);

	if (!stated_for(g, launches) || (double)tp->gpu_time_ns >= need)
		return;
	pt_fail(c, "lone-task", "task %s alone: GPU time %.1f ms under "
		"%s, %.1f ms under direct (stated overhead %.1f%%)",
		tp->name, (double)tp->gpu_time_ns / 1e6, g->policy,
		(double)td->gpu_time_ns / 1e6, 100 * ovh);
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
	/* ten rounds at least, or the run says little of a throughput */
	if (rd.n_tasks && rp.n_tasks && rd.tasks[0].rounds >= 10)
		verdict(c, g, &rp.tasks[0], &rd.tasks[0]);
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
