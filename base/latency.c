/* Exact latency distributions: all samples, sorted when asked. */
#include "base/latency.h"

#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void gs_latency_add(struct gs_latency *l, uint64_t ns)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = g_renew(uint64_t, l->v, l->cap);
	}
	l->v[l->n++] = ns;
}

/* Below this many values a comparison sort is faster than clearing and
 * filling the radix sort's 16 KiB of counts (a run of thousands of tasks
 * sorts thousands of short logs). */
#define RADIX_SORT_MIN 1024
/* Partitions this small are left to insertion sort. */
#define INSERTION_SORT_MAX 16

static void insertion_sort(uint64_t *v, uint64_t n)
{
	uint64_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void swap_u64(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;

	*a = *b;
	*b = t;
}

/* Quicksort with the median of three as pivot (Hoare's partition), the
 * smaller side recursed into (depth at most log2 n) and the larger one
 * looped on; small partitions by insertion sort. The short logs of a run
 * of 65,536 tasks went through qsort, whose comparison calls through a
 * pointer were most of their sorting time. Sorting integers has one
 * result, so any correct sort gives the same bytes out. */
static void quick_sort(uint64_t *v, uint64_t n)
{
	while (n > INSERTION_SORT_MAX) {
		uint64_t mid = n / 2, i = 0, j = n - 1, pivot;

		if (v[mid] < v[0])
			swap_u64(&v[mid], &v[0]);
		if (v[n - 1] < v[0])
			swap_u64(&v[n - 1], &v[0]);
		if (v[n - 1] < v[mid])
			swap_u64(&v[n - 1], &v[mid]);
		pivot = v[mid]; /* v[0] <= pivot <= v[n - 1]: sentinels */
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			swap_u64(&v[i++], &v[j--]);
		}
		/* [0, j] <= pivot <= [j + 1, n) */
		if (j + 1 < n - j - 1) {
			quick_sort(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			quick_sort(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	insertion_sort(v, n);
}

/* Counts of each byte value at each of the 8 byte positions. */
static void byte_counts(const uint64_t *v, uint64_t n,
			uint64_t count[8][256])
{
	uint64_t i;
	unsigned b;

	memset(count, 0, 8 * 256 * sizeof(uint64_t));
	for (i = 0; i < n; i++)
		for (b = 0; b < 8; b++)
			count[b][(v[i] >> (8 * b)) & 0xff]++;
}

/* Least-significant-digit radix sort, a byte a pass; a pass whose byte is
 * the same in every value (the high bytes of nanosecond latencies) is
 * skipped. A run's latency log holds a sample per round of every task,
 * millions at 60 s: qsort's comparison calls were most of the time spent
 * collecting the results. */
void gs_sort_u64(uint64_t *v, uint64_t n)
{
	uint64_t (*count)[256], *tmp, *from = v, *to;
	unsigned b, d;
	uint64_t i;

	if (n < RADIX_SORT_MIN) {
		quick_sort(v, n);
		return;
	}
	count = g_malloc(8 * sizeof(*count));
	tmp = to = g_new(uint64_t, n);
	byte_counts(v, n, count);
	for (b = 0; b < 8; b++) {
		uint64_t at = 0, *swap;

		if (count[b][(from[0] >> (8 * b)) & 0xff] == n)
			continue; /* every value has this byte */
		for (d = 0; d < 256; d++) {
			uint64_t c = count[b][d];

			count[b][d] = at;
			at += c;
		}
		for (i = 0; i < n; i++)
			to[count[b][(from[i] >> (8 * b)) & 0xff]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	g_free(tmp);
	g_free(count);
}

uint64_t gs_latency_percentile(const uint64_t *sorted, uint64_t n,
			       uint32_t pct)
{
	/* rank = ceil(pct n / 100), at least 1 */
	uint64_t rank = (n * pct + 99) / 100;

	if (!n)
		return 0;
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

void gs_latency_stats(struct gs_latency *l, struct gs_latency_stats *out)
{
	double sum = 0, sq = 0, mean;
	uint64_t i;

	*out = (struct gs_latency_stats){ .mean = NAN, .std = NAN };
	if (!l->n)
		return;
	gs_sort_u64(l->v, l->n);
	out->n = l->n;
	out->min = l->v[0];
	out->max = l->v[l->n - 1];
	out->p50 = gs_latency_percentile(l->v, l->n, 50);
	out->p90 = gs_latency_percentile(l->v, l->n, 90);
	out->p99 = gs_latency_percentile(l->v, l->n, 99);
	/* two passes over the sorted samples: the same sums in the same
	 * order, so the same bits, whatever order they were added in */
	for (i = 0; i < l->n; i++)
		sum += (double)l->v[i];
	mean = sum / (double)l->n;
	for (i = 0; i < l->n; i++) {
		double d = (double)l->v[i] - mean;

		sq += d * d;
	}
	out->mean = mean;
	out->std = sqrt(sq / (double)l->n);
}

void gs_latency_free(struct gs_latency *l)
{
	g_free(l->v);
	*l = (struct gs_latency){ 0 };
}

void gs_latency_log_add(struct gs_latency_log *log, uint32_t owner,
			uint32_t kind, uint64_t ns)
{
	if (log->n == log->cap) {
		log->cap = log->cap ? 2 * log->cap : 256;
		log->e = g_renew(struct gs_latency_entry, log->e, log->cap);
	}
	log->e[log->n++] = (struct gs_latency_entry){ owner, kind, ns };
}

void gs_latency_log_split(const struct gs_latency_log *log,
			  uint32_t n_owners, uint32_t n_kinds,
			  struct gs_latency *out)
{
	uint64_t slots = (uint64_t)n_owners * n_kinds, i;

	/* sized exactly: count first, then fill */
	for (i = 0; i < log->n; i++) {
		const struct gs_latency_entry *e = &log->e[i];

		if (e->owner < n_owners && e->kind < n_kinds)
			out[(uint64_t)e->owner * n_kinds + e->kind].cap++;
	}
	for (i = 0; i < slots; i++)
		out[i].v = out[i].cap ? g_new(uint64_t, out[i].cap) : NULL;
	for (i = 0; i < log->n; i++) {
		const struct gs_latency_entry *e = &log->e[i];

		if (e->owner < n_owners && e->kind < n_kinds)
			gs_latency_add(&out[(uint64_t)e->owner * n_kinds +
					    e->kind], e->ns);
	}
}

void gs_latency_log_free(struct gs_latency_log *log)
{
	g_free(log->e);
	*log = (struct gs_latency_log){ 0 };
}
