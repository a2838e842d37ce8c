/* gpusim compare A B: the differences between two runs' results, and a
 * verdict on the metrics named with --metric, for a policy's CI. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/cli/compare.h"

/* A --metric pattern and the --tolerance that followed it. */
struct check {
	char *pattern;  /* g_pattern_match_simple: '*' and '?' */
	double tol;     /* absolute, or relative when `relative` */
	bool relative;
	bool matched;
};

struct compare_args {
	GArray *checks; /* struct check */
	gboolean all;
	bool bad;       /* a malformed --tolerance (reported) */
};

static gboolean on_metric(const char *name, const char *value, gpointer data,
			  GError **error)
{
	struct compare_args *a = data;
	struct check c = { .pattern = g_strdup(value) };

	(void)name;
	(void)error;
	g_array_append_val(a->checks, c);
	return TRUE;
}

/* "0.01" (absolute) or "5%" (of A's value); the last --metric's. */
static gboolean on_tolerance(const char *name, const char *value,
			     gpointer data, GError **error)
{
	struct compare_args *a = data;
	struct check *c;
	char *end;
	double v;

	(void)name;
	if (!a->checks->len) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--tolerance %s: give it after the --metric it "
			    "is for", value);
		return FALSE;
	}
	c = &g_array_index(a->checks, struct check, a->checks->len - 1);
	v = g_ascii_strtod(value, &end);
	c->relative = *end == '%';
	if (end == value || (*end && strcmp(end, "%")) || !(v >= 0) ||
	    isinf(v)) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--tolerance '%s': expected a number >= 0, or a "
			    "percentage such as 5%%", value);
		return FALSE;
	}
	c->tol = c->relative ? v / 100 : v;
	return TRUE;
}

/* The check that a key's metric falls under (the first that names it). */
static struct check *check_of(struct compare_args *a, const char *metric)
{
	guint i;

	for (i = 0; i < a->checks->len; i++) {
		struct check *c = &g_array_index(a->checks, struct check, i);

		if (g_pattern_match_simple(c->pattern, metric))
			return c;
	}
	return NULL;
}

/* A change equal to the tolerance passes: 0.5 -> 0.51 is within 0.01
 * and within 2%, though in doubles the difference is a little over, so
 * the bound gets a margin of 1e-9 of itself. */
static bool within(const struct check *c, double x, double y)
{
	double d = fabs(y - x);
	double lim = c->relative ? c->tol * fabs(x) : c->tol;

	return d <= lim * (1 + 1e-9);
}

static void print_row(const char *key, const char *x, const char *y,
		      const char *diff, const char *verdict)
{
	printf("%-32s %14s %14s %11s  %s\n", key, x, y, diff, verdict);
}

/* A value as printed: numbers to 6 significant digits. */
static char *shown(const struct gs_cmp_value *v)
{
	if (!v)
		return g_strdup("-");
	if (v->numeric)
		return g_strdup_printf("%.6g", v->num);
	return g_strdup(v->text);
}

/* One key of A and/or B (either may be NULL); true when it fails its
 * check. */
static bool compare_one(struct compare_args *a, const char *key,
			bool sweep, const struct gs_cmp_value *x,
			const struct gs_cmp_value *y)
{
	struct check *c = check_of(a, gs_cmp_metric_of(key, sweep));
	bool same, failed = false;
	g_autofree char *diff = NULL, *verdict = NULL;
	g_autofree char *sx = shown(x), *sy = shown(y);

	if (x && y && x->numeric && y->numeric) {
		same = x->num == y->num;
		diff = x->num ? g_strdup_printf("%+.3g%%",
					(y->num - x->num) / fabs(x->num) * 100)
			      : g_strdup_printf("%+.6g", y->num - x->num);
		failed = c && !within(c, x->num, y->num);
	} else {
		same = x && y && !strcmp(x->text, y->text);
		failed = c && !same;
		diff = g_strdup(!x ? "only in B" : !y ? "only in A"
					   : "changed");
	}
	if (same && !a->all && !c)
		return false;
	if (c)
		verdict = failed
			? g_strdup_printf("FAIL (tolerance %g%s)",
					  c->relative ? c->tol * 100 : c->tol,
					  c->relative ? "%" : "")
			: g_strdup("ok");
	print_row(key, sx, sy, same ? "" : diff, verdict ? verdict : "");
	return failed;
}

/* Every --metric names a value of A or B; false (reported) if not. */
static bool checks_match(struct compare_args *a,
			 const struct gs_cmp_table *ta,
			 const struct gs_cmp_table *tb)
{
	const struct gs_cmp_table *both[] = { ta, tb };
	guint i, j, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < both[k]->values->len; i++) {
			const struct gs_cmp_value *v =
				both[k]->values->pdata[i];
			const char *m = gs_cmp_metric_of(v->key, ta->sweep);

			for (j = 0; j < a->checks->len; j++) {
				struct check *c = &g_array_index(
					a->checks, struct check, j);

				c->matched |= g_pattern_match_simple(
					c->pattern, m);
			}
		}
	for (j = 0; j < a->checks->len; j++) {
		struct check *c = &g_array_index(a->checks, struct check, j);

		if (!c->matched) {
			fprintf(stderr, "gpusim: compare: --metric %s names "
					"no value of either run\n", c->pattern);
			return false;
		}
	}
	return true;
}

static int compare(struct compare_args *a, const struct gs_cmp_table *ta,
		   const struct gs_cmp_table *tb)
{
	guint i, moved = 0, failed = 0;

	if (!checks_match(a, ta, tb))
		return GS_EXIT_USAGE;
	print_row("key", "A", "B", "change", "");
	for (i = 0; i < ta->values->len; i++) {
		const struct gs_cmp_value *x = ta->values->pdata[i];
		const struct gs_cmp_value *y =
			g_hash_table_lookup(tb->by_key, x->key);

		moved += !y || strcmp(x->text, y->text);
		failed += compare_one(a, x->key, ta->sweep, x, y);
	}
	for (i = 0; i < tb->values->len; i++) {
		const struct gs_cmp_value *y = tb->values->pdata[i];

		if (g_hash_table_contains(ta->by_key, y->key))
			continue;
		moved++;
		failed += compare_one(a, y->key, ta->sweep, NULL, y);
	}
	printf("\n%u value%s differ%s; ", moved, moved == 1 ? "" : "s",
	       moved == 1 ? "s" : "");
	if (!a->checks->len)
		printf("no --metric checked\n");
	else
		printf("%u beyond tolerance\n", failed);
	return failed ? GS_EXIT_FAILURE : GS_EXIT_OK;
}

int gs_cmd_compare(int argc, char **argv)
{
	struct compare_args a = {
		.checks = g_array_new(FALSE, TRUE, sizeof(struct check)),
	};
	GOptionEntry entries[] = {
		{ "metric", 'm', 0, G_OPTION_ARG_CALLBACK, (void *)on_metric,
		  "Check a value: a metric (jain_index), a task's "
		  "(TASK.gpu_share) or a pattern (*.slowdown); repeatable",
		  "NAME" },
		{ "tolerance", 't', 0, G_OPTION_ARG_CALLBACK,
		  (void *)on_tolerance,
		  "How far the --metric before it may move: absolute (0.01) "
		  "or relative to A (5%); default 0", "X" },
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &a.all,
		  "Print the values that did not change too", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"A B - compare two results folders or sweep tables");
	GOptionGroup *group = g_option_group_new(NULL, NULL, NULL, &a, NULL);
	g_autoptr(GError) err = NULL;
	struct gs_cmp_table *ta = NULL, *tb = NULL;
	int status = GS_EXIT_USAGE;
	guint i;

	g_option_group_add_entries(group, entries);
	g_option_context_set_main_group(ctx, group);
	g_option_context_set_summary(ctx,
		"Prints every value that differs between runs A and B (results "
		"folders,\nsweep folders or sweep.csv tables): metrics and "
		"each task's figures.\nExit status: 0 no checked metric moved "
		"beyond its tolerance, 1 one did,\n2 bad usage or input.");
	gs_cli_help(ctx, "compare");
	if (!g_option_context_parse(ctx, &argc, &argv, &err))
		fprintf(stderr, "gpusim: compare: %s\n", err->message);
	else if (argc != 3)
		fprintf(stderr, "gpusim: compare: expected two results "
				"(see --help)\n");
	else if (!(ta = gs_cmp_read(argv[1], &err)) ||
		 !(tb = gs_cmp_read(argv[2], &err)))
		fprintf(stderr, "gpusim: compare: %s\n", err->message);
	else if (ta->sweep != tb->sweep)
		fprintf(stderr, "gpusim: compare: %s and %s: a results "
				"folder and a sweep table do not compare\n",
			argv[1], argv[2]);
	else
		status = compare(&a, ta, tb);
	gs_cmp_table_free(ta);
	gs_cmp_table_free(tb);
	for (i = 0; i < a.checks->len; i++)
		g_free(g_array_index(a.checks, struct check, i).pattern);
	g_array_free(a.checks, TRUE);
	return status;
}
