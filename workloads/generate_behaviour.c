/* The generator's third stream (workloads/generate.h): the behaviours'
 * own options, which neither stream before draws, each now and then, so
 * that the property tests run every relation over them too. Its own
 * random stream keeps every draw of the first two as it was. */
#include "workloads/generate.h"

#include <string.h>

#include "base/rng.h"
#include "workloads/apps.h"
#include "workloads/dcuda_apps.h"
#include "workloads/generate_draw.h"

#define MS GS_GEN_MS

/* Step i's place in the script taken by a copy of it, the steps after it
 * moved up one: every repeat whose body held step i holds one more. */
static void duplicate_step(struct gs_gen_task *t, uint32_t i)
{
	uint32_t k;

	for (k = 0; k < i; k++)
		if (t->steps[k].kind == GS_GEN_REPEAT && k + t->steps[k].body >= i)
			t->steps[k].body++;
	memmove(&t->steps[i + 1], &t->steps[i],
		(t->n_steps - i) * sizeof(t->steps[0]));
	t->n_steps++;
}

/* A two-channel wait as one wait per channel, in either order (a
 * one-channel task's as a wait that names its channel). Returns the
 * steps added. */
static uint32_t split_wait(struct gs_rng *r, struct gs_gen_task *t,
			   uint32_t i)
{
	uint32_t first = (uint32_t)gs_rng_below(r, t->channels);

	t->steps[i].wait_one = true;
	t->steps[i].channel = first;
	if (t->channels < 2 || t->n_steps >= GS_GEN_MAX_STEPS)
		return 0;
	duplicate_step(t, i);
	t->steps[i + 1].channel = 1 - first;
	return 1;
}

/* A script's: interrupts raised by every launch on some of its channels
 * (config_script.c refuses an interrupt wait on a channel that any launch
 * leaves without one, as such a wait would never end); a class and
 * contents on some launches; now and then a wait split into one wait
 * per channel; and a wait asleep until the interrupt where every channel
 * it covers raises one. */
static void behaviour_script(struct gs_rng *r, struct gs_gen_task *t)
{
	uint32_t irq = 0, all = (1u << t->channels) - 1, c, i;

	if (gs_gen_chance(r, 30))
		for (c = 0; c < t->channels; c++)
			if (gs_gen_chance(r, 60))
				irq |= 1u << c;
	for (i = 0; i < t->n_steps; i++) {
		struct gs_gen_step *st = &t->steps[i];

		if (st->kind == GS_GEN_LAUNCH) {
			st->irq = irq >> st->channel & 1;
			if (gs_gen_chance(r, 20))
				st->klass = (uint8_t)gs_gen_pick(r, 1, 7);
			if (gs_gen_chance(r, 15))
				st->content = gs_gen_draw_content(r);
		} else if (st->kind == GS_GEN_WAIT && gs_gen_chance(r, 30)) {
			i += split_wait(r, t, i);
		}
	}
	for (i = 0; i < t->n_steps; i++) {
		struct gs_gen_step *st = &t->steps[i];
		uint32_t covers = st->wait_one ? 1u << st->channel : all;

		if (st->kind == GS_GEN_WAIT && (irq & covers) == covers)
			st->interrupt = gs_gen_chance(r, 50);
	}
}

/* An app's: request lengths of its own, around the table's (NEON Table
 * 1), one per channel. */
static void behaviour_app(struct gs_rng *r, struct gs_gen_task *t)
{
	const struct gs_app_desc *app = &gs_apps[t->app];
	uint32_t c;

	t->irq_wait = gs_gen_chance(r, 30);
	if (!(t->request_set = gs_gen_chance(r, 30)))
		return;
	for (c = 0; c < app->channels; c++)
		t->request[c] = gs_gen_draw_dur(r, app->request[c]);
}

/* A job's: host work before its first kernel, or a job named from
 * DCUDA's Table 1 with its figures (workloads/dcuda_apps.c). */
static void behaviour_job(struct gs_rng *r, struct gs_gen_task *t)
{
	const struct gs_job_desc *j;

	if (gs_gen_chance(r, 30))
		t->job_startup = gs_gen_pick(r, 1, 20) * MS;
	if (!gs_gen_chance(r, 20))
		return;
	j = &gs_jobs[gs_rng_below(r, gs_n_jobs)];
	t->job_named = true;
	t->app = (int32_t)(j - gs_jobs);
	t->demand_pct = j->demand_pm / 10;
	t->job_kernel = j->kernel;
	t->job_length = j->length;
	t->memory_mib = j->memory_mib;
	t->job_startup = j->startup;
}

void gs_gen_draw_behaviour(struct gs_gen_scenario *g)
{
	struct gs_rng r;
	uint32_t i;

	gs_rng_seed(&r, g->seed, "generate-behaviour");
	for (i = 0; i < g->n_tasks; i++) {
		struct gs_gen_task *t = &g->tasks[i];

		if (gs_gen_chance(&r, 10))
			t->count = (uint32_t)gs_gen_pick(&r, 2, 3);
		switch (t->behavior) {
		case GS_GEN_SCRIPT:
			behaviour_script(&r, t);
			break;
		case GS_GEN_APP:
			behaviour_app(&r, t);
			break;
		case GS_GEN_TRACE:
			t->irq_wait = gs_gen_chance(&r, 30);
			break;
		case GS_GEN_JOB:
			behaviour_job(&r, t);
			break;
		default:
			break;
		}
	}
}
