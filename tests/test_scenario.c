/* Whole scenarios through loader, host model, GPU model and results:
 * round-robin unfairness (NEON Fig. 6, direct), determinism, blocking on a
 * full ring, round limits, multi-GPU placement, ground truth adding up,
 * killing an endless kernel (schedulers: test_scenario_sched.c; shared
 * cores and the invariants: test_scenario_cores.c). */
#include "tests/support/scenario_fixture.h"

static const char *const two_throttles =
	"name: fig6\nseed: 1\nduration: 2s\n"
	"gpu: {preset: kepler}\npolicy: {name: direct}\n"
	"tasks:\n"
	"  - name: short\n    behavior: {throttle: {kernel: 100us}}\n"
	"  - name: long\n    behavior: {throttle: {kernel: 1000us}}\n";

static void test_round_robin_gives_share_in_request_ratio(void **state)
{
	struct gs_results r;
	(void)state;

	run(two_throttles, true, &r);
	assert_int_equal(r.n_tasks, 2);
	assert_true(fabs(r.tasks[0].gpu_share - 1.0 / 11) < 0.02);
	assert_true(fabs(r.tasks[1].gpu_share - 10.0 / 11) < 0.02);
	/* the short task waits for a long request after each of its own */
	assert_true(r.tasks[0].slowdown > 8);
	assert_true(r.tasks[1].slowdown < 1.3);
	assert_true(fabs(r.tasks[0].gpu_share + r.tasks[1].gpu_share - 1) <
		    1e-12);
	assert_int_equal(r.sim_time_ns, 2 * GS_NS_PER_S);
	gs_results_clear(&r);
}

static const char *const jittery =
	"duration: 200ms\nseed: %u\n"
	"tasks:\n"
	"  - name: a\n    behavior: {throttle: {kernel: {exponential: 80us},"
	" sleep: {uniform: [10us, 90us]}}}\n"
	"  - name: b\n    count: 3\n"
	"    behavior: {throttle: {kernel: {normal: {mean: 200us, stddev: 50us}}}}\n";

static void test_same_seed_same_run_other_seed_differs(void **state)
{
	struct gs_results r1, r2, r3;
	char *y1 = g_strdup_printf(jittery, 5), *y2 = g_strdup_printf(jittery, 6);
	uint32_t i;
	(void)state;

	run(y1, false, &r1);
	run(y1, false, &r2);
	run(y2, false, &r3);
	assert_true(r1.events > 1000);
	assert_int_equal(r1.events, r2.events);
	assert_int_equal(r1.event_checksum, r2.event_checksum);
	for (i = 0; i < r1.n_tasks; i++)
		assert_int_equal(r1.tasks[i].gpu_time_ns, r2.tasks[i].gpu_time_ns);
	assert_int_equal(r1.spans->len, r2.spans->len);
	assert_memory_equal(r1.spans->data, r2.spans->data,
			    r1.spans->len * sizeof(struct gs_span));
	assert_true(r1.event_checksum != r3.event_checksum);
	gs_results_clear(&r1);
	gs_results_clear(&r2);
	gs_results_clear(&r3);
	g_free(y1);
	g_free(y2);
}

/* A task's random stream does not depend on the other tasks. */
static void test_adding_a_task_keeps_other_streams(void **state)
{
	const char *alone =
		"duration: 50ms\ngpu: {max_channels: 64}\ntasks:\n"
		"  - name: a\n    gpu: 0\n    behavior: {throttle: {kernel:"
		" {uniform: [10us, 90us]}}}\n";
	const char *with_b =
		"duration: 50ms\nnode: {gpus: 2, gpu: {max_channels: 64}}\n"
		"tasks:\n"
		"  - name: b\n    gpu: 1\n    behavior: {throttle: {kernel:"
		" {uniform: [10us, 90us]}}}\n"
		"  - name: a\n    gpu: 0\n    behavior: {throttle: {kernel:"
		" {uniform: [10us, 90us]}}}\n";
	struct gs_results r1, r2;
	(void)state;

	run(alone, false, &r1);
	run(with_b, false, &r2);
	/* a is alone on GPU 0 in both runs: identical GPU time */
	assert_string_equal(r2.tasks[1].name, "a");
	assert_int_equal(r1.tasks[0].gpu_time_ns, r2.tasks[1].gpu_time_ns);
	assert_int_equal(r1.tasks[0].rounds, r2.tasks[1].rounds);
	assert_true(r2.tasks[0].gpu_time_ns != r2.tasks[1].gpu_time_ns);
	gs_results_clear(&r1);
	gs_results_clear(&r2);
}

/* A non-blocking task fills its ring and blocks; it never has more than
 * ring_entries - 1 commands queued. */
static void test_full_ring_blocks_the_task(void **state)
{
	const char *y =
		"duration: 20ms\ngpu: {ring_entries: 8}\n"
		"host: {launch: 1us, doorbell: 0}\n"
		"tasks:\n"
		"  - name: flood\n    behavior: {throttle: {kernel: 100us,"
		" blocking: false}}\n";
	struct gs_results r;
	(void)state;

	run(y, true, &r);
	/* GPU saturated: ~200 commands ran in 20 ms, rounds (launches) can
	 * only run ahead by the ring's capacity plus the one running and one
	 * held by the dispatcher */
	assert_true(r.tasks[0].gpu_time_ns >= 19 * GS_NS_PER_MS);
	assert_true(r.tasks[0].rounds <= 200 + 7 + 2);
	assert_true(r.tasks[0].rounds >= 195);
	gs_results_clear(&r);
}

static void test_round_limit_ends_the_run(void **state)
{
	const char *y =
		"duration: 10s\ntasks:\n"
		"  - name: a\n    rounds: 10\n    behavior: {throttle: {kernel:"
		" 100us, sleep: 50us}}\n";
	struct gs_results r;
	(void)state;

	run(y, true, &r);
	assert_int_equal(r.tasks[0].rounds, 10);
	assert_true(r.sim_time_ns < 5 * GS_NS_PER_MS);
	assert_int_equal(r.tasks[0].gpu_time_ns, 1000 * GS_NS_PER_US);
	/* alone and shared are the same run: slowdown 1 */
	assert_true(fabs(r.tasks[0].slowdown - 1.0) < 1e-9);
	assert_true(fabs(r.metrics.jain_index - 1.0) < 1e-9);
	gs_results_clear(&r);
}

/* Found by fuzzing the --set paths: the series sampler summed a task's
 * channels with an 8-bit index, so a task with more than 255 channels
 * looped forever at the first sample. The alarm turns a hang into a
 * failure (it is a watchdog, not a speed limit). */
static void test_task_with_many_channels_is_sampled(void **state)
{
	const char *y =
		"duration: 5ms\noutput: {series_interval: 1ms}\ntasks:\n"
		"  - name: wide\n    channels: 300\n"
		"    behavior: {throttle: {kernel: 100us}}\n";
	struct gs_results r;
	(void)state;

	alarm(60);
	run(y, false, &r);
	alarm(0);
	assert_true(r.sim_time_ns >= 5 * GS_NS_PER_MS);
	assert_true(r.tasks[0].gpu_time_ns > 4 * GS_NS_PER_MS);
	gs_results_clear(&r);
}

static void test_tasks_spread_over_gpus(void **state)
{
	const char *y =
		"duration: 100ms\nnode: {gpus: 2}\ntasks:\n"
		"  - name: t\n    count: 4\n    behavior: {throttle: {kernel:"
		" 500us}}\n";
	struct gs_results r;
	uint32_t i;
	(void)state;

	run(y, false, &r);
	assert_int_equal(r.n_tasks, 4);
	assert_string_equal(r.tasks[3].name, "t#3");
	for (i = 0; i < 4; i++) {
		assert_int_equal(r.tasks[i].gpu, i % 2);
		assert_true(fabs(r.tasks[i].gpu_share - 0.25) < 0.01);
	}
	gs_results_clear(&r);
}

/* A task of count n is n replicas named name#0 to name#(n-1), one of
 * count 1 keeps its name. */
static void test_replica_names(void **state)
{
	const char *y =
		"duration: 1ms\ntasks:\n"
		"  - name: t\n    count: 12\n    behavior: {throttle: {kernel:"
		" 50us}}\n"
		"  - name: single\n    behavior: {throttle: {kernel: 50us}}\n";
	struct gs_results r;
	uint32_t i;
	(void)state;

	run(y, false, &r);
	assert_int_equal(r.n_tasks, 13);
	for (i = 0; i < 12; i++) {
		g_autofree char *want = g_strdup_printf("t#%u", i);

		assert_string_equal(r.tasks[i].name, want);
	}
	assert_string_equal(r.tasks[12].name, "single");
	gs_results_clear(&r);
}

/* Ground truth adds up: task GPU time = compute engine busy time. */
static void test_gpu_time_adds_up_to_busy_time(void **state)
{
	struct gs_results r;
	uint64_t sum = 0;
	uint32_t i;
	double busy;
	(void)state;

	run(two_throttles, false, &r);
	for (i = 0; i < r.n_tasks; i++)
		sum += r.tasks[i].gpu_time_ns;
	busy = r.metrics.gpu_utilization * (double)r.sim_time_ns;
	/* busy counts finished commands; sum includes the running one */
	assert_true(fabs((double)sum - busy) <= 1000.0 * GS_NS_PER_US);
	assert_true(r.metrics.gpu_utilization > 0.9);
	assert_true(r.metrics.ctx_switches > 1500);
	gs_results_clear(&r);
}

static void test_app_against_long_throttle(void **state)
{
	const char *y =
		"duration: 1s\ntasks:\n"
		"  - name: dct\n    behavior: {app: DCT}\n"
		"  - name: throttle\n    behavior: {throttle: {kernel: 1700us}}\n";
	struct gs_results r;
	(void)state;

	run(y, true, &r);
	/* NEON Fig. 6, direct: more than 10x for DCT */
	assert_true(r.tasks[0].slowdown > 10);
	assert_true(r.tasks[1].slowdown < 1.2);
	assert_true(r.metrics.jain_index < 0.7);
	gs_results_clear(&r);
}

/* NEON 3.1/3.3: a request that runs past kill_after gets its task killed;
 * its channel is torn down and the others go on. The tasks queued behind
 * the stuck request show no progress either, and must not be killed with
 * it (dfq once killed them too). */
static void endless_kernel_killed(const char *policy)
{
	char *y = g_strdup_printf(
		"duration: 2s\npolicy: {name: %s, params: {kill_after: 200ms}}\n"
		"tasks:\n"
		"  - name: endless\n    start: 10ms\n"
		"    behavior: {throttle: {kernel: 1000s}}\n"
		"  - name: a\n    behavior: {throttle: {kernel: 100us}}\n"
		"  - name: b\n    behavior: {throttle: {kernel: 300us}}\n",
		policy);
	struct gs_results r;

	run(y, false, &r);
	assert_true(r.tasks[0].killed);
	assert_false(r.tasks[1].killed);
	assert_false(r.tasks[2].killed);
	/* the endless kernel held the GPU for about kill_after, no more */
	assert_true(r.tasks[0].gpu_time_ns >= 150 * GS_NS_PER_MS);
	assert_true(r.tasks[0].gpu_time_ns < 350 * GS_NS_PER_MS);
	/* the others shared the rest of the two seconds */
	assert_true(r.tasks[1].gpu_time_ns + r.tasks[2].gpu_time_ns >
		    1400 * GS_NS_PER_MS);
	assert_true(r.tasks[1].rounds > 1000);
	gs_results_clear(&r);
	g_free(y);
}

static void test_timeslice_kills_an_endless_kernel(void **state)
{
	(void)state;
	endless_kernel_killed("timeslice");
}

static void test_dfq_kills_an_endless_kernel_only(void **state)
{
	(void)state;
	endless_kernel_killed("dfq");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_robin_gives_share_in_request_ratio),
		cmocka_unit_test(test_same_seed_same_run_other_seed_differs),
		cmocka_unit_test(test_adding_a_task_keeps_other_streams),
		cmocka_unit_test(test_full_ring_blocks_the_task),
		cmocka_unit_test(test_round_limit_ends_the_run),
		cmocka_unit_test(test_task_with_many_channels_is_sampled),
		cmocka_unit_test(test_tasks_spread_over_gpus),
		cmocka_unit_test(test_replica_names),
		cmocka_unit_test(test_gpu_time_adds_up_to_busy_time),
		cmocka_unit_test(test_app_against_long_throttle),
		cmocka_unit_test(test_timeslice_kills_an_endless_kernel),
		cmocka_unit_test(test_dfq_kills_an_endless_kernel_only),
	};

	return cmocka_run_group_tests_name("scenario", tests, NULL, NULL);
}
