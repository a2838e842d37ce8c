/* gpusim reproduce: each row's distance from the paper. A row whose
 * `expect` entry gives `paper_value` gets the relative error
 * |gpusim - paper| / |paper| (for a row of several values, the largest);
 * the table ends with the median and maximum of those errors per paper
 * (the first word of the row's figure: NEON, LoGA, Fleig, ...) and over
 * all of them. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/repro.h"

double gs_repro_rel_error(const GArray *vals, double paper)
{
	double worst = NAN;
	guint i;

	for (i = 0; i < vals->len; i++) {
		double e = fabs(g_array_index(vals, double, i) - paper) /
			   fabs(paper);

		worst = isnan(worst) ? e : fmax(worst, e);
	}
	return worst;
}

char *gs_repro_format_rel_error(double rel)
{
	return isnan(rel) ? g_strdup("-") : g_strdup_printf("%.1f%%",
							    100 * rel);
}

static gint cmp_double(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median (of the two middle values when even) and maximum of `errs`. */
static void print_line(const char *what, GArray *errs)
{
	guint n = errs->len;
	double median, max;

	g_array_sort(errs, cmp_double);
	median = n % 2 ? g_array_index(errs, double, n / 2)
		       : (g_array_index(errs, double, n / 2 - 1) +
			  g_array_index(errs, double, n / 2)) / 2;
	max = g_array_index(errs, double, n - 1);
	printf("  %-8s %3u rows  median %6.1f%%  max %6.1f%%\n", what, n,
	       100 * median, 100 * max);
}

/* The paper a row belongs to: its figure's first word. */
static char *paper_of(const char *figure)
{
	const char *sp = strchr(figure, ' ');

	return sp ? g_strndup(figure, (gsize)(sp - figure)) : g_strdup(figure);
}

void gs_repro_print_error_summary(const char *const *figures,
				  const double *rel, guint n)
{
	g_autoptr(GPtrArray) papers = g_ptr_array_new_with_free_func(g_free);
	GArray *all = g_array_new(FALSE, FALSE, sizeof(double));
	guint i, p;

	for (i = 0; i < n; i++) {
		char *name;

		if (isnan(rel[i]))
			continue;
		g_array_append_val(all, rel[i]);
		name = paper_of(figures[i]);
		if (!g_ptr_array_find_with_equal_func(papers, name, g_str_equal,
						      NULL))
			g_ptr_array_add(papers, name);
		else
			g_free(name);
	}
	printf("\nrelative error |gpusim - paper| / |paper|, rows with a "
	       "numeric paper value (%u of %u):\n", all->len, n);
	if (!all->len) {
		printf("  none\n");
		g_array_free(all, TRUE);
		return;
	}
	for (p = 0; p < papers->len; p++) {
		const char *name = g_ptr_array_index(papers, p);
		GArray *errs = g_array_new(FALSE, FALSE, sizeof(double));

		for (i = 0; i < n; i++) {
			g_autofree char *row_paper = paper_of(figures[i]);

			if (!isnan(rel[i]) && !strcmp(row_paper, name))
				g_array_append_val(errs, rel[i]);
		}
		print_line(name, errs);
		g_array_free(errs, TRUE);
	}
	print_line("all", all);
	g_array_free(all, TRUE);
}
