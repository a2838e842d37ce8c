/* A series sample (sim/host/record.c, gs_record_sample) gives each task
 * the GPU time gs_task_gpu_time_now reads at that instant: its finished
 * work plus what its command running on the compute or copy engine has
 * done, or its shared kernels' part on a GPU where jobs share the cores;
 * on a node of several GPUs; at samples that fall mid-command. */
#include "tests/support/hal_sim_fixture.h"

#include "base/series.h"

/* Steps yaml's simulation to its end; after each series sample, what
 * gs_task_gpu_time_now says of every task, in row order, into expect.
 * The number of samples that found a command running. */
static unsigned expected_rows(const char *yaml, GArray *expect,
			      struct gs_sim **out, struct gs_scenario **sc)
{
	struct gs_sim *sim = start(yaml, NULL, sc);
	struct gs_evq *q = gs_sim_queue(sim);
	uint64_t rows = 0;
	unsigned mid_command = 0;

	while (q->now < (*sc)->duration && gs_evq_step(q)) {
		uint64_t now_rows = gs_series_rows(sim->rec->series);
		uint32_t i;
		bool running = false;

		if (now_rows == rows)
			continue;
		assert_int_equal(now_rows, rows + sim->n_tasks);
		rows = now_rows;
		for (i = 0; i < sim->n_tasks; i++) {
			gs_time_t t = gs_task_gpu_time_now(&sim->tasks[i]);

			running |= t != sim->task_figs[i].gpu_time;
			g_array_append_val(expect, t);
		}
		mid_command += running;
	}
	*out = sim;
	return mid_command;
}

static void assert_rows_as_expected(const char *yaml)
{
	GArray *expect = g_array_new(FALSE, FALSE, sizeof(gs_time_t));
	struct gs_scenario *sc;
	struct gs_sim *sim;
	unsigned mid = expected_rows(yaml, expect, &sim, &sc);
	struct gs_series_iter it;
	struct gs_series_point p;
	guint n = 0;

	/* most samples fall while something runs: the case that matters */
	assert_true(mid * 2 > expect->len / sim->n_tasks);
	gs_series_iter_init(&it, sim->rec->series);
	while (gs_series_next(&it, &p)) {
		assert_true(n < expect->len);
		assert_int_equal(p.gpu_time_ns,
				 g_array_index(expect, gs_time_t, n));
		n++;
	}
	gs_series_iter_clear(&it);
	assert_int_equal(n, expect->len);
	g_array_unref(expect);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* Throttles on the compute engine and a script that also copies, so both
 * engines run commands; samples every 70 us, inside 100-300 us kernels. */
static void test_engines_mid_command(void **state)
{
	(void)state;
	assert_rows_as_expected(
		"duration: 30ms\n"
		"output: {series_interval: 70us}\n"
		"tasks:\n"
		"  - name: a\n    count: 3\n"
		"    behavior: {throttle: {kernel: 300us}}\n"
		"  - name: b\n"
		"    behavior:\n"
		"      script:\n"
		"        - repeat:\n"
		"            steps:\n"
		"              - launch: {kernel: 200us, engine: copy}\n"
		"              - launch: {kernel: 100us}\n"
		"              - wait\n");
}

/* Jobs sharing the cores of two GPUs of a node (their kernels are shared
 * kernels, not on an engine) beside throttles on both GPUs. */
static void test_node_shared_kernels(void **state)
{
	(void)state;
	assert_rows_as_expected(
		"duration: 60ms\n"
		"node: {gpus: 2}\n"
		"policy: least-loaded\n"
		"output: {series_interval: 700us}\n"
		"tasks:\n"
		"  - name: j\n    count: 3\n"
		"    behavior: {job: {demand: 60%, kernel: 2ms, length: 40ms}}\n"
		"  - name: t\n    count: 2\n"
		"    behavior: {throttle: {kernel: 500us}}\n");
}

/* More tasks than a series block holds (16,384 rows: record_series.c),
 * so that each sample goes on in a second block, with commands running
 * in both: two throttles first, 16,382 tasks asleep for the whole run,
 * then three throttles, all on one GPU without shared kernels (the
 * sample's bulk path: figures copied a block's run at a time, the
 * running commands added after). */
static void test_sample_over_two_blocks(void **state)
{
	(void)state;
	assert_rows_as_expected(
		"duration: 12ms\n"
		"gpu: {preset: kepler, max_channels: 16400}\n"
		"output: {series_interval: 700us}\n"
		"tasks:\n"
		"  - name: a\n    count: 2\n"
		"    behavior: {throttle: {kernel: 300us}}\n"
		"  - name: idle\n    count: 10000\n"
		"    behavior: {script: [{sleep: 10s}]}\n"
		"  - name: idle2\n    count: 6382\n"
		"    behavior: {script: [{sleep: 10s}]}\n"
		"  - name: b\n    count: 3\n"
		"    behavior: {throttle: {kernel: 300us}}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engines_mid_command),
		cmocka_unit_test(test_node_shared_kernels),
		cmocka_unit_test(test_sample_over_two_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
