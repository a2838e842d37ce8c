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

static gboolean write_one(struct file_job *job, unsigned i)
{
	/* a stream has the file open since the run began: it ends it */
	if (job->fill[i] == gs_results_fill_pftrace && job->r->span_sink)
		return job->r->span_sink->end(job->r, &job->error);
	if (job->fill[i] == gs_results_fill_summary && job->parts)
		return gs_write_stream_file(job->dir, job->name[i],
					    fill_summary_parts, job->parts,
					    &job->error);
	return gs_results_write_file(job->r, job->dir, job->name[i],
				     job->fill[i], &job->error);
}

static gpointer write_job(gpointer data)
{
	struct file_job *job = data;
	unsigned i;

	job->ok = TRUE;
	for (i = 0; job->ok && i < G_N_ELEMENTS(job->fill); i++)
		if (job->fill[i])
			job->ok = write_one(job, i);
	/* a helper waiting for summary.json's file to move on returns */
	if (job->parts)
		gs_summary_parts_close(job->parts);
	return NULL;
}

/* tasks.csv, then series.csv: written here, or ended by the stream that
 * wrote it during the run (series_stream.h). */
static gboolean write_csv_files(const struct gs_results *r, const char *dir,
				GError **error)
{
	if (!gs_results_write_file_chunked(r, dir, "tasks.csv",
					   gs_results_fill_tasks_csv, error))
		return FALSE;
	if (r->series_sink)
		return r->series_sink->end(r, error);
	return gs_results_write_file_chunked(r, dir, "series.csv",
					     gs_results_fill_series_csv,
					     error);
}

/* The files are independent: each is its own temporary file, filled from
 * the same read-only results, and the folder is published only once all
 * are complete (results_dir.h). So they are written on two threads: the
 * timeline's end and summary.json on a second thread, while this one
 * writes tasks.csv and series.csv and then encodes parts of summary.json's
 * tasks array a few ahead of the file (summary_parts.h). At 65,536 tasks
 * the CPU of the encoders is about summary.json 0.05 s and tasks.csv
 * 0.02 s, each plus the kernel's copy of its bytes (55 and 12 MB);
 * series.csv (58 MB, 0.045 s) is written during the run by its stream
 * when the run had one (`gpusim run`, the bench), and its end here costs
 * nothing. summary.json starts on the second thread at once, and this
 * one joins it after tasks.csv. A second core shortens the wait, and the
 * bytes of each file are what they are written one after another. With
 * the write seam set, or no thread to be had, they are written in turn:
 * tasks.csv, series.csv, timeline, summary.json; an error is the first
 * one in that order either way. */
gboolean gs_results_write_files(const struct gs_results *r, const char *dir,
				enum gs_timeline_format timeline,
				GError **error)
{
	struct file_job second = {
		.r = r, .dir = dir, .name[1] = "summary.json",
		.fill[1] = gs_results_fill_summary,
	};
	GError *csv_error = NULL;
	GThread *thread = NULL;
	gboolean ok;

	second.fill[0] = timeline_fill(timeline, &second.name[0]);
	if (!gs_write_seam_set()) {
		second.parts = gs_summary_parts_new(r, GS_SUMMARY_PART_TASKS,
						    GS_SUMMARY_PART_WINDOW);
		thread = gs_thread_new_quiet("gpusim-write", write_job,
					     &second);
	}
	ok = write_csv_files(r, dir, &csv_error);
	if (thread) {
		if (ok)
			gs_summary_parts_help(second.parts);
		g_thread_join(thread);
	} else if (ok) {
		write_job(&second);
	}
	gs_summary_parts_free(second.parts);
	if (!ok) {
		g_clear_error(&second.error);
		g_propagate_error(error, csv_error);
		return FALSE;
	}
	if (!second.ok) {
		g_propagate_error(error, second.error);
		return FALSE;
	}
	return TRUE;
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
