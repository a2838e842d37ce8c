/* See sweep_alone.h. */
#include <math.h>
#include <string.h>

#include "sim/cli/sweep_alone.h"
#include "workloads/config_load.h"

struct gs_sweep_alone {
	GPtrArray *jobs;   /* struct gs_alone_job *, in the order to start */
	guint next;        /* jobs before it have started */
	GHashTable *needs; /* point -> its struct alone_need, if it shares */
};

/* What a point shares: for each of its definitions the worker that makes
 * that definition's run (NULL: the point makes it itself), and room for
 * the figures gs_sweep_alone_known gives it. */
struct alone_need {
	uint32_t n;
	struct gs_alone_job **job;
	const struct gs_standalone_fig **known;
};

/* Whether an override ("key=value") sets the policy or a part of it,
 * which a standalone run replaces with `direct`. */
static bool sets_policy(const char *set)
{
	size_t n = strcspn(set, "=");

	return (n == 6 && !strncmp(set, "policy", 6)) ||
	       (n > 7 && !strncmp(set, "policy.", 7));
}

/* Whether an override cannot reach definition def's standalone run: one
 * that sets another definition or a part of one ("tasks.K" then '.' or
 * '=', K read as config_set.c reads a list index, one to nine digits),
 * or def's own `count`. The run is def alone, one replica
 * (gs_scenario_alone): the configuration has no aliases, a task refers
 * to no other task, and a count is read on its own (config_tasks.c).
 * Any other key under `tasks` may reach every definition. */
static bool out_of_reach(const char *set, uint32_t def)
{
	const char *k = set + 6;
	size_t digits = strcspn(k, ".="), i;
	uint64_t v = 0;

	if (strncmp(set, "tasks.", 6) || !digits || digits > 9 ||
	    (k[digits] != '.' && k[digits] != '='))
		return false;
	for (i = 0; i < digits; i++) {
		if (k[i] < '0' || k[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(k[i] - '0');
	}
	return v != def || !strncmp(k + digits, ".count=", 7);
}

char *gs_alone_def_key(char *const *sets, uint32_t def)
{
	GString *key = g_string_new(NULL);
	size_t i;

	/* each override as its length and its bytes: unambiguous whatever
	 * a value holds */
	g_string_append_printf(key, "def %u: ", def);
	for (i = 0; sets && sets[i]; i++)
		if (!sets_policy(sets[i]) && !out_of_reach(sets[i], def))
			g_string_append_printf(key, "%zu:%s ", strlen(sets[i]),
					       sets[i]);
	return g_string_free(key, FALSE);
}

/* fig[0..n) cleared and freed. */
static void figs_free(struct gs_standalone_fig *fig, uint32_t n)
{
	uint32_t d;

	for (d = 0; fig && d < n; d++)
		gs_standalone_fig_clear(&fig[d]);
	g_free(fig);
}

static void job_free(gpointer data)
{
	struct gs_alone_job *job = data;

	g_free(job->defs);
	figs_free(job->fig, job->p->n_defs);
	g_free(job);
}

static void need_free(gpointer data)
{
	struct alone_need *need = data;

	g_free(need->job);
	g_free(need->known);
	g_free(need);
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

/* One definition's standalone run under one key: the points that need
 * it, and the worker that makes it if two or more do. */
struct def_run {
	unsigned uses;
	struct gs_alone_job *job;
};

/* d's run added to p's worker *job (made on the first). */
static void job_take(struct gs_alone_job **job, const struct gs_sweep_point *p,
		     uint32_t d)
{
	if (!*job) {
		*job = g_new0(struct gs_alone_job, 1);
		(*job)->p = p;
		(*job)->defs = g_new(uint32_t, MAX(p->n_defs, 1u));
	}
	(*job)->defs[(*job)->n_defs++] = d;
	if (p->alone_cost)
		(*job)->cost += p->alone_cost[d];
}

/* p's need, from the runs of its definitions (runs[d]); NULL if it
 * shares none. Each worker it waits for counts it once. */
static struct alone_need *need_of(const struct gs_sweep_point *p,
				  struct def_run *const *runs)
{
	struct alone_need *need = NULL;
	uint32_t d, e;

	for (d = 0; d < p->n_defs; d++) {
		struct gs_alone_job *job = runs[d]->job;

		if (!job)
			continue;
		if (!need) {
			need = g_new0(struct alone_need, 1);
			need->n = p->n_defs;
			need->job = g_new0(struct gs_alone_job *, p->n_defs);
			need->known = g_new0(const struct gs_standalone_fig *,
					     p->n_defs);
		}
		need->job[d] = job;
		job->stood_for++;
		for (e = 0; e < d && need->job[e] != job; e++)
			;
		if (e == d)
			job->uses++;
	}
	return need;
}

struct gs_sweep_alone *gs_sweep_alone_plan(
	const struct gs_sweep_point *const *todo, unsigned n)
{
	struct gs_sweep_alone *plan = g_new0(struct gs_sweep_alone, 1);
	g_autoptr(GHashTable) by_key = g_hash_table_new_full(
		g_str_hash, g_str_equal, g_free, g_free);
	g_autofree struct def_run ***runs = g_new0(struct def_run **,
						   MAX(n, 1u));
	unsigned i;
	uint32_t d;

	plan->jobs = g_ptr_array_new_with_free_func(job_free);
	plan->needs = g_hash_table_new_full(NULL, NULL, NULL, need_free);
	for (i = 0; i < n; i++) {
		runs[i] = g_new(struct def_run *, MAX(todo[i]->n_defs, 1u));
		for (d = 0; d < todo[i]->n_defs; d++) {
			char *key = gs_alone_def_key(todo[i]->sets, d);
			struct def_run *run = g_hash_table_lookup(by_key, key);

			if (run) {
				g_free(key);
			} else {
				run = g_new0(struct def_run, 1);
				g_hash_table_insert(by_key, key, run);
			}
			run->uses++;
			runs[i][d] = run;
		}
	}
	/* a run two or more points need is made by a worker of the first
	 * of them in order, with that point's other such runs; a run one
	 * point alone needs is left to it */
	for (i = 0; i < n; i++) {
		struct gs_alone_job *job = NULL;

		for (d = 0; d < todo[i]->n_defs; d++) {
			struct def_run *run = runs[i][d];

			if (run->uses >= 2 && !run->job) {
				job_take(&job, todo[i], d);
				run->job = job;
			}
		}
		if (job)
			g_ptr_array_add(plan->jobs, job);
	}
	for (i = 0; i < n; i++) {
		struct alone_need *need = need_of(todo[i], runs[i]);

		if (need)
			g_hash_table_insert(plan->needs, (gpointer)todo[i],
					    need);
		g_free(runs[i]);
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
	const struct alone_need *need = g_hash_table_lookup(plan->needs, p);
	uint32_t d;

	for (d = 0; need && d < need->n; d++)
		if (need->job[d] && (need->job[d]->state == GS_ALONE_WAITING ||
				     need->job[d]->state == GS_ALONE_RUNNING))
			return false;
	return true;
}

const struct gs_standalone_fig *const *gs_sweep_alone_known(
	const struct gs_sweep_alone *plan, const struct gs_sweep_point *p)
{
	struct alone_need *need = g_hash_table_lookup(plan->needs, p);
	bool any = false;
	uint32_t d;

	for (d = 0; need && d < need->n; d++) {
		const struct gs_alone_job *job = need->job[d];

		need->known[d] = job && job->state == GS_ALONE_DONE ?
					 &job->fig[d] : NULL;
		any = any || need->known[d];
	}
	return any ? need->known : NULL;
}

void gs_sweep_alone_ended(struct gs_alone_job *job, bool ok,
			  const guint8 *msg, gsize len)
{
	uint32_t n = job->p->n_defs, i;
	struct gs_standalone_fig *figs = g_new(struct gs_standalone_fig,
					       MAX(n, 1u));
	gsize at = 0;

	for (i = 0; i < n; i++)
		figs[i] = (struct gs_standalone_fig){ .mean = NAN,
						      .demand = NAN };
	for (i = 0; ok && i < job->n_defs; i++)
		ok = gs_standalone_fig_unpack(msg, len, &at,
					      &figs[job->defs[i]]);
	if (!ok || at != len) {
		figs_free(figs, n);
		job->state = GS_ALONE_FAILED;
		return;
	}
	job->fig = figs;
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
		*runs += job->n_defs;
		*uses += job->stood_for;
	}
}

gboolean gs_sweep_alone_work(const struct gs_sweep_job *sweep,
			     const struct gs_alone_job *job, GByteArray *msg)
{
	struct gs_scenario *sc = gs_sweep_load_point(sweep, job->p, NULL);
	gboolean ok = sc != NULL;
	uint32_t i;

	/* as gs_sweep_run_point's gs_run_scenario makes them: invariants
	 * recorded, not failing the run */
	for (i = 0; ok && i < job->n_defs; i++) {
		struct gs_standalone_fig fig;

		ok = gs_run_standalone(sc, job->defs[i], false, &fig, NULL);
		if (ok)
			gs_standalone_fig_pack(&fig, msg);
		gs_standalone_fig_clear(&fig);
	}
	gs_scenario_free(sc);
	return ok;
}
