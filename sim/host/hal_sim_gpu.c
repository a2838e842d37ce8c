/* policies/hal.h in the simulator (see hal_sim.c): observing the GPU,
 * register reads (each charged as one MMIO read of policy CPU time),
 * fences, and the poll loop that samples an engine's status register. */
#include <glib.h>

#include "sim/host/policy_call.h"
#include "sim/host/record_hal.h"
#include "sim/host/sim_internal.h"

/* ---- observing the GPU ------------------------------------------------- */

static void charge_mmio(struct hal_sched *s, struct gs_gpu *gpu)
{
	/* a read made by the running poll loop's thread is already in the
	 * loop's busy time */
	if (!s->poll.active)
		gs_policy_charge(s, gpu->cfg.mmio_read);
}

static void read_status(struct gs_gpu *gpu, hal_u32 engine,
			struct hal_engine_status *out)
{
	struct gs_engine_status st;

	gs_gpu_peek_engine_status(gpu, (uint8_t)engine, &st);
	out->cur_id = st.cur_id;
	out->next_id = st.next_id;
	out->ctx_status = st.ctx_status;
	out->busy = st.busy;
}

void hal_read_engine_status(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
			    struct hal_engine_status *out)
{
	struct gs_gpu *g = s->sim->gpus[gpu];

	g->mmio_reads++;
	read_status(g, engine, out);
	charge_mmio(s, g);
	GS_REC(s, "hal_read_engine_status", "uu", GS_RV(gpu, engine), "uuuu",
	       GS_RV(out->cur_id, out->next_id, out->ctx_status, out->busy));
}

hal_u32 hal_read_chram(struct hal_sched *s, struct hal_chan *c)
{
	hal_u32 v;

	charge_mmio(s, c->ch->gpu);
	v = gs_gpu_read_chram(c->ch->gpu, c->ch->id);
	GS_REC(s, "hal_read_chram", "c", GS_RV(gs_hal_rec_chan(c)), "u",
	       GS_RV(v));
	return v;
}

hal_u64 hal_fence_read(struct hal_sched *s, struct hal_chan *c)
{
	hal_u64 v = gs_chan_fence_visible(c->ch);

	GS_REC(s, "hal_fence_read", "c", GS_RV(gs_hal_rec_chan(c)), "u",
	       GS_RV(v));
	return v;
}

hal_u64 hal_chan_submitted(struct hal_sched *s, struct hal_chan *c)
{
	GS_REC(s, "hal_chan_submitted", "c", GS_RV(gs_hal_rec_chan(c)), "u",
	       GS_RV(c->ch->submitted));
	return c->ch->submitted;
}

/* The poll loop reads the register every `period` (one MMIO read) from
 * `start`. Rather than an event per read, it wakes at the first read
 * boundary at or after each change of the register, which is exactly the
 * read a step-by-step loop would first see it in: reads in between see
 * the old value. The thread is busy all along: its CPU time and reads are
 * charged for the whole loop when it ends. */
static gs_time_t next_boundary(const struct hal_poll *p, gs_time_t t)
{
	gs_time_t k = (t - p->start + p->period - 1) / p->period;

	return p->start + k * p->period;
}

static void poll_notice(struct hal_sched *s, struct gs_gpu *gpu,
			uint8_t engine)
{
	struct hal_poll *p = &s->poll;
	gs_time_t at;

	if (!p->active || p->gpu != gpu->index || p->engine != engine)
		return;
	at = next_boundary(p, s->sim->q.now);
	if (at >= p->until)
		return;
	if (!gs_event_queued(&p->sample_ev) || p->sample_ev.time > at)
		gs_evq_schedule(&s->sim->q, &p->sample_ev, at);
}

/* Every instance's poll loop on that engine sees the change. */
void gs_hal_status_change(void *ctx, struct gs_gpu *gpu, uint8_t engine)
{
	struct gs_sim *sim = ctx;
	uint32_t i;

	poll_notice(&sim->sched, gpu, engine);
	for (i = 0; i < sim->n_guests; i++)
		poll_notice(&sim->guests[i], gpu, engine);
}

static void poll_sample(void *ctx, struct gs_event *ev);
static void poll_end(void *ctx, struct gs_event *ev);

void gs_hal_poll_init(struct hal_sched *s)
{
	gs_event_init(&s->poll.sample_ev, GS_EVC_POLICY, poll_sample, s);
	gs_event_init(&s->poll.end_ev, GS_EVC_POLICY, poll_end, s);
}

static void poll_sample(void *ctx, struct gs_event *ev)
{
	struct hal_sched *s = ctx;
	struct hal_poll *p = &s->poll;
	struct hal_engine_status st;
	(void)ev;

	read_status(s->sim->gpus[p->gpu], p->engine, &st);
	if (st.cur_id == p->last.cur_id && st.next_id == p->last.next_id &&
	    st.ctx_status == p->last.ctx_status && st.busy == p->last.busy)
		return;
	p->last = st;
	gs_policy_poll_change(s, &st, s->sim->q.now);
}

/* Charge the loop's reads and busy CPU time from start to now. */
static void poll_finish(struct hal_sched *s)
{
	struct hal_poll *p = &s->poll;
	struct gs_sim *sim = s->sim;
	gs_time_t elapsed = sim->q.now - p->start;

	gs_policy_charge(s, elapsed);
	/* reads at start, start + period, ... before now */
	sim->gpus[p->gpu]->mmio_reads +=
		(elapsed + p->period - 1) / p->period;
	p->active = false;
	sim->gpus[p->gpu]->status_watchers--;
	gs_evq_cancel(&sim->q, &p->sample_ev);
	gs_evq_cancel(&sim->q, &p->end_ev);
}

/* Results are being collected: charge a loop still running up to now
 * (it goes on from here, so it is not charged twice). */
static void poll_flush(struct hal_sched *s)
{
	struct hal_poll *p = &s->poll;
	gs_time_t elapsed;

	if (!p->active)
		return;
	/* whole periods, so the read grid stays where it was */
	elapsed = (s->sim->q.now - p->start) / p->period * p->period;
	gs_policy_charge(s, elapsed);
	s->sim->gpus[p->gpu]->mmio_reads += elapsed / p->period;
	p->start += elapsed;
}

void gs_hal_flush(struct gs_sim *sim)
{
	uint32_t i;

	poll_flush(&sim->sched);
	for (i = 0; i < sim->n_guests; i++)
		poll_flush(&sim->guests[i]);
}

static void poll_end(void *ctx, struct gs_event *ev)
{
	struct hal_sched *s = ctx;
	(void)ev;

	poll_finish(s);
	gs_policy_poll_end(s);
}

void hal_poll_start(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
		    hal_u64 until)
{
	struct gs_sim *sim = s->sim;
	struct hal_poll *p = &s->poll;
	struct gs_gpu *g = sim->gpus[gpu];

	GS_REC(s, "hal_poll_start", "uuu", GS_RV(gpu, engine, until), NULL,
	       NULL);
	if (p->active)
		poll_finish(s);
	p->active = true;
	g->status_watchers++;
	p->gpu = gpu;
	p->engine = engine;
	p->start = sim->q.now;
	p->until = until > p->start ? until : p->start;
	p->period = g->cfg.mmio_read ? g->cfg.mmio_read : 1;
	/* The loop's first read is reported too (as by the kernel HAL): no
	 * earlier sample can equal it. */
	p->last.ctx_status = 0xff;
	gs_evq_schedule(&sim->q, &p->sample_ev, p->start);
	gs_evq_schedule(&sim->q, &p->end_ev, p->until);
}

void hal_poll_stop(struct hal_sched *s)
{
	GS_REC(s, "hal_poll_stop", NULL, NULL, NULL, NULL);
	if (s->poll.active)
		poll_finish(s);
}
