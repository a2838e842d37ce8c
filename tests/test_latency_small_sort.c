/* gs_sort_u64 (base/latency.c) below the radix sort's threshold, where it
 * sorts by quicksort and insertion sort: every length up to 300 and some
 * up to the threshold, against qsort, on random values, sorted and
 * reversed runs, organ pipes, few distinct values and all equal (the
 * shapes that break a partition's bounds or its progress). */
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

enum shape { RANDOM, SORTED, REVERSED, ORGAN_PIPE, FEW_VALUES, EQUAL,
	     SHAPES };

static uint64_t value(enum shape shape, uint64_t i, uint64_t n,
		      uint64_t *seed)
{
	switch (shape) {
	case RANDOM:
		return next(seed);
	case SORTED:
		return 1000 + i;
	case REVERSED:
		return UINT64_MAX - i;
	case ORGAN_PIPE:
		return i < n / 2 ? i : n - i;
	case FEW_VALUES:
		return next(seed) % 3;
	case EQUAL:
	default:
		return 7;
	}
}

static void assert_sorts(uint64_t n, enum shape shape)
{
	g_autofree uint64_t *v = g_new(uint64_t, MAX(n, 1));
	g_autofree uint64_t *want = g_new(uint64_t, MAX(n, 1));
	uint64_t seed = n * SHAPES + shape, i;

	for (i = 0; i < n; i++)
		v[i] = value(shape, i, n, &seed);
	memcpy(want, v, n * sizeof(*v));
	qsort(want, n, sizeof(*want), cmp_u64);
	gs_sort_u64(v, n);
	if (n && memcmp(v, want, n * sizeof(*v)))
		fail_msg("n %" G_GUINT64_FORMAT " shape %d: not sorted", n,
			 (int)shape);
}

static void test_short_logs_match_qsort(void **state)
{
	static const uint64_t longer[] = { 511, 512, 777, 1000, 1023 };
	uint64_t n;
	size_t i;
	int shape;

	(void)state;
	for (shape = RANDOM; shape < SHAPES; shape++) {
		for (n = 0; n <= 300; n++)
			assert_sorts(n, (enum shape)shape);
		for (i = 0; i < G_N_ELEMENTS(longer); i++)
			assert_sorts(longer[i], (enum shape)shape);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_logs_match_qsort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
