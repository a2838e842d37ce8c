/* The latency log's statistics in two parts sharing the counting pass. */
#include "base/latency_halves.h"

bool gs_latency_halves_fit(const struct gs_latency_log *log,
			   const struct gs_latency_mark *mark)
{
	return !log->per_slot && mark->n <= UINT32_MAX;
}

void gs_latency_halves_init(struct gs_latency_halves *h,
			    const struct gs_latency_log *log,
			    const struct gs_latency_mark *mark,
			    uint32_t n_owners, uint32_t n_kinds,
			    uint32_t split)
{
	uint64_t slots = MAX((uint64_t)n_owners * n_kinds, 1);

	*h = (struct gs_latency_halves){ .log = log, .mark = mark,
					 .n_owners = n_owners,
					 .n_kinds = n_kinds, .split = split };
	h->count[0] = g_new0(uint32_t, slots);
	h->count[1] = g_new0(uint32_t, slots);
	g_mutex_init(&h->lock);
	g_cond_init(&h->counted_cond);
}

void gs_latency_halves_count(struct gs_latency_halves *h, unsigned part)
{
	uint64_t half = h->mark->n / 2;
	uint64_t from = part ? half : 0, to = part ? h->mark->n : half, i;
	uint32_t *count = h->count[part];

	for (i = from; i < to; i++) {
		const struct gs_latency_entry *e = &h->log->e[i];

		if (e->owner < h->n_owners && e->kind < h->n_kinds)
			count[(uint64_t)e->owner * h->n_kinds + e->kind]++;
	}
	g_mutex_lock(&h->lock);
	h->counted++;
	g_cond_broadcast(&h->counted_cond);
	g_mutex_unlock(&h->lock);
}

void gs_latency_halves_stats(struct gs_latency_halves *h, unsigned part,
			     gs_latency_put_fn *put, void *ctx)
{
	uint32_t first = part ? h->split : 0;
	uint32_t end = part ? h->n_owners : h->split;
	uint64_t base = (uint64_t)first * h->n_kinds;
	uint64_t slots = (uint64_t)(end - first) * h->n_kinds, s;
	/* gs_latency_log_group_stats's offsets: [s + 1] slot s's start */
	uint64_t *at;

	if (first >= end)
		return;
	g_mutex_lock(&h->lock);
	while (h->counted < 2)
		g_cond_wait(&h->counted_cond, &h->lock);
	g_mutex_unlock(&h->lock);
	at = g_new(uint64_t, slots + 2);
	at[0] = at[1] = 0;
	for (s = 0; s < slots; s++)
		at[s + 2] = at[s + 1] + h->count[0][base + s] +
			    h->count[1][base + s];
	gs_latency_log_group_stats(h->log, h->mark, h->n_kinds, first, end,
				   at, put, ctx);
	g_free(at);
}

void gs_latency_halves_free(struct gs_latency_halves *h)
{
	g_free(h->count[0]);
	g_free(h->count[1]);
	g_mutex_clear(&h->lock);
	g_cond_clear(&h->counted_cond);
}
