/* Channels, the GPU's side: the dispatcher fetches commands from the ring
 * (a saved, preempted one first), and engines and shared kernels write
 * the reference counter (fence) on completion, whose host-visible copy
 * lags. Below the dispatcher and the engines: it calls none of them. */
#include <glib.h>

#include "gpu_model/gpu_internal.h"
#include "gpu_model/ring.h"

struct fence_entry {
	gs_time_t visible_at;
	uint64_t serial;
};

void gs_chan_free_blocks(struct gs_channel *ch)
{
	gs_fifo_free(&ch->cmds);
	gs_fifo_free(&ch->fence_lag);
	if (ch->rare) {
		if (ch->rare->fence_ahead)
			g_array_free(ch->rare->fence_ahead, TRUE);
		gs_fifo_free(&ch->rare->saved);
		g_free(ch->rare);
		ch->rare = NULL;
	}
}

/* Here, at the bottom of the model's calls: every part of it may need
 * the block (channel.c's credits, the preemptions, the fence). */
struct gs_channel_rare *gs_chan_rare(struct gs_channel *ch)
{
	if (!ch->rare) {
		ch->rare = g_new0(struct gs_channel_rare, 1);
		gs_fifo_init(&ch->rare->saved);
	}
	return ch->rare;
}

bool gs_chan_has_work(const struct gs_channel *ch)
{
	return ch->open &&
	       (ch->get != ch->put_visible || gs_chan_saved_len(ch));
}

void gs_chan_fetch(struct gs_channel *ch, struct gs_cmd *out)
{
	if (gs_chan_saved_len(ch)) {
		gs_fifo_pop(&ch->rare->saved, sizeof(*out), out);
		return;
	}
	gs_fifo_pop(&ch->cmds, sizeof(*out), out);
	ch->get = gs_ring_advance(ch->get, ch->entries);
	ch->in_flight++;
	if (ch->gpu->hooks.ring_space)
		ch->gpu->hooks.ring_space(ch->gpu->hooks.ctx, ch);
}

/* Whether serial can move the counter now (every older command is done);
 * if not, it is remembered until the older ones complete. Commands run in
 * submission order on each engine, so only a command on another engine
 * can still be running when a younger one completes. */
static bool fence_in_order(struct gs_channel *ch, uint64_t serial)
{
	struct gs_channel_rare *r;
	guint i = 0;

	if (serial == ch->fence_value + 1)
		return true;
	r = gs_chan_rare(ch);
	if (!r->fence_ahead)
		r->fence_ahead = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	while (i < r->fence_ahead->len &&
	       g_array_index(r->fence_ahead, uint64_t, i) < serial)
		i++;
	g_array_insert_val(r->fence_ahead, i, serial);
	return false;
}

void gs_chan_write_fence(struct gs_channel *ch, uint64_t serial)
{
	struct fence_entry e = {
		.visible_at = ch->gpu->q->now + ch->gpu->cfg.ref_writeback,
	};
	GArray *ahead;

	if (!fence_in_order(ch, serial))
		return;
	/* serial, then every remembered one that follows it without a gap */
	ahead = ch->rare ? ch->rare->fence_ahead : NULL;
	while (ahead && ahead->len &&
	       g_array_index(ahead, uint64_t, 0) == serial + 1) {
		serial++;
		g_array_remove_index(ahead, 0);
	}
	e.serial = serial;
	ch->fence_value = serial;
	if (!ch->gpu->cfg.ref_writeback) {
		ch->fence_visible = serial;
		return;
	}
	/* Entries become visible in completion order; fold the ones already
	 * visible so the FIFO stays as short as the lag window. */
	(void)gs_chan_fence_visible(ch);
	gs_fifo_push(&ch->fence_lag, sizeof(e), &e);
}

uint64_t gs_chan_fence_visible(struct gs_channel *ch)
{
	gs_time_t now = ch->gpu->q->now;

	while (ch->fence_lag.len) {
		struct fence_entry *e =
			gs_fifo_at(&ch->fence_lag, sizeof(*e), 0);

		if (e->visible_at > now)
			break;
		ch->fence_visible = e->serial;
		gs_fifo_pop(&ch->fence_lag, sizeof(struct fence_entry), NULL);
	}
	return ch->fence_visible;
}
