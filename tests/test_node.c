/* Multi-GPU node scenarios through loader, host, GPU model and results:
 * jobs sharing a GPU's cores (the contention model), task migration
 * through the HAL, arrivals over time, the node power model and the
 * utilisation bands. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <math.h>
#include <string.h>

#include "tests/support/node_run.h"

#define PAIR(d1, d2, extra) \
	"duration: 10s\nnode: {gpus: 1" extra "}\npolicy: {name: direct}\n" \
	"tasks:\n" \
	"  - {name: a, behavior: {job: {demand: " d1 ", kernel: 10ms, length: 1s}}}\n" \
	"  - {name: b, behavior: {job: {demand: " d2 ", kernel: 10ms, length: 1s}}}\n"

/* Below full occupancy jobs run side by side at full speed. */
static void test_jobs_below_capacity_do_not_slow(void **state)
{
	struct gs_results r;
	(void)state;

	run_with(PAIR("40%", "50%", ""), NULL, &r);
	assert_true(r.node_report);
	assert_true(r.tasks[0].slowdown < 1.001);
	assert_true(r.tasks[1].slowdown < 1.001);
	assert_true(r.metrics.overloaded_time < 1e-9);
	assert_true(fabs(r.metrics.mean_normalized_time - 1) < 0.001);
	assert_true(fabs(r.metrics.qos - 1) < 1e-12);
	gs_results_clear(&r);
}

/* 80% + 80%: the cores are shared in proportion, both take 1.6 times as
 * long; with interference 1 the oversubscribed GPU runs twice as slow
 * again. The GPU is overloaded all the time both run. */
static void test_jobs_beyond_capacity_share_in_proportion(void **state)
{
	struct gs_results r;
	(void)state;

	run_with(PAIR("80%", "0.8", ""), NULL, &r);
	assert_true(fabs(r.tasks[0].slowdown - 1.6) < 0.02);
	assert_true(fabs(r.tasks[1].slowdown - 1.6) < 0.02);
	assert_true(r.metrics.overloaded_time > 0.98);
	assert_true(fabs(r.metrics.qos) < 1e-12);
	gs_results_clear(&r);

	run_with(PAIR("80%", "80%", ", interference: 1.0"), NULL, &r);
	assert_true(fabs(r.tasks[0].slowdown - 3.2) < 0.05);
	gs_results_clear(&r);
}

/* A test policy that moves the first task to GPU 1 at 100 ms and records
 * where its channels are created. */
static struct hal_task *mover_task;
static unsigned mover_creates;
static uint32_t mover_last_gpu;
static int mover_rc;

static int mover_init(struct hal_sched *s)
{
	mover_task = NULL;
	mover_creates = 0;
	mover_rc = 1;
	hal_timer_arm(s, 0, 100 * GS_NS_PER_MS);
	return 0;
}

static void mover_task_create(struct hal_sched *s, struct hal_task *t)
{
	(void)s;
	if (!mover_task)
		mover_task = t;
}

static void mover_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	if (hal_chan_task(c) == mover_task) {
		mover_creates++;
		mover_last_gpu = hal_chan_gpu(c);
	}
}

static void mover_timer(struct hal_sched *s, hal_u32 id)
{
	(void)id;
	mover_rc = hal_task_migrate(s, mover_task, 1);
}

static const struct gs_policy_ops mover = {
	.name = "mover",
	.init = mover_init,
	.task_create = mover_task_create,
	.channel_create = mover_channel_create,
	.timer = mover_timer,
};

/* The move waits for the running kernel, recreates the channel on the
 * target and stalls the task for clone + on-demand share of its memory
 * over the link: 5 ms + 5% of 1.2 GiB at 12 GiB/s = 10 ms. Ground truth
 * (checked by the invariants) survives. */
static void test_migration_between_launches(void **state)
{
	static const char *const yaml =
		"duration: 10s\nnode: {gpus: 2, migration: {clone: 5ms, "
		"bandwidth: 12GiB/s, on_demand: 5%}}\n"
		"tasks:\n"
		"  - {name: a, gpu: 0, behavior: {job: {demand: 50%, "
		"kernel: 30ms, length: 1s, memory: 1.2GiB}}}\n";
	struct gs_results r;
	double alone, extra;
	(void)state;

	run_with(yaml, &mover, &r);
	assert_int_equal(mover_rc, 0);
	assert_int_equal(mover_creates, 2);
	assert_int_equal(mover_last_gpu, 1);
	assert_int_equal(r.tasks[0].gpu, 1);
	assert_int_equal(r.tasks[0].migrations, 1);
	assert_int_equal(r.metrics.migrations, 1);
	alone = r.tasks[0].round_mean_ns / r.tasks[0].slowdown;
	extra = r.tasks[0].round_mean_ns - alone;
	assert_true(fabs(extra - 10e6) < 0.1e6);
	/* one wake-up each: GPU 0 at the start, GPU 1 at the move */
	assert_int_equal(r.gpus[0].wakeups, 1);
	assert_int_equal(r.gpus[1].wakeups, 1);
	gs_results_clear(&r);
}

/* node.power: GPU 0 awake while the job runs, GPU 1 idle all along. */
static void test_power_model(void **state)
{
	static const char *const yaml =
		"duration: 10s\nnode: {gpus: 2, power: {idle_watts: 10, "
		"active_watts: 100, wake_joules: 5}}\n"
		"tasks:\n"
		"  - {name: a, gpu: 0, start: 1s, behavior: {job: {demand: 50%, "
		"kernel: 10ms, length: 1s}}}\n";
	struct gs_results r;
	double t, awake, want;
	(void)state;

	run_with(yaml, NULL, &r);
	t = (double)r.sim_time_ns / 1e9;
	awake = (double)r.gpus[0].awake_ns / 1e9;
	assert_true(fabs(awake - (t - 1)) < 1e-6);
	want = 100 * awake + 10 * (t - awake) + 5 + 10 * t;
	assert_true(fabs(r.metrics.energy_j - want) < 1e-6);
	assert_true(fabs(r.gpus[1].energy_j - 10 * t) < 1e-6);
	assert_int_equal(r.gpus[1].wakeups, 0);
	/* 50% of one GPU: the 0-50% band */
	assert_int_equal(r.gpus[0].band_high_ns + r.gpus[0].band_over_ns, 0);
	gs_results_clear(&r);
}

#define ARRIVALS(spec, seed) \
	"duration: 100s\nseed: " seed "\nnode: {gpus: 2}\narrivals: " spec "\n" \
	"tasks:\n" \
	"  - {name: a, behavior: {job: {app: MatrixMul}}}\n" \
	"  - {name: b, behavior: {job: {app: Sort}}}\n" \
	"  - {name: c, behavior: {job: {app: BFS}}}\n" \
	"  - {name: d, behavior: {job: {app: alexnet}}}\n"

static void starts(const char *yaml, uint64_t out[4])
{
	GError *err = NULL;
	struct gs_scenario *sc = load_text(yaml, &err);
	unsigned i;

	if (!sc)
		fail_msg("%s", err->message);
	for (i = 0; i < 4; i++)
		out[i] = sc->tasks[i].start / GS_NS_PER_MS;
	gs_scenario_free(sc);
}

static void test_arrivals(void **state)
{
	uint64_t s[4], s2[4], sum = 0;
	bool differs = false;
	unsigned i, seed;
	(void)state;

	starts(ARRIVALS("{every: 5s}", "1"), s);
	for (i = 0; i < 4; i++)
		assert_int_equal(s[i], 5000 * i);
	starts(ARRIVALS("{at: [0s, 1s, 3s, 7s], first: 2s}", "1"), s);
	assert_int_equal(s[3], 9000);
	/* shuffled: the same times, in an order drawn from the seed */
	starts(ARRIVALS("{every: 5s, order: shuffled}", "3"), s);
	starts(ARRIVALS("{every: 5s, order: shuffled}", "3"), s2);
	assert_memory_equal(s, s2, sizeof(s));
	for (i = 0; i < 4; i++)
		sum += s[i];
	assert_int_equal(sum, 30000);
	for (seed = 4; seed < 10 && !differs; seed++) {
		char *y = g_strdup_printf(ARRIVALS("{every: 5s, order: shuffled}",
						   "%u"), seed);

		starts(y, s2);
		differs = memcmp(s, s2, sizeof(s)) != 0;
		g_free(y);
	}
	assert_true(differs);
	/* poisson: increasing, mean interval about right over few draws */
	starts(ARRIVALS("{poisson: 5s}", "1"), s);
	assert_true(s[0] == 0 && s[1] > 0 && s[2] > s[1] && s[3] > s[2]);
}

/* Tasks that are not jobs count in the bands with their demand measured
 * from what they launch: two throttles of 1 ms kernels on one GPU read
 * about 100% each when they do not sleep (blocking or on a full ring),
 * overloaded together; with 4 ms of sleep, 20% each: the 0-50% band. */
static void test_measured_demand_in_bands(void **state)
{
	static const struct {
		const char *throttle;
		enum { LOW, OVER } band;
	} cases[] = {
		{ "{kernel: 1ms}", OVER },
		{ "{kernel: 1ms, blocking: false}", OVER },
		{ "{kernel: 1ms, sleep: 4ms}", LOW },
	};
	unsigned i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *yaml = g_strdup_printf(
			"duration: 2s\nnode: {gpus: 1, power: {}}\n"
			"tasks:\n  - {name: t, count: 2, behavior: {throttle: %s}}\n",
			cases[i].throttle);
		struct gs_results r;
		const struct gs_gpu_result *g;

		run_with(yaml, NULL, &r);
		g = &r.gpus[0];
		/* the first window has no measurement yet */
		if (cases[i].band == OVER) {
			assert_true(g->band_over_ns >= 1900 * 1000000ULL);
			assert_true(r.metrics.overloaded_time > 0.9);
		} else {
			assert_int_equal(g->band_low_ns, r.sim_time_ns);
		}
		gs_results_clear(&r);
	}
}

/* A node of throttles: least-loaded leaves two 70% throttles on one GPU
 * (placed before any utilisation was measured), overloaded all along;
 * dcuda reads their demands and moves one within two monitor periods. */
static void test_dcuda_balances_throttles(void **state)
{
	static const char *const yaml =
		"duration: 5s\nnode: {gpus: 2}\npolicy: %s\ntasks:\n"
		"  - {name: h1, behavior: {throttle: {kernel: 7ms, sleep: 3ms}}}\n"
		"  - {name: l1, behavior: {throttle: {kernel: 1ms, sleep: 9ms}}}\n"
		"  - {name: h2, start: 50ms, behavior: {throttle: {kernel: 7ms, sleep: 3ms}}}\n"
		"  - {name: l2, start: 50ms, behavior: {throttle: {kernel: 1ms, sleep: 9ms}}}\n";
	g_autofree char *ll = g_strdup_printf(yaml, "least-loaded");
	g_autofree char *dc = g_strdup_printf(yaml, "dcuda");
	struct gs_results r;
	(void)state;

	run_with(ll, NULL, &r);
	assert_int_equal(r.tasks[0].gpu, r.tasks[2].gpu);
	assert_true(r.gpus[r.tasks[0].gpu].band_over_ns >= 4800 * 1000000ULL);
	assert_true(r.metrics.overloaded_time > 0.45);
	gs_results_clear(&r);
	run_with(dc, NULL, &r);
	assert_true(r.tasks[0].gpu != r.tasks[2].gpu);
	assert_true(r.metrics.migrations >= 1);
	assert_true(r.metrics.overloaded_time < 0.05);
	/* 70% and 90% after the move: both GPUs mostly in the 50-100% band */
	assert_true(r.gpus[0].band_high_ns > 4500 * 1000000ULL);
	assert_true(r.gpus[1].band_high_ns > 4500 * 1000000ULL);
	gs_results_clear(&r);
}

static void expect_error(const char *yaml, const char *needle)
{
	GError *err = NULL;
	struct gs_scenario *sc = load_text(yaml, &err);

	assert_null(sc);
	if (!strstr(err->message, needle))
		fail_msg("'%s' not in '%s'", needle, err->message);
	g_error_free(err);
}

static void test_node_config_errors(void **state)
{
	(void)state;
	expect_error("duration: 1s\ntasks:\n  - {name: a, behavior: {job: {app: MatrixMull}}}\n",
		     "node.yaml:3:37: unknown job app 'MatrixMull'; did you mean 'MatrixMul'?");
	expect_error("duration: 1s\ntasks:\n  - {name: a, behavior: {job: {demand: 50%}}}\n",
		     "job: give 'app'");
	expect_error("duration: 1s\ntasks:\n  - {name: a, behavior: {job: {demand: 150%, kernel: 1ms, length: 1s}}}\n",
		     "demand must be between 0% and 100%");
	expect_error("duration: 1s\narrivals: {every: 1s, poisson: 1s}\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n",
		     "give exactly one of 'every'");
	expect_error("duration: 1s\narrivals: {at: [0s, 1s]}\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n",
		     "arrivals.at: 2 times for 1 tasks");
	expect_error("duration: 1s\nnode: {gpus: 2, power: {idle_wats: 3}}\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n",
		     "did you mean 'idle_watts'");
	expect_error("duration: 1s\nnode: {gpus: 2, migration: {bandwidth: 12GiB}}\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n",
		     "bandwidth: expected bytes per second");
	expect_error("duration: 1s\nnode: {gpus: 2, memory: 0}\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n",
		     "node.yaml:2:25: memory must be above 0");
	expect_error("duration: 1s\nnode: {gpus: 2, memroy: 8GiB}\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n",
		     "did you mean 'memory'");
}

/* node.memory: the GPUs' memory (default: the paper's 12 GB), as the
 * HAL gives it to node policies. */
static void test_node_memory(void **state)
{
	GError *err = NULL;
	struct gs_scenario *sc;
	(void)state;

	sc = load_text("duration: 1s\nnode: {gpus: 2}\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n", &err);
	assert_non_null(sc);
	assert_true(sc->gpu_memory == 12ULL << 30);
	gs_scenario_free(sc);
	sc = load_text("duration: 1s\nnode: {gpus: 2, memory: 6GiB}\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n", &err);
	assert_non_null(sc);
	assert_true(sc->gpu_memory == 6ULL << 30);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_below_capacity_do_not_slow),
		cmocka_unit_test(test_jobs_beyond_capacity_share_in_proportion),
		cmocka_unit_test(test_migration_between_launches),
		cmocka_unit_test(test_power_model),
		cmocka_unit_test(test_arrivals),
		cmocka_unit_test(test_node_config_errors),
		cmocka_unit_test(test_node_memory),
		cmocka_unit_test(test_measured_demand_in_bands),
		cmocka_unit_test(test_dcuda_balances_throttles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
