/* ops->fence_signal: commands' completions reach a policy as the
 * driver's completion interrupt handler finds them. Each scheduling
 * level's handle of a channel has one event. A completion raises the
 * interrupt, which arrives gpu.irq_latency later; its handler reads the
 * fence in memory (the GPU wrote it before raising the interrupt) and so
 * signals every completion up to then, those that came while it was due
 * included; a completion after it raises its own. */
#include "sim/host/policy_call.h"
#include "sim/host/sim_internal.h"

static void fence_signal_event(void *ctx, struct gs_event *ev)
{
	struct hal_chan *hc = ctx;
	uint32_t n = hc->rare->fence_unsignalled;
	(void)ev;

	hc->rare->fence_unsignalled = 0;
	if (hc->ch && hc->ch->open && n)
		gs_policy_fence_signal(hc->owner->s, hc, n);
}

/* Here since the handle's fence event is the one part that needs more
 * than a free. */
void gs_hal_chan_free_rare(struct hal_chan *hc)
{
	if (!hc->rare)
		return;
	if (hc->rare->fence_ev) {
		gs_evq_cancel(&hc->task->sim->q, hc->rare->fence_ev);
		g_free(hc->rare->fence_ev);
	}
	g_free(hc->rare);
	hc->rare = NULL;
}

void gs_fence_signal_cancel(struct gs_task *t, uint32_t chan)
{
	uint32_t k;

	for (k = 0; k < t->n_levels; k++) {
		struct hal_chan_rare *r = gs_task_level_of(t, k).chans[chan].rare;

		if (!r)
			continue;
		if (r->fence_ev) {
			gs_evq_cancel(&t->sim->q, r->fence_ev);
			g_free(r->fence_ev);
			r->fence_ev = NULL;
		}
		r->fence_unsignalled = 0;
	}
}

void gs_fence_signal_due(struct gs_task *t, uint32_t chan,
			 const struct gs_gpu_config *gpu)
{
	uint32_t k;

	for (k = 0; k < t->n_levels; k++) {
		struct hal_chan *hc = &gs_task_level_of(t, k).chans[chan];
		struct hal_chan_rare *r;

		if (!gs_task_level_of(t, k).s->ops->fence_signal)
			continue;
		r = gs_hal_chan_rare(hc);
		r->fence_unsignalled++;
		if (!r->fence_ev) {
			r->fence_ev = g_new(struct gs_event, 1);
			gs_event_init(r->fence_ev, GS_EVC_POLICY,
				      fence_signal_event, hc);
		}
		if (!gs_event_queued(r->fence_ev))
			gs_evq_schedule(&t->sim->q, r->fence_ev,
					t->sim->q.now + gpu->irq_latency);
	}
}
