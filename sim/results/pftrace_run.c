/* See pftrace_run.h. */
#include "sim/results/pftrace_run.h"

#include "sim/results/pftrace_stream.h"
#include "sim/results/results_priv.h"
#include "sim/results/series_stream.h"

gboolean gs_pftrace_run_begin(struct gs_pftrace_run *o, const char *dir,
			      enum gs_timeline_format timeline,
			      GError **error)
{
	*o = (struct gs_pftrace_run){ .timeline = timeline };
	if (!gs_outdir_begin(&o->od, dir, gs_results_files, true, error))
		return FALSE;
	o->series = gs_series_stream_new(gs_outdir_path(&o->od));
	if (timeline != GS_TIMELINE_PFTRACE)
		return TRUE;
	o->stream = gs_pftrace_stream_new(gs_outdir_path(&o->od), error);
	if (!o->stream && error && *error) {
		gs_series_stream_free(g_steal_pointer(&o->series));
		gs_outdir_fail(&o->od, error);
		return FALSE;
	}
	return TRUE;
}

struct gs_span_sink *gs_pftrace_run_sink(struct gs_pftrace_run *o)
{
	return o->stream ? gs_pftrace_stream_sink(o->stream) : NULL;
}

struct gs_series_sink *gs_pftrace_run_series_sink(struct gs_pftrace_run *o)
{
	return gs_series_stream_sink(o->series);
}

gboolean gs_pftrace_run_commit(struct gs_pftrace_run *o,
			       const struct gs_results *r, GError **error)
{
	gboolean ok;

	g_return_val_if_fail(r->span_sink == gs_pftrace_run_sink(o), FALSE);
	g_return_val_if_fail(r->series_sink == gs_pftrace_run_series_sink(o),
			     FALSE);
	ok = gs_results_write_files(r, gs_outdir_path(&o->od), o->timeline,
				    error);
	gs_pftrace_stream_free(g_steal_pointer(&o->stream));
	gs_series_stream_free(g_steal_pointer(&o->series));
	if (!ok) {
		gs_outdir_fail(&o->od, error);
		return FALSE;
	}
	return gs_outdir_commit(&o->od, error);
}

void gs_pftrace_run_abort(struct gs_pftrace_run *o)
{
	gs_pftrace_stream_free(g_steal_pointer(&o->stream));
	gs_series_stream_free(g_steal_pointer(&o->series));
	gs_outdir_abort(&o->od);
}
