/* Writing an import model as a scenario of `trace` tasks (import_write.c).
 *
 * Each task becomes one `trace` task with one channel per stream and its
 * own CSV beside the scenario (STEM.TASK.csv). Times are measured from the
 * recording's first submission over all tasks, so tasks keep their relative
 * alignment (a task's first row may be after 0). */
#ifndef GS_IMPORT_WRITE_H
#define GS_IMPORT_WRITE_H

#include <glib.h>
#include <stdbool.h>

#include "sim/import/import.h"

/* What the scenario names besides its tasks. */
struct gs_import_write_options {
	const char *out;	/* the scenario file (CSVs go beside it) */
	const char *policy;	/* policy.name; NULL: direct */
	const char *preset;	/* gpu.preset; NULL: volta */
	guint64 duration_ns;	/* 0: the last job's end plus a margin */
};

/* One file of the scenario, as text. */
struct gs_import_file {
	char *path;		/* where it goes */
	char *text;
};

/* The counts of the summary line. */
struct gs_import_counts {
	guint tasks;
	guint channels;		/* over all tasks */
	guint64 jobs;
	guint64 span_ns;	/* first submission to the last job's end */
	guint64 duration_ns;	/* the scenario's duration */
};

/* The scenario and its CSVs in `files` (struct gs_import_file *; the
 * scenario last), counted in *counts. false and *error (positioned at the
 * job or task at fault) when the model cannot be written as a scenario. */
bool gs_import_render(const struct gs_import *imp,
		      const struct gs_import_write_options *opt,
		      GPtrArray *files, struct gs_import_counts *counts,
		      GError **error);
GPtrArray *gs_import_files_new(void);

/* Writes `files` atomically: every file to a temporary name first, then
 * renamed in order (the scenario last, so it never names a missing CSV);
 * on failure nothing of them is left. */
bool gs_import_files_write(GPtrArray *files, GError **error);

#endif
