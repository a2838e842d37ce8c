/* The generator's second stream (workloads/generate_more.c): it leaves
 * the first stream's scenario as it was (`--classic` is that scenario),
 * it draws each of its inputs in some seeds, and what it draws is what
 * the written YAML loads as. */
#include <glib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_dirs.h"

#include "policies/hal.h"
#include "policies/policy.h"
#include "workloads/config_load.h"
#include "workloads/generate.h"

#define SEEDS 200

static void draw(struct gs_gen_scenario *g, uint64_t seed,
		 const char *policy, bool classic)
{
	struct gs_gen_options opt = { .policy = policy, .classic = classic };
	g_autoptr(GError) err = NULL;

	if (!gs_gen_draw(g, seed, &opt, &err))
		fail_msg("seed %" G_GUINT64_FORMAT ": %s", seed, err->message);
}

/* g with every second-stream draw back at its default, and the run's
 * length (which the granularity may have moved) and kill_after taken
 * from classic. */
static void strip_more(struct gs_gen_scenario *g,
		       const struct gs_gen_scenario *classic)
{
	uint32_t i;

	memset(&g->more, 0, sizeof(g->more));
	g->duration = classic->duration;
	for (i = 0; i < g->n_params; i++)
		if (!strcmp(g->params[i].key, "kill_after"))
			g->params[i].ns = classic->params[i].ns;
	for (i = 0; i < g->n_tasks; i++) {
		struct gs_gen_task *t = &g->tasks[i];

		t->priority = 0;
		t->max_inflight = t->ring_entries = t->rounds = 0;
		t->texture_bytes = t->swaps = t->vertices = t->cmd_bytes = 0;
	}
	for (i = 0; i < g->n_vms; i++)
		g->vms[i].notify_on_kill = false;
}

static char *yaml_of(const struct gs_gen_scenario *g)
{
	g_autoptr(GPtrArray) files =
		g_ptr_array_new_with_free_func(gs_gen_file_free);

	return gs_gen_yaml(g, "gen", files);
}

/* Without its second stream's draws a seed's scenario is its classic
 * one, byte for byte: the second stream takes no draw of the first. */
static void test_first_stream_unchanged(void **state)
{
	static const char *const policies[] = { NULL, "hdfq", "dcuda",
						"drr" };
	struct gs_gen_scenario *a = g_new(struct gs_gen_scenario, 1);
	struct gs_gen_scenario *b = g_new(struct gs_gen_scenario, 1);
	uint64_t seed;
	size_t p;

	(void)state;
	for (p = 0; p < G_N_ELEMENTS(policies); p++)
		for (seed = 1; seed <= SEEDS; seed++) {
			g_autofree char *ya = NULL, *yb = NULL;

			draw(a, seed, policies[p], true);
			draw(b, seed, policies[p], false);
			strip_more(b, a);
			ya = yaml_of(a);
			yb = yaml_of(b);
			if (strcmp(ya, yb))
				fail_msg("seed %" G_GUINT64_FORMAT " (%s): "
					 "classic\n%s\nstripped\n%s", seed,
					 policies[p] ? policies[p] : "any",
					 ya, yb);
		}
	g_free(a);
	g_free(b);
}

/* How many of SEEDS scenarios have each input. */
struct seen {
	unsigned priority, max_inflight, ring, rounds, content;
	unsigned sched, preemption, no_copy, notify, kill;
	unsigned interference, power, unified, on_demand, poisson, shuffled;
};

static void count(const struct gs_gen_scenario *g, struct seen *s)
{
	struct seen one = { 0 };
	uint32_t i;

	for (i = 0; i < g->n_tasks; i++) {
		const struct gs_gen_task *t = &g->tasks[i];

		one.priority |= t->priority != 0;
		one.max_inflight |= t->max_inflight != 0;
		one.ring |= t->ring_entries != 0;
		one.rounds |= t->rounds != 0;
		one.content |= (t->texture_bytes | t->swaps | t->vertices |
				t->cmd_bytes) != 0;
	}
	for (i = 0; i < g->n_vms; i++)
		one.notify |= g->vms[i].notify_on_kill;
	for (i = 0; i < g->n_params; i++)
		one.kill |= !strcmp(g->params[i].key, "kill_after") &&
			    g->params[i].ns < g->duration;
	one.sched = g->more.sched != 0;
	one.preemption = g->more.preemption != 0;
	one.no_copy = g->more.no_copy_engine;
	one.interference = g->more.interference_pct != 0;
	one.power = g->more.power;
	one.unified = g->more.um_page_kib != 0;
	one.on_demand = g->more.on_demand_set;
	one.poisson = g->more.arrivals_poisson;
	one.shuffled = g->more.arrivals_shuffled;
#define ADD(f) s->f += one.f
	ADD(priority); ADD(max_inflight); ADD(ring); ADD(rounds);
	ADD(content); ADD(sched); ADD(preemption); ADD(no_copy);
	ADD(notify); ADD(kill); ADD(interference); ADD(power); ADD(unified);
	ADD(on_demand); ADD(poisson); ADD(shuffled);
#undef ADD
}

/* Every input is drawn in some seeds and left out in others; with
 * --classic none is. */
static void test_each_input_drawn(void **state)
{
	static const char *const policies[] = { "drr", "hdfq", "dcuda" };
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct seen more = { 0 }, classic = { 0 };
	const unsigned *m = (const unsigned *)&more;
	const unsigned *c = (const unsigned *)&classic;
	uint64_t seed;
	size_t p, i;

	(void)state;
	for (p = 0; p < G_N_ELEMENTS(policies); p++)
		for (seed = 1; seed <= SEEDS; seed++) {
			draw(g, seed, policies[p], false);
			count(g, &more);
			draw(g, seed, policies[p], true);
			count(g, &classic);
		}
	for (i = 0; i < sizeof(more) / sizeof(unsigned); i++) {
		if (!m[i] || m[i] >= G_N_ELEMENTS(policies) * SEEDS)
			fail_msg("input %zu of struct seen drawn in %u of %zu "
				 "scenarios", i, m[i],
				 G_N_ELEMENTS(policies) * SEEDS);
		assert_int_equal(c[i], 0);
	}
	g_free(g);
}

/* The written file says what was drawn: each task's priority, cap, ring
 * and round limit, the GPU's sched, preemption and copy engine, the
 * VMs' on_kill, the node's blocks, as the loader reads them. */
static void check_loaded(const struct gs_gen_scenario *g,
			 const struct gs_scenario *sc)
{
	static const uint8_t prio[] = { HAL_PRIO_NORMAL, HAL_PRIO_KERNEL,
					HAL_PRIO_HIGH, HAL_PRIO_LOW };
	uint32_t i;

	assert_int_equal(sc->n_tasks, g->n_tasks);
	for (i = 0; i < g->n_tasks; i++) {
		const struct gs_gen_task *t = &g->tasks[i];
		const struct gs_task_config *tc = &sc->tasks[i];

		assert_int_equal(tc->priority, prio[t->priority]);
		assert_int_equal(tc->max_inflight, t->max_inflight);
		assert_int_equal(tc->ring_entries, t->ring_entries);
		assert_int_equal(tc->rounds, t->rounds);
	}
	if (g->more.sched)
		assert_int_equal(sc->gpu.sched == GS_SCHED_TIMESLICE,
				 g->more.sched == 2);
	assert_int_equal(sc->gpu.sched == GS_SCHED_TIMESLICE,
			 gs_gen_sched_timeslice(g));
	if (g->more.preemption)
		assert_int_equal(sc->gpu.preemption,
				 g->more.preemption == 2);
	assert_int_equal(sc->gpu.copy_engine, !g->more.no_copy_engine);
	/* the loader flattens the tree depth-first, the generator lists
	 * parents first: by name */
	for (i = 0; i < sc->n_vms; i++) {
		const struct gs_vm_config *vm = &sc->vms[i];
		uint32_t j = 0;

		while (j < g->n_vms && strcmp(g->vms[j].name, vm->name))
			j++;
		assert_true(j < g->n_vms);
		assert_int_equal(vm->kill_notify, g->vms[j].notify_on_kill);
	}
	assert_int_equal(sc->gpu.interference_pm,
			 g->more.interference_pct * 10);
	assert_int_equal(sc->power.set, g->more.power);
	assert_int_equal(sc->paging.set, g->more.um_page_kib != 0);
	if (g->more.um_page_kib)
		assert_int_equal(sc->paging.page,
				 (uint64_t)g->more.um_page_kib << 10);
	if (g->more.on_demand_set)
		assert_int_equal(sc->migration.on_demand_pm,
				 g->more.on_demand_pct * 10);
}

static void test_written_as_drawn(void **state)
{
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	g_autofree char *dir = g_dir_make_tmp("gpusim-genmore-XXXXXX", NULL);
	uint64_t seed;
	size_t p;

	(void)state;
	assert_non_null(dir);
	for (p = 0; gs_policy_registry[p]; p++)
		for (seed = 1; seed <= 40; seed++) {
			g_autoptr(GPtrArray) files =
				g_ptr_array_new_with_free_func(
					gs_gen_file_free);
			g_autofree char *yaml = NULL, *name = NULL;
			g_autoptr(GError) err = NULL;
			struct gs_scenario *sc;
			guint i;

			draw(g, seed, gs_policy_registry[p]->name, false);
			yaml = gs_gen_yaml(g, "gen", files);
			for (i = 0; i < files->len; i++) {
				const struct gs_gen_file *f = files->pdata[i];
				g_autofree char *path =
					g_build_filename(dir, f->name, NULL);

				assert_true(g_file_set_contents(path, f->text,
								-1, NULL));
			}
			name = g_build_filename(dir, "gen.yaml", NULL);
			sc = gs_scenario_load_data(name, yaml, strlen(yaml),
						   NULL, 0, &err);
			if (!sc)
				fail_msg("seed %" G_GUINT64_FORMAT " %s: %s\n%s",
					 seed, gs_policy_registry[p]->name,
					 err->message, yaml);
			check_loaded(g, sc);
			gs_scenario_free(sc);
		}
	g_free(g);
	remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_stream_unchanged),
		cmocka_unit_test(test_each_input_drawn),
		cmocka_unit_test(test_written_as_drawn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
