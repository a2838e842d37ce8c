/* Writing a run's results (struct gs_results, sim/host/results.h): its
 * folder, its row of sweep.csv and the table `gpusim run` prints. */
#ifndef GS_RESULTS_WRITE_H
#define GS_RESULTS_WRITE_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

#include "sim/host/results.h"

/* Which timeline file a run's folder gets. 1 (true) is the default, so a
 * caller that only says "with a timeline" gets timeline.pftrace. */
enum gs_timeline_format {
	GS_TIMELINE_NONE = 0,
	GS_TIMELINE_PFTRACE = 1, /* timeline.pftrace, Perfetto's protobuf */
	GS_TIMELINE_JSON = 2,    /* timeline.json, Chrome's trace events */
};

/* "pftrace" or "json" (the --timeline option's words); false for others. */
bool gs_timeline_format_parse(const char *s, enum gs_timeline_format *out);

/* Write summary.json, tasks.csv, series.csv and the timeline file of the
 * given format into dir (created if missing). dir is replaced whole
 * (sim/results/results_dir.h): after an error or a signal it holds the old run's
 * files, else the new run's, and no temporary file. */
gboolean gs_results_write_dir(const struct gs_results *r, const char *dir,
			      enum gs_timeline_format timeline,
			      GError **error);

/* The run as one row for sweep.csv: appends column names and cell texts
 * (both newly allocated strings; give the arrays g_free as free func). */
void gs_results_row(const struct gs_results *r, GPtrArray *columns,
		    GPtrArray *cells);

/* The human-readable summary table printed by `gpusim run`: its task
 * tables hold the first max_rows tasks (0: all of them) and say how many
 * more there are. A table of every task of a large run helps nobody on a
 * terminal and costs as much as the run: 65,536 tasks were 196,608 rows,
 * 13.5 MB, 0.34 s against a simulation of 0.33 s. */
#define GS_TABLE_ROWS_DEFAULT 50
void gs_results_print_table(const struct gs_results *r, FILE *out,
			    uint32_t max_rows);

#endif
