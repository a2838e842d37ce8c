/* What the tests of gs_sort_u64 (test_latency_sort*.c) share: qsort's
 * comparison, their reference, and a fixed stream of values (which the
 * latency log's tests draw their samples from too). */
#ifndef GS_TESTS_SORT_CHECK_H
#define GS_TESTS_SORT_CHECK_H

#include <stdint.h>

static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* splitmix64: a fixed stream, so a failure is the same on every run */
static inline uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
