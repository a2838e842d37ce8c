/* Channels, the host's side: opening and closing one, writing commands
 * into its ring (GET/PUT pointers) and publishing them with the doorbell,
 * which tells the dispatcher. The GPU's side (fetching from the ring,
 * the fence) is channel_gpu.c. */
#include <glib.h>

#include "gpu_model/gpu_internal.h"
#include "gpu_model/ring.h"

struct gs_channel *gs_gpu_channel_open(struct gs_gpu *gpu, uint32_t group,
				       void *owner)
{
	uint32_t n = gpu->cfg.max_channels, i;

	for (i = 0; i < n; i++) {
		uint32_t id = (gpu->next_free_hint + i) % n;
		struct gs_channel *ch = &gpu->channels[id];

		/* A closed channel whose last command is still on an engine
		 * is not free yet: the engine still points at it. A slot
		 * never opened (from slots_touched on) is zero, free and
		 * holds nothing, and is not read: its first touch is the
		 * write below, so that the page comes in with one fault
		 * (base/zero_table.h, gs_zeroed_written). */
		if (id < gpu->slots_touched) {
			if (ch->open || ch->in_flight)
				continue;
			gs_chan_free_blocks(ch);
		}
		memset(ch, 0, sizeof(*ch));
		ch->id = id;
		ch->gpu = gpu;
		ch->group = group;
		ch->owner = owner;
		ch->open = true;
		ch->enabled = true;
		ch->entries = gpu->cfg.ring_entries;
		gs_fifo_init(&ch->cmds);
		gs_fifo_init(&ch->fence_lag);
		gpu->next_free_hint = (id + 1) % n;
		if (id >= gpu->slots_touched)
			gpu->slots_touched = id + 1;
		gpu->n_open++;
		return ch;
	}
	return NULL;
}

void gs_chan_set_credit_limit(struct gs_channel *ch, uint32_t limit)
{
	if (limit || ch->rare)
		gs_chan_rare(ch)->credit_limit = limit;
}

void gs_gpu_channel_close(struct gs_channel *ch)
{
	struct gs_gpu *gpu = ch->gpu;
	uint32_t saved = gs_chan_saved_len(ch);
	uint8_t k;

	if (!ch->open)
		return;
	gs_disp_forget(gpu, ch);
	gs_disp_unlink(gpu, ch);
	for (k = 0; k < GS_ENGINE_KINDS; k++)
		gs_engine_forget_channel(&gpu->engines[k], ch);
	gs_shared_forget_channel(gpu, ch);
	/* Everything published but not yet on an engine is dropped with the
	 * channel; what was written without a doorbell was never submitted. */
	ch->dropped += gs_ring_distance(ch->get, ch->put_visible, ch->entries) +
		       saved;
	ch->in_flight -= saved;
	while (saved--)
		gs_fifo_pop(&ch->rare->saved, sizeof(struct gs_cmd), NULL);
	while (ch->cmds.len)
		gs_fifo_pop(&ch->cmds, sizeof(struct gs_cmd), NULL);
	ch->get = ch->put = ch->put_visible = 0;
	ch->open = false;
	ch->enabled = false;
	ch->owner = NULL;
	ch->traced = false;
	gpu->n_open--;
}

uint32_t gs_chan_ring_used(const struct gs_channel *ch)
{
	return gs_ring_distance(ch->get, ch->put, ch->entries);
}

bool gs_chan_ring_full(const struct gs_channel *ch)
{
	return gs_ring_is_full(ch->get, ch->put, ch->entries);
}

/* The contents go in with the command, not set on it afterwards: a second
 * look-up of the command in its FIFO for every command a task writes. */
uint64_t gs_chan_write_content(struct gs_channel *ch, uint64_t duration,
			       uint8_t engine, uint8_t flags, uint8_t cls,
			       const struct gs_cmd_content *content)
{
	struct gs_cmd cmd = {
		.duration = duration,
		.remaining = duration,
		.engine = engine,
		.flags = flags,
		.cls = cls,
		.written_at = ch->gpu->q->now,
		.content = *content,
	};

	if (!ch->open || gs_chan_ring_full(ch))
		return 0;
	cmd.serial = ++ch->next_serial;
	gs_fifo_push(&ch->cmds, sizeof(cmd), &cmd);
	ch->put = gs_ring_advance(ch->put, ch->entries);
	return cmd.serial;
}

uint64_t gs_chan_write(struct gs_channel *ch, uint64_t duration,
		       uint8_t engine, uint8_t flags, uint8_t cls)
{
	static const struct gs_cmd_content none;

	return gs_chan_write_content(ch, duration, engine, flags, cls, &none);
}

/* Commands published and not completed: what holds credits. */
static uint64_t chan_on_hardware(const struct gs_channel *ch)
{
	return ch->submitted - ch->completed - ch->dropped;
}

void gs_chan_publish(struct gs_channel *ch, uint32_t n)
{
	struct gs_channel_rare *r = ch->rare;
	uint32_t waiting = gs_chan_unpublished(ch) - gs_chan_credit_held(ch), i;

	if (!ch->open || !n || !waiting)
		return;
	if (n > waiting)
		n = waiting;
	if (r && r->credit_limit) {
		uint64_t used = chan_on_hardware(ch);

		r->credit_held += n;
		n = used >= r->credit_limit
			    ? 0
			    : (uint32_t)MIN(r->credit_held,
					    r->credit_limit - used);
		r->credit_held -= n;
		if (!n)
			return;
	}
	for (i = 0; i < n; i++)
		ch->put_visible = gs_ring_advance(ch->put_visible, ch->entries);
	ch->submitted += n;
	gs_disp_link(ch->gpu, ch);
	gs_disp_kick(ch->gpu);
}

void gs_chan_return_credits(struct gs_channel *ch)
{
	uint32_t n = gs_chan_credit_held(ch);

	if (!n)
		return;
	ch->rare->credit_held = 0;
	gs_chan_publish(ch, n);
}

void gs_chan_doorbell(struct gs_channel *ch)
{
	gs_chan_publish(ch, gs_chan_unpublished(ch));
}

uint32_t gs_chan_unpublished(const struct gs_channel *ch)
{
	return gs_ring_distance(ch->put_visible, ch->put, ch->entries);
}

const struct gs_cmd *gs_chan_unpublished_head(const struct gs_channel *ch)
{
	return gs_chan_unpublished_at(ch, 0);
}

const struct gs_cmd *gs_chan_unpublished_at(const struct gs_channel *ch,
					    uint32_t i)
{
	uint32_t published = gs_ring_distance(ch->get, ch->put_visible,
					      ch->entries);

	if (i >= gs_chan_unpublished(ch))
		return NULL;
	return gs_fifo_at(&ch->cmds, sizeof(struct gs_cmd), published + i);
}

uint64_t gs_chan_outstanding(const struct gs_channel *ch)
{
	return ch->submitted + gs_chan_unpublished(ch) - ch->completed -
	       ch->dropped;
}
