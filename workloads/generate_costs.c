/* The generator's fourth stream (workloads/generate.h): the GPU's and the
 * host's costs that the first leaves at the preset's and the host's
 * defaults, each now and then, so that the property tests run every
 * relation with other interrupt latencies, register reads, reference
 * write-backs, preemption saves and wake-ups too. Its own random stream
 * keeps every draw of the streams before as it was.
 *
 * The launch, doorbell and spin-poll costs stay as the first stream
 * draws them: the oracles (tests/proptest/pt_oracles.c) take the host's
 * costs per command to stay below 12 us. */
#include "workloads/generate.h"

#include "base/rng.h"
#include "workloads/generate_draw.h"

#define US GS_GEN_US

/* A cost in [lo_ns, hi_ns] whole nanoseconds, with the given chance. */
static void maybe(struct gs_rng *r, gs_time_t *cost, uint64_t lo_ns,
		  uint64_t hi_ns)
{
	if (gs_gen_chance(r, 15))
		*cost = gs_gen_pick(r, lo_ns, hi_ns);
}

void gs_gen_draw_costs(struct gs_gen_scenario *g)
{
	struct gs_rng r;

	gs_rng_seed(&r, g->seed, "generate-costs");
	/* the presets' (gpu_model/presets.c): irq_latency 5-10 us,
	 * mmio_read 1 us, ref_writeback 10-100 us, preempt_save 0-50 us;
	 * the host's wakeup 10 us, policy_wakeup 2 us */
	maybe(&r, &g->irq_latency, 1 * US, 40 * US);
	maybe(&r, &g->mmio_read, 200, 5 * US);
	maybe(&r, &g->ref_writeback, 1 * US, 200 * US);
	maybe(&r, &g->preempt_save, 5 * US, 200 * US);
	maybe(&r, &g->wakeup, 1 * US, 50 * US);
	maybe(&r, &g->policy_wakeup, 1 * US, 20 * US);
}
