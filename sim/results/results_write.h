/* Writing a run's results (struct gs_results, sim/host/results.h): its
 * folder, its row of sweep.csv and the table `gpusim run` prints. */
#ifndef GS_RESULTS_WRITE_H
#define GS_RESULTS_WRITE_H

#include <glib.h>
#include <stdio.h>

#include "sim/host/results.h"

/* Write summary.json, tasks.csv, series.csv and (if with_timeline)
 * timeline.json into dir (created if missing). dir is replaced whole
 * (sim/results/results_dir.h): after an error or a signal it holds the old run's
 * files, else the new run's, and no temporary file. */
gboolean gs_results_write_dir(const struct gs_results *r, const char *dir,
			      gboolean with_timeline, GError **error);

/* The run as one row for sweep.csv: appends column names and cell texts
 * (both newly allocated strings; give the arrays g_free as free func). */
void gs_results_row(const struct gs_results *r, GPtrArray *columns,
		    GPtrArray *cells);

/* The human-readable summary table printed by `gpusim run`. */
void gs_results_print_table(const struct gs_results *r, FILE *out);

#endif
