/* Engines report a change of their status register (hooks.status_change)
 * only while a poll loop reads it (gs_gpu.status_watchers): the count must
 * follow every loop's start, restart, end and stop, or a loop misses the
 * changes it waits for (count too low) or every command pays for the
 * report again (count too high). */
#include "tests/support/hal_sim_fixture.h"

/* What the probe saw at each of its timers, by timer step. */
struct watch_probe {
	uint32_t step;
	uint32_t watchers[9];
	uint32_t changes_in_second_loop;
	uint32_t ends;
};

static uint32_t watchers_now(struct hal_sched *s)
{
	return s->sim->gpus[0]->status_watchers;
}

static int watch_init(struct hal_sched *s)
{
	hal_timer_arm(s, 0, 1000000);
	return 0;
}

static void watch_fini(struct hal_sched *s)
{
	(void)s;
}

/* 1 ms: a loop to 3 ms; 2 ms: restarted to 5 ms while it runs; 6 ms: it
 * has ended by itself; 7 ms: a loop to 20 ms; 8 ms: stopped; 9 ms: none. */
static void watch_timer(struct hal_sched *s, hal_u32 id)
{
	struct watch_probe *p = hal_priv(s);
	uint64_t ms = hal_now(s) / 1000000;
	(void)id;

	if (ms == 1 || ms == 2 || ms == 7)
		hal_poll_start(s, 0, HAL_ENGINE_COMPUTE,
			       ms == 1 ? 3000000 : ms == 2 ? 5000000
							  : 20000000);
	if (ms == 8)
		hal_poll_stop(s);
	if (p->step < G_N_ELEMENTS(p->watchers))
		p->watchers[p->step++] = watchers_now(s);
	if (ms < 9)
		hal_timer_arm(s, 0, (ms + 1) * 1000000);
}

static void watch_change(struct hal_sched *s,
			 const struct hal_engine_status *st, hal_u64 when)
{
	struct watch_probe *p = hal_priv(s);
	(void)st;

	if (when > 3000000 && when < 5000000)
		p->changes_in_second_loop++;
}

static void watch_end(struct hal_sched *s)
{
	struct watch_probe *p = hal_priv(s);

	p->ends++;
}

static const struct gs_policy_ops watch_ops = {
	.name = "watch-probe",
	.priv_size = sizeof(struct watch_probe),
	.init = watch_init,
	.fini = watch_fini,
	.timer = watch_timer,
	.poll_change = watch_change,
	.poll_end = watch_end,
};

static const char *const watch_yaml =
	"duration: 12ms\nseed: 5\ngpu: {mmio_read: 1us}\ntasks:\n"
	"  - name: a\n    behavior: {throttle: {kernel: {uniform: [10us, 50us]}}}\n";

static void test_count_follows_start_restart_end_and_stop(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(watch_yaml, &watch_ops, &sc);
	struct watch_probe *p = sim->sched.priv;
	uint32_t i;
	(void)state;

	assert_int_equal(watchers_now(&sim->sched), 0);
	gs_sim_run(sim, NULL);
	assert_int_equal(p->step, 9);
	/* 1 ms: started; 2 ms: restarted (one loop, counted once); 3 and
	 * 4 ms: running (5 ms, its end, may come before or after the timer) */
	for (i = 0; i < 4; i++)
		assert_int_equal(p->watchers[i], 1);
	assert_int_equal(p->watchers[5], 0); /* 6 ms: ended by itself */
	assert_int_equal(p->watchers[6], 1); /* 7 ms: a new loop */
	assert_int_equal(p->watchers[7], 0); /* 8 ms: stopped */
	assert_int_equal(p->watchers[8], 0);
	/* the restarted loop still heard the engine's changes */
	assert_true(p->changes_in_second_loop > 10);
	assert_int_equal(p->ends, 1);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* No loop: a run of commands reports no status change at all. */
static uint32_t reports;

static void count_report(void *ctx, struct gs_gpu *gpu, uint8_t engine)
{
	(void)ctx;
	(void)gpu;
	(void)engine;
	reports++;
}

static void test_no_report_without_a_watcher(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(watch_yaml, NULL, &sc);
	struct gs_gpu *gpu = sim->gpus[0];
	(void)state;

	reports = 0;
	gpu->hooks.status_change = count_report;
	gs_sim_run(sim, NULL);
	assert_true(gpu->engines[GS_ENGINE_COMPUTE].commands > 100);
	assert_int_equal(reports, 0);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_follows_start_restart_end_and_stop),
		cmocka_unit_test(test_no_report_without_a_watcher),
	};

	return cmocka_run_group_tests_name("status_watchers", tests, NULL,
					   NULL);
}
