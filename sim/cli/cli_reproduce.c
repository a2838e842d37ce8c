/* gpusim reproduce: run the paper scenarios and print one row per target
 * (DESIGN section 9): id, figure, quantity, paper value, gpusim value, the
 * pass range and the verdict. Runs are cached by (file, overrides), so a
 * reference run under `direct` is made once however many targets use it.
 * A row with a numeric `paper_value` also shows its relative error, and
 * the paper table ends with the errors' median and maximum (repro_error.c).
 * A row that misses but states a `known_gap` (why, in docs/decisions.md)
 * is shown as a known miss and does not fail the command. A row inside its
 * band but further than 25% from the paper's value (REL_GOAL,
 * repro_print.c) states why with `far_from_paper` (or `known_gap`) and
 * shows "pass (far from paper)"; it still fails if it leaves its band.
 * After the relative errors comes the count of rows further than that
 * which give neither reason: the goal is that there are none.
 * Scenarios in a folder named `beyond` (configs/beyond/: what the papers do
 * not measure, checked against the algorithms' guarantees) are printed in
 * a table of their own after the paper rows. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/cli/repro.h"
#include "sim/cli/sweep_alone.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

struct repro {
	GHashTable *runs; /* "file\nset\nset..." -> struct gs_results * */
	/* "file\n" gs_alone_def_key -> struct gs_standalone_fig *: rows
	 * run a file under several policies and settings of its other
	 * definitions, whose standalone runs of a definition (under
	 * `direct`) are the same (sweep_alone.h) */
	GHashTable *alone;
	GArray *rows;     /* struct gs_repro_row */
	bool failed_to_run;
};

static void free_results(gpointer p)
{
	gs_results_clear(p);
	g_free(p);
}

/* The runs kept and the standalone runs shared, freed. */
static void repro_free_runs(struct repro *rp)
{
	g_hash_table_destroy(rp->runs);
	g_hash_table_destroy(rp->alone);
}

static char *run_key(const char *file, char **set)
{
	g_autofree char *joined = set ? g_strjoinv("\n", set) : g_strdup("");

	return g_strdup_printf("%s\n%s", file, joined);
}

static void fig_free(gpointer fig)
{
	gs_standalone_fig_clear(fig);
	g_free(fig);
}

/* The scenario sc (file with these overrides) run into r, with the
 * standalone runs of its definitions that an earlier run of the file
 * made under the same key, the others made and kept for the next. */
static gboolean run_sharing_alone(struct repro *rp, const char *file,
				  char **set, const struct gs_scenario *sc,
				  struct gs_results *r, GError **err)
{
	uint32_t n = sc->n_tasks, d;
	char **keys = g_new0(char *, MAX(n, 1u));
	g_autofree const struct gs_standalone_fig **known =
		g_new0(const struct gs_standalone_fig *, MAX(n, 1u));
	struct gs_standalone_fig *made = g_new0(struct gs_standalone_fig,
						 MAX(n, 1u));
	struct gs_sim_options opt = { .standalone_runs = true,
				      .standalone_beside = true,
				      .standalone_out = made };
	gboolean ok;

	for (d = 0; d < n; d++) {
		g_autofree char *def_key = gs_alone_def_key(set, d);

		keys[d] = g_strdup_printf("%s\n%s", file, def_key);
		known[d] = g_hash_table_lookup(rp->alone, keys[d]);
		if (known[d])
			opt.standalone_known = known;
	}
	ok = gs_run_scenario(sc, &opt, r, err);
	/* the figures made are kept under their keys (taken), the rest
	 * freed */
	for (d = 0; d < n; d++) {
		if (ok && !known[d]) {
			g_hash_table_replace(rp->alone, keys[d],
					     g_memdup2(&made[d],
						       sizeof(made[d])));
			continue;
		}
		g_free(keys[d]);
		gs_standalone_fig_clear(&made[d]);
	}
	g_free(keys);
	g_free(made);
	return ok;
}

/* Run (or reuse) the scenario with these overrides. */
static const struct gs_results *run_cached(struct repro *rp, const char *file,
					   char **set)
{
	g_autofree char *key = run_key(file, set);
	struct gs_results *r = g_hash_table_lookup(rp->runs, key);
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc;

	if (r)
		return r;
	sc = gs_scenario_load_file(file, (const char *const *)set,
				   set ? g_strv_length(set) : 0, &err);
	if (!sc) {
		fprintf(stderr, "%s\n", err->message);
		return NULL;
	}
	r = g_new0(struct gs_results, 1);
	gs_results_init(r);
	if (!run_sharing_alone(rp, file, set, sc, r, &err)) {
		fprintf(stderr, "gpusim: %s: %s\n", file, err->message);
		free_results(r);
		gs_scenario_free(sc);
		return NULL;
	}
	gs_scenario_free(sc);
	/* its rows are still judged; the command fails */
	if (r->invariant_violation) {
		fprintf(stderr, "gpusim: %s: %s\n", file,
			r->invariant_violation);
		rp->failed_to_run = true;
	}
	g_hash_table_insert(rp->runs, g_steal_pointer(&key), r);
	return r;
}

/* The overrides plus `extra` (NULL: none) and, with a policy, one that
 * replaces the scenario's policy by it. */
static char **with_overrides(char **set, const char *extra,
			     const char *policy)
{
	guint n = set ? g_strv_length(set) : 0, i, k;
	char **out = g_new0(char *, n + 3);

	for (i = 0; i < n; i++)
		out[i] = g_strdup(set[i]);
	k = n;
	if (extra)
		out[k++] = g_strdup(extra);
	if (policy)
		out[k++] = g_strdup_printf("policy={name: %s}", policy);
	return out;
}

static char **with_direct(char **set)
{
	return with_overrides(set, NULL, "direct");
}

/* a followed by b's overrides (b may be NULL); a is consumed */
static char **strv_join(char **a, char *const *b)
{
	guint n = g_strv_length(a), m = b ? g_strv_length((char **)b) : 0, i;
	char **out = g_renew(char *, a, n + m + 1);

	for (i = 0; i < m; i++)
		out[n + i] = g_strdup(b[i]);
	out[n + m] = NULL;
	return out;
}

static bool vs_baseline(const struct gs_expect *e)
{
	return e->compare == GS_COMPARE_REDUCTION_VS_BASELINE ||
	       e->compare == GS_COMPARE_INCREASE_VS_BASELINE;
}

/* The overrides of the run a row is compared with: the row's `set`, the
 * sweep point (NULL: none), then its `reference` overrides (if any). One
 * rule for both kinds of compare, against a baseline and value by value. */
static char **compared_run_overrides(const struct gs_expect *e,
				     const char *point)
{
	return strv_join(with_overrides(e->set, point, NULL), e->reference);
}

/* The first seed of a row's runs: a `seed=N` of its `set` (the last one),
 * else the scenario's. Node rows (seeds, baseline, sweep) add a seed
 * override after `set`, so without this a row's own seed would be
 * silently replaced by the file's. */
static uint64_t row_seed(const struct gs_expect *e, uint64_t file_seed)
{
	uint64_t seed = file_seed, v;
	guint i;

	for (i = 0; e->set && e->set[i]; i++)
		if (g_str_has_prefix(e->set[i], "seed=") &&
		    g_ascii_string_to_unsigned(e->set[i] + 5, 10, 0,
					       G_MAXUINT64, &v, NULL))
			seed = v;
	return seed;
}

/* Node rows (seeds, baseline, sweep): the row's metric in the run with
 * seed `seed`, under `set` plus `point`; for the baseline (`base`), under
 * the baseline policy (if any) and the `reference` overrides too. NAN if
 * the run failed. */
static double seed_value(struct repro *rp, const char *file,
			 const struct gs_expect *e, uint64_t seed_no,
			 const char *point, bool base)
{
	g_autofree char *seed = g_strdup_printf("seed=%" G_GUINT64_FORMAT,
						seed_no);
	char **tmp = base ? compared_run_overrides(e, point)
			  : with_overrides(e->set, point, NULL);
	char **set = with_overrides(tmp, seed, base ? e->baseline : NULL);
	const struct gs_results *r = run_cached(rp, file, set);
	double out = NAN;
	GArray *v;

	g_strfreev(tmp);
	g_strfreev(set);
	if (!r)
		return NAN;
	v = gs_repro_select_values(r, e->value);
	if (v->len == 1)
		out = g_array_index(v, double, 0);
	else /* a counted task's name reads several values */
		fprintf(stderr,
			"gpusim: %s: row %s: '%s' gives %u values, a sweep point needs one\n",
			file, e->id, e->value, v->len);
	g_array_free(v, TRUE);
	return out;
}

/* The mean over the row's seeds (NAN if a run failed). */
static double seed_mean(struct repro *rp, const char *file,
			const struct gs_expect *e, uint64_t base_seed,
			const char *point, bool base)
{
	uint32_t n = e->seeds ? e->seeds : 1, k;
	double sum = 0;

	for (k = 0; k < n; k++)
		sum += seed_value(rp, file, e, base_seed + k, point, base);
	return sum / n;
}

/* v's change against the baseline's b, as the row's compare says */
static double change_vs_baseline(const struct gs_expect *e, double v,
				 double b)
{
	return e->compare == GS_COMPARE_REDUCTION_VS_BASELINE ? (b - v) / b
							       : (v - b) / b;
}

/* The row's value at one point: the mean, or its change against the
 * baseline policy's mean. */
static double point_value(struct repro *rp, const char *file,
			  const struct gs_expect *e, uint64_t base_seed,
			  const char *point)
{
	double v = seed_mean(rp, file, e, base_seed, point, false);

	if (!vs_baseline(e))
		return v;
	return change_vs_baseline(
		e, v, seed_mean(rp, file, e, base_seed, point, true));
}

/* Several values reduced to their mean, largest or smallest (`reduce:`);
 * NAN if there are none or one is NAN (a run that failed). */
static double reduce_values(const GArray *vals, uint8_t how)
{
	double sum = 0, most = -INFINITY, least = INFINITY;
	bool failed = vals->len == 0;
	guint i;

	for (i = 0; i < vals->len; i++) {
		double v = g_array_index(vals, double, i);

		failed |= isnan(v);
		sum += v;
		most = fmax(most, v);
		least = fmin(least, v);
	}
	if (failed)
		return NAN;
	if (how == GS_REDUCE_MIN)
		return least;
	return how == GS_REDUCE_MEAN ? sum / vals->len : most;
}

/* A sweep row's points reduced to their mean or their largest value. */
static double reduced_value(struct repro *rp, const char *file,
			    const struct gs_expect *e, uint64_t base_seed)
{
	GArray *points = g_array_new(FALSE, FALSE, sizeof(double));
	double v;
	guint i;

	for (i = 0; e->sweep[i]; i++) {
		double p = point_value(rp, file, e, base_seed, e->sweep[i]);

		g_array_append_val(points, p);
	}
	v = reduce_values(points, e->reduce);
	g_array_free(points, TRUE);
	return v;
}

/* A seeds row with `reduce`: each seed's value (against the baseline's
 * under the same seed) reduced to one, as a paper's "up to" over its
 * arrival sequences (DCUDA Fig. 12). */
static double seeds_reduced(struct repro *rp, const char *file,
			    const struct gs_expect *e, uint64_t base_seed)
{
	GArray *each = g_array_new(FALSE, FALSE, sizeof(double));
	double v;
	uint32_t k;

	for (k = 0; k < e->seeds; k++) {
		v = seed_value(rp, file, e, base_seed + k, NULL, false);
		if (vs_baseline(e))
			v = change_vs_baseline(
				e, v,
				seed_value(rp, file, e, base_seed + k, NULL,
					   true));
		g_array_append_val(each, v);
	}
	v = reduce_values(each, e->reduce);
	g_array_free(each, TRUE);
	return v;
}

/* seeds/baseline/sweep rows: one value; a sweep's is how far its peak
 * point lies above the largest of the others, or the points' mean or
 * maximum. */
static GArray *node_values(struct repro *rp, const char *file,
			   const struct gs_expect *e, uint64_t base_seed)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(double));
	double v = NAN, others = -INFINITY;
	guint i;

	if (!e->sweep && e->reduce) {
		v = seeds_reduced(rp, file, e, base_seed);
	} else if (!e->sweep) {
		v = point_value(rp, file, e, base_seed, NULL);
	} else if (e->reduce) {
		v = reduced_value(rp, file, e, base_seed);
	} else {
		for (i = 0; e->sweep[i]; i++) {
			double p = point_value(rp, file, e, base_seed,
					       e->sweep[i]);

			if (i == e->peak)
				v = p;
			else
				others = fmax(others, p);
		}
		v -= others;
	}
	if (!isnan(v))
		g_array_append_val(out, v);
	else
		rp->failed_to_run = true;
	return out;
}

/* (the loader lets `baseline` only with a baseline compare) */
static bool node_row(const struct gs_expect *e)
{
	return e->seeds || vs_baseline(e) || e->sweep;
}

static bool in_range(const struct gs_expect *e, double v)
{
	if (isnan(v))
		return false;
	return (!e->has_min || v >= e->min) && (!e->has_max || v <= e->max);
}

static char *format_range(const struct gs_expect *e)
{
	if (e->has_min && e->has_max)
		return g_strdup_printf("[%g, %g]", e->min, e->max);
	if (e->has_min)
		return g_strdup_printf(">= %g", e->min);
	return g_strdup_printf("<= %g", e->max);
}

static void check(struct repro *rp, const char *file, const struct gs_expect *e,
		  uint64_t base_seed, bool beyond)
{
	const struct gs_results *r = node_row(e) ? NULL
						 : run_cached(rp, file, e->set);
	struct gs_repro_row row = { 0 };
	GArray *vals;
	double lo = INFINITY, hi = -INFINITY;
	guint i;

	row.order = rp->rows->len;
	row.beyond = beyond;
	row.id = g_strdup(e->id);
	row.figure = g_strdup(e->figure ? e->figure : "");
	row.quantity = g_strdup(e->quantity);
	row.paper = g_strdup(e->paper ? e->paper : "");
	row.range = format_range(e);
	row.rel = NAN;
	if (node_row(e)) {
		vals = node_values(rp, file, e, base_seed);
		goto judge;
	}
	if (!r) {
		rp->failed_to_run = true;
		row.value = g_strdup("error");
		row.rel_text = g_strdup("-");
		g_array_append_val(rp->rows, row);
		return;
	}
	vals = gs_repro_select_values(r, e->value);
	if (e->compare != GS_COMPARE_NONE) {
		char **ref_set = e->reference
					 ? compared_run_overrides(e, NULL)
					 : with_direct(e->set);
		bool increase =
			e->compare == GS_COMPARE_INCREASE_VS_DIRECT ||
			e->compare == GS_COMPARE_INCREASE_VS_REFERENCE;
		const struct gs_results *ref;
		GArray *ref_vals;

		ref = run_cached(rp, file, ref_set);
		g_strfreev(ref_set);
		if (!ref) {
			rp->failed_to_run = true;
			g_array_set_size(vals, 0);
		} else {
			ref_vals = gs_repro_select_values(ref, e->value);
			for (i = 0; i < vals->len; i++) {
				double *v = &g_array_index(vals, double, i);
				double d = g_array_index(ref_vals, double, i);

				*v = increase ? (*v - d) / d : (d - *v) / d;
			}
			g_array_free(ref_vals, TRUE);
		}
	}
	if (e->reduce && vals->len) {
		/* the tasks' values as one: their mean or their largest */
		double v = reduce_values(vals, e->reduce);

		g_array_set_size(vals, 0);
		g_array_append_val(vals, v);
	}
judge:
	if (e->has_paper_value)
		row.rel = gs_repro_rel_error(vals, e->paper_value);
	row.rel_text = gs_repro_format_rel_error(row.rel);
	row.pass = vals->len > 0;
	for (i = 0; i < vals->len; i++) {
		double v = g_array_index(vals, double, i);

		row.pass = row.pass && in_range(e, v);
		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	row.known_gap = !row.pass && vals->len > 0 && e->known_gap;
	row.marked = e->known_gap || e->far_from_paper;
	row.far = e->far_from_paper != NULL;
	if (!vals->len)
		row.value = g_strdup("none");
	else if (lo == hi || vals->len == 1)
		row.value = g_strdup_printf("%.4g", lo);
	else
		row.value = g_strdup_printf("%.4g..%.4g", lo, hi);
	g_array_free(vals, TRUE);
	g_array_append_val(rp->rows, row);
}

/* R1 before R2 ... R10; rows of one target keep their file order. */
static gint row_cmp(gconstpointer a, gconstpointer b)
{
	const struct gs_repro_row *x = a, *y = b;
	size_t lx = strlen(x->id), ly = strlen(y->id);
	int c = lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->id, y->id);

	if (x->beyond != y->beyond)
		return x->beyond ? 1 : -1;
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Rows of a scenario in a folder named `beyond` go to the second table. */
static bool beyond_file(const char *file)
{
	g_autofree char *dir = g_path_get_dirname(file);
	g_autofree char *base = g_path_get_basename(dir);

	return !strcmp(base, "beyond");
}

int gs_cmd_reproduce(int argc, char **argv)
{
	g_auto(GStrv) args = NULL;
	GOptionEntry entries[] = {
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args,
		  NULL, NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"[FILE...] - check the paper targets (default: configs/paper/*.yaml, then configs/beyond/*.yaml)");
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) files = NULL;
	struct repro rp;
	guint f, i, failed = 0;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_summary(ctx,
		"Runs every scenario with an `expect:` block and prints one row "
		"per target.\nExit status: 0 all pass (a row's known gap is shown, "
		"not failed), 1 a target fails or a run fails, 2 bad usage or "
		"config.");
	gs_cli_help(ctx, "reproduce");
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_USAGE;
	}
	if (args && args[0]) {
		files = g_ptr_array_new_with_free_func(g_free);
		for (i = 0; args[i]; i++)
			g_ptr_array_add(files, g_strdup(args[i]));
	} else if (!(files = gs_repro_default_files())) {
		return GS_EXIT_USAGE;
	}
	rp.runs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					free_results);
	rp.alone = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					 fig_free);
	rp.rows = g_array_new(FALSE, TRUE, sizeof(struct gs_repro_row));
	rp.failed_to_run = false;
	for (f = 0; f < files->len; f++) {
		const char *file = g_ptr_array_index(files, f);
		struct gs_scenario *sc = gs_scenario_load_file(file, NULL, 0,
							       &err);

		if (!sc) {
			fprintf(stderr, "%s\n", err->message);
			repro_free_runs(&rp);
			return GS_EXIT_USAGE;
		}
		for (i = 0; i < sc->n_expect; i++)
			check(&rp, file, &sc->expect[i],
			      row_seed(&sc->expect[i], sc->seed),
			      beyond_file(file));
		gs_scenario_free(sc);
	}
	g_array_sort(rp.rows, row_cmp);
	if (!rp.rows->len) {
		/* nothing checked is not a pass */
		fprintf(stderr, "gpusim: reproduce: no expect rows in the %u "
			"file(s) given\n", files->len);
		g_array_free(rp.rows, TRUE);
		repro_free_runs(&rp);
		return GS_EXIT_FAILURE;
	}
	gs_repro_print_table(rp.rows);
	for (i = 0; i < rp.rows->len; i++) {
		struct gs_repro_row *r = &g_array_index(rp.rows, struct gs_repro_row, i);

		failed += !r->pass && !r->known_gap;
		g_free(r->id);
		g_free(r->figure);
		g_free(r->quantity);
		g_free(r->paper);
		g_free(r->value);
		g_free(r->range);
		g_free(r->rel_text);
	}
	g_array_free(rp.rows, TRUE);
	repro_free_runs(&rp);
	return failed || rp.failed_to_run ? GS_EXIT_FAILURE : GS_EXIT_OK;
}
