/* node.unified_memory (DCUDA 3.4, Fig. 8): a task's first compute kernel
 * faults its footprint in, one page per fault, and stalls for each; no
 * later kernel pays again, and a config must state both constants. */
#include <glib.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/node_run.h"

/* One job of 1 MiB + 1 byte (17 pages of 64 KiB), 100 kernels of 1 ms. */
static double job_time(const char *paging)
{
	g_autofree char *yaml = g_strdup_printf(
		"name: u\nseed: 1\nduration: 10s\n"
		"node: {gpus: 1, gpu: {preset: kepler}%s}\n"
		"policy: round-robin\n"
		"tasks:\n"
		"  - {name: a, behavior: {job: {demand: 50%%, kernel: 1ms,"
		" length: 100ms, memory: 1048577}}}\n",
		paging);
	struct gs_results r;
	double t;

	run_with(yaml, NULL, &r);
	assert_int_equal(r.tasks[0].rounds, 1);
	t = r.tasks[0].round_mean_ns;
	gs_results_clear(&r);
	return t;
}

static void test_first_kernel_pays_one_fault_per_page(void **state)
{
	double off = job_time(""),
	       on = job_time(", unified_memory: {page: 64KiB, fault: 10us}"),
	       zero = job_time(", unified_memory: {page: 64KiB, fault: 0s}");
	(void)state;

	/* 17 faults of 10 us, once (not once per kernel) */
	assert_true(fabs((on - off) - 17 * 10000.0) < 1);
	assert_true(fabs(zero - off) < 1);
}

static void test_constants_required(void **state)
{
	static const char *const bad[] = {
		"node: {gpus: 1, unified_memory: {page: 64KiB}}\n",
		"node: {gpus: 1, unified_memory: {fault: 10us}}\n",
		"node: {gpus: 1, unified_memory: {page: 0, fault: 10us}}\n",
		"node: {gpus: 1, unified_memory: {page: 64KiB, fault: 1us, x: 1}}\n",
	};
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree char *yaml = g_strconcat(
			"duration: 1s\n", bad[i],
			"tasks:\n  - {name: a, behavior: {job: {app: Sort}}}\n",
			NULL);
		g_autoptr(GError) err = NULL;
		struct gs_scenario *sc = load_text(yaml, &err);

		if (sc)
			fail_msg("case %zu loaded", i);
		if (!g_str_has_prefix(err->message, "node.yaml:2:"))
			fail_msg("case %zu: %s", i, err->message);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_kernel_pays_one_fault_per_page),
		cmocka_unit_test(test_constants_required),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
