/* The bare 4-ary heap of `gpusim bench`: the floor the event loop is
 * compared with. Keys only (no event records, no sequence numbers, no
 * handlers), the same arity as base/event.c, driven as a simulation
 * drives its queue: pop the earliest, push it back a little later. */
#include <glib.h>

#include "base/event.h"
#include "sim/cli/bench.h"

struct bare_heap {
	uint64_t *key;
	uint32_t len;
};

static void sift_up(struct bare_heap *h, uint32_t i)
{
	uint64_t k = h->key[i];

	while (i > 0) {
		uint32_t parent = (i - 1) / 4;

		if (h->key[parent] <= k)
			break;
		h->key[i] = h->key[parent];
		i = parent;
	}
	h->key[i] = k;
}

static void sift_down(struct bare_heap *h, uint32_t i)
{
	uint64_t k = h->key[i];

	for (;;) {
		uint32_t first = 4 * i + 1, best = first, c;

		if (first >= h->len)
			break;
		for (c = first + 1; c < first + 4 && c < h->len; c++)
			if (h->key[c] < h->key[best])
				best = c;
		if (h->key[best] >= k)
			break;
		h->key[i] = h->key[best];
		i = best;
	}
	h->key[i] = k;
}

/* xorshift64: the keys' increments; any fixed sequence will do. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

double gs_bench_bare_heap(uint32_t size, uint64_t ops, unsigned repeat)
{
	struct bare_heap h = { .key = g_new(uint64_t, MAX(size, 1u)) };
	double best = 0;
	unsigned r;

	for (r = 0; r < MAX(repeat, 1u); r++) {
		uint64_t seed = 0x9e3779b97f4a7c15ULL, i, sum = 0;
		gint64 t0;
		double ns;

		/* pending events 5-15 us ahead, as the throttles' kernels */
		for (h.len = 0; h.len < size; h.len++) {
			h.key[h.len] = 5000 + next_rand(&seed) % 10000;
			sift_up(&h, h.len);
		}
		t0 = g_get_monotonic_time();
		for (i = 0; i < ops && h.len; i++) {
			uint64_t now = h.key[0];

			sum += now;
			/* pop: the last key to the root, sifted down */
			h.key[0] = h.key[--h.len];
			if (h.len)
				sift_down(&h, 0);
			/* push: appended, sifted up */
			h.key[h.len] = now + 5000 + next_rand(&seed) % 10000;
			sift_up(&h, h.len++);
		}
		ns = (double)(g_get_monotonic_time() - t0) * 1e3 /
		     (double)MAX(ops, 1);
		/* sum is used, so the loop is not optimised away */
		if (r == 0 || ns < best)
			best = ns + (sum == 1 ? 1e-9 : 0);
	}
	g_free(h.key);
	return best;
}

static void no_op(void *ctx, struct gs_event *ev)
{
	(void)ctx;
	(void)ev;
}

double gs_bench_event_loop(uint32_t size, uint64_t ops, unsigned repeat)
{
	struct gs_event *evs = g_new0(struct gs_event, MAX(size, 1u));
	double best = 0;
	unsigned r;

	for (r = 0; r < MAX(repeat, 1u); r++) {
		uint64_t seed = 0x9e3779b97f4a7c15ULL, i;
		struct gs_evq q;
		uint32_t k;
		gint64 t0;
		double ns;

		gs_evq_init(&q);
		for (k = 0; k < size; k++) {
			gs_event_init(&evs[k], GS_EVC_GPU, no_op, NULL);
			gs_evq_schedule(&q, &evs[k],
					5000 + next_rand(&seed) % 10000);
		}
		t0 = g_get_monotonic_time();
		for (i = 0; i < ops; i++) {
			struct gs_event *ev = gs_evq_pop(&q);

			if (!ev)
				break;
			gs_evq_schedule(&q, ev, q.now + 5000 +
						       next_rand(&seed) % 10000);
		}
		ns = (double)(g_get_monotonic_time() - t0) * 1e3 /
		     (double)MAX(ops, 1);
		if (r == 0 || ns < best)
			best = ns;
		gs_evq_destroy(&q);
	}
	g_free(evs);
	return best;
}
