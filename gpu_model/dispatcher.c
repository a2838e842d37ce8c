/* The dispatcher (host/PBDMA walking the runlist): visits channels with
 * pending work round-robin and fetches a batch of commands per visit. A
 * fetched command whose engine is busy stalls the dispatcher: nothing else
 * is fetched, for any engine, until that engine takes it (head-of-line
 * blocking, as observed on Kepler by the NEON and LoGA papers).
 *
 * Channels with work form a circular list. A channel that gains work joins
 * just behind the cursor, i.e. at the end of the current round, which keeps
 * insertion O(1) even with tens of thousands of channels.
 *
 * In timeslice mode (modern presets) the dispatcher stays with the current
 * channel group while its slice lasts and it has work, then moves on. */
#include "gpu_model/gpu_internal.h"

static void disp_run(void *ctx, struct gs_event *ev);

void gs_disp_init(struct gs_gpu *gpu)
{
	struct gs_dispatcher *d = &gpu->disp;

	d->cursor = NULL;
	d->pending = 0;
	d->stalled = false;
	d->stall_chan = NULL;
	d->group = UINT32_MAX;
	d->slice_expired = false;
	gs_event_init(&d->ev, GS_EVC_DISPATCH, disp_run, gpu);
}

/* Wake the dispatcher. While it is stalled on a busy engine it can fetch
 * nothing, so a wake-up then would only find the engine still busy: that
 * engine kicks again when it goes idle (every path that makes an engine
 * idle ends in a kick), and the stall ends then. */
void gs_disp_kick(struct gs_gpu *gpu)
{
	const struct gs_dispatcher *d = &gpu->disp;

	if (gs_event_queued(&d->ev))
		return;
	if (d->stalled &&
	    !gs_engine_accepts(gs_gpu_engine_for(gpu, d->stall_cmd.engine)))
		return;
	gs_evq_schedule(gpu->q, &gpu->disp.ev, gpu->q->now);
}

void gs_disp_link(struct gs_gpu *gpu, struct gs_channel *ch)
{
	struct gs_dispatcher *d = &gpu->disp;

	if (ch->rr_linked)
		return;
	ch->rr_linked = true;
	d->pending++;
	ch->wait_from = d->front_moves;
	ch->wait_bound = d->pending;
	if (!d->cursor) {
		ch->rr_next = ch->rr_prev = ch;
		d->cursor = ch;
		return;
	}
	ch->rr_next = d->cursor;
	ch->rr_prev = d->cursor->rr_prev;
	ch->rr_prev->rr_next = ch;
	d->cursor->rr_prev = ch;
}

void gs_disp_unlink(struct gs_gpu *gpu, struct gs_channel *ch)
{
	struct gs_dispatcher *d = &gpu->disp;

	if (!ch->rr_linked)
		return;
	ch->rr_linked = false;
	d->pending--;
	if (!d->pending) {
		d->cursor = NULL;
	} else {
		ch->rr_prev->rr_next = ch->rr_next;
		ch->rr_next->rr_prev = ch->rr_prev;
		if (d->cursor == ch)
			d->cursor = ch->rr_next;
	}
	ch->rr_next = ch->rr_prev = NULL;
}

void gs_disp_forget(struct gs_gpu *gpu, struct gs_channel *ch)
{
	struct gs_dispatcher *d = &gpu->disp;

	if (d->stalled && d->stall_chan == ch) {
		d->stalled = false;
		d->stall_chan = NULL;
		ch->dropped++;
		ch->in_flight--;
		gs_disp_kick(gpu);
	}
}

/* A preemption saves the whole channel group's state, the PBDMA's
 * included: a command of the group that the dispatcher fetched and holds
 * for the preempted engine goes back to its channel, ahead of what is
 * still at GET. Started as it is, it would run before the preempted
 * command resumes (out of the channel's order) and outside the group's
 * slice. */
void gs_disp_take_back(struct gs_gpu *gpu, const struct gs_engine *eng,
		       uint32_t group)
{
	struct gs_dispatcher *d = &gpu->disp;
	struct gs_channel *ch = d->stall_chan;

	if (!d->stalled || ch->group != group ||
	    gs_gpu_engine_for(gpu, d->stall_cmd.engine) != eng)
		return;
	gs_fifo_push_front(&gs_chan_rare(ch)->saved, sizeof(d->stall_cmd),
			   &d->stall_cmd);
	d->stalled = false;
	d->stall_chan = NULL;
	gs_disp_link(gpu, ch);
	/* no longer stalled: it may fetch for other engines meanwhile */
	gs_disp_kick(gpu);
}

bool gs_disp_other_group_waiting(const struct gs_gpu *gpu, uint32_t group)
{
	const struct gs_dispatcher *d = &gpu->disp;
	const struct gs_channel *ch = d->cursor;
	uint32_t i;

	if (d->stalled && d->stall_chan->group != group)
		return true;
	for (i = 0; i < d->pending; i++, ch = ch->rr_next)
		if (ch->group != group)
			return true;
	return false;
}

/* Timeslice mode: a channel of the current group while its slice lasts,
 * else the first channel (from the cursor) of another group, where the
 * cursor then stays for the whole turn. The cursor marks the front of the
 * round: a channel that joins meanwhile goes behind it (to the end of the
 * round), and one of the current group found further round the ring is
 * served without moving the cursor there, or the channel after it (one
 * that joined at the end of the round) would be next and the groups
 * between them would wait for ever. */
static struct gs_channel *pick_timeslice(struct gs_gpu *gpu)
{
	struct gs_dispatcher *d = &gpu->disp;
	struct gs_channel *ch = d->cursor, *other = NULL;
	uint32_t i;

	for (i = 0; i < d->pending; i++, ch = ch->rr_next) {
		if (ch->group == d->group) {
			if (!d->slice_expired)
				return ch;
		} else if (!other) {
			other = ch;
		}
	}
	if (!other)
		return d->cursor; /* only the current group has work */
	d->group = other->group;
	d->turn++;
	d->front_moves++;
	d->slice_expired = false;
	/* The front passes the current group's channels ahead of `other`,
	 * their slice spent: each is now at the end of the round. */
	for (ch = d->cursor; ch != other; ch = ch->rr_next) {
		ch->wait_from = d->front_moves;
		ch->wait_bound = d->pending;
	}
	d->cursor = other;
	return other;
}

static struct gs_channel *pick_channel(struct gs_gpu *gpu)
{
	struct gs_dispatcher *d = &gpu->disp;

	if (!d->pending)
		return NULL;
	if (gpu->cfg.sched == GS_SCHED_TIMESLICE)
		return pick_timeslice(gpu);
	return d->cursor;
}

/* Hand a fetched command to its engine, or stall holding it. */
static bool deliver(struct gs_gpu *gpu, struct gs_channel *ch,
		    const struct gs_cmd *cmd)
{
	struct gs_engine *eng = gs_gpu_engine_for(gpu, cmd->engine);
	struct gs_dispatcher *d = &gpu->disp;

	if (ch->occupancy_pm && cmd->engine == GS_ENGINE_COMPUTE) {
		gs_shared_start(gpu, ch, cmd); /* never waits */
		return true;
	}
	if (gs_engine_accepts(eng)) {
		gs_engine_start(eng, ch, cmd);
		return true;
	}
	d->stalled = true;
	d->stall_chan = ch;
	d->stall_cmd = *cmd;
	return false;
}

static void disp_run(void *ctx, struct gs_event *ev)
{
	struct gs_gpu *gpu = ctx;
	struct gs_dispatcher *d = &gpu->disp;
	(void)ev;

	if (d->stalled) {
		struct gs_engine *eng =
			gs_gpu_engine_for(gpu, d->stall_cmd.engine);

		if (!gs_engine_accepts(eng))
			return; /* that engine's completion kicks us again */
		d->stalled = false;
		gs_engine_start(eng, d->stall_chan, &d->stall_cmd);
		d->stall_chan = NULL;
	}

	for (;;) {
		struct gs_channel *ch = pick_channel(gpu);
		uint32_t fetched = 0;
		bool ok = true;

		if (!ch)
			return;
		while (ok && fetched < gpu->cfg.dispatch_batch &&
		       gs_chan_has_work(ch)) {
			struct gs_cmd cmd;

			gs_chan_fetch(ch, &cmd);
			fetched++;
			ok = deliver(gpu, ch, &cmd);
		}
		/* Next visit goes to the channel after this one; in timeslice
		 * mode pick_timeslice keeps the cursor at the front of the
		 * round. */
		if (gpu->cfg.sched != GS_SCHED_TIMESLICE) {
			d->cursor = ch->rr_next;
			d->front_moves++;
		}
		if (!gs_chan_has_work(ch)) {
			gs_disp_unlink(gpu, ch);
		} else {
			ch->wait_from = d->front_moves;
			ch->wait_bound = d->pending;
		}
		if (!ok)
			return;
		if (gpu->cfg.fetch) {
			gs_evq_schedule(gpu->q, &d->ev,
					gpu->q->now + gpu->cfg.fetch * fetched);
			return;
		}
	}
}
