/* `expect` rows that name one GPU of a node (gpus.N.FIELD) or every GPU
 * (gpus.*.FIELD): DCUDA Fig. 10 draws each GPU's time in three load
 * bands, and its rows check one GPU's share or the largest or smallest. */
#include "tests/support/config_fixture.h"

#include <math.h>

#include "sim/cli/repro.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) < (tol))

#define ROW_HEAD HEAD THROTTLE_TASK "expect:\n  - {id: X, quantity: q, min: 0, "

static void test_gpu_paths_load(void **state)
{
	static const char *const ok[] = {
		ROW_HEAD "value: gpus.0.overloaded_time}\n",
		ROW_HEAD "value: gpus.12.time_0_50}\n",
		ROW_HEAD "value: \"gpus.*.demand_utilization\"}\n",
		ROW_HEAD "value: \"gpus.*.overloaded_time\", reduce: min}\n",
		ROW_HEAD "value: \"gpus.*.awake_time\", reduce: max}\n",
	};
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(ok); i++)
		gs_scenario_free(load_ok(ok[i], NULL, 0));
}

static void test_gpu_paths_refused(void **state)
{
	static const struct {
		const char *what, *yaml, *message;
	} bad[] = {
		{ "no such field", ROW_HEAD "value: gpus.0.slowdown}\n",
		  "value: expected" },
		{ "index not a number", ROW_HEAD "value: gpus.a.energy_j}\n",
		  "value: expected" },
		{ "no index", ROW_HEAD "value: gpus.energy_j}\n",
		  "value: expected" },
		{ "index with a star", ROW_HEAD "value: \"gpus.1*.energy_j\"}\n",
		  "value: expected" },
		{ "reduce over one metric",
		  ROW_HEAD "value: metrics.energy_j, reduce: min}\n",
		  "reduce: only with" },
	};
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) err = NULL;
		struct gs_scenario *sc = load(bad[i].yaml, NULL, 0, &err);

		if (sc)
			fail_msg("%s: loaded", bad[i].what);
		if (!strstr(err->message, bad[i].message) ||
		    !g_str_has_prefix(err->message, "bad.yaml:7:"))
			fail_msg("%s: %s", bad[i].what, err->message);
	}
}

/* The one value a path selects. */
static double one_value(const struct gs_results *r, const char *path)
{
	GArray *v = gs_repro_select_values(r, path);
	double out;

	assert_int_equal(v->len, 1);
	out = g_array_index(v, double, 0);
	g_array_free(v, TRUE);
	return out;
}

static guint n_values(const struct gs_results *r, const char *path)
{
	GArray *v = gs_repro_select_values(r, path);
	guint n = v->len;

	g_array_free(v, TRUE);
	return n;
}

static void test_gpu_values_selected(void **state)
{
	struct gs_gpu_result g[3] = {
		{ .band_low_ns = 100, .band_high_ns = 300, .band_over_ns = 600,
		  .awake_ns = 1000, .demand_utilization = 0.8, .energy_j = 5 },
		{ .band_over_ns = 250, .awake_ns = 500 },
		{ .band_low_ns = 1000 },
	};
	struct gs_results r = { .sim_time_ns = 1000, .n_gpus = 3,
				.node_report = true, .gpus = g };
	GArray *v;
	(void)state;

	NEAR(one_value(&r, "gpus.0.overloaded_time"), 0.6, 1e-12);
	NEAR(one_value(&r, "gpus.0.time_50_100"), 0.3, 1e-12);
	NEAR(one_value(&r, "gpus.2.time_0_50"), 1.0, 1e-12);
	NEAR(one_value(&r, "gpus.1.awake_time"), 0.5, 1e-12);
	NEAR(one_value(&r, "gpus.0.demand_utilization"), 0.8, 1e-12);
	NEAR(one_value(&r, "gpus.0.energy_j"), 5, 1e-12);

	v = gs_repro_select_values(&r, "gpus.*.overloaded_time");
	assert_int_equal(v->len, 3);
	NEAR(g_array_index(v, double, 0), 0.6, 1e-12);
	NEAR(g_array_index(v, double, 1), 0.25, 1e-12);
	NEAR(g_array_index(v, double, 2), 0.0, 1e-12);
	g_array_free(v, TRUE);

	/* a GPU the node does not have selects nothing: the row fails */
	assert_int_equal(n_values(&r, "gpus.3.overloaded_time"), 0);
	/* nor does a scenario without node results */
	r.node_report = false;
	assert_int_equal(n_values(&r, "gpus.*.overloaded_time"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_paths_load),
		cmocka_unit_test(test_gpu_paths_refused),
		cmocka_unit_test(test_gpu_values_selected),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
