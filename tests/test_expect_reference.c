/* An expect row's `reference`: the overrides of the run a row is compared
 * with, under a baseline compare (Fleig Table 5.2: the same policy, the
 * app on the host instead of in a VM) as under a *_vs_reference one; and
 * `baseline_set`, its former second name, refused where it is written. */
#include "tests/support/config_fixture.h"

#define ROW_HEAD HEAD "vms:\n  - name: vm\n" THROTTLE_TASK "expect:\n"

static void test_reference_alone_is_a_baseline(void **state)
{
	struct gs_scenario *sc = load_ok(
		ROW_HEAD "  - {id: X, quantity: q, value: tasks.a.round_mean_ns, "
		"compare: increase_vs_baseline, reference: [tasks.0.vm=vm], "
		"max: 1}\n", NULL, 0);

	(void)state;
	assert_int_equal(sc->n_expect, 1);
	assert_null(sc->expect[0].baseline);
	assert_non_null(sc->expect[0].reference);
	assert_string_equal(sc->expect[0].reference[0], "tasks.0.vm=vm");
	assert_null(sc->expect[0].reference[1]);
	gs_scenario_free(sc);
}

/* seeds average both sides of a baseline compare, so the overrides may
 * go with them there (not under a value-by-value compare) */
static void test_reference_with_seeds_under_a_baseline(void **state)
{
	struct gs_scenario *sc = load_ok(
		ROW_HEAD "  - {id: X, quantity: q, value: metrics.jain_index, "
		"compare: increase_vs_baseline, baseline: direct, seeds: 2, "
		"reference: [tasks.0.vm=vm], max: 1}\n", NULL, 0);

	(void)state;
	assert_string_equal(sc->expect[0].baseline, "direct");
	assert_int_equal(sc->expect[0].seeds, 2);
	assert_string_equal(sc->expect[0].reference[0], "tasks.0.vm=vm");
	gs_scenario_free(sc);
}

/* the row (the keys after value) is refused on line 9 with `message` */
static void assert_row_refused(const char *row, const char *message)
{
	g_autofree char *y = g_strdup_printf(
		ROW_HEAD "  - {id: X, quantity: q, value: tasks.a.round_mean_ns, "
		"%s, max: 1}\n", row);
	g_autoptr(GError) err = NULL;

	assert_null(load(y, NULL, 0, &err));
	assert_non_null(strstr(err->message, "bad.yaml:9:"));
	assert_non_null(strstr(err->message, message));
}

static void test_reference_needs_a_compare(void **state)
{
	(void)state;
	assert_row_refused("reference: [tasks.0.vm=vm]",
			   "reference: only with compare");
}

static void test_baseline_compare_needs_one_or_the_other(void **state)
{
	(void)state;
	assert_row_refused("compare: increase_vs_baseline", "or 'reference'");
}

static void test_baseline_set_is_refused_naming_reference(void **state)
{
	const char *y = ROW_HEAD
		"  - {id: X, quantity: q, value: tasks.a.round_mean_ns, "
		"compare: increase_vs_baseline, baseline_set: [tasks.0.vm=vm], "
		"max: 1}\n";
	g_autoptr(GError) err = NULL;
	const char *at;

	(void)state;
	assert_null(load(y, NULL, 0, &err));
	/* line 9, at the key's value (column past the row's start) */
	at = strstr(err->message, "bad.yaml:9:");
	assert_non_null(at);
	assert_int_not_equal(g_ascii_strtoull(at + strlen("bad.yaml:9:"), NULL, 10), 5);
	assert_non_null(strstr(err->message,
			       "baseline_set: not a key any more; write 'reference'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_alone_is_a_baseline),
		cmocka_unit_test(test_reference_with_seeds_under_a_baseline),
		cmocka_unit_test(test_reference_needs_a_compare),
		cmocka_unit_test(test_baseline_compare_needs_one_or_the_other),
		cmocka_unit_test(test_baseline_set_is_refused_naming_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
