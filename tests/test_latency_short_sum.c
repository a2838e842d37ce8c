/* The mean of short distributions (under the radix sort's 1,024 values,
 * sorted by quicksort), whose sum is taken as an integer total when
 * n x max < 2^53 and as doubles added in ascending order otherwise
 * (base/latency.c). Both must give the bits of the ascending double sum:
 * distributions either side of that bound, of odd values (whose double
 * sum rounds once it passes 2^53), against the plain sum. */
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

#define LIMIT ((uint64_t)1 << 53)

/* The mean the plain way: qsort, then the doubles added in order. */
static double reference_mean(uint64_t *v, uint64_t n)
{
	double sum = 0;
	uint64_t i;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		sum += (double)v[i];
	return sum / (double)n;
}

/* n odd values at most max (the greatest is max itself, put at a random
 * place), the others within 2^20 below it. */
static void assert_mean_exact(uint64_t n, uint64_t max, uint64_t *seed)
{
	g_autofree uint64_t *copy = g_new(uint64_t, n);
	struct gs_latency l = { .v = g_new(uint64_t, n), .n = n, .cap = n };
	struct gs_latency_stats st;
	double want;
	uint64_t i;

	for (i = 0; i < n; i++)
		l.v[i] = (max - (next(seed) & 0xfffff)) | 1;
	l.v[next(seed) % n] = max;
	memcpy(copy, l.v, n * sizeof(*copy));
	want = reference_mean(copy, n);
	gs_latency_stats(&l, &st);
	if (memcmp(&st.mean, &want, sizeof(want)) != 0)
		fail_msg("n %" G_GUINT64_FORMAT " max %" G_GUINT64_FORMAT
			 ": mean %.17g, want %.17g", n, max, st.mean, want);
	assert_int_equal(st.max, max);
	gs_latency_free(&l);
}

/* Either side of n x max = 2^53, and well past it (where the sum of
 * odd values near 2^52 rounds at nearly every step). */
static void test_mean_either_side_of_exact_bound(void **state)
{
	static const uint64_t sizes[] = { 2, 3, 7, 26, 100, 1023 };
	uint64_t seed = 20;
	size_t s;

	(void)state;
	for (s = 0; s < G_N_ELEMENTS(sizes); s++) {
		uint64_t n = sizes[s], bound = LIMIT / n;

		assert_mean_exact(n, (bound - 1) | 1, &seed);
		assert_mean_exact(n, bound | 1, &seed);
		assert_mean_exact(n, (bound + 2) | 1, &seed);
		assert_mean_exact(n, (LIMIT / 2) | 1, &seed);
		assert_mean_exact(n, (LIMIT - 1) | 1, &seed);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_either_side_of_exact_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
