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

bool gs_chan_has_work(const struct gs_channel *ch)
{
	return ch->open && (ch->saved.len || ch->get != ch->put_visible);
}

void gs_chan_fetch(struct gs_channel *ch, struct gs_cmd *out)
{
	if (ch->saved.len) {
		gs_fifo_pop(&ch->saved, sizeof(*out), out);
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
	guint i = 0;

	if (serial == ch->fence_value + 1)
		return true;
	if (!ch->fence_ahead)
		ch->fence_ahead = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	while (i < ch->fence_ahead->len &&
	       g_array_index(ch->fence_ahead, uint64_t, i) < serial)
		i++;
	g_array_insert_val(ch->fence_ahead, i, serial);
	return false;
}

void gs_chan_write_fence(struct gs_channel *ch, uint64_t serial)
{
	struct fence_entry e = {
		.visible_at = ch->gpu->q->now + ch->gpu->cfg.ref_writeback,
	};

	if (!fence_in_order(ch, serial))
		return;
	/* serial, then every remembered one that follows it without a gap */
	while (ch->fence_ahead && ch->fence_ahead->len &&
	       g_array_index(ch->fence_ahead, uint64_t, 0) == serial + 1) {
		serial++;
		g_array_remove_index(ch->fence_ahead, 0);
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
