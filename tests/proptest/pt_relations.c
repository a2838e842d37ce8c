/* Determinism and the metamorphic relations over one generated scenario.
 *
 * Tolerances. A scheduler's decisions are discrete: one decision taken
 * differently (a task sampled first instead of second, a token passed in
 * another order, a command fetched one visit later) moves at most the
 * scenario's granularity G of GPU time between tasks (gs_gen_granularity:
 * a command plus a switch, a hardware timeslice, and the policy's own
 * period). A change of input that should not matter may still flip
 * decisions at the start, where the tasks' order decides ties, and at the
 * end, where the run cuts the last period: SHARE_TOL allows G at each
 * end for each of the two tasks a moved period goes between, i.e. 4 G,
 * over the duration, plus 1% for the randomness of distributions whose
 * draws shift in time with the decisions. */
#include "tests/proptest/proptest.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double share_tol(const struct gs_gen_scenario *g)
{
	return 0.01 + 4.0 * (double)gs_gen_granularity(g) /
		      (double)g->duration;
}

/* Policies whose decisions read task weights (hal_task_weight): under the
 * others a weight is a label only, so scaling it must change nothing. */
static bool uses_weights(const char *policy)
{
	return !strcmp(policy, "dfq") || !strcmp(policy, "loga") ||
	       !strcmp(policy, "hdfq") || !strcmp(policy, "drr");
}

static bool run_or_fail(struct pt_case *c, const char *relation,
			const struct gs_gen_scenario *g,
			const char *const *ovr, size_t n, struct gs_results *r)
{
	char *why = NULL;

	c->checks++;
	if (pt_run(g, ovr, n, r, &why))
		return true;
	pt_fail(c, relation, "%s", why);
	g_free(why);
	gs_results_clear(r);
	return false;
}

/* Scenario g0 into a, the changed one g into b; false (both cleared)
 * when either fails. */
static bool run_both(struct pt_case *c, const char *relation,
		     const struct gs_gen_scenario *g0,
		     const struct gs_gen_scenario *g, struct gs_results *a,
		     struct gs_results *b)
{
	if (!run_or_fail(c, relation, g0, NULL, 0, a))
		return false;
	if (run_or_fail(c, relation, g, NULL, 0, b))
		return true;
	gs_results_clear(a);
	return false;
}

/* The case's scenario into a, the changed one g into b. */
static bool run_pair(struct pt_case *c, const char *relation,
		     const struct gs_gen_scenario *g, struct gs_results *a,
		     struct gs_results *b)
{
	return run_both(c, relation, &c->base, g, a, b);
}

static void clear_pair(struct gs_results *a, struct gs_results *b)
{
	gs_results_clear(a);
	gs_results_clear(b);
}

/* Whether a policy killed a task in r. */
static bool any_killed(const struct gs_results *r)
{
	uint32_t i;

	for (i = 0; i < r->n_tasks; i++)
		if (r->tasks[i].killed)
			return true;
	return false;
}

/* Every task of a has the same share in b, within tol. */
static void compare_shares(struct pt_case *c, const char *relation,
			   const struct gs_results *a,
			   const struct gs_results *b, double tol)
{
	const char *worst = NULL;
	double diff = 0;
	uint32_t i;

	for (i = 0; i < a->n_tasks; i++) {
		double sb = pt_share(b, a->tasks[i].name);
		double d = fabs(a->tasks[i].gpu_share - sb);

		if (sb < 0 || d > diff) {
			diff = sb < 0 ? INFINITY : d;
			worst = a->tasks[i].name;
		}
	}
	if (diff > tol)
		pt_fail(c, relation, "task %s: share %.4f vs %.4f (tolerance "
			"%.4f)", worst, pt_share(a, worst), pt_share(b, worst),
			tol);
}

/* The case's scenario run twice, the second time with the overrides:
 * false only when both ran and their bytes differ (a run that fails is
 * reported here). */
static bool same_bytes(struct pt_case *c, const char *relation,
		       const char *const *ovr, size_t n)
{
	struct gs_results a, b;
	g_autofree char *ba = NULL, *bb = NULL;
	bool same;

	if (!run_or_fail(c, "invariants", &c->base, NULL, 0, &a))
		return true;
	if (!run_or_fail(c, relation, &c->base, ovr, n, &b)) {
		gs_results_clear(&a);
		return true;
	}
	ba = pt_result_bytes(&a);
	bb = pt_result_bytes(&b);
	same = !strcmp(ba, bb);
	clear_pair(&a, &b);
	return same;
}

void pt_check_determinism(struct pt_case *c)
{
	if (!same_bytes(c, "determinism", NULL, 0))
		pt_fail(c, "determinism", "two runs differ");
}

/* What every result must satisfy: shares sum to 1 (or all are 0), each
 * in [0, 1]; utilisation in [0, 1] (rounding: 1e-9). */
void pt_check_ranges(struct pt_case *c)
{
	struct gs_results r;
	double sum = 0, util;
	uint32_t i;

	if (!run_or_fail(c, "ranges", &c->base, NULL, 0, &r))
		return;
	for (i = 0; i < r.n_tasks; i++) {
		sum += r.tasks[i].gpu_share;
		if (r.tasks[i].gpu_share < 0 || r.tasks[i].gpu_share > 1)
			pt_fail(c, "ranges", "task %s: share %g",
				r.tasks[i].name, r.tasks[i].gpu_share);
	}
	if (sum != 0 && fabs(sum - 1) > 1e-9)
		pt_fail(c, "ranges", "shares sum to %.12f", sum);
	util = r.metrics.gpu_utilization;
	/* on a node, jobs' kernels and other tasks' commands share the
	 * cores (gpu_model/shared.c): together they do at most one GPU's
	 * work (once utilisation passed 1) */
	if (util < 0 || util > 1 + 1e-9)
		pt_fail(c, "ranges", "utilisation %.6f", util);
	gs_results_clear(&r);
}

/* `--set KEY=VALUE` with the value the file already has: nothing may
 * change, for a scalar at the top, one in the GPU, one in a task and the
 * policy's name. */
void pt_check_set_identity(struct pt_case *c)
{
	const struct gs_gen_scenario *g = &c->base;
	g_autofree char *ring = g_strdup_printf(
		"%s.ring_entries=%u", g->gpus ? "node.gpu" : "gpu",
		g->ring_entries);
	g_autofree char *weight = g_strdup_printf(
		"tasks.%u.weight=%u", g->n_tasks - 1,
		g->tasks[g->n_tasks - 1].weight);
	g_autofree char *policy = g_strdup_printf("policy.name=%s", g->policy);
	g_autofree char *seed = g_strdup_printf("seed=%" G_GUINT64_FORMAT,
						g->seed);
	const char *ovr[] = { ring, weight, policy, seed };

	if (!same_bytes(c, "set-identity", ovr, G_N_ELEMENTS(ovr)))
		pt_fail(c, "set-identity", "--set %s %s %s %s changed the "
			"results", ring, weight, policy, seed);
}

/* Weights x 3: shares unchanged. Exactly for policies that do not read
 * weights; within SHARE_TOL for those that do, since their integer
 * arithmetic may round the larger weights differently and so flip a
 * decision (only the ratio of weights may matter: NEON 3.3, Fleig 3.3). */
void pt_check_weight_scale(struct pt_case *c)
{
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct gs_results a, b;

	*g = c->base;
	gs_gen_scale_weights(g, 3);
	if (run_pair(c, "weight-scale", g, &a, &b)) {
		compare_shares(c, "weight-scale", &a, &b,
			       uses_weights(g->policy) ? share_tol(g) : 0);
		clear_pair(&a, &b);
	}
	g_free(g);
}

/* A timeslice GPU (volta's sched) with a ring of 2 entries (the GPU's or
 * a task's own), i.e. one free slot:
 * the reorder relation is checked on the same scenario with 3 entries,
 * in both orders. With one slot, a task that keeps one command queued
 * refills the ring only after the dispatcher took the last one; if the
 * engine was idle, the command went straight to it, the group had no
 * work left, and the host moved on to the next group (a TSG runs "until
 * either every channel in the TSG runs out of work or the timeslice
 * expires": NVIDIA open-gpu-doc, gv100 dev_pbdma.ref.txt, "Semaphore
 * switch option"). If the engine was busy, the dispatcher stalled
 * holding the command, the refill came meanwhile, and the group kept
 * its whole slice. Which of the two happens at its first turn depends
 * on which group went before it, i.e. on the list's order, and it then
 * repeats every round: seed 600 (direct, volta), a copy-only throttle
 * with 70 us commands and 6 us launches, gets 0.28 of the GPU in one
 * order and 0.004 in the other; with 3 entries (or more) 0.281 and
 * 0.275 (docs/decisions.md, "Reorder on a one-slot ring"). */
static void widen_single_slot_ring(struct gs_gen_scenario *g)
{
	uint32_t i;

	if (!gs_gen_sched_timeslice(g))
		return;
	if (g->ring_entries == 2)
		g->ring_entries = 3;
	for (i = 0; i < g->n_tasks; i++)
		if (g->tasks[i].ring_entries == 2)
			g->tasks[i].ring_entries = 3;
}

/* Reversing the task list: each task's share unchanged within SHARE_TOL
 * (names, and so random streams, stay with the tasks; the order decides
 * channel ids and so the first round-robin turns). Not on a node: there
 * the list order is the arrival order and the placement order of
 * round-robin and least-loaded (DCUDA 4.1), so it is part of the input.
 *
 * Under the drm policies both runs first have no two tasks starting at
 * the same instant: task i of the case's list starts i ns later (the
 * offset travels with the task when the list is reversed). Tasks that
 * start together submit their first jobs at the same nanosecond, and
 * the event queue takes them in list order; drm_sched keeps that order
 * for the whole run, since nothing it accounts corrects it: drm-fifo
 * serves jobs in submission order, drm-rr takes turns in the order
 * entities joined the run queue (at their first job:
 * drm_sched_rq_add_entity appends an entity to the list once), drm-fair
 * lets a client that never queues two jobs rejoin at the head uncharged.
 * With clients whose jobs have fixed lengths, the phase that first tie
 * sets is the phase of the whole run (seed 242, drm-fifo, kepler: t2
 * 0.764 vs 0.802; the reversed list with t2 starting 1 us later gives
 * every task the original's GPU time to the nanosecond). In a kernel
 * two ktime_get() stamps do not tie, so which client goes first is not
 * the scheduler's to decide, nor the list's. With distinct starts every
 * reordering keeps the join and submission order, and reversed lists
 * gave the same shares in every case tried, drm-fair included
 * (docs/decisions.md).
 *
 * So under direct, where the GPU's own round is the only arbiter: a
 * channel that gains work joins the round behind the ones already in it
 * (gpu_model/dispatcher.c), so the order of the first submissions is the
 * round's order, and with commands of fixed lengths a round-robin
 * pattern set there repeats every cycle. Seed 1301 (kepler): t1's long
 * commands, t2's 12 us and t3's 34 us commands give t3 0.150 in the
 * list's order (t1, t2, t3, t3, t3 per t1 command) and 0.105 reversed
 * (t1, t3, t2, t3); with starts i ns apart the reversed list gives the
 * original's shares exactly, and the original list with the offsets
 * reversed gives the reversed list's: the first-submission order sets
 * the pattern, the channel ids do not. Which of two processes that start
 * together submits first is not the list's to decide on a real machine
 * either.
 *
 * Not under drr on the wall clock (`busy_clock: false`, GERM's rule): a
 * batch is charged the wall time from its forward to the tick that sees
 * it done, not the GPU time it used. With exclusive batches on a GPU
 * that idles between them that is about a tick each, less for a batch
 * forwarded between ticks from a submission, and which tasks' batches
 * start between ticks is decided by who is next in the round when the
 * GPU empties: the order. Seed 293: t3 0.34 vs 0.48 reversed; the same
 * scenario with busy_clock: true gives 0.367 in both orders, and with
 * the tick at 900 us (below t3's quantum, so it sends every visit
 * whatever it is charged) 0.477 and 0.478 (docs/decisions.md).
 *
 * Shares are compared only when no task was killed in either order.
 * dfq and hdfq kill a task whose request runs past kill_after while the
 * scheduler waits for it (a drain, a sample's end: NEON 3.1), timeslice
 * one whose channel shows no progress that long, and a task wanting the
 * GPU alone is never drained; so whether and when a task is killed is
 * decided by which of its requests the waits fall on, which the order
 * moves. Seed 102 (dfq, kepler, kill_after 300 us): eight of ten tasks
 * killed in either order, t4 surviving with 0.83 of the GPU in the
 * list's order, t9 and t1 (0.51, 0.39) reversed; seed 731 (dfq,
 * kepler, 1.8 ms): t6 and t9 killed in both orders, t9 with 0.005 of
 * the GPU in one and 0.427 in the other, killed that much later. A kill
 * moves the rest of the run, not one decision's granularity. The other
 * relations (weights x 3, durations x 2, an idle task) change no
 * request's timing and still compare, so they fail if the kills
 * differ. */
static bool drr_on_wall_clock(const struct gs_gen_scenario *g)
{
	return !strcmp(g->policy, "drr") && !gs_gen_param(g, "busy_clock", 1);
}

/* The same holds inside a VM whose own scheduler is a drm policy
 * (hdfq's nested mode): it orders the VM's tasks by their first jobs as
 * drm_sched does on a GPU; hdfq above it schedules the VM as one entity
 * and leaves the order within it to the VM's scheduler.
 * Seed 2280 (hdfq, kepler): sixteen tasks in one VM under drm-fair,
 * nine starting at 0; t0 0.715 in the list's order and 0.159 reversed,
 * and with starts i ns apart both orders give every task the same GPU
 * time to the nanosecond (docs/decisions.md). */
static bool starts_tie_in_list_order(const struct gs_gen_scenario *g)
{
	uint32_t i;

	if (g_str_has_prefix(g->policy, "drm-") || !strcmp(g->policy, "direct"))
		return true;
	for (i = 0; i < g->n_vms; i++)
		if (g_str_has_prefix(g->vms[i].scheduler, "drm-"))
			return true;
	return false;
}

void pt_check_reorder(struct pt_case *c)
{
	struct gs_gen_scenario *g0 = g_new(struct gs_gen_scenario, 1);
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct gs_results a, b;
	uint32_t i;

	*g0 = c->base;
	widen_single_slot_ring(g0);
	if (starts_tie_in_list_order(g0))
		for (i = 0; i < g0->n_tasks; i++)
			g0->tasks[i].start += i;
	*g = *g0;
	gs_gen_reverse_tasks(g);
	if (!g->gpus && !drr_on_wall_clock(g) &&
	    run_both(c, "reorder", g0, g, &a, &b)) {
		if (!any_killed(&a) && !any_killed(&b))
			compare_shares(c, "reorder", &a, &b, share_tol(g));
		clear_pair(&a, &b);
	}
	g_free(g);
	g_free(g0);
}

/* LoGA's poll and sleep phases last event_T (event_X x that) per channel
 * open on the polled GPU (paper 3.3, "per allocated command submission
 * channel"; policies/loga.c poll_mean), so the idle task's channel
 * lengthens every phase from its start on, by design, and the phase
 * length moves shares (seed 1170: two blocking throttles, t1 0.558 in
 * the base, 0.652 with the idle task's channel, 0.651 in the base with
 * event_T x 3/2). The base the idle-task run is compared with
 * then holds the same channels for the same time: its twin (the task
 * opening channels last, at the idle task's start, and keeping them to
 * the end: gs_gen_idle_channel_twin) gets one more channel, which no
 * behaviour uses (a throttle uses channel 0, an app leaves channels
 * beyond its own idle, LoGA 5.1; scripts and traces name theirs). The
 * channel count is then the same at every instant in both runs, so is
 * every phase, whatever the starts and whichever tasks exit; the idle
 * task's entity (in the weights' mean, seed 412; active or not, seed
 * 696) is what is left to compare. event_T x (N+1)/N, the other way to
 * lengthen the base's phases, is exact only while the base has N
 * channels: not before the last task starts (seed 1170's t0 starts at
 * 9.8 ms), nor after a trace or a one-shot script exits.
 *
 * When the twin is not the last task in the list opening channels at
 * that instant (that one exits), the channels of the tasks after it
 * get ids one higher than in the idle-task run: LoGA reads no id, and
 * what the GPU's round does with it is a change of order, which
 * SHARE_TOL covers (the reorder relation). With no twin (every task
 * starting last exits), no base has the idle-task run's phases, and the
 * relation is not checked under LoGA. */
static bool phases_per_channel(const struct gs_gen_scenario *g)
{
	return !strcmp(g->policy, "loga");
}

/* The base with the idle task's channel held by its twin; false when it
 * has none (above). */
static bool base_with_idle_channel(const struct gs_gen_scenario *base,
				   struct gs_gen_scenario *g0)
{
	int32_t twin = gs_gen_idle_channel_twin(base);

	*g0 = *base;
	if (!phases_per_channel(base))
		return true;
	if (twin < 0)
		return false;
	g0->tasks[twin].channels++;
	return true;
}

/* A task that never submits (it sleeps): the others' shares unchanged
 * within SHARE_TOL (it shifts channel ids by none, since it comes last,
 * but it is one more task for a policy to pass over). SHARE_TOL is the
 * compared base's: under loga its granularity counts the twin's added
 * channel in the phases, as the idle-task run's does.
 *
 * Not on a node whose arrivals come in a shuffled order: the order is a
 * permutation of all the task definitions drawn from the seed
 * (workloads/config_node.c), so one more definition draws another
 * permutation of the others, and the arrival order is part of a node's
 * input (the reorder relation's reason). Seed 23 (round-robin, kepler):
 * t15 0.005 against 0.224; the same files with `order: listed` give it
 * the same share in both (seeds 18 and 26 failed the same way). */
void pt_check_idle_task(struct pt_case *c)
{
	struct gs_gen_scenario *g0 = g_new(struct gs_gen_scenario, 1);
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct gs_results a, b;

	*g = c->base;
	if (!g->more.arrivals_shuffled &&
	    base_with_idle_channel(&c->base, g0) && gs_gen_add_idle_task(g) &&
	    run_both(c, "idle-task", g0, g, &a, &b)) {
		compare_shares(c, "idle-task", &a, &b, share_tol(g0));
		clear_pair(&a, &b);
	}
	g_free(g);
	g_free(g0);
}

/* GPU time as a share of the run: the same in a and b (b's run longer). */
static void compare_times(struct pt_case *c, const struct gs_results *a,
			  const struct gs_results *b, gs_time_t da,
			  gs_time_t db, double tol)
{
	uint32_t i;

	for (i = 0; i < a->n_tasks; i++) {
		const struct gs_task_result *ta = &a->tasks[i];
		const struct gs_task_result *tb = pt_task(b, ta->name);
		double fa = (double)ta->gpu_time_ns / (double)da;
		double fb = tb ? (double)tb->gpu_time_ns / (double)db : -1;

		if (fabs(fa - fb) <= tol)
			continue;
		pt_fail(c, "time-scale", "task %s: GPU time %" G_GUINT64_FORMAT
			" ns, scaled x2: %" G_GUINT64_FORMAT " ns", ta->name,
			ta->gpu_time_ns, tb ? tb->gpu_time_ns : 0);
		return;
	}
}

/* Every duration x 2: shares unchanged and GPU times doubled, within
 * SHARE_TOL (of the run's duration). Exact for constant durations, since
 * every cost of the model is a parameter that scales; a distribution's
 * draws round to whole nanoseconds before and after scaling, which may
 * flip a decision (each draw is a monotone map of the stream's words, so
 * the scaled run draws twice the base's values: a uniform draw taken mod
 * the range drew unrelated ones, seeds 2134 and 2196, base/rng.h).
 * Scenarios with built-in apps (whose times are NEON's Table 1) are
 * skipped.
 *
 * Not under drm-fair, for the reason it is not in the reorder relation:
 * a client with one job at a time is never charged and rejoins 1 ns ahead
 * of or behind the head, by averages kept in whole microseconds (the
 * kernel's arithmetic, which does not scale), so a changed tie early on
 * is carried for the whole run. At PROPTEST_N=100, seed 50 on kepler
 * moved a share from 0.81 to 0.62; charging every pop instead (tried)
 * passes it, so it is that rule of the fair series, not the model. */
void pt_check_time_scale(struct pt_case *c)
{
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct gs_results a, b;
	double tol = share_tol(&c->base);

	*g = c->base;
	if (strcmp(g->policy, "drm-fair") && gs_gen_scale_time(g, 2) &&
	    run_pair(c, "time-scale", g, &a, &b)) {
		compare_shares(c, "time-scale", &a, &b, tol);
		compare_times(c, &a, &b, c->base.duration, g->duration, tol);
		clear_pair(&a, &b);
	}
	g_free(g);
}
