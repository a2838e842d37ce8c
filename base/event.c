/* 4-ary min-heap of intrusive events. A 4-ary heap halves the depth of a
 * binary heap and keeps the four children of a node on one or two cache
 * lines, which suits the sift-down-heavy pop of a discrete-event loop. */
#include "base/event.h"

#include <glib.h>
#include <stdlib.h>

#define ARITY 4

void gs_event_init(struct gs_event *ev, enum gs_event_class cls,
		   gs_event_fn fn, void *ctx)
{
	ev->time = 0;
	ev->seq = 0;
	ev->heap_index = GS_EVENT_NOT_QUEUED;
	ev->cls = (uint16_t)cls;
	ev->fn = fn;
	ev->ctx = ctx;
}

void gs_evq_init(struct gs_evq *q)
{
	q->heap = NULL;
	q->len = 0;
	q->cap = 0;
	q->next_seq = 0;
	q->now = 0;
	q->dispatched = 0;
	q->checksum = 0xcbf29ce484222325ULL;
}

void gs_evq_destroy(struct gs_evq *q)
{
	uint32_t i;

	for (i = 0; i < q->len; i++)
		q->heap[i]->heap_index = GS_EVENT_NOT_QUEUED;
	g_free(q->heap);
	q->heap = NULL;
	q->len = q->cap = 0;
}

static inline bool before(const struct gs_event *a, const struct gs_event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->cls != b->cls)
		return a->cls < b->cls;
	return a->seq < b->seq;
}

static inline void place(struct gs_evq *q, uint32_t i, struct gs_event *ev)
{
	q->heap[i] = ev;
	ev->heap_index = i;
}

static void sift_up(struct gs_evq *q, uint32_t i)
{
	struct gs_event *ev = q->heap[i];

	while (i > 0) {
		uint32_t parent = (i - 1) / ARITY;

		if (!before(ev, q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, ev);
}

static void sift_down(struct gs_evq *q, uint32_t i)
{
	struct gs_event *ev = q->heap[i];

	for (;;) {
		uint32_t first = i * ARITY + 1, best, c, end;

		if (first >= q->len)
			break;
		end = first + ARITY < q->len ? first + ARITY : q->len;
		best = first;
		for (c = first + 1; c < end; c++)
			if (before(q->heap[c], q->heap[best]))
				best = c;
		if (!before(q->heap[best], ev))
			break;
		place(q, i, q->heap[best]);
		i = best;
	}
	place(q, i, ev);
}

static void remove_at(struct gs_evq *q, uint32_t i)
{
	struct gs_event *last = q->heap[--q->len];

	q->heap[i]->heap_index = GS_EVENT_NOT_QUEUED;
	if (i == q->len)
		return;
	place(q, i, last);
	if (i > 0 && before(last, q->heap[(i - 1) / ARITY]))
		sift_up(q, i);
	else
		sift_down(q, i);
}

void gs_evq_schedule(struct gs_evq *q, struct gs_event *ev, gs_time_t t)
{
	g_assert(t >= q->now);
	if (gs_event_queued(ev)) {
		uint32_t i = ev->heap_index;

		ev->time = t;
		ev->seq = q->next_seq++;
		/* New seq is larger, so an equal time can only move it down. */
		if (i > 0 && before(ev, q->heap[(i - 1) / ARITY]))
			sift_up(q, i);
		else
			sift_down(q, i);
		return;
	}
	if (q->len == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		q->heap = g_renew(struct gs_event *, q->heap, q->cap);
	}
	ev->time = t;
	ev->seq = q->next_seq++;
	place(q, q->len++, ev);
	sift_up(q, q->len - 1);
}

void gs_evq_cancel(struct gs_evq *q, struct gs_event *ev)
{
	if (gs_event_queued(ev))
		remove_at(q, ev->heap_index);
}

gs_time_t gs_evq_peek_time(const struct gs_evq *q)
{
	return q->len ? q->heap[0]->time : GS_TIME_NEVER;
}

#define FNV_PRIME 0x100000001b3ULL

/* FNV_PRIME^k mod 2^64, k = 0..8. */
static const uint64_t fnv_prime_pow[9] = {
	0x1ULL, 0x100000001b3ULL, 0x366000002e329ULL, 0x8a97b0004e7feabULL,
	0x9ffaac085635bc91ULL, 0xcaee32a7d4f6a63ULL, 0xdc966432edf1c639ULL,
	0xc5527b8a51d3d2dbULL, 0x1efac7090aef4a21ULL,
};

/* FNV-1a over the eight little-endian bytes of v. XOR with a zero byte
 * changes nothing, so the run of zero high bytes (five of eight for an
 * event time under 18 minutes, seven for a class) folds into a single
 * multiply by a power of the prime: the same value as the byte loop with
 * half the dependent multiplies, which dominated the cost of a pop. */
static inline uint64_t fnv_mix(uint64_t h, uint64_t v)
{
	unsigned i;

	for (i = 0; v; i++, v >>= 8) {
		h ^= v & 0xff;
		h *= FNV_PRIME;
	}
	return h * fnv_prime_pow[8 - i];
}

/* fnv_mix of a value below 256 (an event class): the XOR, then the eight
 * multiplies in one. */
static inline uint64_t fnv_mix_byte(uint64_t h, uint8_t v)
{
	return (h ^ v) * fnv_prime_pow[8];
}

struct gs_event *gs_evq_pop(struct gs_evq *q)
{
	struct gs_event *ev;

	if (!q->len)
		return NULL;
	ev = q->heap[0];
	remove_at(q, 0);
	q->now = ev->time;
	q->dispatched++;
	q->checksum = fnv_mix_byte(fnv_mix(q->checksum, ev->time), ev->cls);
	return ev;
}

bool gs_evq_step(struct gs_evq *q)
{
	struct gs_event *ev = gs_evq_pop(q);

	if (!ev)
		return false;
	ev->fn(ev->ctx, ev);
	return true;
}
