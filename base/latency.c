/* Exact latency distributions: all samples, sorted when asked. */
#include "base/latency.h"

#include <glib.h>
#include <math.h>
#include <stdbool.h>
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
	if (per_slot) {
		log->slot = g_new0(struct gs_latency,
				   MAX((uint64_t)n_owners * n_kinds, 1));
		return;
	}
	log->n_parts = n_owners ? ((n_owners - 1) >> GS_LATENCY_PART_SHIFT) + 1
				: 1;
	log->part = g_new0(struct gs_latency_part, log->n_parts);
}

void gs_latency_log_init(struct gs_latency_log *log, uint32_t n_owners,
			 uint32_t n_kinds)
{
	gs_latency_log_init_mode(log, n_owners, n_kinds,
				 (uint64_t)n_owners * n_kinds <=
					 GS_LATENCY_SLOTS_MAX);
}

/* A block more at the part's end. */
static G_GNUC_NO_INLINE void part_grow(struct gs_latency_part *p)
{
	struct gs_latency_block *b = g_new(struct gs_latency_block, 1);

	b->next = NULL;
	if (p->last)
		p->last->next = b;
	else
		p->first = b;
	p->last = b;
	p->next = b->e;
	p->end = b->e + GS_LATENCY_BLOCK_ENTRIES;
}

void gs_latency_log_add(struct gs_latency_log *log, uint32_t owner,
			uint32_t kind, uint64_t ns)
{
	struct gs_latency_part *p;

	if (log->per_slot) {
		if (owner < log->n_owners && kind < log->n_kinds)
			gs_latency_add(&log->slot[(uint64_t)owner *
						  log->n_kinds + kind], ns);
		return;
	}
	if (G_UNLIKELY(!log->n_parts)) { /* zeroed: one part for all */
		log->part = g_new0(struct gs_latency_part, 1);
		log->n_parts = 1;
	}
	p = &log->part[MIN(owner >> GS_LATENCY_PART_SHIFT, log->n_parts - 1)];
	if (p->next == p->end)
		part_grow(p);
	*p->next++ = (struct gs_latency_entry){ owner, kind, ns };
	p->n++;
	log->n++;
}

void gs_latency_log_mark(const struct gs_latency_log *log,
			 struct gs_latency_mark *mark)
{
	uint64_t slots = (uint64_t)log->n_owners * log->n_kinds, i;

	*mark = (struct gs_latency_mark){ .n = log->n };
	if (!log->per_slot) {
		mark->n_parts = log->n_parts;
		mark->part_n = g_new(uint64_t, MAX(log->n_parts, 1u));
		for (i = 0; i < log->n_parts; i++)
			mark->part_n[i] = log->part[i].n;
		return;
	}
	mark->slot_n = g_new(uint64_t, MAX(slots, 1));
	for (i = 0; i < slots; i++) {
		mark->slot_n[i] = log->slot[i].n;
		mark->n += log->slot[i].n;
	}
}

void gs_latency_mark_free(struct gs_latency_mark *mark)
{
	g_free(mark->slot_n);
	g_free(mark->part_n);
	*mark = (struct gs_latency_mark){ 0 };
}

/* Slot mode: each slot's first samples (those before the mark) sorted
 * in place where they are. */
static void slot_stats(const struct gs_latency_log *log,
		       const struct gs_latency_mark *mark, uint32_t n_kinds,
		       uint32_t first, uint32_t end,
		       struct gs_latency_scratch *scratch,
		       gs_latency_put_fn *put, void *ctx)
{
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
			gs_latency_stats_scratch(&view, scratch, &st);
			put(ctx, o, k, &st);
		}
	}
}

/* A part's entries up to a count, a block's run at a time. */
struct part_iter {
	const struct gs_latency_block *b;
	uint64_t left;
};

/* The next run of entries (*k of them), or NULL after the last. */
static const struct gs_latency_entry *next_run(struct part_iter *it,
					       uint64_t *k)
{
	const struct gs_latency_block *b = it->b;

	if (!it->left || !b)
		return NULL;
	*k = MIN(it->left, (uint64_t)GS_LATENCY_BLOCK_ENTRIES);
	it->left -= *k;
	it->b = b->next;
	return b->e;
}

/* *p with room for n values, its contents not kept. */
static uint64_t *at_least(uint64_t **p, uint64_t *cap, uint64_t n)
{
	if (*cap < n) {
		g_free(*p);
		*cap = MAX(n, 2 * *cap);
		*p = g_new(uint64_t, *cap);
	}
	return *p;
}

/* Owners [lo, hi) of part p (its first n entries; p NULL: none): the
 * samples grouped by slot by a counting sort, in the part's order within
 * a slot, and each slot's statistics handed to put. */
static void part_stats(const struct gs_latency_part *p, uint64_t n,
		       uint32_t n_kinds, uint32_t lo, uint32_t hi,
		       struct gs_latency_room *g, gs_latency_put_fn *put,
		       void *ctx)
{
	/* one unsigned compare for lo <= owner < hi */
	uint32_t owners = hi - lo, o, k;
	uint64_t slots = (uint64_t)owners * n_kinds, i, len;
	/* counts at [slot + 2], then prefix sums: [slot + 1] is the slot's
	 * start, and after the grouping its end */
	uint64_t *at = at_least(&g->at, &g->at_cap, slots + 2), *v;
	const struct gs_latency_entry *e;
	struct part_iter it = { p ? p->first : NULL, n };

	memset(at, 0, (slots + 2) * sizeof(*at));
	while ((e = next_run(&it, &len)))
		for (i = 0; i < len; i++)
			if (e[i].owner - lo < owners && e[i].kind < n_kinds)
				at[(uint64_t)(e[i].owner - lo) * n_kinds +
				   e[i].kind + 2]++;
	for (i = 2; i < slots + 2; i++)
		at[i] += at[i - 1];
	v = at_least(&g->v, &g->v_cap, MAX(at[slots + 1], 1));
	it = (struct part_iter){ p ? p->first : NULL, n };
	while ((e = next_run(&it, &len)))
		for (i = 0; i < len; i++)
			if (e[i].owner - lo < owners && e[i].kind < n_kinds)
				v[at[(uint64_t)(e[i].owner - lo) * n_kinds +
				     e[i].kind + 1]++] = e[i].ns;
	for (o = 0; o < owners; o++) {
		for (k = 0; k < n_kinds; k++) {
			uint64_t s = (uint64_t)o * n_kinds + k;
			struct gs_latency view = { .v = v + at[s],
						   .n = at[s + 1] - at[s] };
			struct gs_latency_stats st;

			view.cap = view.n;
			gs_latency_stats_scratch(&view, &g->scratch, &st);
			put(ctx, lo + o, k, &st);
		}
	}
}

/* Log mode: owners [first, end) a part at a time (the last part holds
 * every owner past the others'); with no part at the mark (a zeroed log
 * that had nothing), every slot empty. Only each part's entries before
 * the mark count. */
static void log_stats(const struct gs_latency_log *log,
		      const struct gs_latency_mark *mark, uint32_t n_kinds,
		      uint32_t first, uint32_t end, struct gs_latency_room *g,
		      gs_latency_put_fn *put, void *ctx)
{
	uint32_t lo = first;

	while (lo < end) {
		uint64_t p = lo >> GS_LATENCY_PART_SHIFT;
		uint64_t hi = ((p + 1) << GS_LATENCY_PART_SHIFT);

		if (!mark->n_parts) {
			part_stats(NULL, 0, n_kinds, lo, end, g, put, ctx);
			break;
		}
		if (p >= mark->n_parts - 1) {
			p = mark->n_parts - 1;
			hi = end;
		}
		hi = MIN(hi, (uint64_t)end);
		part_stats(&log->part[p], mark->part_n[p], n_kinds, lo,
			   (uint32_t)hi, g, put, ctx);
		lo = (uint32_t)hi;
	}
}

void gs_latency_log_stats_in(const struct gs_latency_log *log,
			     const struct gs_latency_mark *mark,
			     uint32_t n_kinds, uint32_t first, uint32_t end,
			     struct gs_latency_room *room,
			     gs_latency_put_fn *put, void *ctx)
{
	if (first >= end)
		return;
	if (log->per_slot)
		slot_stats(log, mark, n_kinds, first, end, &room->scratch, put,
			   ctx);
	else
		log_stats(log, mark, n_kinds, first, end, room, put, ctx);
}

void gs_latency_log_stats(const struct gs_latency_log *log,
			  const struct gs_latency_mark *mark, uint32_t n_kinds,
			  uint32_t first, uint32_t end, gs_latency_put_fn *put,
			  void *ctx)
{
	struct gs_latency_room room = { 0 };

	gs_latency_log_stats_in(log, mark, n_kinds, first, end, &room, put,
				ctx);
	gs_latency_room_free(&room);
}

void gs_latency_room_free(struct gs_latency_room *room)
{
	g_free(room->at);
	g_free(room->v);
	gs_latency_scratch_free(&room->scratch);
	*room = (struct gs_latency_room){ 0 };
}

uint32_t gs_latency_log_unit(const struct gs_latency_log *log)
{
	if (log->per_slot)
		return 1;
	if (log->n_parts >= 2)
		return GS_LATENCY_PART_OWNERS;
	/* one part (513-1,024 owners): its halves, each reading the part,
	 * so that two threads still share the sorting */
	return MAX((log->n_owners + 1) / 2, 1u);
}

/* One pass of gs_latency_log_split over every part's entries in order:
 * counting each slot's samples into its cap, or (fill) appending them. */
static void split_pass(const struct gs_latency_log *log, uint32_t n_owners,
		       uint32_t n_kinds, struct gs_latency *out, bool fill)
{
	uint32_t p;

	for (p = 0; p < log->n_parts; p++) {
		struct part_iter it = { log->part[p].first, log->part[p].n };
		const struct gs_latency_entry *e;
		uint64_t i, len;

		while ((e = next_run(&it, &len))) {
			for (i = 0; i < len; i++) {
				struct gs_latency *l;

				if (e[i].owner >= n_owners ||
				    e[i].kind >= n_kinds)
					continue;
				l = &out[(uint64_t)e[i].owner * n_kinds +
					 e[i].kind];
				if (fill)
					gs_latency_add(l, e[i].ns);
				else
					l->cap++;
			}
		}
	}
}

void gs_latency_log_split(const struct gs_latency_log *log,
			  uint32_t n_owners, uint32_t n_kinds,
			  struct gs_latency *out)
{
	uint64_t slots = (uint64_t)n_owners * n_kinds, i;

	/* sized exactly: count first, then fill */
	split_pass(log, n_owners, n_kinds, out, false);
	for (i = 0; i < slots; i++)
		out[i].v = out[i].cap ? g_new(uint64_t, out[i].cap) : NULL;
	split_pass(log, n_owners, n_kinds, out, true);
}

void gs_latency_log_free(struct gs_latency_log *log)
{
	uint64_t slots = (uint64_t)log->n_owners * log->n_kinds, i;

	if (log->per_slot)
		for (i = 0; i < slots; i++)
			gs_latency_free(&log->slot[i]);
	for (i = 0; i < log->n_parts; i++) {
		struct gs_latency_block *b = log->part[i].first;

		while (b) {
			struct gs_latency_block *next = b->next;

			g_free(b);
			b = next;
		}
	}
	g_free(log->slot);
	g_free(log->part);
	*log = (struct gs_latency_log){ 0 };
}
