/* Checking every point of a sweep before any runs (gs_sweep_validate):
 * each axis value on the base scenario alone, for an error at the value's
 * position, then each point, whose costs order the pool's work.
 *
 * Each check loads a scenario from the file's text, and the loads are
 * independent, so they are spread over the machine's cores: they are the
 * sweep's serial part before its first point starts (dcuda_fig11_14's 62
 * loads were 12 of its 15 ms before the first fork, a core idle meanwhile
 * at -j2), and a grid of thousands of points takes seconds of them. The
 * result does not depend on how the loads are shared out: the error
 * reported is the first failing check in the order above, and a point's
 * costs are its own scenario's. */
#include <string.h>

#include "base/thread_quiet.h"
#include "workloads/config_internal.h"
#include "workloads/config_load.h"
#include "workloads/scenario_cost.h"
#include "workloads/sweep.h"

/* Checks per helper thread at least: a load takes 0.1-0.3 ms, a thread's
 * start and join some 50 us. */
#define CHECKS_PER_THREAD 4
#define MAX_CHECK_THREADS 16

static struct gs_scenario *load_with(const char *name, const char *data,
				     size_t len, const char *const *base,
				     size_t n_base, char *const *extra,
				     GError **error)
{
	GPtrArray *sets = g_ptr_array_new();
	struct gs_scenario *sc;
	size_t i;

	for (i = 0; i < n_base; i++)
		g_ptr_array_add(sets, (gpointer)base[i]);
	for (i = 0; extra && extra[i]; i++)
		g_ptr_array_add(sets, extra[i]);
	sc = gs_scenario_load_data(name, data, len,
				   (const char *const *)sets->pdata, sets->len,
				   error);
	g_ptr_array_free(sets, TRUE);
	return sc;
}

/* "--set K=V: msg" -> "msg": the caller names the value itself. */
static const char *strip_set_prefix(const char *msg, const char *set)
{
	size_t n = strlen(set);

	if (g_str_has_prefix(msg, "--set ") && !strncmp(msg + 6, set, n) &&
	    !strncmp(msg + 6 + n, ": ", 2))
		return msg + 6 + n + 2;
	return msg;
}

/* The cost of each definition's standalone run (its task alone, one
 * replica), the order a pool starts them in when points share them. */
static void point_alone_costs(struct gs_sweep_point *p,
			      const struct gs_scenario *sc)
{
	uint32_t d;

	g_free(p->alone_cost);
	p->n_defs = sc->n_tasks;
	p->alone_cost = g_new0(uint64_t, MAX(sc->n_tasks, 1u));
	for (d = 0; d < sc->n_tasks; d++) {
		struct gs_scenario *alone = gs_scenario_alone(sc, d);

		p->alone_cost[d] = gs_scenario_cost(alone);
		gs_scenario_free(alone);
	}
}

/* One load: an axis value (ax, v) on the base scenario, or point p. */
struct check {
	const struct gs_sweep_axis *ax;
	uint32_t v;
	struct gs_sweep_point *p;
	GError *err; /* why it failed, in the words of its own kind */
};

struct checks {
	const char *name, *data;
	size_t len;
	const char *const *base;
	size_t n_base;
	const struct gs_scenario *sc;
	struct check *c;
	guint n;
	gint next;  /* the next check to take (atomic) */
	gint first_failed; /* lowest failed index so far (atomic), or n */
};

static void run_check(struct checks *cs, struct check *c)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *one;

	if (c->ax) {
		g_autofree char *set = g_strdup_printf(
			"%s=%s", c->ax->key, c->ax->values[c->v]);
		char *sets[] = { set, NULL };

		one = load_with(cs->name, cs->data, cs->len, cs->base,
				cs->n_base, sets, &err);
		if (!one)
			cfg_error_at(&c->err, GS_CONFIG_ERROR_INVALID,
				     cs->name, c->ax->lines[c->v],
				     c->ax->columns[c->v], "sweep %s: %s",
				     c->ax->key,
				     strip_set_prefix(err->message, set));
	} else {
		one = load_with(cs->name, cs->data, cs->len, cs->base,
				cs->n_base, c->p->sets, &err);
		if (!one)
			cfg_error_at(&c->err, GS_CONFIG_ERROR_INVALID,
				     cs->name,
				     cs->sc->sweep.line ? cs->sc->sweep.line : 1,
				     cs->sc->sweep.column ?
					     cs->sc->sweep.column : 1,
				     "sweep point %s: %s", c->p->id,
				     err->message);
		else {
			c->p->cost = gs_scenario_cost(one);
			point_alone_costs(c->p, one);
		}
	}
	gs_scenario_free(one);
}

/* Takes checks in order until none is left or one before the next has
 * failed (its error is the one reported, so later ones need no load). */
static gpointer take_checks(gpointer data)
{
	struct checks *cs = data;
	gint i;

	while ((i = g_atomic_int_add(&cs->next, 1)) < (gint)cs->n &&
	       i < g_atomic_int_get(&cs->first_failed)) {
		run_check(cs, &cs->c[i]);
		if (cs->c[i].err) {
			gint was = g_atomic_int_get(&cs->first_failed);

			while (i < was && !g_atomic_int_compare_and_exchange(
						  &cs->first_failed, was, i))
				was = g_atomic_int_get(&cs->first_failed);
		}
	}
	return NULL;
}

/* Helper threads for n checks: one per core beyond this one, at most one
 * per CHECKS_PER_THREAD checks. */
static guint check_threads(guint n)
{
	guint cores = g_get_num_processors();
	guint want = MIN(cores ? cores - 1 : 0, n / CHECKS_PER_THREAD);

	return MIN(want, (guint)MAX_CHECK_THREADS);
}

gboolean gs_sweep_validate(const char *name, const char *data, size_t len,
			   const char *const *base_sets, size_t n_base,
			   const struct gs_scenario *sc, GPtrArray *points,
			   GError **error)
{
	struct checks cs = {
		.name = name, .data = data, .len = len, .base = base_sets,
		.n_base = n_base, .sc = sc,
	};
	GThread *threads[MAX_CHECK_THREADS];
	guint a, v, i, k, helpers, started = 0;
	gboolean ok;

	for (a = 0; a < sc->sweep.n_axes; a++)
		cs.n += sc->sweep.axes[a].n_values;
	cs.n += points->len;
	cs.c = g_new0(struct check, MAX(cs.n, 1u));
	for (a = 0, k = 0; a < sc->sweep.n_axes; a++)
		for (v = 0; v < sc->sweep.axes[a].n_values; v++, k++) {
			cs.c[k].ax = &sc->sweep.axes[a];
			cs.c[k].v = v;
		}
	for (i = 0; i < points->len; i++, k++)
		cs.c[k].p = points->pdata[i];
	cs.first_failed = (gint)cs.n;
	helpers = check_threads(cs.n);
	for (i = 0; i < helpers; i++) {
		threads[started] = gs_thread_new_quiet("gpusim-check",
							take_checks, &cs);
		if (threads[started])
			started++;
	}
	take_checks(&cs);
	for (i = 0; i < started; i++)
		g_thread_join(threads[i]);
	/* every check before first_failed ran, and passed */
	ok = cs.first_failed == (gint)cs.n;
	if (!ok)
		g_propagate_error(error,
				  g_steal_pointer(&cs.c[cs.first_failed].err));
	for (k = 0; k < cs.n; k++)
		g_clear_error(&cs.c[k].err);
	g_free(cs.c);
	return ok;
}
