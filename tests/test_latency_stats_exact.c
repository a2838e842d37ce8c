/* gs_latency_stats (base/latency.c) against the statistics taken the
 * plain way: a full qsort, min and max at the ends, the nearest ranks
 * ceil(P n / 100), and the sum and the squared deviations added in
 * ascending order. Every field must be the same bits, on random and
 * adversarial inputs either side of the radix sort's threshold: all
 * equal, sorted, reverse, two values, spreads either side of the radix
 * digits' boundaries, sums past 2^53 (where a double sum is no longer
 * exact) and values near 2^64 (where an integer sum overflows). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <glib.h>

#include "base/latency.h"
#include "tests/support/sort_check.h"

enum shape {
	RANDOM_64,     /* every bit random */
	LATENCIES,     /* 25 us plus up to 2^20 ns, as a run's round times */
	ALL_EQUAL,
	ASCENDING,
	DESCENDING,
	TWO_VALUES,
	SPREAD_11,     /* spreads at the radix digits' edges: one pass */
	SPREAD_12,     /* two passes of 6 bits */
	SPREAD_23,     /* three passes */
	LARGE_ODD,     /* 2^43 and odd: from 1024 of them the sum passes
			* 2^53 (rounding) but not 2^60 */
	NEAR_MAX,      /* within 2^20 of 2^64 - 1: the sum overflows */
	ONE_OUTLIER,   /* all equal but one: digits constant but one */
	HUGE_OUTLIER,  /* small ones and one near 2^64, whose addition to
			* their sum wraps around */
	SHAPES
};

static uint64_t value(enum shape shape, uint64_t i, uint64_t n,
		      uint64_t *seed)
{
	uint64_t r = next(seed);

	switch (shape) {
	case RANDOM_64:
		return r;
	case LATENCIES:
		return 25000 + (r & 0xfffff);
	case ALL_EQUAL:
		return 42;
	case ASCENDING:
		return 1000 + 3 * i;
	case DESCENDING:
		return 1000 + 3 * (n - i);
	case TWO_VALUES:
		return r & 1 ? 7 : 900000;
	case SPREAD_11:
		return 5000 + (r & 0x7ff);
	case SPREAD_12:
		return 5000 + (r & 0xfff);
	case SPREAD_23:
		return 123456789 + (r & 0x7fffff);
	case LARGE_ODD:
		return ((uint64_t)1 << 43) + (r & 0xfffff) * 2 + 1;
	case NEAR_MAX:
		return UINT64_MAX - (r & 0xfffff);
	case ONE_OUTLIER:
		return i == n / 3 ? 1 : 5000000;
	case HUGE_OUTLIER:
		return i == n / 2 ? UINT64_MAX - 500 : 1000;
	default:
		return 0;
	}
}

/* The figures the plain way, from v (sorted here). */
static void reference(uint64_t *v, uint64_t n, struct gs_latency_stats *st)
{
	static const uint32_t pct[3] = { 50, 90, 99 };
	uint64_t *p[3] = { &st->p50, &st->p90, &st->p99 }, i;
	double sum = 0, sq = 0;
	int k;

	*st = (struct gs_latency_stats){ .mean = NAN, .std = NAN };
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	st->n = n;
	st->min = v[0];
	st->max = v[n - 1];
	for (k = 0; k < 3; k++) {
		uint64_t rank = (pct[k] * n + 99) / 100; /* ceil, >= 1 */

		*p[k] = v[rank - 1];
	}
	for (i = 0; i < n; i++)
		sum += (double)v[i];
	st->mean = sum / (double)n;
	for (i = 0; i < n; i++) {
		double d = (double)v[i] - st->mean;

		sq += d * d;
	}
	st->std = sqrt(sq / (double)n);
}

static void assert_same_bits(double got, double want, const char *what,
			     uint64_t n, int shape)
{
	if (memcmp(&got, &want, sizeof(got)) != 0)
		fail_msg("n %" G_GUINT64_FORMAT " shape %d: %s %.17g, want "
			 "%.17g", n, shape, what, got, want);
}

static void assert_stats_exact(uint64_t n, enum shape shape,
			       struct gs_latency_scratch *scratch)
{
	uint64_t seed = n * SHAPES + (uint64_t)shape, i;
	g_autofree uint64_t *copy = g_new(uint64_t, MAX(n, 1));
	struct gs_latency l = { .v = g_new(uint64_t, MAX(n, 1)), .n = n,
				.cap = n };
	struct gs_latency_stats got, want;

	for (i = 0; i < n; i++)
		l.v[i] = value(shape, i, n, &seed);
	memcpy(copy, l.v, n * sizeof(*copy));
	reference(copy, n, &want);
	if (scratch)
		gs_latency_stats_scratch(&l, scratch, &got);
	else
		gs_latency_stats(&l, &got);
	assert_int_equal(got.n, want.n);
	assert_int_equal(got.min, want.min);
	assert_int_equal(got.p50, want.p50);
	assert_int_equal(got.p90, want.p90);
	assert_int_equal(got.p99, want.p99);
	assert_int_equal(got.max, want.max);
	assert_same_bits(got.mean, want.mean, "mean", n, (int)shape);
	assert_same_bits(got.std, want.std, "std", n, (int)shape);
	/* it sorts in place, as its header says */
	for (i = 0; i < n; i++)
		assert_int_equal(l.v[i], copy[i]);
	gs_latency_free(&l);
}

static const uint64_t sizes[] = { 0, 1, 2, 3, 99, 100, 101, 1023, 1024,
				  1025, 4099, 70001 };

static void test_stats_match_full_sort(void **state)
{
	size_t i;
	int shape;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(sizes); i++)
		for (shape = 0; shape < SHAPES; shape++)
			assert_stats_exact(sizes[i], (enum shape)shape, NULL);
}

/* One scratch buffer through distributions of every size and shape, as
 * a collection uses it: growing for longer ones (make asan sees a write
 * past its end), and what a longer one left in it must not leak into a
 * shorter one's figures. */
static void test_stats_with_shared_scratch(void **state)
{
	struct gs_latency_scratch scratch = { 0 };
	size_t i;
	int shape;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(sizes); i++)
		for (shape = 0; shape < SHAPES; shape++)
			assert_stats_exact(sizes[i], (enum shape)shape,
					   &scratch);
	assert_true(scratch.cap >= sizes[G_N_ELEMENTS(sizes) - 1]);
	for (i = G_N_ELEMENTS(sizes); i-- > 0;)
		for (shape = 0; shape < SHAPES; shape++)
			assert_stats_exact(sizes[i], (enum shape)shape,
					   &scratch);
	gs_latency_scratch_free(&scratch);
	assert_null(scratch.tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_match_full_sort),
		cmocka_unit_test(test_stats_with_shared_scratch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
