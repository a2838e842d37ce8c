/* json_double.c's "%.17g" against g_ascii_dtostr(), which json-glib
 * used: the same bytes for every value tried. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <float.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "base/rng.h"
#include "sim/results/json_double.h"

static void check(double d)
{
	char mine[G_ASCII_DTOSTR_BUF_SIZE], want[G_ASCII_DTOSTR_BUF_SIZE];
	size_t n = gs_json_format_g17(mine, sizeof(mine), d);

	g_ascii_dtostr(want, sizeof(want), d);
	if (strcmp(mine, want) != 0)
		fail_msg("%a: got %s, want %s", d, mine, want);
	assert_int_equal(n, strlen(want));
}

static void check_around(double d)
{
	check(d);
	check(-d);
	check(nextafter(d, 0));
	check(nextafter(d, INFINITY));
}

/* Powers of ten (where log10 may be one off and %g changes layout),
 * ties, carries, the ends of the range and beyond. */
static void test_edges(void **state)
{
	static const double v[] = {
		0.0, -0.0, 1.0, 0.5, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3,
		1234567890123456.75, 1234567890123456.25, 2345678901234567.5,
		9007199254740993.0, 9007199254740992.0, 99999999999999999.0,
		0.99999999999999999, 9.9999999999999995e-05, 1e-4, 1e-5,
		1.5e-6, 1e-6, 1e-7, 1e-300, 5e-324, DBL_MIN, DBL_MAX,
		1e16, 1e17, 1e20, 1.7e38, 3.4e38, 1e100, 123456.789,
		1834848664.8, 917405069.81133139, 1.7259510531861637e-05,
		114687.36297161689, 1.52587890625e-05, 40957.837312000003,
	};
	double p;
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(v); i++)
		check_around(v[i]);
	for (p = 1e-8; p < 1e40; p *= 10)
		check_around(p);
	check(NAN);
	check(INFINITY);
	check(-INFINITY);
}

/* Random bit patterns over the whole range of exponents, and values as
 * a run's summary has them: ratios, nanosecond means, shares. */
static void test_random(void **state)
{
	struct gs_rng rng;
	int i;

	(void)state;
	gs_rng_seed(&rng, 20, "json_double");
	for (i = 0; i < 1000000; i++) {
		uint64_t bits = gs_rng_next(&rng);
		double d;

		/* exponents near the fast range more often than not */
		if (i % 2)
			bits = (bits & 0x800FFFFFFFFFFFFFULL) |
			       ((uint64_t)(1023 - 30 + gs_rng_below(&rng, 160))
				<< 52);
		memcpy(&d, &bits, sizeof(d));
		check(d);
		check((double)gs_rng_below(&rng, 1000000000) /
		      (double)(1 + gs_rng_below(&rng, 1000000)));
		check((double)gs_rng_next(&rng) / 65536.0);
		check((double)gs_rng_below(&rng, 1u << 20) / 1024.0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
