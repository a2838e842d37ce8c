/* Scenario lifetime: defaults, freeing, and the single-task copies used
 * for standalone reference runs. */
#include "workloads/scenario.h"

#include <glib.h>
#include <string.h>

void gs_host_defaults(struct gs_host_config *host)
{
	host->clock_hz = 3400000000ULL;
	host->launch = 5 * GS_NS_PER_US;
	host->doorbell = 1 * GS_NS_PER_US;
	host->trap = 10 * GS_NS_PER_US;
	host->spin_poll = 1 * GS_NS_PER_US;
	host->wakeup = 10 * GS_NS_PER_US;
	host->policy_wakeup = 2 * GS_NS_PER_US;
}

void gs_policy_config_clear(struct gs_policy_config *p)
{
	uint32_t i;

	for (i = 0; i < p->n_params; i++) {
		g_free(p->params[i].key);
		g_free(p->params[i].value);
		g_free(p->params[i].file);
	}
	g_free(p->params);
	g_free(p->name);
	g_free(p->where);
	memset(p, 0, sizeof(*p));
}

static void task_clear(struct gs_task_config *t)
{
	g_free(t->name);
	g_free(t->behavior_kind);
	g_free(t->behavior_label);
	gs_program_clear(&t->program);
}

static void task_copy(struct gs_task_config *dst,
		      const struct gs_task_config *src)
{
	*dst = *src;
	dst->name = g_strdup(src->name);
	dst->behavior_kind = g_strdup(src->behavior_kind);
	dst->behavior_label = g_strdup(src->behavior_label);
	gs_program_copy(&dst->program, &src->program);
}

void gs_expect_clear(struct gs_expect *e)
{
	g_free(e->id);
	g_free(e->figure);
	g_free(e->quantity);
	g_free(e->paper);
	g_free(e->known_gap);
	g_free(e->far_from_paper);
	g_free(e->value);
	g_strfreev(e->set);
	g_free(e->baseline);
	g_strfreev(e->reference);
	g_strfreev(e->sweep);
	memset(e, 0, sizeof(*e));
}

void gs_sweep_config_clear(struct gs_sweep_config *sw)
{
	uint32_t i;

	for (i = 0; sw->axes && i < sw->n_axes; i++) {
		g_free(sw->axes[i].key);
		g_strfreev(sw->axes[i].values);
		g_free(sw->axes[i].lines);
		g_free(sw->axes[i].columns);
	}
	g_free(sw->axes);
	g_free(sw->seeds);
	memset(sw, 0, sizeof(*sw));
}

void gs_scenario_free(struct gs_scenario *sc)
{
	uint32_t i;

	if (!sc)
		return;
	for (i = 0; sc->tasks && i < sc->n_tasks; i++)
		task_clear(&sc->tasks[i]);
	g_free(sc->tasks);
	for (i = 0; sc->vms && i < sc->n_vms; i++) {
		g_free(sc->vms[i].name);
		gs_policy_config_clear(&sc->vms[i].scheduler);
	}
	g_free(sc->vms);
	gs_policy_config_clear(&sc->policy);
	for (i = 0; sc->expect && i < sc->n_expect; i++)
		gs_expect_clear(&sc->expect[i]);
	g_free(sc->expect);
	gs_sweep_config_clear(&sc->sweep);
	g_free(sc->file);
	g_free(sc->name);
	g_free(sc);
}

struct gs_scenario *gs_scenario_alone(const struct gs_scenario *sc,
				      uint32_t task_index)
{
	struct gs_scenario *out;
	uint32_t i;

	if (task_index >= sc->n_tasks)
		return NULL;
	out = g_new(struct gs_scenario, 1);
	*out = *sc;
	out->expect = NULL; /* a reference run checks nothing */
	out->n_expect = 0;
	memset(&out->sweep, 0, sizeof(out->sweep)); /* nor sweeps */
	out->file = g_strdup(sc->file);
	out->name = g_strdup(sc->name);
	out->vms = sc->n_vms ? g_new(struct gs_vm_config, sc->n_vms) : NULL;
	for (i = 0; i < sc->n_vms; i++) {
		out->vms[i] = sc->vms[i];
		out->vms[i].name = g_strdup(sc->vms[i].name);
		/* alone means no scheduler at any level */
		memset(&out->vms[i].scheduler, 0,
		       sizeof(out->vms[i].scheduler));
	}
	memset(&out->policy, 0, sizeof(out->policy));
	out->policy.name = g_strdup("direct");
	out->n_tasks = 1;
	out->tasks = g_new(struct gs_task_config, 1);
	task_copy(&out->tasks[0], &sc->tasks[task_index]);
	out->tasks[0].count = 1;
	return out;
}
