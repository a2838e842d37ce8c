/* See sweep_alone.h. */
#include <string.h>

#include "sim/cli/sweep_alone.h"
#include "workloads/config_load.h"

struct gs_sweep_alone {
	GPtrArray *jobs;   /* struct gs_alone_job *, in the order to start */
	guint next;        /* jobs before it have started */
	GHashTable *needs; /* point -> its struct gs_alone_job, if shared */
};

/* Whether an override ("key=value") sets the policy or a part of it,
 * which a standalone run replaces with `direct`. */
static bool sets_policy(const char *set)
{
	size_t n = strcspn(set, "=");

	return (n == 6 && !strncmp(set, "policy", 6)) ||
	       (n > 7 && !strncmp(set, "policy.", 7));
}

char *gs_alone_key(char *const *sets)
{
	GString *key = g_string_new(NULL);
	size_t i;

	/* each override as its length and its bytes: unambiguous whatever
	 * a value holds */
	for (i = 0; sets && sets[i]; i++)
		if (!sets_policy(sets[i]))
			g_string_append_printf(key, "%zu:%s ", strlen(sets[i]),
					       sets[i]);
	return g_string_free(key, FALSE);
}

struct gs_alone_figs *gs_alone_figs_new(struct gs_standalone_fig *fig,
					uint32_t n)
{
	struct gs_alone_figs *f = g_new0(struct gs_alone_figs, 1);
	uint32_t d;

	f->n = n;
	f->fig = fig;
	f->known = g_new(const struct gs_standalone_fig *, MAX(n, 1u));
	for (d = 0; d < n; d++)
		f->known[d] = &fig[d];
	return f;
}

/* fig[0..n) cleared and freed. */
static void figs_free(struct gs_standalone_fig *fig, uint32_t n)
{
	uint32_t d;

	for (d = 0; fig && d < n; d++)
		gs_standalone_fig_clear(&fig[d]);
	g_free(fig);
}

void gs_alone_figs_free(gpointer figs)
{
	struct gs_alone_figs *f = figs;

	if (!f)
		return;
	figs_free(f->fig, f->n);
	g_free(f->known);
	g_free(f);
}

static void job_free(gpointer data)
{
	struct gs_alone_job *job = data;

	g_free(job->key);
	gs_alone_figs_free(job->figs);
	g_free(job);
}

/* The costliest first; ties in the order the points first need them. */
static gint by_cost(gconstpointer pa, gconstpointer pb)
{
	const struct gs_alone_job *a = *(const struct gs_alone_job *const *)pa;
	const struct gs_alone_job *b = *(const struct gs_alone_job *const *)pb;

	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	return 0; /* g_ptr_array_sort is stable: the first need first */
}

/* The cost of p's standalone runs, all of them. */
static uint64_t runs_cost(const struct gs_sweep_point *p)
{
	uint64_t cost = 0;
	uint32_t d;

	for (d = 0; p->alone_cost && d < p->n_defs; d++)
		cost += p->alone_cost[d];
	return cost;
}

struct gs_sweep_alone *gs_sweep_alone_plan(
	const struct gs_sweep_point *const *todo, unsigned n)
{
	struct gs_sweep_alone *plan = g_new0(struct gs_sweep_alone, 1);
	g_autoptr(GHashTable) by_key = g_hash_table_new(g_str_hash,
							g_str_equal);
	g_autoptr(GPtrArray) all = g_ptr_array_new();
	unsigned i;

	plan->jobs = g_ptr_array_new_with_free_func(job_free);
	plan->needs = g_hash_table_new(NULL, NULL);
	for (i = 0; i < n; i++) {
		char *key = gs_alone_key(todo[i]->sets);
		struct gs_alone_job *job = g_hash_table_lookup(by_key, key);

		if (job) {
			g_free(key);
		} else {
			job = g_new0(struct gs_alone_job, 1);
			job->key = key;
			job->p = todo[i];
			job->cost = runs_cost(todo[i]);
			g_hash_table_insert(by_key, job->key, job);
			g_ptr_array_add(all, job);
		}
		job->uses++;
		g_hash_table_insert(plan->needs, (gpointer)todo[i], job);
	}
	/* the runs one point alone needs are its own to make */
	for (i = 0; i < n; i++) {
		struct gs_alone_job *job =
			g_hash_table_lookup(plan->needs, todo[i]);

		if (job->uses < 2)
			g_hash_table_remove(plan->needs, todo[i]);
	}
	for (i = 0; i < all->len; i++) {
		struct gs_alone_job *job = all->pdata[i];

		if (job->uses >= 2)
			g_ptr_array_add(plan->jobs, job);
		else
			job_free(job);
	}
	g_ptr_array_sort(plan->jobs, by_cost);
	return plan;
}

void gs_sweep_alone_free(struct gs_sweep_alone *plan)
{
	if (!plan)
		return;
	g_hash_table_unref(plan->needs);
	g_ptr_array_unref(plan->jobs);
	g_free(plan);
}

unsigned gs_sweep_alone_jobs(const struct gs_sweep_alone *plan)
{
	return plan->jobs->len;
}

struct gs_alone_job *gs_sweep_alone_next(struct gs_sweep_alone *plan)
{
	for (; plan->next < plan->jobs->len; plan->next++) {
		struct gs_alone_job *job = plan->jobs->pdata[plan->next];

		if (job->state == GS_ALONE_WAITING)
			return job;
	}
	return NULL;
}

bool gs_sweep_alone_ready(const struct gs_sweep_alone *plan,
			  const struct gs_sweep_point *p)
{
	const struct gs_alone_job *job = g_hash_table_lookup(plan->needs, p);

	return !job || job->state == GS_ALONE_DONE ||
	       job->state == GS_ALONE_FAILED;
}

const struct gs_standalone_fig *const *gs_sweep_alone_known(
	const struct gs_sweep_alone *plan, const struct gs_sweep_point *p)
{
	const struct gs_alone_job *job = g_hash_table_lookup(plan->needs, p);

	if (!job || job->state != GS_ALONE_DONE)
		return NULL;
	return job->figs->known;
}

void gs_sweep_alone_ended(struct gs_alone_job *job, bool ok,
			  const guint8 *msg, gsize len)
{
	uint32_t n = job->p->n_defs, d;
	struct gs_standalone_fig *figs = g_new0(struct gs_standalone_fig,
						MAX(n, 1u));
	gsize at = 0;

	for (d = 0; ok && d < n; d++)
		ok = gs_standalone_fig_unpack(msg, len, &at, &figs[d]);
	if (!ok || at != len) {
		figs_free(figs, d);
		job->state = GS_ALONE_FAILED;
		return;
	}
	job->figs = gs_alone_figs_new(figs, n);
	job->state = GS_ALONE_DONE;
}

void gs_sweep_alone_counts(const struct gs_sweep_alone *plan,
			   unsigned *runs, unsigned *uses)
{
	guint i;

	*runs = *uses = 0;
	for (i = 0; plan && i < plan->jobs->len; i++) {
		const struct gs_alone_job *job = plan->jobs->pdata[i];

		if (job->state != GS_ALONE_DONE)
			continue;
		*runs += job->p->n_defs;
		*uses += job->uses * job->p->n_defs;
	}
}

gboolean gs_sweep_alone_work(const struct gs_sweep_job *sweep,
			     const struct gs_alone_job *job, GByteArray *msg)
{
	struct gs_scenario *sc = gs_sweep_load_point(sweep, job->p, NULL);
	gboolean ok = sc != NULL;
	uint32_t d;

	/* as gs_sweep_run_point's gs_run_scenario makes them: invariants
	 * recorded, not failing the run */
	for (d = 0; ok && d < sc->n_tasks; d++) {
		struct gs_standalone_fig fig;

		ok = gs_run_standalone(sc, d, false, &fig, NULL);
		if (ok)
			gs_standalone_fig_pack(&fig, msg);
		gs_standalone_fig_clear(&fig);
	}
	gs_scenario_free(sc);
	return ok;
}
