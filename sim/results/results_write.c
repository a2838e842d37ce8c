/* The one entry point that writes a run's output folder, and what the
 * JSON writers share. */
#include "sim/results/results_write.h"

#include "sim/results/results_dir.h"
#include "sim/results/results_priv.h"

const char *gs_results_utf8(const char *s, char **tmp)
{
	*tmp = NULL;
	if (!s || g_utf8_validate(s, -1, NULL))
		return s;
	*tmp = g_utf8_make_valid(s, -1);
	return *tmp;
}

/* What a run's folder is made of; a sweep point adds its point.json. */
const char *const gs_results_files[] = {
	"summary.json", "tasks.csv", "series.csv", "timeline.json",
	"timeline.pftrace", NULL,
};

bool gs_timeline_format_parse(const char *s, enum gs_timeline_format *out)
{
	if (!g_strcmp0(s, "pftrace"))
		*out = GS_TIMELINE_PFTRACE;
	else if (!g_strcmp0(s, "json"))
		*out = GS_TIMELINE_JSON;
	else
		return false;
	return true;
}

static gboolean write_timeline(const struct gs_results *r, const char *dir,
			       enum gs_timeline_format timeline,
			       GError **error)
{
	switch (timeline) {
	case GS_TIMELINE_NONE:
		return TRUE;
	case GS_TIMELINE_JSON:
		return gs_results_write_file(r, dir, "timeline.json",
					     gs_results_fill_timeline, error);
	case GS_TIMELINE_PFTRACE:
	default:
		return gs_results_write_file(r, dir, "timeline.pftrace",
					     gs_results_fill_pftrace, error);
	}
}

gboolean gs_results_write_files(const struct gs_results *r, const char *dir,
				enum gs_timeline_format timeline,
				GError **error)
{
	return gs_results_write_file(r, dir, "tasks.csv",
				     gs_results_fill_tasks_csv, error) &&
	       gs_results_write_file(r, dir, "series.csv",
				     gs_results_fill_series_csv, error) &&
	       write_timeline(r, dir, timeline, error) &&
	       gs_results_write_file(r, dir, "summary.json",
				     gs_results_fill_summary, error);
}

/* All files go into a temporary folder that replaces dir whole: a
 * timeline of an earlier run does not survive a run without one. */
gboolean gs_results_write_dir(const struct gs_results *r, const char *dir,
			      enum gs_timeline_format timeline,
			      GError **error)
{
	struct gs_outdir od;

	g_return_val_if_fail(r && dir, FALSE);
	if (!gs_outdir_begin(&od, dir, gs_results_files, true, error))
		return FALSE;
	if (!gs_results_write_files(r, gs_outdir_path(&od), timeline,
				    error)) {
		gs_outdir_fail(&od, error);
		return FALSE;
	}
	return gs_outdir_commit(&od, error);
}
