/* gs_csv_append_u64 (sim/results/results_csv.c), which writes every
 * integer of tasks.csv and series.csv: the same digits as printf's
 * "%" PRIu64 at each power of ten either side, zero and the largest
 * value, every value below 1,000 and random ones of every length
 * (decimal_digits.h writes two digits per division), appended after
 * what the string held. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <inttypes.h>

#include "base/rng.h"
#include "sim/results/results_priv.h"

static void assert_digits(uint64_t v)
{
	g_autoptr(GString) out = g_string_new("x,");
	g_autofree char *want = g_strdup_printf("x,%" PRIu64, v);

	gs_csv_append_u64(out, v);
	assert_string_equal(out->str, want);
}

static void test_u64_like_printf(void **state)
{
	uint64_t p = 1;
	int i;

	(void)state;
	assert_digits(0);
	assert_digits(UINT64_MAX);
	for (i = 0; i < 20; i++, p *= 10) {
		assert_digits(p);
		assert_digits(p - 1);
		assert_digits(p + 1);
		assert_digits(p * 5);
	}
	for (i = 0; i < 1000; i++)
		assert_digits((uint64_t)i);
}

static void test_u64_random(void **state)
{
	struct gs_rng rng;
	int i;

	(void)state;
	gs_rng_seed(&rng, 20, "csv_number");
	for (i = 0; i < 100000; i++) {
		uint64_t v = gs_rng_next(&rng);

		assert_digits(v);
		assert_digits(v >> gs_rng_below(&rng, 64));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64_like_printf),
		cmocka_unit_test(test_u64_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
