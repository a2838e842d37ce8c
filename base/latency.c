/* Exact latency distributions: all samples, sorted when asked. */
#define _DEFAULT_SOURCE /* madvise, MAP_ANONYMOUS */
#include "base/latency.h"

#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void gs_latency_add(struct gs_latency *l, uint64_t ns)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = g_renew(uint64_t, l->v, l->cap);
	}
	l->v[l->n++] = ns;
}

/* Below this many values a comparison sort is faster than clearing and
 * filling the radix sort's counts (16 KiB a digit) and a pass of its own
 * for the values' range (a run of thousands of tasks sorts thousands of
 * short logs). */
#define RADIX_SORT_MIN 1024
/* Partitions this small are left to insertion sort. */
#define INSERTION_SORT_MAX 16

/* Insertion sort with the test for the array's start taken out of the
 * inner loop: a value below the first goes to the front by one move of
 * the rest, any other one stops at a value not above it, which v[0] is
 * (the inner loop's compare and bound check were a third of the short
 * distributions' sorting at 65,536 tasks). */
static void insertion_sort(uint64_t *v, uint64_t n)
{
	uint64_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t x = v[i];

		if (x < v[0]) {
			memmove(v + 1, v, i * sizeof(*v));
			v[0] = x;
			continue;
		}
		for (j = i; v[j - 1] > x; j--)
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

/* The radix sort's digits: as few passes as the values' spread needs,
 * each digit at most this wide (2048 counts, 16 KiB, kept in L1). A
 * task's round times at 16 channels span about 580,000 ns (20 bits): two
 * passes of 10 bits, where a byte a pass took three, and counting all
 * eight bytes of every value cost more than the passes themselves. */
#define RADIX_DIGIT_BITS 11

static unsigned bit_width(uint64_t x)
{
	unsigned b = 0;

	for (; x; x >>= 1)
		b++;
	return b;
}

/* Least-significant-digit radix sort of n >= 1 values in [min, max] by
 * their offset from min, through tmp (n values). A pass whose digit is
 * the same in every value is skipped. */
static void radix_sort(uint64_t *v, uint64_t n, uint64_t min, uint64_t max,
		       uint64_t *tmp)
{
	unsigned bits = bit_width(max - min), passes, width, p;
	uint64_t buckets, mask, i, *count, *from = v, *to = tmp;

	if (!bits)
		return; /* all equal */
	passes = (bits + RADIX_DIGIT_BITS - 1) / RADIX_DIGIT_BITS;
	width = (bits + passes - 1) / passes;
	buckets = (uint64_t)1 << width;
	mask = buckets - 1;
	count = g_new0(uint64_t, passes * buckets);
	for (i = 0; i < n; i++) {
		uint64_t k = v[i] - min;

		for (p = 0; p < passes; p++)
			count[p * buckets + ((k >> (p * width)) & mask)]++;
	}
	for (p = 0; p < passes; p++) {
		uint64_t *c = count + p * buckets, at = 0, d, *swap;
		unsigned shift = p * width;

		if (c[((from[0] - min) >> shift) & mask] == n)
			continue; /* every value has this digit */
		for (d = 0; d < buckets; d++) {
			uint64_t k = c[d];

			c[d] = at;
			at += k;
		}
		for (i = 0; i < n; i++)
			to[c[((from[i] - min) >> shift) & mask]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	g_free(count);
}

/* Below this a double holds every integer, so a sum of integers whose
 * total is below it is exact at every step, in any order. */
#define EXACT_DOUBLE_LIMIT ((uint64_t)1 << 53)

/* One pass over the samples: their least, greatest and, while it stays
 * below EXACT_DOUBLE_LIMIT, their sum (*exact false past it). */
struct first_pass {
	uint64_t min, max, sum;
	bool exact;
};

static void first_pass(const uint64_t *v, uint64_t n, struct first_pass *f)
{
	/* locals, not *f: v could alias it, which keeps the compiler from
	 * holding *f's fields in registers */
	uint64_t min = v[0], max = v[0], sum = 0, i;
	bool exact = true;

	for (i = 0; i < n; i++) {
		uint64_t x = v[i];

		min = x < min ? x : min;
		max = x > max ? x : max;
		if (x >= EXACT_DOUBLE_LIMIT - sum)
			exact = false;
		else
			sum += x;
	}
	*f = (struct first_pass){ min, max, sum, exact };
}

/* n values sorted. Short ones by quicksort (*f left not exact: the
 * extra pass would cost more than the sum it saves); longer ones by the
 * radix sort, after a first pass into *f, with scratch's buffer. */
static void sort_with(uint64_t *v, uint64_t n, struct first_pass *f,
		      struct gs_latency_scratch *scratch)
{
	*f = (struct first_pass){ 0 };
	if (n < RADIX_SORT_MIN) {
		quick_sort(v, n);
		return;
	}
	first_pass(v, n, f);
	if (scratch->cap < n) {
		g_free(scratch->tmp);
		scratch->tmp = g_new(uint64_t, n);
		scratch->cap = n;
	}
	radix_sort(v, n, f->min, f->max, scratch->tmp);
}

void gs_sort_u64(uint64_t *v, uint64_t n)
{
	struct gs_latency_scratch scratch = { 0 };
	struct first_pass f;

	sort_with(v, n, &f, &scratch);
	gs_latency_scratch_free(&scratch);
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

void gs_latency_stats_scratch(struct gs_latency *l,
			      struct gs_latency_scratch *scratch,
			      struct gs_latency_stats *out)
{
	double sum = 0, sq = 0, mean;
	struct first_pass f;
	uint64_t i;

	*out = (struct gs_latency_stats){ .mean = NAN, .std = NAN };
	if (!l->n)
		return;
	sort_with(l->v, l->n, &f, scratch);
	out->n = l->n;
	out->min = l->v[0];
	out->max = l->v[l->n - 1];
	out->p50 = gs_latency_percentile(l->v, l->n, 50);
	out->p90 = gs_latency_percentile(l->v, l->n, 90);
	out->p99 = gs_latency_percentile(l->v, l->n, 99);
	/* The sums over the sorted samples, in order: the same additions
	 * whatever order the samples came in, so the same bits. Below
	 * EXACT_DOUBLE_LIMIT every step of the first is exact, so the
	 * integer total is that sum without a pass of its own. */
	if (f.exact) {
		sum = (double)f.sum;
	} else if (out->max < EXACT_DOUBLE_LIMIT / l->n) {
		/* n x max < 2^53: the same holds, and an integer sum is a
		 * loop the compiler vectorises where the double one, a
		 * chain of dependent additions, was the short
		 * distributions' most costly pass after the sort */
		uint64_t total = 0;

		for (i = 0; i < l->n; i++)
			total += l->v[i];
		sum = (double)total;
	} else {
		for (i = 0; i < l->n; i++)
			sum += (double)l->v[i];
	}
	mean = sum / (double)l->n;
	for (i = 0; i < l->n; i++) {
		double d = (double)l->v[i] - mean;

		sq += d * d;
	}
	out->mean = mean;
	out->std = sqrt(sq / (double)l->n);
}

void gs_latency_stats(struct gs_latency *l, struct gs_latency_stats *out)
{
	struct gs_latency_scratch scratch = { 0 };

	gs_latency_stats_scratch(l, &scratch, out);
	gs_latency_scratch_free(&scratch);
}

void gs_latency_scratch_free(struct gs_latency_scratch *s)
{
	g_free(s->tmp);
	*s = (struct gs_latency_scratch){ 0 };
}

void gs_latency_free(struct gs_latency *l)
{
	g_free(l->v);
	*l = (struct gs_latency){ 0 };
}

void gs_latency_log_init_mode(struct gs_latency_log *log, uint32_t n_owners,
			      uint32_t n_kinds, bool per_slot)
{
	*log = (struct gs_latency_log){ .n_owners = n_owners,
					.n_kinds = n_kinds,
					.per_slot = per_slot };
	if (per_slot)
		log->slot = g_new0(struct gs_latency,
				   MAX((uint64_t)n_owners * n_kinds, 1));
}

void gs_latency_log_init(struct gs_latency_log *log, uint32_t n_owners,
			 uint32_t n_kinds)
{
	gs_latency_log_init_mode(log, n_owners, n_kinds,
				 (uint64_t)n_owners * n_kinds <=
					 GS_LATENCY_SLOTS_MAX);
}

void gs_latency_log_add(struct gs_latency_log *log, uint32_t owner,
			uint32_t kind, uint64_t ns)
{
	if (log->per_slot) {
		if (owner < log->n_owners && kind < log->n_kinds)
			gs_latency_add(&log->slot[(uint64_t)owner *
						  log->n_kinds + kind], ns);
		return;
	}
	if (log->n == log->cap) {
		log->cap = log->cap ? 2 * log->cap : 256;
		log->e = g_renew(struct gs_latency_entry, log->e, log->cap);
	}
	log->e[log->n++] = (struct gs_latency_entry){ owner, kind, ns };
}

void gs_latency_log_mark(const struct gs_latency_log *log,
			 struct gs_latency_mark *mark)
{
	uint64_t slots = (uint64_t)log->n_owners * log->n_kinds, i;

	*mark = (struct gs_latency_mark){ .n = log->n };
	if (!log->per_slot)
		return;
	mark->slot_n = g_new(uint64_t, MAX(slots, 1));
	for (i = 0; i < slots; i++) {
		mark->slot_n[i] = log->slot[i].n;
		mark->n += log->slot[i].n;
	}
}

void gs_latency_mark_free(struct gs_latency_mark *mark)
{
	g_free(mark->slot_n);
	*mark = (struct gs_latency_mark){ 0 };
}

/* Slot mode: each slot's first samples (those before the mark) sorted
 * in place where they are. */
static void slot_stats(const struct gs_latency_log *log,
		       const struct gs_latency_mark *mark, uint32_t n_kinds,
		       uint32_t first, uint32_t end, gs_latency_put_fn *put,
		       void *ctx)
{
	struct gs_latency_scratch scratch = { 0 };
	struct gs_latency_stats st;
	uint32_t o, k;

	for (o = first; o < end; o++) {
		for (k = 0; k < n_kinds; k++) {
			uint64_t s = (uint64_t)o * log->n_kinds + k;
			struct gs_latency view = { 0 };

			if (o < log->n_owners && k < log->n_kinds)
				view = (struct gs_latency){
					.v = log->slot[s].v,
					.n = mark->slot_n[s],
					.cap = mark->slot_n[s] };
			gs_latency_stats_scratch(&view, &scratch, &st);
			put(ctx, o, k, &st);
		}
	}
	gs_latency_scratch_free(&scratch);
}

/* From this size the grouped samples are mapped with transparent huge
 * pages asked for: at 65,536 tasks each part's 13.6 MB were 3,300 page
 * faults of 4 KiB, a fresh page each (2 MiB pages: a handful). */
#define GROUP_HUGE_MIN ((size_t)4 << 20)

/* n values' room; *mapped: its length if mapped (group_free). */
static uint64_t *group_alloc(uint64_t n, size_t *mapped)
{
	size_t bytes = MAX(n, 1) * sizeof(uint64_t);

	*mapped = 0;
#ifdef MADV_HUGEPAGE
	if (bytes >= GROUP_HUGE_MIN) {
		void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p != MAP_FAILED) {
			/* advice only: small pages if refused */
			(void)madvise(p, bytes, MADV_HUGEPAGE);
			*mapped = bytes;
			return p;
		}
	}
#endif
	return g_new(uint64_t, MAX(n, 1));
}

static void group_free(uint64_t *v, size_t mapped)
{
	if (mapped)
		munmap(v, mapped);
	else
		g_free(v);
}

void gs_latency_log_group_stats(const struct gs_latency_log *log,
				const struct gs_latency_mark *mark,
				uint32_t n_kinds, uint32_t first_owner,
				uint32_t end, uint64_t *at,
				gs_latency_put_fn *put, void *ctx)
{
	uint64_t first = (uint64_t)first_owner * n_kinds;
	uint64_t slots = (uint64_t)(end - first_owner) * n_kinds, i;
	/* one unsigned compare for first_owner <= owner < end */
	uint32_t owners = end - first_owner;
	size_t mapped;
	uint64_t *v = group_alloc(at[slots + 1], &mapped);
	/* one sort buffer for all of the part's distributions */
	struct gs_latency_scratch scratch = { 0 };
	struct gs_latency_stats st;
	uint32_t o, k;

	for (i = 0; i < mark->n; i++) {
		const struct gs_latency_entry *e = &log->e[i];

		if (e->owner - first_owner < owners && e->kind < n_kinds)
			v[at[(uint64_t)e->owner * n_kinds + e->kind - first +
			     1]++] = e->ns;
	}
	for (o = first_owner; o < end; o++) {
		for (k = 0; k < n_kinds; k++) {
			uint64_t s = (uint64_t)(o - first_owner) * n_kinds + k;
			struct gs_latency view = { .v = v + at[s],
						   .n = at[s + 1] - at[s] };

			view.cap = view.n;
			gs_latency_stats_scratch(&view, &scratch, &st);
			put(ctx, o, k, &st);
		}
	}
	gs_latency_scratch_free(&scratch);
	group_free(v, mapped);
}

/* Log mode: the part's samples grouped by slot in one array by a
 * counting sort: one offset per slot, where a struct gs_latency and a
 * block of its own per slot (what gs_latency_log_split gives) cost 48
 * bytes of headers and two small allocations per owner at the run's
 * peak (about 5 MB at 65,536 tasks). Within a slot the samples keep the
 * log's order, as the split does. Only the log's first mark->n entries
 * count, and only those of the part's owners. */
static void log_stats(const struct gs_latency_log *log,
		      const struct gs_latency_mark *mark, uint32_t n_kinds,
		      uint32_t first_owner, uint32_t end, gs_latency_put_fn *put,
		      void *ctx)
{
	uint64_t first = (uint64_t)first_owner * n_kinds;
	uint32_t owners = end - first_owner;
	uint64_t slots = (uint64_t)owners * n_kinds, i;
	/* counts at [slot + 2], then prefix sums: [slot + 1] is the slot's
	 * start (gs_latency_log_group_stats) */
	uint64_t *at = g_new0(uint64_t, slots + 2);

	for (i = 0; i < mark->n; i++) {
		const struct gs_latency_entry *e = &log->e[i];

		if (e->owner - first_owner < owners && e->kind < n_kinds)
			at[(uint64_t)e->owner * n_kinds + e->kind - first +
			   2]++;
	}
	for (i = 2; i < slots + 2; i++)
		at[i] += at[i - 1];
	gs_latency_log_group_stats(log, mark, n_kinds, first_owner, end, at,
				   put, ctx);
	g_free(at);
}

void gs_latency_log_stats(const struct gs_latency_log *log,
			  const struct gs_latency_mark *mark, uint32_t n_kinds,
			  uint32_t first, uint32_t end, gs_latency_put_fn *put,
			  void *ctx)
{
	if (first >= end)
		return;
	if (log->per_slot)
		slot_stats(log, mark, n_kinds, first, end, put, ctx);
	else
		log_stats(log, mark, n_kinds, first, end, put, ctx);
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
	uint64_t slots = (uint64_t)log->n_owners * log->n_kinds, i;

	if (log->per_slot)
		for (i = 0; i < slots; i++)
			gs_latency_free(&log->slot[i]);
	g_free(log->slot);
	g_free(log->e);
	*log = (struct gs_latency_log){ 0 };
}
