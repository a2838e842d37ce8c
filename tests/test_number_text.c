/* The digit writers behind summary.json's and tasks.csv's numbers:
 * gs_json_format_g17_point() (json_double.c's layout, digits from a
 * table of pairs and fixed-size copies) against printf's "%.17g" and
 * its point flag against a search of the text; gs_u64_digits() and
 * gs_put_u64() (decimal_digits.h, the digit count from the bit length,
 * 32-bit arithmetic below 2^32) at every boundary they have.
 *
 * GS_NUMBER_TEXT_RANDOM=N checks N random bit patterns instead of the
 * default 1,000,000 (printf is the reference and takes about a
 * microsecond a value). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <float.h>
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "sim/results/decimal_digits.h"
#include "sim/results/json_double.h"

#define GUARD 16

/* d formatted into exactly G_ASCII_DTOSTR_BUF_SIZE bytes between two
 * guards (the layout writes past its text, never past the buffer),
 * compared with printf and the point flag with the text. */
static void check(double d)
{
	char room[GUARD + G_ASCII_DTOSTR_BUF_SIZE + GUARD];
	char want[64], *mine = room + GUARD;
	bool point;
	size_t n, i;

	memset(room, 0x5a, sizeof(room));
	n = gs_json_format_g17_point(mine, G_ASCII_DTOSTR_BUF_SIZE, d,
				     &point);
	snprintf(want, sizeof(want), "%.17g", d);
	if (isnan(d) || isinf(d)) /* g_ascii_dtostr's spelling */
		g_ascii_dtostr(want, sizeof(want), d);
	if (strcmp(mine, want) != 0)
		fail_msg("%a: got %s, want %s", d, mine, want);
	assert_int_equal(n, strlen(want));
	assert_int_equal(point, strchr(want, '.') != NULL);
	for (i = 0; i < GUARD; i++) {
		assert_int_equal(room[i], 0x5a);
		assert_int_equal(room[GUARD + G_ASCII_DTOSTR_BUF_SIZE + i],
				 0x5a);
	}
}

static void check_both_signs(double d)
{
	check(d);
	check(-d);
	check(nextafter(d, 0));
	check(nextafter(d, INFINITY));
}

/* The brief's edge cases: zeros, subnormals, the largest finite value,
 * powers of two and ten, and 18th digits of 5 followed by zeros (ties
 * when exact, which round to even). */
static void test_edges(void **state)
{
	static const char *const ties[] = {
		"1.00000000000000005", "1.00000000000000015",
		"1234567890123456.75", "1234567890123456.25",
		"9.99999999999999995", "0.000123456789012345675",
		"12345678901234567.5", "4.50000000000000005e-05",
		"2.5000000000000000500e10",
	};
	double p;
	size_t i;
	int e;

	(void)state;
	check(0.0);
	check(-0.0);
	check(DBL_MAX);
	check(-DBL_MAX);
	check(DBL_MIN);
	check(DBL_TRUE_MIN);
	check(DBL_MIN - DBL_TRUE_MIN);
	check(NAN);
	check(INFINITY);
	check(-INFINITY);
	for (e = -1074; e <= 1023; e++)
		check_both_signs(ldexp(1.0, e));
	for (p = 1e-320; p < 1e308; p *= 10)
		check_both_signs(p);
	for (i = 0; i < G_N_ELEMENTS(ties); i++)
		check_both_signs(g_ascii_strtod(ties[i], NULL));
}

/* Every layout: 1 to 17 significant digits at every decimal exponent
 * from -8 (the exponent form below -4) to 20 (the form from 17 up),
 * with the digits' trailing zeros where the point would go. */
static void test_layouts(void **state)
{
	static const char sig[] = "12345678901234567";
	char text[64];
	int digits, x;

	(void)state;
	for (x = -8; x <= 20; x++)
		for (digits = 1; digits <= 17; digits++) {
			snprintf(text, sizeof(text), "%c.%.*se%d", sig[0],
				 digits - 1, sig + 1, x);
			check_both_signs(g_ascii_strtod(text, NULL));
			snprintf(text, sizeof(text), "9.%.*se%d", digits - 1,
				 "9999999999999999", x);
			check_both_signs(g_ascii_strtod(text, NULL));
			snprintf(text, sizeof(text), "1%.*de%d", digits - 1, 0,
				 x - digits + 1);
			check_both_signs(g_ascii_strtod(text, NULL));
		}
}

/* Random bit patterns over every exponent, half of them where
 * summary.json's values are (2^-30 to 2^130). */
static void test_random(void **state)
{
	const char *env = getenv("GS_NUMBER_TEXT_RANDOM");
	uint64_t count = env ? g_ascii_strtoull(env, NULL, 10) : 1000000;
	struct gs_rng rng;
	uint64_t i;

	(void)state;
	gs_rng_seed(&rng, 20, "number_text");
	for (i = 0; i < count; i++) {
		uint64_t bits = gs_rng_next(&rng);
		double d;

		if (i % 2)
			bits = (bits & 0x800FFFFFFFFFFFFFULL) |
			       ((uint64_t)(1023 - 30 + gs_rng_below(&rng, 160))
				<< 52);
		memcpy(&d, &bits, sizeof(d));
		check(d);
	}
}

static void check_u64(uint64_t v)
{
	char mine[GS_U64_DIGITS + 1], want[32];
	char *end = gs_put_u64(mine, v);

	*end = '\0';
	snprintf(want, sizeof(want), "%" PRIu64, v);
	assert_string_equal(mine, want);
	assert_int_equal(gs_u64_digits(v), strlen(want));
}

/* Each side of every power of ten and of two (where the bit length and
 * the 32-bit switch change), zero and the largest value. */
static void test_u64(void **state)
{
	uint64_t p = 1;
	int i;

	(void)state;
	check_u64(0);
	check_u64(UINT64_MAX);
	for (i = 0; i < 20; i++, p *= 10) {
		check_u64(p - 1);
		check_u64(p);
		check_u64(p + 1);
	}
	for (i = 0; i < 64; i++) {
		check_u64((UINT64_C(1) << i) - 1);
		check_u64(UINT64_C(1) << i);
		check_u64((UINT64_C(1) << i) + 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_u64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
