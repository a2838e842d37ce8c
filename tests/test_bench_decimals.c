/* `gpusim bench` prints each goal's figure beside its limit and a
 * verdict: the figure must not be rounded onto the limit when it is past
 * it (a ratio of 1.3003 read "1.30x ... miss" under "at most 1.3x"), so
 * it gets the decimals that show which side it is on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>

#include "sim/cli/bench.h"

/* The figure as the table prints it. */
static char *shown(double figure, double goal, int least)
{
	return g_strdup_printf("%.*f",
			       gs_bench_figure_decimals(figure, goal, least),
			       figure);
}

static void test_a_figure_past_the_goal_is_not_rounded_onto_it(void **state)
{
	g_autofree char *ratio = shown(1.3003, 1.3, 2);
	g_autofree char *kb = shown(1.0004, 1.0, 3);
	g_autofree char *just = shown(1.30049, 1.3, 2);

	(void)state;
	assert_string_equal(ratio, "1.3003");
	assert_string_equal(kb, "1.0004");
	assert_string_equal(just, "1.3005");
}

static void test_figures_clear_of_the_goal_keep_the_least(void **state)
{
	(void)state;
	assert_int_equal(gs_bench_figure_decimals(1.31, 1.3, 2), 2);
	assert_int_equal(gs_bench_figure_decimals(1.2, 1.3, 2), 2);
	assert_int_equal(gs_bench_figure_decimals(0.947, 1.0, 3), 3);
	/* at the limit, or rounded up onto it from below: "1.30" is at most
	 * 1.3, as the figure is, and the pass agrees */
	assert_int_equal(gs_bench_figure_decimals(1.3, 1.3, 2), 2);
	assert_int_equal(gs_bench_figure_decimals(1.2996, 1.3, 2), 2);
	assert_int_equal(gs_bench_figure_decimals(1.0, 1.0, 3), 3);
}

static void test_a_figure_closer_than_any_decimal_stays_rounded(void **state)
{
	(void)state;
	assert_int_equal(gs_bench_figure_decimals(1.3 + 1e-9, 1.3, 2),
			 GS_BENCH_MAX_DECIMALS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_a_figure_past_the_goal_is_not_rounded_onto_it),
		cmocka_unit_test(test_figures_clear_of_the_goal_keep_the_least),
		cmocka_unit_test(
			test_a_figure_closer_than_any_decimal_stays_rounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
