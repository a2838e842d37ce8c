/* An expect row's `baseline_set`: the reference run of a compare
 * against a baseline under overrides of its own (Fleig Table 5.2: the
 * same policy, the app on the host instead of in a VM). */
#include "tests/support/config_fixture.h"

#define ROW_HEAD HEAD "vms:\n  - name: vm\n" THROTTLE_TASK "expect:\n"

static void test_baseline_set_alone_is_a_baseline(void **state)
{
	struct gs_scenario *sc = load_ok(
		ROW_HEAD "  - {id: X, quantity: q, value: tasks.a.round_mean_ns, "
		"compare: increase_vs_baseline, baseline_set: [tasks.0.vm=vm], "
		"max: 1}\n", NULL, 0);

	(void)state;
	assert_int_equal(sc->n_expect, 1);
	assert_null(sc->expect[0].baseline);
	assert_non_null(sc->expect[0].baseline_set);
	assert_string_equal(sc->expect[0].baseline_set[0], "tasks.0.vm=vm");
	assert_null(sc->expect[0].baseline_set[1]);
	gs_scenario_free(sc);
}

static void test_baseline_set_needs_a_baseline_compare(void **state)
{
	const char *y = ROW_HEAD
		"  - {id: X, quantity: q, value: tasks.a.round_mean_ns, "
		"baseline_set: [tasks.0.vm=vm], max: 1}\n";
	g_autoptr(GError) err = NULL;

	(void)state;
	assert_null(load(y, NULL, 0, &err));
	assert_non_null(strstr(err->message, "bad.yaml:9:"));
	assert_non_null(strstr(err->message,
			       "baseline_set: only with compare"));
}

static void test_baseline_compare_needs_one_or_the_other(void **state)
{
	const char *y = ROW_HEAD
		"  - {id: X, quantity: q, value: tasks.a.round_mean_ns, "
		"compare: increase_vs_baseline, max: 1}\n";
	g_autoptr(GError) err = NULL;

	(void)state;
	assert_null(load(y, NULL, 0, &err));
	assert_non_null(strstr(err->message, "or 'baseline_set'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_baseline_set_alone_is_a_baseline),
		cmocka_unit_test(test_baseline_set_needs_a_baseline_compare),
		cmocka_unit_test(test_baseline_compare_needs_one_or_the_other),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
