/* Whole scenarios: the invariant checker catching work left waiting and
 * cores overused, jobs and engine commands sharing the cores, drr
 * measuring copies. */
#include "tests/support/scenario_fixture.h"

static struct gs_sim *run_sim(const char *yaml, struct gs_scenario **sc)
{
	struct gs_sim_options opt = { .timeline = false };
	GError *err = NULL;
	struct gs_sim *sim;

	*sc = load(yaml);
	sim = gs_sim_new(*sc, &opt, &err);
	assert_non_null(sim);
	gs_sim_run(sim, NULL);
	return sim;
}

/* 'no work waits for ever': a channel with published work that nothing
 * will fetch (the GPU idle, the dispatcher not due), and one the round
 * has passed more often than there were channels in it. */
static void test_invariant_catches_waiting_work(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = run_sim(
		"duration: 20ms\ngpu: {preset: kepler}\ntasks:\n"
		"  - name: a\n    count: 2\n    behavior:"
		" {throttle: {kernel: 1ms, sleep: 0ns, blocking: false}}\n", &sc);
	struct gs_dispatcher *d = &sim->gpus[0]->disp;
	struct gs_channel *ch = d->cursor;
	char *err;
	(void)state;

	assert_null(gs_sim_check_invariants(sim));
	/* two tasks that fill their rings: both wait in the round */
	assert_int_equal(d->pending, 2);
	assert_int_equal(ch->wait_bound, 2);
	ch->wait_from = d->front_moves - ch->wait_bound - 1;
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "'no work waits for ever'"));
	assert_non_null(strstr(err, "passed over 3 times with work (2 "
				    "channels were in the round)"));
	g_free(err);
	ch->wait_from = d->front_moves;
	assert_null(gs_sim_check_invariants(sim));
	gs_sim_free(sim);
	gs_scenario_free(sc);

	sim = run_sim("duration: 20ms\ngpu: {preset: kepler}\ntasks:\n"
		      "  - name: a\n    behavior:"
		      " {throttle: {kernel: 1ms, sleep: 15ms}}\n", &sc);
	d = &sim->gpus[0]->disp;
	ch = sim->tasks[0].chans[0].ch;
	assert_null(gs_sim_check_invariants(sim));
	/* the task sleeps, the GPU is idle: published work now would wait
	 * for ever, since no doorbell woke the dispatcher */
	ch->rr_linked = true;
	ch->rr_next = ch->rr_prev = ch;
	d->cursor = ch;
	d->pending = 1;
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "the GPU is idle and the dispatcher not "
				    "due to run"));
	g_free(err);
	ch->rr_linked = false;
	ch->rr_next = ch->rr_prev = NULL;
	d->cursor = NULL;
	d->pending = 0;
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* A job's kernels (half the cores) beside an ordinary task's commands
 * on one GPU: the command fills the cores when alone, so the two share
 * them as demands 0.5 and 1 (shared.c), each at 1 / 1.5 of full speed:
 * the task gets about 2/3 of the GPU's work, the job 1/3, and together
 * never more than the time that passed. The commands ran at full speed
 * beside the job, and utilisation reached 1.33. */
static void test_job_and_engine_commands_share_the_cores(void **state)
{
	struct gs_results r;
	double task, job;
	(void)state;

	run("duration: 600ms\nnode: {gpus: 1}\npolicy: {name: direct}\n"
	    "tasks:\n"
	    "  - {name: job, behavior: {job: {demand: 50%, kernel: 10ms, "
	    "length: 10s}}}\n"
	    "  - {name: task, behavior: {throttle: {kernel: 10ms, "
	    "sleep: 0ns}}}\n", false, &r);
	job = (double)r.tasks[0].gpu_time_ns / (600 * GS_NS_PER_MS);
	task = (double)r.tasks[1].gpu_time_ns / (600 * GS_NS_PER_MS);
	assert_true(r.metrics.gpu_utilization <= 1 + 1e-9);
	assert_true(r.metrics.gpu_utilization > 0.99);
	assert_true(fabs(task - 2.0 / 3) < 0.02);
	assert_true(fabs(job - 1.0 / 3) < 0.02);
	gs_results_clear(&r);
}

/* The invariant: the cores' users together do at most one GPU's work. */
static void test_invariant_catches_overused_cores(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = run_sim(
		"duration: 100ms\nnode: {gpus: 1}\ntasks:\n"
		"  - {name: job, behavior: {job: {demand: 50%, kernel: 10ms, "
		"length: 10s}}}\n"
		"  - {name: task, behavior: {throttle: {kernel: 10ms}}}\n", &sc);
	struct gs_shared *sh = &sim->gpus[0]->shared;
	char *err;
	(void)state;

	assert_null(gs_sim_check_invariants(sim));
	/* a third of the time more for the job: more than the time left */
	sh->work_ns += 40 * GS_NS_PER_MS;
	sim->task_figs[0].gpu_time += 40 * GS_NS_PER_MS;
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "'engine time <= elapsed'"));
	assert_non_null(strstr(err, "of the cores in 100000000 ns"));
	g_free(err);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* drr measures a batch with the engines' busy counters: a copy costs
 * what a kernel of the same length costs. Measured with the compute
 * engine's counter alone, copies cost nothing, the estimates fell to
 * nothing and every batch waited for the tick: the copy task did 400 ms
 * of work where the compute task did 667 ms. */
static void test_drr_measures_copies(void **state)
{
	static const char *const engines[] = { "compute", "copy" };
	struct gs_results r;
	double work[2];
	uint32_t i;
	(void)state;

	for (i = 0; i < 2; i++) {
		char *yaml = g_strdup_printf(
			"duration: 1s\ngpu: {preset: kepler}\n"
			"policy: {name: drr}\ntasks:\n  - {name: t, behavior: "
			"{throttle: {kernel: 200us, sleep: 0ns, engine: %s}}}\n",
			engines[i]);

		run(yaml, false, &r);
		work[i] = (double)r.tasks[0].gpu_time_ns;
		/* and drr's accounting agrees with the ground truth */
		assert_true(fabs((double)r.tasks[0].accounted_gpu_time_ns -
				 work[i]) < 0.01 * work[i]);
		gs_results_clear(&r);
		g_free(yaml);
	}
	assert_true(fabs(work[1] - work[0]) < 0.005 * work[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invariant_catches_waiting_work),
		cmocka_unit_test(test_job_and_engine_commands_share_the_cores),
		cmocka_unit_test(test_invariant_catches_overused_cores),
		cmocka_unit_test(test_drr_measures_copies),
	
	};

	return cmocka_run_group_tests_name("scenario_cores", tests, NULL, NULL);
}
