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
}

void gs_evq_destroy(struct gs_evq *q)
{
	uint32_t i;

	for (i = 0; i < q->len; i++)
		q->heap[i].ev->heap_index = GS_EVENT_NOT_QUEUED;
	g_free(q->heap);
	q->heap = NULL;
	q->len = q->cap = 0;
}

static inline bool before(const struct gs_evq_slot *a,
			  const struct gs_evq_slot *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->ev->cls != b->ev->cls)
		return a->ev->cls < b->ev->cls;
	return a->ev->seq < b->ev->seq;
}

static inline void place(struct gs_evq *q, uint32_t i,
			 const struct gs_evq_slot *s)
{
	q->heap[i] = *s;
	s->ev->heap_index = i;
}

/* Sift the key s up from the hole at i, then put it where it stops. */
static void sift_up(struct gs_evq *q, uint32_t i, struct gs_evq_slot s)
{
	while (i > 0) {
		uint32_t parent = (i - 1) / ARITY;

		if (!before(&s, &q->heap[parent]))
			break;
		place(q, i, &q->heap[parent]);
		i = parent;
	}
	place(q, i, &s);
}

static void sift_down(struct gs_evq *q, uint32_t i, struct gs_evq_slot s)
{
	for (;;) {
		uint32_t first = i * ARITY + 1, best, c, end;

		if (first >= q->len)
			break;
		end = first + ARITY < q->len ? first + ARITY : q->len;
		best = first;
		for (c = first + 1; c < end; c++)
			if (before(&q->heap[c], &q->heap[best]))
				best = c;
		if (!before(&q->heap[best], &s))
			break;
		place(q, i, &q->heap[best]);
		i = best;
	}
	place(q, i, &s);
}

/* Put s at slot i (a hole, or the slot of s's own event) and restore the
 * heap order around it. */
static void settle(struct gs_evq *q, uint32_t i, struct gs_evq_slot s)
{
	if (i > 0 && before(&s, &q->heap[(i - 1) / ARITY]))
		sift_up(q, i, s);
	else
		sift_down(q, i, s);
}

static void remove_at(struct gs_evq *q, uint32_t i)
{
	struct gs_evq_slot last = q->heap[--q->len];

	q->heap[i].ev->heap_index = GS_EVENT_NOT_QUEUED;
	if (i == q->len)
		return;
	settle(q, i, last);
}

/* Out of line: taken once per doubling, and keeping it out of
 * gs_evq_schedule spares the common path a stack frame. */
static __attribute__((noinline)) void grow(struct gs_evq *q)
{
	q->cap = q->cap ? q->cap * 2 : 64;
	q->heap = g_renew(struct gs_evq_slot, q->heap, q->cap);
}

void gs_evq_schedule(struct gs_evq *q, struct gs_event *ev, gs_time_t t)
{
	struct gs_evq_slot s = { .time = t, .ev = ev };

	g_assert(t >= q->now);
	ev->time = t;
	ev->seq = q->next_seq++;
	if (gs_event_queued(ev)) {
		settle(q, ev->heap_index, s);
		return;
	}
	if (G_UNLIKELY(q->len == q->cap))
		grow(q);
	sift_up(q, q->len++, s);
}

void gs_evq_cancel(struct gs_evq *q, struct gs_event *ev)
{
	if (gs_event_queued(ev))
		remove_at(q, ev->heap_index);
}

gs_time_t gs_evq_peek_time(const struct gs_evq *q)
{
	return q->len ? q->heap[0].time : GS_TIME_NEVER;
}

struct gs_event *gs_evq_pop(struct gs_evq *q)
{
	struct gs_evq_slot top;
	uint32_t n;

	if (!q->len)
		return NULL;
	top = q->heap[0];
	top.ev->heap_index = GS_EVENT_NOT_QUEUED;
	n = --q->len;
	/* the root's hole: the last slot sifts down from it */
	if (n)
		sift_down(q, 0, q->heap[n]);
	q->now = top.time;
	return top.ev;
}

bool gs_evq_step(struct gs_evq *q)
{
	struct gs_event *ev = gs_evq_pop(q);

	if (!ev)
		return false;
	gs_evq_run(q, ev);
	return true;
}
