/* fixed_double.c's "%.Nf" against g_ascii_formatd(), which tasks.csv
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
#include "sim/results/fixed_double.h"

static void check_n(double d, unsigned decimals)
{
	char mine[G_ASCII_DTOSTR_BUF_SIZE], want[G_ASCII_DTOSTR_BUF_SIZE];
	char fmt[8];
	size_t n = gs_format_fixed(mine, sizeof(mine), d, decimals);

	g_snprintf(fmt, sizeof(fmt), "%%.%uf", decimals);
	g_ascii_formatd(want, sizeof(want), fmt, d);
	if (strcmp(mine, want) != 0)
		fail_msg("%a with %u decimals: got %s, want %s", d, decimals,
			 mine, want);
	assert_int_equal(n, strlen(want));
}

/* tasks.csv's two formats, and the ends of the range */
static void check(double d)
{
	check_n(d, 1);
	check_n(d, 6);
	check_n(d, 0);
	check_n(d, 9);
}

static void check_around(double d)
{
	check(d);
	check(-d);
	check(nextafter(d, 0));
	check(nextafter(d, INFINITY));
}

/* Exact ties in binary (0.25 and 0.75 to one decimal, 2.5e-7 is not
 * one), carries into a new digit, zeros of both signs, values that
 * round to zero, the fast range's ends (2^-127, 2^63) and beyond. */
static void test_edges(void **state)
{
	static const double v[] = {
		0.0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.75, 1.25, 2.5,
		0.5, 1.5, 9.95, 9.96, 99.95, 999999.95, 0.0000005,
		0.0000015, 0.0000025, 0.9999995, 0.99999949999, 1e-7,
		1e-10, 1e-300, 5e-324, DBL_MIN, 1.0 / 3, 2.0 / 3,
		123456.789, 4503599627370495.5, 4503599627370496.5,
		9007199254740993.0, 9223372036854775807.0, 1e19, 1e20,
		1e22, 1e300, DBL_MAX, 0x1p-127, 0x1p-128, 0x1.fffffffffffffp-1,
		0x1p62, 0x1p63, 0x1p64, 0x1.fffffffffffffp+63,
	};
	double p;
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(v); i++)
		check_around(v[i]);
	for (p = 1e-12; p < 1e25; p *= 10)
		check_around(p);
	for (i = 0; i < 2000; i++) { /* every tie k/2^n to one decimal */
		check_around((double)i / 4);
		check_around((double)i / 128);
	}
}

/* Random bit patterns around the fast range's exponents, and values as
 * tasks.csv has them: shares, slowdowns, nanosecond means and spreads. */
static void test_random(void **state)
{
	struct gs_rng rng;
	int i;

	(void)state;
	gs_rng_seed(&rng, 20, "fixed_double");
	for (i = 0; i < 200000; i++) {
		uint64_t bits = gs_rng_next(&rng);
		double d;

		if (i % 2)
			bits = (bits & 0x800FFFFFFFFFFFFFULL) |
			       ((uint64_t)(1023 - 80 + gs_rng_below(&rng, 150))
				<< 52);
		memcpy(&d, &bits, sizeof(d));
		if (isfinite(d))
			check(d);
		check((double)gs_rng_below(&rng, 1000000000) /
		      (double)(1 + gs_rng_below(&rng, 1000000)));
		check((double)gs_rng_below(&rng, 1u << 30) / 1048576.0);
		check((double)gs_rng_below(&rng, 100000) / 20.0);
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
