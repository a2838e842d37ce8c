/* gs_sort_u64 (base/latency.c), the sort behind every latency
 * percentile: against qsort on arrays either side of the size where it
 * switches to a radix sort, with values that differ only in low bytes,
 * only in high bytes, in all of them, and all equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "base/latency.h"
#include "tests/support/sort_check.h"

enum shape { LOW_BYTES, HIGH_BYTES, ALL_BYTES, ALL_EQUAL };

static void assert_sorts(uint64_t n, enum shape shape, uint64_t seed)
{
	g_autofree uint64_t *v = g_new(uint64_t, MAX(n, 1));
	g_autofree uint64_t *want = g_new(uint64_t, MAX(n, 1));
	uint64_t i;

	for (i = 0; i < n; i++) {
		uint64_t r = next(&seed);

		v[i] = shape == LOW_BYTES    ? 25000 + (r & 0xfffff)
		       : shape == HIGH_BYTES ? (r & 0xff00000000000000ULL) | 7
		       : shape == ALL_BYTES  ? r
					     : 42;
	}
	memcpy(want, v, n * sizeof(*v));
	qsort(want, n, sizeof(*want), cmp_u64);
	gs_sort_u64(v, n);
	for (i = 0; i < n; i++)
		if (v[i] != want[i])
			fail_msg("n %" G_GUINT64_FORMAT " shape %d: [%"
				 G_GUINT64_FORMAT "] is %" G_GUINT64_FORMAT
				 ", want %" G_GUINT64_FORMAT,
				 n, (int)shape, i, v[i], want[i]);
}

static void test_sort_matches_qsort(void **state)
{
	static const uint64_t sizes[] = { 0, 1, 2, 1023, 1024, 1025, 70001 };
	size_t i;
	int shape;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(sizes); i++)
		for (shape = LOW_BYTES; shape <= ALL_EQUAL; shape++)
			assert_sorts(sizes[i], (enum shape)shape, i + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_matches_qsort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
