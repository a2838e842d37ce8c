/* Drawing a random scenario description from a seed (workloads/generate.h).
 * Ranges are chosen so a scenario runs in well under a second of wall time
 * while still covering every behaviour, preset and policy; they are not
 * meant to be realistic workloads. */
#include "workloads/generate.h"

#include <stdio.h>
#include <string.h>

#include "gpu_model/gpu_config.h"
#include "policies/policy.h"
#include "base/rng.h"
#include "workloads/generate_draw.h"
#include "workloads/apps.h"
#include "workloads/config_load.h"

#define US GS_GEN_US
#define MS GS_GEN_MS

static void draw_throttle(struct gs_rng *r, struct gs_gen_task *t)
{
	t->kernel = gs_gen_draw_dur(r, gs_gen_log_us(r, 10, 2000));
	t->sleep.dist = GS_GEN_CONST;
	if (gs_gen_chance(r, 50))
		t->sleep = gs_gen_draw_dur(r, gs_gen_log_us(r, 10, 5000));
	t->blocking = gs_gen_chance(r, 80);
	t->irq_wait = gs_gen_chance(r, 20);
	t->copy = gs_gen_chance(r, 10);
	t->klass = gs_gen_chance(r, 20) ? (uint32_t)gs_rng_below(r, 8) : 0;
	t->channels = gs_gen_chance(r, 10) ? 2 : 1;
}

static void add_step(struct gs_gen_task *t, enum gs_gen_step_kind kind,
		     struct gs_gen_dur dur)
{
	struct gs_gen_step *s = &t->steps[t->n_steps++];

	memset(s, 0, sizeof(*s));
	s->kind = (uint8_t)kind;
	s->dur = dur;
}

/* A loop of launches (an inner counted loop of one or two launches, on any
 * channel and either engine), a wait, maybe CPU work and a sleep, a round
 * mark; or, now and then, a script that runs once and exits. */
static void draw_script(struct gs_rng *r, struct gs_gen_task *t)
{
	struct gs_gen_dur none = { 0 };
	uint32_t outer, inner, i, n_launch;

	t->channels = (uint32_t)gs_gen_pick(r, 1, 2);
	if (gs_gen_chance(r, 20)) {
		for (i = 0; i < 2; i++) {
			add_step(t, GS_GEN_LAUNCH,
				 gs_gen_draw_dur(r,
						 gs_gen_log_us(r, 10, 2000)));
			t->steps[t->n_steps - 1].channel =
				(uint32_t)gs_rng_below(r, t->channels);
		}
		add_step(t, GS_GEN_WAIT, none);
		add_step(t, GS_GEN_ROUND, none);
		return;
	}
	outer = t->n_steps;
	add_step(t, GS_GEN_REPEAT, none);
	inner = t->n_steps;
	add_step(t, GS_GEN_REPEAT, none);
	t->steps[inner].count = (uint32_t)gs_gen_pick(r, 1, 3);
	n_launch = (uint32_t)gs_gen_pick(r, 1, 2);
	for (i = 0; i < n_launch; i++) {
		struct gs_gen_step *s;

		add_step(t, GS_GEN_LAUNCH,
			 gs_gen_draw_dur(r, gs_gen_log_us(r, 10, 2000)));
		s = &t->steps[t->n_steps - 1];
		s->channel = (uint32_t)gs_rng_below(r, t->channels);
		s->copy = gs_gen_chance(r, 15);
	}
	t->steps[inner].body = n_launch;
	add_step(t, GS_GEN_WAIT, none);
	if (gs_gen_chance(r, 50))
		add_step(t, GS_GEN_CPU,
			 gs_gen_draw_dur(r, gs_gen_log_us(r, 5, 500)));
	if (gs_gen_chance(r, 50))
		add_step(t, GS_GEN_SLEEP,
			 gs_gen_draw_dur(r, gs_gen_log_us(r, 10, 5000)));
	add_step(t, GS_GEN_ROUND, none);
	t->steps[outer].count = 0; /* forever */
	t->steps[outer].body = t->n_steps - outer - 1;
}

static void draw_trace(struct gs_rng *r, struct gs_gen_task *t)
{
	gs_time_t time = 0;
	uint32_t i;

	t->channels = (uint32_t)gs_gen_pick(r, 1, 2);
	t->n_rows = (uint32_t)gs_gen_pick(r, 1, 8);
	for (i = 0; i < t->n_rows; i++) {
		struct gs_gen_row *row = &t->rows[i];

		time += gs_gen_chance(r, 30) ? 0 : gs_gen_log_us(r, 10, 2000);
		row->time = time;
		row->channel = (uint32_t)gs_rng_below(r, t->channels);
		row->copy = gs_gen_chance(r, 15);
		row->duration = gs_gen_log_us(r, 10, 1000);
	}
}

static void draw_job(struct gs_rng *r, struct gs_gen_task *t)
{
	t->app = -1;
	t->demand_pct = (uint32_t)gs_gen_pick(r, 10, 90);
	t->job_kernel = gs_gen_pick(r, 1, 20) * MS;
	t->job_length = gs_gen_pick(r, 50, 800) * MS;
	t->memory_mib = (uint32_t)gs_gen_pick(r, 100, 3000);
}

static void draw_task(struct gs_rng *r, struct gs_gen_scenario *g,
		      uint32_t index)
{
	struct gs_gen_task *t = &g->tasks[index];
	uint64_t roll = gs_rng_below(r, 100);

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "t%u", index);
	t->weight = 1;
	t->channels = 1;
	t->vm = -1;
	t->app = -1;
	if (g->gpus && roll < 40) {
		t->behavior = GS_GEN_JOB;
		draw_job(r, t);
	} else if (roll < 55) {
		t->behavior = GS_GEN_THROTTLE;
		draw_throttle(r, t);
	} else if (roll < 70) {
		t->behavior = GS_GEN_APP;
		t->app = (int32_t)gs_rng_below(r, gs_n_apps);
		t->sync_round = gs_gen_chance(r, 30);
		t->channels = gs_apps[t->app].channels;
	} else if (roll < 88) {
		t->behavior = GS_GEN_SCRIPT;
		draw_script(r, t);
	} else {
		t->behavior = GS_GEN_TRACE;
		draw_trace(r, t);
	}
	if (gs_gen_chance(r, 20))
		t->start = (gs_time_t)gs_rng_below(r, g->duration / 4 / US) * US;
}

/* Every parameter of the policy, durations as numbers (so that they can
 * be scaled); a third of them moved from their defaults. */
static void draw_params(struct gs_rng *r, const struct gs_policy_ops *ops,
			struct gs_gen_param *params, uint32_t *n)
{
	uint32_t i;

	*n = 0;
	for (i = 0; i < ops->n_params && i < GS_GEN_MAX_PARAMS; i++) {
		const struct gs_param_desc *d = &ops->params[i];
		struct gs_gen_param *p = &params[(*n)++];

		memset(p, 0, sizeof(*p));
		p->key = d->name;
		g_strlcpy(p->text, d->def, sizeof(p->text));
		if (d->type == GS_PARAM_DURATION) {
			p->is_duration = true;
			if (gs_parse_duration(d->def, 1000000000, &p->ns) < 0)
				p->ns = MS;
			if (gs_gen_chance(r, 35) && p->ns >= 4 * US)
				p->ns = p->ns / 4 * gs_gen_pick(r, 1, 8) / 2 /
					US * US;
		} else if (d->type == GS_PARAM_BOOL && gs_gen_chance(r, 25)) {
			g_strlcpy(p->text, strcmp(d->def, "true") ? "true" :
				  "false", sizeof(p->text));
		}
	}
}

static void set_param(struct gs_gen_param *params, uint32_t n,
		      const char *key, const char *text)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(params[i].key, key))
			g_strlcpy(params[i].text, text, sizeof(params[i].text));
}

static const struct gs_policy_ops *single_gpu_policy(struct gs_rng *r)
{
	const struct gs_policy_ops *ops;
	uint32_t n = 0;

	while (gs_policy_registry[n])
		n++;
	do
		ops = gs_policy_registry[gs_rng_below(r, n)];
	while (ops->node_level);
	return ops;
}

/* hdfq: one to four VMs, some nested, some tasks left on the host; in the
 * nested mode most top-level VMs run a scheduler of their own. */
static void draw_vms(struct gs_rng *r, struct gs_gen_scenario *g)
{
	bool nested = gs_gen_chance(r, 40);
	uint32_t i;

	set_param(g->params, g->n_params, "nested", nested ? "true" : "false");
	g->n_vms = (uint32_t)gs_gen_pick(r, 1, 4);
	for (i = 0; i < g->n_vms; i++) {
		struct gs_gen_vm *vm = &g->vms[i];

		memset(vm, 0, sizeof(*vm));
		snprintf(vm->name, sizeof(vm->name), "vm%u", i);
		vm->weight = gs_gen_chance(r, 50) ? 1 :
			(uint32_t)gs_gen_pick(r, 1, 4);
		vm->parent = i && gs_gen_chance(r, 30) ?
			(int32_t)gs_rng_below(r, i) : -1;
		vm->hints = gs_gen_chance(r, 80);
		vm->trap = 8 * g->trap;
		vm->shadow_copy = 2 * US;
		if (nested && vm->parent < 0 && gs_gen_chance(r, 70))
			g_strlcpy(vm->scheduler, single_gpu_policy(r)->name,
				  sizeof(vm->scheduler));
	}
	for (i = 0; i < g->n_tasks; i++)
		g->tasks[i].vm = gs_gen_chance(r, 25) ? -1 :
			(int32_t)gs_rng_below(r, g->n_vms);
}

static void draw_gpu(struct gs_rng *r, struct gs_gen_scenario *g)
{
	static const uint32_t rings[] = { 2, 3, 4, 8, 64, 1024 };
	static const uint32_t batches[] = { 1, 1, 1, 2, 4 };
	static const gs_time_t switches[] = { 0, 5 * US, 25 * US, 50 * US };
	struct gs_gpu_config cfg;

	gs_gpu_preset(g->preset, &cfg);
	g->ring_entries = rings[gs_rng_below(r, G_N_ELEMENTS(rings))];
	g->dispatch_batch = batches[gs_rng_below(r, G_N_ELEMENTS(batches))];
	g->fetch = gs_gen_chance(r, 20) ? US : cfg.fetch;
	g->ctx_switch = gs_gen_chance(r, 50) ? cfg.ctx_switch :
		switches[gs_rng_below(r, G_N_ELEMENTS(switches))];
	g->mmio_read = cfg.mmio_read;
	g->ref_writeback = cfg.ref_writeback;
	g->irq_latency = cfg.irq_latency;
	g->timeslice = gs_gen_chance(r, 70) ? cfg.timeslice :
		gs_gen_log_us(r, 200, 4000);
	g->preempt_save = cfg.preempt_save;
}

static void draw_host(struct gs_rng *r, struct gs_gen_scenario *g)
{
	bool vary = gs_gen_chance(r, 30);

	g->launch = vary ? gs_gen_pick(r, 1, 10) * US : 5 * US;
	g->doorbell = US;
	g->trap = vary ? gs_gen_pick(r, 5, 20) * US : 10 * US;
	g->spin_poll = US;
	g->wakeup = 10 * US;
	g->policy_wakeup = 2 * US;
}

bool gs_gen_draw(struct gs_gen_scenario *g, uint64_t seed,
		 const struct gs_gen_options *opt, GError **error)
{
	static const struct gs_gen_options none = { 0 };
	const struct gs_policy_ops *ops;
	struct gs_gpu_config cfg;
	struct gs_rng r;
	unsigned edition;
	gs_time_t grain;
	uint32_t i, n = 0;

	if (!opt)
		opt = &none;
	edition = opt->edition ? opt->edition : GS_GEN_EDITIONS;
	if (edition > GS_GEN_EDITIONS) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "unknown edition %u (1 to %u)", opt->edition,
			    (unsigned)GS_GEN_EDITIONS);
		return false;
	}
	memset(g, 0, sizeof(*g));
	g->seed = seed;
	g->time_scale = 1;
	gs_rng_seed(&r, seed, "generate");
	while (gs_policy_registry[n])
		n++;
	ops = gs_policy_registry[gs_rng_below(&r, n)];
	if (opt->policy && !(ops = gs_policy_find(opt->policy))) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "unknown policy '%s' (see gpusim list)",
			    opt->policy);
		return false;
	}
	g_strlcpy(g->preset, gs_gen_chance(&r, 50) ? "kepler" : "volta",
		  sizeof(g->preset));
	if (opt->preset) {
		if (gs_gpu_preset(opt->preset, &cfg) < 0) {
			g_set_error(error, G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    "unknown preset '%s' (kepler or volta)",
				    opt->preset);
			return false;
		}
		g_strlcpy(g->preset, opt->preset, sizeof(g->preset));
	}
	g_strlcpy(g->policy, ops->name, sizeof(g->policy));
	draw_params(&r, ops, g->params, &g->n_params);
	draw_gpu(&r, g);
	draw_host(&r, g);
	if (ops->node_level) {
		g->gpus = (uint32_t)gs_gen_pick(&r, 2, 4);
		g->duration = gs_gen_pick(&r, 300, 1500) * MS;
		g->arrivals_every = gs_gen_chance(&r, 50) ?
			gs_gen_pick(&r, 10, 100) * MS : 0;
		g->migration_clone = 5 * MS;
		g->migration_bandwidth = 12ULL << 30;
	} else {
		g->duration = gs_gen_pick(&r, 100, 400) * MS;
	}
	g->n_tasks = (uint32_t)gs_gen_pick(&r, 1, 20);
	for (i = 0; i < g->n_tasks; i++)
		draw_task(&r, g, i);
	if (gs_gen_chance(&r, 50))
		for (i = 0; i < g->n_tasks; i++)
			g->tasks[i].weight = (uint32_t)gs_gen_pick(&r, 1, 8);
	if (!strcmp(ops->name, "hdfq"))
		draw_vms(&r, g);
	if (edition >= GS_GEN_EDITION_MORE)
		gs_gen_draw_more(g);
	if (edition >= GS_GEN_EDITION_BEHAVIOUR)
		gs_gen_draw_behaviour(g);
	if (edition >= GS_GEN_EDITION_COSTS)
		gs_gen_draw_costs(g);
	if (edition >= GS_GEN_EDITION_MACHINE)
		gs_gen_draw_machine(g);
	/* long enough for the policy to be fair over it (at most 3 s, which
	 * keeps a run under a second of wall time) */
	grain = gs_gen_granularity(g);
	if (g->duration < 10 * grain)
		g->duration = MIN(10 * grain, 3000 * MS) / MS * MS;
	return true;
}
