/* The generator's second stream (workloads/generate.h): what the first
 * never draws, each now and then, so that the property tests run every
 * relation over those inputs too. Its own random stream keeps every
 * draw of the first as it was. */
#include "workloads/generate.h"

#include <string.h>

#include "base/rng.h"
#include "workloads/generate_draw.h"

#define US GS_GEN_US

const char *const gs_gen_priorities[4] = { "normal", "kernel", "high",
					   "low" };

/* One task's: a priority other than normal, a cap on its commands on the
 * hardware (drm_sched's credit_limit), a ring of its own smaller than the
 * GPU's, a round limit, and a throttle's command contents (the figures
 * drr estimates costs from, GERM 4.7.3, each of which may be 0). */
static void more_task(struct gs_rng *r, const struct gs_gen_scenario *g,
		      struct gs_gen_task *t)
{
	if (gs_gen_chance(r, 20))
		t->priority = (uint8_t)gs_gen_pick(r, 1, 3);
	if (gs_gen_chance(r, 10))
		t->max_inflight = (uint32_t)gs_gen_pick(r, 1, 3);
	if (gs_gen_chance(r, 10) && g->ring_entries > 2)
		t->ring_entries = (uint32_t)gs_gen_pick(
			r, 2, MIN(g->ring_entries - 1, 4));
	if (gs_gen_chance(r, 8) && t->behavior != GS_GEN_JOB)
		t->rounds = (uint32_t)gs_gen_pick(r, 1, 200);
	if (t->behavior == GS_GEN_THROTTLE && gs_gen_chance(r, 30))
		t->content = gs_gen_draw_content(r);
}

/* A node's: interference past 125% of demand, DCUDA's power model,
 * unified memory (DCUDA Fig. 8's page and fault, configs/paper/
 * dcuda_fig8.yaml), the on-demand share of a migration, and arrivals
 * drawn from a Poisson process or in a shuffled order. */
static void more_node(struct gs_rng *r, struct gs_gen_scenario *g)
{
	struct gs_gen_more *m = &g->more;

	if (gs_gen_chance(r, 30))
		m->interference_pct = (uint32_t)gs_gen_pick(r, 10, 300);
	m->power = gs_gen_chance(r, 30);
	if (gs_gen_chance(r, 20)) {
		m->um_page_kib = gs_gen_chance(r, 50) ? 64 : 4;
		m->um_fault = gs_gen_pick(r, 5, 20) * US;
	}
	if ((m->on_demand_set = gs_gen_chance(r, 20)))
		m->on_demand_pct = (uint32_t)gs_gen_pick(r, 0, 50);
	if (g->arrivals_every) {
		m->arrivals_poisson = gs_gen_chance(r, 30);
		m->arrivals_shuffled = gs_gen_chance(r, 30);
	}
}

/* The policy's kill_after (dfq and hdfq: a request that runs this long
 * while the scheduler waits for it gets its task killed, NEON 3.1;
 * timeslice: a channel with no progress that long) at 0.1-4 ms, as the
 * longer commands: the first stream leaves it at 7.5 s or more, longer
 * than any generated run, so no task was ever killed under the
 * relations, nor a VM (`on_kill`). */
static void more_kill(struct gs_rng *r, struct gs_gen_scenario *g)
{
	uint32_t i;

	for (i = 0; i < g->n_params; i++)
		if (!strcmp(g->params[i].key, "kill_after") &&
		    gs_gen_chance(r, 15))
			g->params[i].ns = gs_gen_pick(r, 1, 40) * 100 * US;
}

void gs_gen_draw_more(struct gs_gen_scenario *g)
{
	struct gs_gen_more *m = &g->more;
	struct gs_rng r;
	uint32_t i;

	gs_rng_seed(&r, g->seed, "generate-more");
	if (gs_gen_chance(&r, 15))
		m->sched = (uint8_t)gs_gen_pick(&r, 1, 2);
	if (gs_gen_chance(&r, 15))
		m->preemption = (uint8_t)gs_gen_pick(&r, 1, 2);
	m->no_copy_engine = gs_gen_chance(&r, 10);
	for (i = 0; i < g->n_tasks; i++)
		more_task(&r, g, &g->tasks[i]);
	for (i = 0; i < g->n_vms; i++)
		g->vms[i].notify_on_kill = gs_gen_chance(&r, 40);
	more_kill(&r, g);
	if (g->gpus)
		more_node(&r, g);
}
