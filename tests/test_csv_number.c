/* gs_csv_append_u64 (sim/results/results_csv.c), which writes every
 * integer of tasks.csv and series.csv: the same digits as printf's
 * "%" PRIu64 at each power of ten either side, zero and the largest
 * value, appended after what the string held. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <inttypes.h>

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
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64_like_printf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
