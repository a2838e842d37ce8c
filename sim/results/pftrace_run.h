/* A run's output folder begun before the run, so that timeline.pftrace
 * and series.csv are written into it while the run goes on
 * (pftrace_stream.h, series_stream.h), and the
 * other files, the timeline's tail and the folder's commit at the end
 * (results_write.h, results_dir.h). A folder that cannot be created fails
 * before the run. Used by `gpusim run` and the bench; sweeps and
 * reproduce write their folders at the end. */
#ifndef GS_PFTRACE_RUN_H
#define GS_PFTRACE_RUN_H

#include <glib.h>

#include "sim/host/results.h"
#include "sim/results/results_dir.h"
#include "sim/results/results_write.h"

struct gs_pftrace_run {
	struct gs_outdir od;
	struct gs_pftrace_stream *stream; /* NULL: written at the end */
	struct gs_series_stream *series;  /* likewise for series.csv */
	enum gs_timeline_format timeline;
};

gboolean gs_pftrace_run_begin(struct gs_pftrace_run *o, const char *dir,
			      enum gs_timeline_format timeline,
			      GError **error);
/* The sink for the simulation's options (NULL: none). */
struct gs_span_sink *gs_pftrace_run_sink(struct gs_pftrace_run *o);
/* The series sink for the simulation's options (NULL: none). */
struct gs_series_sink *gs_pftrace_run_series_sink(struct gs_pftrace_run *o);
/* Writes r's files and publishes the folder; on failure the folder is as
 * it was. Either this or gs_pftrace_run_abort() ends o. */
gboolean gs_pftrace_run_commit(struct gs_pftrace_run *o,
			       const struct gs_results *r, GError **error);
/* Drops the new folder (the run failed). */
void gs_pftrace_run_abort(struct gs_pftrace_run *o);

#endif
