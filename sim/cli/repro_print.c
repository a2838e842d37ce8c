/* gpusim reproduce's tables: the paper rows with their relative-error
 * summary, then the rows beyond the papers, then the closing count; each
 * row's verdict, with the reason a row far from the paper gives. */
#include <glib.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/repro.h"

/* The distance from the paper within which a numeric row needs no reason
 * (docs/decisions.md, "Rows far from the paper"). */
#define REL_GOAL 0.25

static int widest(GArray *rows, size_t offset, const char *title)
{
	int w = (int)strlen(title);
	guint i;

	for (i = 0; i < rows->len; i++) {
		const char *s = *(char **)((char *)&g_array_index(rows,
						struct gs_repro_row, i) + offset);
		int len = (int)g_utf8_strlen(s, -1);

		w = len > w ? len : w;
	}
	return w;
}

#define COL(field) offsetof(struct gs_repro_row, field)

static const char *verdict(const struct gs_repro_row *r)
{
	if (!r->pass)
		return r->known_gap ? "miss (known gap)" : "FAIL";
	if (r->far)
		return "pass (far from paper)";
	return r->marked ? "pass (known gap)" : "pass";
}

/* One table: the rows of one section (paper, or beyond the papers), with
 * the column widths of all rows so the two tables line up. */
static guint print_section(GArray *rows, bool beyond)
{
	int wi = widest(rows, COL(id), "id"), wf = widest(rows, COL(figure), "figure"),
	    wq = widest(rows, COL(quantity), "quantity"),
	    wp = widest(rows, COL(paper), "paper"),
	    wv = widest(rows, COL(value), "gpusim"),
	    wr = widest(rows, COL(range), "pass range"),
	    we = widest(rows, COL(rel_text), "rel err");
	guint i, passed = 0;

	printf("%-*s  %-*s  %-*s  %-*s  %-*s  %-*s  %-*s  %s\n", wi, "id",
	       wf, beyond ? "source" : "figure", wq, "quantity", wp,
	       beyond ? "expected" : "paper", wv, "gpusim", we, "rel err", wr,
	       "pass range", "verdict");
	for (i = 0; i < rows->len; i++) {
		struct gs_repro_row *r = &g_array_index(rows, struct gs_repro_row, i);

		if (r->beyond != beyond)
			continue;
		printf("%-*s  %-*s  %-*s  %-*s  %-*s  %-*s  %-*s  %s\n", wi,
		       r->id, wf, r->figure, wq, r->quantity, wp, r->paper, wv,
		       r->value, we, r->rel_text, wr, r->range,
		       verdict(r));
		passed += r->pass;
	}
	return passed;
}

/* The relative-error summary of the paper rows (not those beyond). */
static void print_error_summary(GArray *rows)
{
	const char **figures = g_new0(const char *, rows->len + 1);
	double *rel = g_new0(double, rows->len + 1);
	guint i, n = 0, unmarked = 0;

	for (i = 0; i < rows->len; i++) {
		const struct gs_repro_row *r = &g_array_index(rows, struct gs_repro_row, i);

		if (r->beyond)
			continue;
		figures[n] = r->figure;
		rel[n++] = r->rel;
		unmarked += !isnan(r->rel) && r->rel > REL_GOAL && !r->marked;
	}
	gs_repro_print_error_summary(figures, rel, n);
	printf("  over %.0f%% without known_gap or far_from_paper: %u rows\n",
	       100 * REL_GOAL, unmarked);
	g_free(figures);
	g_free(rel);
}

void gs_repro_print_table(GArray *rows)
{
	guint i, passed, n_beyond = 0, gaps = 0;

	for (i = 0; i < rows->len; i++) {
		n_beyond += g_array_index(rows, struct gs_repro_row, i).beyond;
		gaps += g_array_index(rows, struct gs_repro_row, i).known_gap;
	}
	passed = n_beyond < rows->len ? print_section(rows, false) : 0;
	if (n_beyond < rows->len)
		print_error_summary(rows);
	if (n_beyond) {
		printf("%sbeyond the papers (the algorithms' own guarantees, "
		       "configs/beyond/)\n\n", n_beyond < rows->len ? "\n" : "");
		passed += print_section(rows, true);
	}
	printf("\nreproduce: %u passed, %u failed", passed,
	       rows->len - passed - gaps);
	if (gaps)
		printf(", %u known gap%s (missed; docs/decisions.md says why)",
		       gaps, gaps > 1 ? "s" : "");
	printf("\n");
}
