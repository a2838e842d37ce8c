/* The generator's fifth stream (workloads/generate.h): the machine's
 * inputs that the streams before leave at their defaults, each now and
 * then. On a node: each GPU's memory below the default 12 GiB, so that
 * the node policies' placements and migrations meet footprints that do
 * not fit (the first stream's jobs take 100-3000 MiB, DCUDA's named ones
 * up to their Table 1 figures); the QoS bound; tasks pinned to a GPU.
 * In a VM tree: the trap and shadow-copy costs, which the first stream
 * sets to 8 x host.trap and 2 us. Its own random stream keeps every draw
 * of the streams before as it was. */
#include "workloads/generate.h"

#include "base/rng.h"
#include "workloads/generate_draw.h"

#define US GS_GEN_US

void gs_gen_draw_machine(struct gs_gen_scenario *g)
{
	struct gs_rng r;
	uint32_t i;

	gs_rng_seed(&r, g->seed, "generate-machine");
	for (i = 0; i < g->n_vms; i++) {
		struct gs_gen_vm *vm = &g->vms[i];

		if (gs_gen_chance(&r, 30))
			vm->trap = gs_gen_pick(&r, 2, 16) * g->trap;
		if (gs_gen_chance(&r, 30))
			vm->shadow_copy = gs_gen_pick(&r, 1, 20) * US;
	}
	if (!g->gpus)
		return;
	if (gs_gen_chance(&r, 30))
		g->machine.memory_gib = (uint32_t)gs_gen_pick(&r, 1, 11);
	if (gs_gen_chance(&r, 20))
		g->machine.qos_pct = (uint32_t)gs_gen_pick(&r, 5, 100);
	for (i = 0; i < g->n_tasks; i++) {
		struct gs_gen_task *t = &g->tasks[i];

		if ((t->pinned = gs_gen_chance(&r, 10)))
			t->gpu = (uint32_t)gs_rng_below(&r, g->gpus);
	}
}
