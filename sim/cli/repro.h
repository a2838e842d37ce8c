/* The parts of `gpusim reproduce` outside its command file: selecting
 * values from results, and finding the shipped scenarios. */
#ifndef GS_CLI_REPRO_H
#define GS_CLI_REPRO_H

#include <glib.h>
#include <stdbool.h>

#include "sim/host/results.h"

/* The values a path selects: one, or one per task for tasks.*.FIELD and
 * for a task with copies (every one must pass). The loader checked the
 * path's form. A GArray of double. */
GArray *gs_repro_select_values(const struct gs_results *r, const char *path);

/* The .yaml files of configs/paper/ then configs/beyond/ in the first scenario
 * folder found (beside the executable when installed, else the source
 * tree's); NULL, reported on stderr, when there is none. */
GPtrArray *gs_repro_default_files(void);

/* The relative error of a row's values against the paper's (non-zero)
 * value: the largest |v - paper| / |paper|; NAN when there is no value. */
double gs_repro_rel_error(const GArray *vals, double paper);

/* "12.3%", or "-" for NAN (no numeric paper value). */
char *gs_repro_format_rel_error(double rel);

/* After the table: median and maximum relative error per paper (the first
 * word of each row's figure) and overall, over the rows whose rel is not
 * NAN. */
void gs_repro_print_error_summary(const char *const *figures,
				  const double *rel, guint n);

/* One row of the table: a target of an `expect` block and how gpusim did. */
struct gs_repro_row {
	char *id, *figure, *quantity, *paper, *value, *range, *rel_text;
	double rel; /* relative error against paper_value; NAN: none */
	bool pass;
	bool known_gap; /* missed, with `known_gap` given: shown, not failed */
	bool marked;    /* gives `known_gap` or `far_from_paper` */
	bool far;       /* gives `far_from_paper` */
	bool beyond; /* from configs/beyond/: the second table */
	guint order; /* file order, to keep rows of one id in place */
};

/* The rows (struct gs_repro_row, sorted): the paper table with its
 * relative-error summary, the table of the rows beyond the papers, and
 * the closing count (repro_print.c). */
void gs_repro_print_table(GArray *rows);

#endif
