/* Sweep grids: the `sweep:` block's errors, grid order, point ids and
 * override texts, and the check of every point before any runs. */
#include <glib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_load.h"

#include "workloads/config_load.h"
#include "workloads/sweep.h"

#define BASE                                                            \
	"duration: 100ms\n"                                             \
	"policy: {name: direct}\n"                                      \
	"tasks:\n"                                                      \
	"  - name: a\n"                                                 \
	"    behavior: {throttle: {kernel: 100us}}\n"                   \
	"  - name: b\n"                                                 \
	"    behavior: {throttle: {kernel: 1ms}}\n"

static struct gs_scenario *load(const char *yaml, GError **err)
{
	return test_load("sw.yaml", yaml, err);
}

static struct gs_scenario *load_ok(const char *yaml)
{
	return test_load_ok("sw.yaml", yaml);
}

/* Loads and validates every point; returns the error message or NULL. */
static char *sweep_error(const char *yaml)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = load(yaml, &err);
	GPtrArray *points;
	char *msg = NULL;

	if (!sc)
		return g_strdup(err->message);
	points = gs_sweep_expand(sc);
	if (!gs_sweep_validate("sw.yaml", yaml, strlen(yaml), NULL, 0, sc,
			       points, &err))
		msg = g_strdup(err->message);
	g_ptr_array_unref(points);
	gs_scenario_free(sc);
	return msg;
}

struct bad_case {
	const char *desc;
	const char *sweep;   /* the sweep block, appended to BASE */
	const char *prefix;  /* exact start of the message */
	const char *phrase;  /* must appear in it */
};

/* BASE has 7 lines, so the sweep block starts on line 8. */
static const struct bad_case bad_cases[] = {
	{ "an empty list, at the list",
	  "sweep:\n  policy.name: []\n", "sw.yaml:9:16: ", "is empty" },
	{ "an empty seed list",
	  "sweep:\n  seeds: []\n", "sw.yaml:9:10: ", "is empty" },
	{ "a single value instead of a list",
	  "sweep:\n  policy.name: dfq\n", "sw.yaml:9:16: ",
	  "expected a list of values" },
	{ "an unknown first key, with did-you-mean, at the key",
	  "sweep:\n  polcy.name: [dfq]\n", "sw.yaml:9:3: ",
	  "did you mean 'policy'" },
	{ "seed must be swept as seeds",
	  "sweep:\n  seed: [1, 2]\n", "sw.yaml:9:3: ", "sweep.seeds" },
	{ "an empty path part",
	  "sweep:\n  policy..name: [dfq]\n", "sw.yaml:9:3: ",
	  "empty part" },
	{ "a repeated value",
	  "sweep:\n  policy.name: [dfq, direct, dfq]\n", "sw.yaml:9:30: ",
	  "listed twice" },
	{ "a repeated seed",
	  "sweep:\n  seeds: [3, 3]\n", "sw.yaml:9:14: ", "listed twice" },
	{ "a negative seed",
	  "sweep:\n  seeds: [-1]\n", "sw.yaml:9:11: ", "seeds" },
	{ "an empty sweep block",
	  "sweep: {}\n", "sw.yaml:8:8: ", "at least one" },
	{ "a bad nested key, reported at the value",
	  "sweep:\n  policy.nmae: [dfq]\n", "sw.yaml:9:17: ",
	  "did you mean 'name'" },
	{ "an unknown policy, at the value",
	  "sweep:\n  policy.name: [direct, dfk]\n", "sw.yaml:9:25: ",
	  "dfk" },
	{ "a bad duration, at the value",
	  "sweep:\n  tasks.1.behavior.throttle.kernel: [19us, 5 parsecs]\n",
	  "sw.yaml:9:44: ", "unknown unit" },
	{ "an index past the list, at the value",
	  "sweep:\n  tasks.5.behavior.throttle.kernel: [19us]\n",
	  "sw.yaml:9:38: ", "no element 5" },
};

static void test_bad_sweeps(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		const struct bad_case *bc = &bad_cases[i];
		g_autofree char *yaml = g_strconcat(BASE, bc->sweep, NULL);
		g_autofree char *msg = sweep_error(yaml);

		if (!msg)
			fail_msg("%s: accepted", bc->desc);
		if (!g_str_has_prefix(msg, bc->prefix) ||
		    !strstr(msg, bc->phrase))
			fail_msg("%s: got '%s', wanted '%s...%s'", bc->desc,
				 msg, bc->prefix, bc->phrase);
	}
}

static const struct gs_sweep_point *point(GPtrArray *points, guint i)
{
	assert_true(i < points->len);
	return points->pdata[i];
}

static void test_grid_order_and_ids(void **state)
{
	struct gs_scenario *sc = load_ok(
		BASE "sweep:\n"
		"  policy.name: [direct, dfq]\n"
		"  tasks.1.behavior.throttle.kernel: [19us, 300us, 1.7ms]\n"
		"  seeds: [7, 9]\n");
	GPtrArray *points = gs_sweep_expand(sc);
	const struct gs_sweep_point *p;
	guint i;

	(void)state;
	assert_int_equal(points->len, 2 * 3 * 2);
	/* first axis slowest, seeds fastest */
	p = point(points, 0);
	assert_string_equal(p->id, "direct_19us_s7");
	assert_int_equal(p->seed, 7);
	assert_string_equal(p->sets[0], "policy.name=direct");
	assert_string_equal(p->sets[1],
			    "tasks.1.behavior.throttle.kernel=19us");
	assert_string_equal(p->sets[2], "seed=7");
	assert_null(p->sets[3]);
	assert_string_equal(point(points, 1)->id, "direct_19us_s9");
	assert_string_equal(point(points, 2)->id, "direct_300us_s7");
	assert_string_equal(point(points, 5)->id, "direct_1.7ms_s9");
	p = point(points, 6);
	assert_string_equal(p->id, "dfq_19us_s7");
	assert_string_equal(p->values[0], "dfq");
	assert_string_equal(p->values[1], "19us");
	for (i = 0; i < points->len; i++)
		assert_int_equal(point(points, i)->index, i);
	assert_ptr_equal(gs_sweep_find(points, "dfq_300us_s9"),
			 point(points, 9));
	assert_ptr_equal(gs_sweep_find(points, "11"), point(points, 11));
	assert_null(gs_sweep_find(points, "12"));
	assert_null(gs_sweep_find(points, "nope"));
	g_ptr_array_unref(points);
	gs_scenario_free(sc);
}

/* Without a sweep block: one point, the base scenario with its seed. */
static void test_no_sweep_is_one_point(void **state)
{
	struct gs_scenario *sc = load_ok("seed: 42\n" BASE);
	GPtrArray *points = gs_sweep_expand(sc);

	(void)state;
	assert_int_equal(sc->sweep.line, 0);
	assert_int_equal(points->len, 1);
	assert_string_equal(point(points, 0)->id, "s42");
	assert_string_equal(point(points, 0)->sets[0], "seed=42");
	g_ptr_array_unref(points);
	gs_scenario_free(sc);
}

/* A mapping value becomes flow YAML that --set reads back; an id that
 * cannot spell a value exactly gets a hash, so ids stay unique. */
static void test_flow_values_and_hashed_ids(void **state)
{
	static const char yaml[] =
		BASE "sweep:\n"
		"  tasks.0.behavior.throttle.kernel:\n"
		"    - {uniform: [50us, 150us]}\n"
		"    - {normal: {mean: 100us, stddev: 10us}}\n"
		"  policy: [{name: dfq, params: {account_only: true}}]\n";
	struct gs_scenario *sc = load_ok(yaml);
	GPtrArray *points = gs_sweep_expand(sc);
	g_autoptr(GError) err = NULL;
	const struct gs_sweep_point *p;

	(void)state;
	assert_int_equal(points->len, 2);
	p = point(points, 0);
	assert_string_equal(p->values[0], "{uniform: [50us, 150us]}");
	assert_string_equal(p->values[1],
			    "{name: dfq, params: {account_only: true}}");
	assert_true(g_str_has_prefix(p->id, "uniform-50us-150us_name-dfq"));
	assert_int_equal(strlen(strrchr(p->id, '-')), 1 + 8);
	assert_string_not_equal(point(points, 1)->id, p->id);
	assert_true(gs_sweep_validate("sw.yaml", yaml, strlen(yaml), NULL, 0,
				      sc, points, &err));
	g_ptr_array_unref(points);
	gs_scenario_free(sc);
}

/* A point is exactly the base scenario with its overrides. */
static void test_point_loads_its_values(void **state)
{
	static const char yaml[] =
		BASE "sweep:\n  tasks.0.count: [1, 3]\n  seeds: [5]\n";
	struct gs_scenario *sc = load_ok(yaml), *one;
	GPtrArray *points = gs_sweep_expand(sc);
	const struct gs_sweep_point *p = point(points, 1);
	g_autoptr(GError) err = NULL;

	(void)state;
	one = gs_scenario_load_data("sw.yaml", yaml, strlen(yaml),
				    (const char *const *)p->sets,
				    g_strv_length(p->sets), &err);
	assert_non_null(one);
	assert_int_equal(one->tasks[0].count, 3);
	assert_int_equal(one->seed, 5);
	gs_scenario_free(one);
	g_ptr_array_unref(points);
	gs_scenario_free(sc);
}

/* A grid whose axis values are each valid on the base scenario, but 24 of
 * whose 64 points are not: a series interval longer than the run. */
#define LATE_BAD_GRID                                                   \
	BASE "sweep:\n"                                                 \
	"  duration: [100ms, 50ms, 2ms, 1ms]\n"                          \
	"  output.series_interval: [500us, 5ms]\n"                       \
	"  seeds: [1, 2, 3, 4, 5, 6, 7, 8]\n"

/* The checks are shared out among threads, and a later point's may fail
 * first; the one reported is still the first failing point in grid
 * order, as when they run one after another (GPUSIM_NO_THREADS). */
static void test_first_bad_point_in_grid_order(void **state)
{
	static const char want[] =
		"sw.yaml:8:1: sweep point 2ms_5ms_s1: --set "
		"output.series_interval=5ms: series_interval: '5ms' is too "
		"large (at most 2000000ns)";
	unsigned i;

	(void)state;
	for (i = 0; i < 20; i++) {
		g_autofree char *msg = sweep_error(LATE_BAD_GRID);

		assert_non_null(msg);
		assert_string_equal(msg, want);
	}
	g_setenv("GPUSIM_NO_THREADS", "1", TRUE);
	{
		g_autofree char *msg = sweep_error(LATE_BAD_GRID);

		assert_non_null(msg);
		assert_string_equal(msg, want);
	}
	g_unsetenv("GPUSIM_NO_THREADS");
}

/* Each point's costs, which order the pool's work, are its own
 * scenario's whichever thread loaded it. */
static void test_point_costs_whatever_the_threads(void **state)
{
	static const char yaml[] =
		BASE "sweep:\n"
		"  tasks.0.count: [1, 2, 3, 4]\n"
		"  tasks.1.behavior.throttle.kernel: [50us, 1ms, 3ms]\n"
		"  seeds: [1, 2]\n";
	struct gs_scenario *sc = load_ok(yaml);
	GPtrArray *threaded = gs_sweep_expand(sc), *alone;
	g_autoptr(GError) err = NULL;
	guint i, d;

	(void)state;
	assert_true(gs_sweep_validate("sw.yaml", yaml, strlen(yaml), NULL, 0,
				      sc, threaded, &err));
	g_setenv("GPUSIM_NO_THREADS", "1", TRUE);
	alone = gs_sweep_expand(sc);
	assert_true(gs_sweep_validate("sw.yaml", yaml, strlen(yaml), NULL, 0,
				      sc, alone, &err));
	g_unsetenv("GPUSIM_NO_THREADS");
	assert_int_equal(threaded->len, 24);
	for (i = 0; i < threaded->len; i++) {
		const struct gs_sweep_point *a = point(threaded, i);
		const struct gs_sweep_point *b = point(alone, i);

		assert_true(a->cost > 0);
		assert_true(a->cost == b->cost);
		assert_int_equal(a->n_defs, 2);
		assert_int_equal(b->n_defs, 2);
		for (d = 0; d < a->n_defs; d++)
			assert_true(a->alone_cost[d] == b->alone_cost[d]);
	}
	/* more replicas of a, longer kernels of b: a costlier point */
	assert_true(point(threaded, 23)->cost > point(threaded, 0)->cost);
	g_ptr_array_unref(threaded);
	g_ptr_array_unref(alone);
	gs_scenario_free(sc);
}

/* Every top-level scenario key but seed, sweep and expect can be swept:
 * here the arrival interval of a node's jobs. */
static void test_arrivals_can_be_swept(void **state)
{
	static const char yaml[] =
		"duration: 30s\nnode: {gpus: 2}\n"
		"arrivals: {every: 5s}\npolicy: {name: least-loaded}\n"
		"tasks:\n"
		"  - {name: a, behavior: {job: {app: alexnet}}}\n"
		"  - {name: b, behavior: {job: {app: cifar10}}}\n"
		"sweep:\n  arrivals.every: [3s, 7s]\n";
	struct gs_scenario *sc = load_ok(yaml);
	GPtrArray *points = gs_sweep_expand(sc);
	guint i;

	(void)state;
	assert_int_equal(points->len, 2);
	for (i = 0; i < 2; i++) {
		const struct gs_sweep_point *p = point(points, i);
		g_autoptr(GError) err = NULL;
		struct gs_scenario *one = gs_scenario_load_data(
			"sw.yaml", yaml, strlen(yaml),
			(const char *const *)p->sets, g_strv_length(p->sets),
			&err);

		assert_non_null(one);
		assert_int_equal(one->tasks[1].start,
				 (i ? 7 : 3) * GS_NS_PER_S);
		gs_scenario_free(one);
	}
	g_ptr_array_unref(points);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_sweeps),
		cmocka_unit_test(test_grid_order_and_ids),
		cmocka_unit_test(test_no_sweep_is_one_point),
		cmocka_unit_test(test_flow_values_and_hashed_ids),
		cmocka_unit_test(test_point_loads_its_values),
		cmocka_unit_test(test_arrivals_can_be_swept),
		cmocka_unit_test(test_first_bad_point_in_grid_order),
		cmocka_unit_test(test_point_costs_whatever_the_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
