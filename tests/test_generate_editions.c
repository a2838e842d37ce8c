/* The generator's editions (workloads/generate.h): each later stream
 * leaves the scenario of the edition before it as it was (edition 1 is
 * `--classic`), it draws each of its inputs in some seeds and none in
 * an edition before it, and what it draws is what the written YAML
 * loads as. */
#include <glib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_dirs.h"

#include "gpu_model/gpu.h"
#include "policies/hal.h"
#include "policies/policy.h"
#include "workloads/config_load.h"
#include "workloads/program.h"
#include "workloads/generate.h"

#define SEEDS 200

static void draw(struct gs_gen_scenario *g, uint64_t seed,
		 const char *policy, unsigned edition)
{
	struct gs_gen_options opt = { .policy = policy, .edition = edition };
	g_autoptr(GError) err = NULL;

	if (!gs_gen_draw(g, seed, &opt, &err))
		fail_msg("seed %" G_GUINT64_FORMAT ": %s", seed, err->message);
}

/* g with every second-stream draw back at its default, and kill_after
 * taken from before, the edition before this one's scenario. */
static void strip_more(struct gs_gen_scenario *g,
		       const struct gs_gen_scenario *before)
{
	uint32_t i;

	memset(&g->more, 0, sizeof(g->more));
	for (i = 0; i < g->n_params; i++)
		if (!strcmp(g->params[i].key, "kill_after"))
			g->params[i].ns = before->params[i].ns;
	for (i = 0; i < g->n_tasks; i++) {
		struct gs_gen_task *t = &g->tasks[i];

		t->priority = 0;
		t->max_inflight = t->ring_entries = t->rounds = 0;
		memset(&t->content, 0, sizeof(t->content));
	}
	for (i = 0; i < g->n_vms; i++)
		g->vms[i].notify_on_kill = false;
}

/* Step i out of the script, every repeat that held it one step shorter
 * (what the third stream's split of a wait in two undoes). */
static void remove_step(struct gs_gen_task *t, uint32_t i)
{
	uint32_t k;

	for (k = 0; k < i; k++)
		if (t->steps[k].kind == GS_GEN_REPEAT &&
		    k + t->steps[k].body >= i)
			t->steps[k].body--;
	memmove(&t->steps[i], &t->steps[i + 1],
		(t->n_steps - i - 1) * sizeof(t->steps[0]));
	t->n_steps--;
}

/* A script's steps without the third stream's: the launches' irq, class
 * and contents and the waits' modes and channels at their defaults, a
 * wait split in two (one per channel) one wait again. */
static void strip_script(struct gs_gen_task *t)
{
	uint32_t i;

	for (i = 0; i < t->n_steps; i++) {
		struct gs_gen_step *st = &t->steps[i];

		if (st->kind == GS_GEN_WAIT && st->wait_one && i > 0 &&
		    t->steps[i - 1].kind == GS_GEN_WAIT) {
			remove_step(t, i--);
			continue;
		}
		if (st->kind == GS_GEN_WAIT)
			st->channel = 0;
		st->irq = st->interrupt = st->wait_one = false;
		st->klass = 0;
		memset(&st->content, 0, sizeof(st->content));
	}
}

/* g with every third-stream draw back at its default; a named job's
 * figures, and an app's or trace's wait mode, taken from before. */
static void strip_behaviour(struct gs_gen_scenario *g,
			    const struct gs_gen_scenario *before)
{
	uint32_t i;

	for (i = 0; i < g->n_tasks; i++) {
		struct gs_gen_task *t = &g->tasks[i];
		const struct gs_gen_task *b = &before->tasks[i];

		t->count = 0;
		t->request_set = false;
		memset(t->request, 0, sizeof(t->request));
		t->job_startup = 0;
		if (t->job_named) {
			t->job_named = false;
			t->app = b->app;
			t->demand_pct = b->demand_pct;
			t->job_kernel = b->job_kernel;
			t->job_length = b->job_length;
			t->memory_mib = b->memory_mib;
		}
		if (t->behavior == GS_GEN_APP || t->behavior == GS_GEN_TRACE)
			t->irq_wait = false;
		strip_script(t);
	}
}

static char *yaml_of(const struct gs_gen_scenario *g)
{
	g_autoptr(GPtrArray) files =
		g_ptr_array_new_with_free_func(gs_gen_file_free);

	return gs_gen_yaml(g, "gen", files);
}

/* g with the costs of before, the edition before this one's scenario
 * (the fourth stream moves only these). */
static void strip_costs(struct gs_gen_scenario *g,
			const struct gs_gen_scenario *before)
{
	g->irq_latency = before->irq_latency;
	g->mmio_read = before->mmio_read;
	g->ref_writeback = before->ref_writeback;
	g->preempt_save = before->preempt_save;
	g->wakeup = before->wakeup;
	g->policy_wakeup = before->policy_wakeup;
}

/* g with the machine of before (the fifth stream's draws undone). */
static void strip_machine(struct gs_gen_scenario *g,
			  const struct gs_gen_scenario *before)
{
	uint32_t i;

	memset(&g->machine, 0, sizeof(g->machine));
	for (i = 0; i < g->n_tasks; i++) {
		g->tasks[i].pinned = false;
		g->tasks[i].gpu = 0;
	}
	for (i = 0; i < g->n_vms; i++) {
		g->vms[i].trap = before->vms[i].trap;
		g->vms[i].shadow_copy = before->vms[i].shadow_copy;
	}
}

/* Without its own stream's draws a seed's scenario in each edition is
 * its scenario in the edition before, byte for byte: a later stream
 * takes no draw of an earlier one. The run's length is taken from the
 * edition before (the granularity may have moved it). */
static void test_editions_nest(void **state)
{
	static const char *const policies[] = { NULL, "hdfq", "dcuda",
						"drr" };
	struct gs_gen_scenario *a = g_new(struct gs_gen_scenario, 1);
	struct gs_gen_scenario *b = g_new(struct gs_gen_scenario, 1);
	unsigned edition;
	uint64_t seed;
	size_t p;

	(void)state;
	for (edition = 2; edition <= GS_GEN_EDITIONS; edition++)
		for (p = 0; p < G_N_ELEMENTS(policies); p++)
			for (seed = 1; seed <= SEEDS; seed++) {
				g_autofree char *ya = NULL, *yb = NULL;

				draw(a, seed, policies[p], edition - 1);
				draw(b, seed, policies[p], edition);
				b->duration = a->duration;
				if (edition == GS_GEN_EDITION_MORE)
					strip_more(b, a);
				else if (edition == GS_GEN_EDITION_BEHAVIOUR)
					strip_behaviour(b, a);
				else if (edition == GS_GEN_EDITION_COSTS)
					strip_costs(b, a);
				else
					strip_machine(b, a);
				ya = yaml_of(a);
				yb = yaml_of(b);
				if (strcmp(ya, yb))
					fail_msg("seed %" G_GUINT64_FORMAT
						 " (%s), edition %u less its "
						 "stream\n%s\nedition %u\n%s",
						 seed, policies[p] ?
						 policies[p] : "any",
						 edition, yb, edition - 1, ya);
			}
	g_free(a);
	g_free(b);
}

/* How many of SEEDS scenarios have each input of the second stream
 * (edition 2 on) and of the third (edition 3). */
struct seen2 {
	unsigned priority, max_inflight, ring, rounds, content;
	unsigned sched, preemption, no_copy, notify, kill;
	unsigned interference, power, unified, on_demand, poisson, shuffled;
};

struct seen3 {
	unsigned count, launch_irq, launch_class, launch_content, wait_one;
	unsigned wait_interrupt, app_interrupt, app_request, trace_interrupt;
	unsigned job_startup, job_named;
};

struct seen4 {
	unsigned irq_latency, mmio_read, ref_writeback, preempt_save;
	unsigned wakeup, policy_wakeup;
};

struct seen5 {
	unsigned memory, qos, pinned, vm_trap, vm_shadow_copy;
};

/* The inputs of the streams, in the order of the editions that add
 * them: whole arrays of unsigned. */
struct seen {
	struct seen2 s2;
	struct seen3 s3;
	struct seen4 s4;
	struct seen5 s5;
};

#define N_SEEN2 (sizeof(struct seen2) / sizeof(unsigned))
#define N_SEEN3 (sizeof(struct seen3) / sizeof(unsigned))
#define N_SEEN4 (sizeof(struct seen4) / sizeof(unsigned))
#define N_SEEN5 (sizeof(struct seen5) / sizeof(unsigned))
#define N_SEEN (N_SEEN2 + N_SEEN3 + N_SEEN4 + N_SEEN5)

/* The edition that adds input i of struct seen. */
static unsigned edition_of(size_t i)
{
	if (i < N_SEEN2)
		return GS_GEN_EDITION_MORE;
	if (i < N_SEEN2 + N_SEEN3)
		return GS_GEN_EDITION_BEHAVIOUR;
	if (i < N_SEEN2 + N_SEEN3 + N_SEEN4)
		return GS_GEN_EDITION_COSTS;
	return GS_GEN_EDITION_MACHINE;
}

static void count_more(const struct gs_gen_scenario *g, struct seen2 *one)
{
	uint32_t i;

	for (i = 0; i < g->n_tasks; i++) {
		const struct gs_gen_task *t = &g->tasks[i];
		const struct gs_gen_content *c = &t->content;

		one->priority |= t->priority != 0;
		one->max_inflight |= t->max_inflight != 0;
		one->ring |= t->ring_entries != 0;
		one->rounds |= t->rounds != 0;
		one->content |= (c->texture_bytes | c->swaps | c->vertices |
				 c->cmd_bytes) != 0;
	}
	for (i = 0; i < g->n_vms; i++)
		one->notify |= g->vms[i].notify_on_kill;
	for (i = 0; i < g->n_params; i++)
		one->kill |= !strcmp(g->params[i].key, "kill_after") &&
			     g->params[i].ns < g->duration;
	one->sched = g->more.sched != 0;
	one->preemption = g->more.preemption != 0;
	one->no_copy = g->more.no_copy_engine;
	one->interference = g->more.interference_pct != 0;
	one->power = g->more.power;
	one->unified = g->more.um_page_kib != 0;
	one->on_demand = g->more.on_demand_set;
	one->poisson = g->more.arrivals_poisson;
	one->shuffled = g->more.arrivals_shuffled;
}

static void count_behaviour(const struct gs_gen_scenario *g,
			    struct seen3 *one)
{
	uint32_t i, k;

	for (i = 0; i < g->n_tasks; i++) {
		const struct gs_gen_task *t = &g->tasks[i];

		one->count |= t->count > 1;
		one->app_interrupt |= t->behavior == GS_GEN_APP && t->irq_wait;
		one->app_request |= t->request_set;
		one->trace_interrupt |= t->behavior == GS_GEN_TRACE &&
					t->irq_wait;
		one->job_startup |= !t->job_named && t->job_startup;
		one->job_named |= t->job_named;
		for (k = 0; k < t->n_steps; k++) {
			const struct gs_gen_step *st = &t->steps[k];

			one->launch_irq |= st->irq;
			one->launch_class |= st->klass != 0;
			one->launch_content |= st->content.texture_bytes ||
					       st->content.swaps ||
					       st->content.vertices ||
					       st->content.cmd_bytes;
			one->wait_one |= st->wait_one;
			one->wait_interrupt |= st->interrupt;
		}
	}
}

/* Costs other than the classic scenario's (the first stream's). */
static void count_costs(const struct gs_gen_scenario *g,
			const struct gs_gen_scenario *classic,
			struct seen4 *one)
{
	one->irq_latency = g->irq_latency != classic->irq_latency;
	one->mmio_read = g->mmio_read != classic->mmio_read;
	one->ref_writeback = g->ref_writeback != classic->ref_writeback;
	one->preempt_save = g->preempt_save != classic->preempt_save;
	one->wakeup = g->wakeup != classic->wakeup;
	one->policy_wakeup = g->policy_wakeup != classic->policy_wakeup;
}

/* The machine's inputs; a VM's costs other than the classic ones. */
static void count_machine(const struct gs_gen_scenario *g,
			  const struct gs_gen_scenario *classic,
			  struct seen5 *one)
{
	uint32_t i;

	one->memory = g->machine.memory_gib != 0;
	one->qos = g->machine.qos_pct != 0;
	for (i = 0; i < g->n_tasks; i++)
		one->pinned |= g->tasks[i].pinned;
	for (i = 0; i < g->n_vms; i++) {
		one->vm_trap |= g->vms[i].trap != classic->vms[i].trap;
		one->vm_shadow_copy |= g->vms[i].shadow_copy !=
				       classic->vms[i].shadow_copy;
	}
}

static void count(const struct gs_gen_scenario *g,
		  const struct gs_gen_scenario *classic, struct seen *s)
{
	struct seen one = { 0 };
	const unsigned *o = (const unsigned *)&one;
	unsigned *sum = (unsigned *)s;
	size_t i;

	count_more(g, &one.s2);
	count_behaviour(g, &one.s3);
	count_costs(g, classic, &one.s4);
	count_machine(g, classic, &one.s5);
	for (i = 0; i < N_SEEN; i++)
		sum[i] += o[i];
}

/* Every input of an edition's streams is drawn in some seeds and left
 * out in others; none of a later stream's in an earlier edition. */
static void test_each_input_drawn(void **state)
{
	static const char *const policies[] = { "drr", "hdfq", "dcuda" };
	const size_t n = G_N_ELEMENTS(policies) * SEEDS;
	struct gs_gen_scenario *g = g_new(struct gs_gen_scenario, 1);
	struct gs_gen_scenario *classic = g_new(struct gs_gen_scenario, 1);
	struct seen seen[GS_GEN_EDITIONS + 1];
	unsigned edition;
	uint64_t seed;
	size_t p, i;

	(void)state;
	memset(seen, 0, sizeof(seen));
	for (edition = 1; edition <= GS_GEN_EDITIONS; edition++)
		for (p = 0; p < G_N_ELEMENTS(policies); p++)
			for (seed = 1; seed <= SEEDS; seed++) {
				draw(classic, seed, policies[p],
				     GS_GEN_EDITION_CLASSIC);
				draw(g, seed, policies[p], edition);
				count(g, classic, &seen[edition]);
			}
	for (edition = 1; edition <= GS_GEN_EDITIONS; edition++) {
		const unsigned *m = (const unsigned *)&seen[edition];

		for (i = 0; i < N_SEEN; i++) {
			bool has = edition >= edition_of(i);

			if (has ? !m[i] || m[i] >= n : m[i] != 0)
				fail_msg("edition %u: input %zu of struct "
					 "seen drawn in %u of %zu scenarios",
					 edition, i, m[i], n);
		}
	}
	g_free(g);
	g_free(classic);
}

/* What a task's program holds of the third stream's draws (and the
 * first's, for a throttle): a launch raising an interrupt, a wait asleep
 * until one, a launch of a class, a launch with contents, a wait on one
 * channel, host work (a job's startup). */
struct marks {
	bool irq, interrupt, klass, content, wait_one, cpu;
};

static bool has_content(const struct gs_gen_content *c)
{
	return c->texture_bytes || c->swaps || c->vertices || c->cmd_bytes;
}

static struct marks loaded_marks(const struct gs_program *p)
{
	struct marks m = { 0 };
	uint32_t i;

	for (i = 0; i < p->n_steps; i++) {
		const struct gs_step *st = &p->steps[i];
		const struct gs_cmd_content *c = &st->content;

		if (st->op == GS_OP_LAUNCH) {
			m.irq |= (st->flags & GS_CMD_IRQ) != 0;
			m.klass |= st->cls != 0;
			m.content |= c->texture_bytes || c->swaps ||
				     c->vertices || c->cmd_bytes;
		} else if (st->op == GS_OP_WAIT) {
			m.interrupt |= st->wait_mode == GS_WAIT_INTERRUPT;
			m.wait_one |= st->channel != GS_ALL_CHANNELS;
		}
		m.cpu |= st->op == GS_OP_CPU;
	}
	return m;
}

static struct marks drawn_marks(const struct gs_gen_task *t)
{
	struct marks m = { 0 };
	uint32_t i;

	switch (t->behavior) {
	case GS_GEN_THROTTLE:
		m.irq = t->irq_wait;
		m.interrupt = t->irq_wait && t->blocking;
		m.klass = t->klass != 0;
		m.content = has_content(&t->content);
		break;
	case GS_GEN_APP:
	case GS_GEN_TRACE:
		m.irq = m.interrupt = t->irq_wait;
		break;
	case GS_GEN_JOB:
		m.cpu = t->job_startup != 0;
		break;
	default:
		for (i = 0; i < t->n_steps; i++) {
			const struct gs_gen_step *st = &t->steps[i];

			m.irq |= st->irq;
			m.interrupt |= st->interrupt;
			m.klass |= st->klass != 0;
			m.content |= has_content(&st->content);
			m.wait_one |= st->wait_one;
			m.cpu |= st->kind == GS_GEN_CPU;
		}
	}
	return m;
}

/* An app's own request lengths: each launch's distribution the drawn
 * one (the request count is the round over its mean). */
static void check_requests(const struct gs_gen_task *t,
			   const struct gs_program *p)
{
	uint32_t i;

	if (t->behavior != GS_GEN_APP || !t->request_set)
		return;
	for (i = 0; i < p->n_steps; i++) {
		const struct gs_step *st = &p->steps[i];
		const struct gs_gen_dur *d;

		if (st->op != GS_OP_LAUNCH)
			continue; /* a wait's channel may be GS_ALL_CHANNELS */
		assert_in_range(st->channel, 0, 1);
		d = &t->request[st->channel];
		assert_int_equal(st->dur.kind, d->dist);
		if (d->dist != GS_GEN_EMPIRICAL)
			assert_int_equal(st->dur.a, d->v[0]);
	}
}

static void check_loaded_behaviour(const struct gs_gen_task *t,
				   const struct gs_task_config *tc)
{
	struct marks want = drawn_marks(t);
	struct marks got = loaded_marks(&tc->program);

	assert_int_equal(tc->count, MAX(t->count, 1));
	assert_int_equal(tc->gpu, t->pinned ? t->gpu : GS_GPU_AUTO);
	if (t->behavior == GS_GEN_JOB) {
		assert_int_equal(got.cpu, want.cpu);
	} else {
		assert_int_equal(got.irq, want.irq);
		assert_int_equal(got.interrupt, want.interrupt);
		assert_int_equal(got.klass, want.klass);
		assert_int_equal(got.content, want.content);
	}
	/* an app waits on each request's channel, a script as written */
	if (t->behavior == GS_GEN_SCRIPT)
		assert_int_equal(got.wait_one, want.wait_one);
	check_requests(t, &tc->program);
}

/* The written file says what was drawn: each task's priority, cap, ring,
 * round limit, replicas and the behaviours' options, the GPU's sched,
 * preemption and copy engine, the VMs' on_kill, the node's blocks, as
 * the loader reads them. */
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
		check_loaded_behaviour(t, tc);
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
	assert_int_equal(sc->gpu.irq_latency, g->irq_latency);
	assert_int_equal(sc->gpu.mmio_read, g->mmio_read);
	assert_int_equal(sc->gpu.ref_writeback, g->ref_writeback);
	assert_int_equal(sc->gpu.preempt_save, g->preempt_save);
	assert_int_equal(sc->host.wakeup, g->wakeup);
	assert_int_equal(sc->host.policy_wakeup, g->policy_wakeup);
	assert_int_equal(sc->gpu_memory, g->machine.memory_gib ?
			 (uint64_t)g->machine.memory_gib << 30 : 12ULL << 30);
	assert_int_equal(sc->qos_degradation_pm, g->machine.qos_pct ?
			 g->machine.qos_pct * 10 : 200);
	/* the loader flattens the tree depth-first, the generator lists
	 * parents first: by name */
	for (i = 0; i < sc->n_vms; i++) {
		const struct gs_vm_config *vm = &sc->vms[i];
		uint32_t j = 0;

		while (j < g->n_vms && strcmp(g->vms[j].name, vm->name))
			j++;
		assert_true(j < g->n_vms);
		assert_int_equal(vm->kill_notify, g->vms[j].notify_on_kill);
		assert_int_equal(vm->trap, g->vms[j].trap);
		assert_int_equal(vm->shadow_copy, g->vms[j].shadow_copy);
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

			draw(g, seed, gs_policy_registry[p]->name, 0);
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
		cmocka_unit_test(test_editions_nest),
		cmocka_unit_test(test_each_input_drawn),
		cmocka_unit_test(test_written_as_drawn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
