/* The task keys drm_sched-style scheduling reads: `priority` (enum
 * hal_priority, default normal), `ring_entries` (default the GPU's) and
 * `max_inflight` (default no limit); loaded, defaulted and refused with a
 * position; and a small ring does bound an asynchronous task. */
#include <glib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "policies/hal.h"
#include "sim/host/results.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

#define TASK(extra)                                                     \
	"duration: 1s\n"                                                \
	"tasks:\n"                                                      \
	"  - name: a\n"                                                 \
	extra                                                           \
	"    behavior:\n"                                               \
	"      throttle: {kernel: 100us}\n"

static struct gs_scenario *load(const char *yaml, GError **err)
{
	return gs_scenario_load_data("keys.yaml", yaml, strlen(yaml), NULL, 0,
				     err);
}

static const struct {
	const char *yaml;
	uint8_t priority;
} prio_cases[] = {
	{ TASK(""), HAL_PRIO_NORMAL },
	{ TASK("    priority: kernel\n"), HAL_PRIO_KERNEL },
	{ TASK("    priority: high\n"), HAL_PRIO_HIGH },
	{ TASK("    priority: normal\n"), HAL_PRIO_NORMAL },
	{ TASK("    priority: low\n"), HAL_PRIO_LOW },
};

static void test_priority_values(void **state)
{
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(prio_cases); i++) {
		g_autoptr(GError) err = NULL;
		struct gs_scenario *sc = load(prio_cases[i].yaml, &err);

		if (!sc)
			fail_msg("case %zu: %s", i, err->message);
		assert_int_equal(sc->tasks[0].priority, prio_cases[i].priority);
		gs_scenario_free(sc);
	}
}

static const struct {
	const char *desc;
	const char *yaml;
	const char *prefix;
	const char *phrase;
} bad_cases[] = {
	{ "unknown priority name, at the value",
	  TASK("    priority: urgent\n"), "keys.yaml:4:15: ", "priority" },
	{ "a ring needs two entries",
	  TASK("    ring_entries: 1\n"), "keys.yaml:4:19: ", "ring_entries" },
	{ "a task's ring is at most the GPU's",
	  "gpu: {ring_entries: 64}\n" TASK("    ring_entries: 128\n"),
	  "keys.yaml:5:19: ", "ring_entries" },
	{ "max_inflight is a count",
	  TASK("    max_inflight: many\n"), "keys.yaml:4:19: ",
	  "max_inflight" },
	{ "a number is not a priority",
	  TASK("    priority: 3\n"), "keys.yaml:4:15: ", "priority" },
};

static void test_bad_keys(void **state)
{
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		g_autoptr(GError) err = NULL;
		struct gs_scenario *sc = load(bad_cases[i].yaml, &err);

		if (sc)
			fail_msg("%s: loaded", bad_cases[i].desc);
		if (!g_str_has_prefix(err->message, bad_cases[i].prefix) ||
		    !strstr(err->message, bad_cases[i].phrase))
			fail_msg("%s: got '%s'", bad_cases[i].desc,
				 err->message);
	}
}

static void test_limit_defaults(void **state)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc;
	(void)state;

	sc = load(TASK(""), &err);
	assert_non_null(sc);
	assert_int_equal(sc->tasks[0].ring_entries, 0);
	assert_int_equal(sc->tasks[0].max_inflight, 0);
	gs_scenario_free(sc);
	sc = load(TASK("    ring_entries: 8\n    max_inflight: 2\n"), &err);
	assert_non_null(sc);
	assert_int_equal(sc->tasks[0].ring_entries, 8);
	assert_int_equal(sc->tasks[0].max_inflight, 2);
	gs_scenario_free(sc);
}

/* An asynchronous task (launch, round, never wait) of 1 ms commands for
 * 100 ms: its launches run ahead of the GPU until its ring is full, so it
 * ends about ring_entries - 1 rounds ahead of the 100 it completes. */
static uint64_t async_rounds(const char *ring)
{
	g_autofree char *yaml = g_strdup_printf(
		"seed: 1\nduration: 100ms\ngpu: {preset: kepler}\n"
		"policy: {name: direct}\n"
		"tasks:\n  - name: a\n%s"
		"    behavior:\n      script:\n"
		"        - repeat: {steps: [{launch: 1ms}, round]}\n", ring);
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = load(yaml, &err);
	struct gs_sim_options opt = { .check_invariants = true };
	struct gs_results r;
	uint64_t rounds;

	if (!sc)
		fail_msg("%s", err->message);
	gs_results_init(&r);
	if (!gs_run_scenario(sc, &opt, &r, &err))
		fail_msg("%s", err->message);
	rounds = r.tasks[0].rounds;
	gs_results_clear(&r);
	gs_scenario_free(sc);
	return rounds;
}

static void test_small_ring_bounds_async_task(void **state)
{
	uint64_t small = async_rounds("    ring_entries: 4\n");
	uint64_t big = async_rounds("");
	(void)state;

	/* 100 done (the last may still run) + 3 waiting in the ring */
	assert_in_range(small, 101, 104);
	/* the GPU's 1024-entry ring lets it run 1023 ahead */
	assert_true(big > 1000);
}

/* Two asynchronous streams of 100 us commands under direct: alike, they
 * share the GPU half and half. With max_inflight 1, a's next command
 * reaches the GPU only when its last one completes, by which time the
 * dispatcher has fetched b's next: a falls behind (the cap is wired from
 * the task key to its channel). */
static double capped_share(const char *cap)
{
	g_autofree char *yaml = g_strdup_printf(
		"seed: 1\nduration: 100ms\ngpu: {preset: kepler}\n"
		"policy: {name: direct}\ntasks:\n"
		"  - name: a\n%s    behavior:\n      script:\n"
		"        - repeat: {steps: [{launch: 100us}, round]}\n"
		"  - name: b\n    behavior:\n      script:\n"
		"        - repeat: {steps: [{launch: 100us}, round]}\n", cap);
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = load(yaml, &err);
	struct gs_sim_options opt = { .check_invariants = true };
	struct gs_results r;
	double share;

	if (!sc)
		fail_msg("%s", err->message);
	gs_results_init(&r);
	if (!gs_run_scenario(sc, &opt, &r, &err))
		fail_msg("%s", err->message);
	share = r.tasks[0].gpu_share;
	gs_results_clear(&r);
	gs_scenario_free(sc);
	return share;
}

static void test_max_inflight_reaches_the_channel(void **state)
{
	(void)state;

	assert_true(capped_share("") > 0.49);
	assert_true(capped_share("    max_inflight: 1\n") < 0.4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_priority_values),
		cmocka_unit_test(test_bad_keys),
		cmocka_unit_test(test_limit_defaults),
		cmocka_unit_test(test_small_ring_bounds_async_task),
		cmocka_unit_test(test_max_inflight_reaches_the_channel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
