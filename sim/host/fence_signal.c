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
	uint32_t n = hc->fence_unsignalled;
	(void)ev;

	hc->fence_unsignalled = 0;
	if (hc->ch && hc->ch->open && n)
		gs_policy_fence_signal(hc->owner->s, hc, n);
}

void gs_fence_signal_init(struct hal_chan *hc)
{
	hc->fence_ev = NULL;
}

void gs_fence_signal_cancel(struct gs_task *t, uint32_t chan)
{
	uint32_t k;

	for (k = 0; k < t->n_levels; k++) {
		struct hal_chan *hc = &gs_task_level_of(t, k).chans[chan];

		if (hc->fence_ev) {
			gs_evq_cancel(&t->sim->q, hc->fence_ev);
			g_free(hc->fence_ev);
			hc->fence_ev = NULL;
		}
		hc->fence_unsignalled = 0;
	}
}

void gs_fence_signal_due(struct gs_task *t, uint32_t chan,
			 const struct gs_gpu_config *gpu)
{
	uint32_t k;

	for (k = 0; k < t->n_levels; k++) {
		struct hal_chan *hc = &gs_task_level_of(t, k).chans[chan];

		if (!gs_task_level_of(t, k).s->ops->fence_signal)
			continue;
		hc->fence_unsignalled++;
		if (!hc->fence_ev) {
			hc->fence_ev = g_new(struct gs_event, 1);
			gs_event_init(hc->fence_ev, GS_EVC_POLICY,
				      fence_signal_event, hc);
		}
		if (!gs_event_queued(hc->fence_ev))
			gs_evq_schedule(&t->sim->q, hc->fence_ev,
					t->sim->q.now + gpu->irq_latency);
	}
}
