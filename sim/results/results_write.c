/* The one entry point that writes a run's output folder, and what the
 * JSON writers share. */
#include "sim/results/results_write.h"

#include "sim/results/results_dir.h"
#include "sim/results/results_priv.h"
#include "sim/results/summary_parts.h"

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

static gs_results_fill_fn timeline_fill(enum gs_timeline_format timeline,
					const char **name)
{
	switch (timeline) {
	case GS_TIMELINE_NONE:
		*name = NULL;
		return NULL;
	case GS_TIMELINE_JSON:
		*name = "timeline.json";
		return gs_results_fill_timeline;
	case GS_TIMELINE_PFTRACE:
	default:
		*name = "timeline.pftrace";
		return gs_results_fill_pftrace;
	}
}

/* Files of the folder written in turn, on a thread of their own; the
 * first to fail stops the rest. summary.json goes through parts (when
 * set), which the other thread may help encode. */
struct file_job {
	const struct gs_results *r;
	const char *dir;
	const char *name[2];
	gs_results_fill_fn fill[2];
	struct gs_summary_parts *parts;
	gboolean ok;
	GError *error;
};

static gboolean fill_summary_parts(const void *ctx, FILE *f, GError **error)
{
	/* the parts change as they are taken: the context is only passed
	 * through gs_write_stream_file() as const */
	return gs_summary_parts_fill((struct gs_summary_parts *)ctx, f,
				     error);
}

static gpointer write_job(gpointer data)
{
	struct file_job *job = data;
	unsigned i;

	job->ok = TRUE;
	for (i = 0; job->ok && i < G_N_ELEMENTS(job->fill); i++) {
		if (!job->fill[i])
			continue;
		/* a stream has the file open since the run began: it ends it */
		if (job->fill[i] == gs_results_fill_pftrace &&
		    job->r->span_sink)
			job->ok = job->r->span_sink->end(job->r, &job->error);
		else if (job->fill[i] == gs_results_fill_summary &&
			 job->parts)
			job->ok = gs_write_stream_file(job->dir, job->name[i],
						       fill_summary_parts,
						       job->parts,
						       &job->error);
		else
			job->ok = gs_results_write_file(job->r, job->dir,
							job->name[i],
							job->fill[i],
							&job->error);
	}
	return NULL;
}

/* The files are independent: each is its own temporary file, filled from
 * the same read-only results, and the folder is published only once all
 * are complete (results_dir.h). So they are written on two threads: the
 * timeline, when there is one, and summary.json on a second thread while
 * this one writes tasks.csv and series.csv (at 65,536 tasks summary.json
 * is about as long to write as the two CSV files together). A second
 * core shortens the wait, and the bytes of each file are what they are
 * written one after another. Once the CSV files are written, this thread
 * encodes parts of summary.json's tasks array from its end
 * (summary_parts.h), so neither thread waits long for the other. With
 * the write seam set, or no thread to be had, they are written in turn.
 * An error is the first one in the order tasks.csv, series.csv,
 * timeline, summary.json, as it is when they are written in turn. */
gboolean gs_results_write_files(const struct gs_results *r, const char *dir,
				enum gs_timeline_format timeline,
				GError **error)
{
	struct file_job second = {
		.r = r, .dir = dir, .name[1] = "summary.json",
		.fill[1] = gs_results_fill_summary,
	};
	GThread *thread = NULL;
	gboolean ok;

	second.fill[0] = timeline_fill(timeline, &second.name[0]);
	if (!gs_write_seam_set()) {
		second.parts = gs_summary_parts_new(r, GS_SUMMARY_PART_TASKS);
		thread = gs_thread_new_quiet("gpusim-write", write_job,
					     &second);
	}
	ok = gs_results_write_file(r, dir, "tasks.csv",
				   gs_results_fill_tasks_csv, error) &&
	     gs_results_write_file(r, dir, "series.csv",
				   gs_results_fill_series_csv, error);
	if (thread) {
		if (ok)
			gs_summary_parts_help(second.parts);
		g_thread_join(thread);
	} else if (ok) {
		write_job(&second);
	}
	gs_summary_parts_free(second.parts);
	if (ok && !second.ok) {
		g_propagate_error(error, second.error);
		return FALSE;
	}
	g_clear_error(&second.error);
	return ok;
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
