/* Recordings of real systems turned into scenarios (`gpusim import`).
 *
 * An importer reads one file format into the model below; the writer
 * (import_write.c) turns the model into a scenario of `trace` tasks. The
 * model keeps what a trace task can replay: a task per process, a channel per
 * stream or ring of that process, and each GPU job with when the host
 * submitted it and how long the GPU ran it. Host gaps between jobs are the
 * differences of submission times. */
#ifndef GS_IMPORT_H
#define GS_IMPORT_H

#include <glib.h>
#include <stdbool.h>

#define GS_IMPORT_ERROR (gs_import_error_quark())
GQuark gs_import_error_quark(void);

/* Error codes in GS_IMPORT_ERROR. Messages start with "FILE:LINE: " (or
 * "FILE: row N: " for tables, "FILE: " for the file as a whole). */
enum gs_import_error {
	GS_IMPORT_ERROR_READ,	/* cannot open or read the file */
	GS_IMPORT_ERROR_PARSE,	/* malformed input, at a position */
	GS_IMPORT_ERROR_EMPTY,	/* well formed but no GPU job in it */
	GS_IMPORT_ERROR_LIMIT,	/* over a size limit (file, jobs, tasks) */
};

/* Limits that keep a malformed or huge recording from exhausting memory. */
#define GS_IMPORT_MAX_TASKS 4096
#define GS_IMPORT_MAX_CHANNELS 64	/* per task */
#define GS_IMPORT_MAX_JOBS 4000000	/* over all tasks */
/* Recordings are larger than scenarios (a profiler writes every event):
 * up to 256 MiB of file, which a DOM parser holds in a few GiB. */
#define GS_IMPORT_MAX_FILE_BYTES ((size_t)256 << 20)

struct gs_import_job {
	guint64 submit_ns;	/* host submission, on the recording's clock */
	guint64 duration_ns;	/* GPU execution time */
	guint32 channel;	/* index into its task's channels */
	bool copy;		/* copy engine (memcpy/blit) rather than compute */
	guint32 origin;		/* line or row it came from, for messages */
};

struct gs_import_task {
	char *key;		/* what identifies the process in the file */
	char *name;		/* a scenario task name: [A-Za-z0-9_.-] only */
	GPtrArray *channels;	/* char *: the stream/ring key of each channel */
	GArray *jobs;		/* struct gs_import_job, in the order added */
};

struct gs_import {
	char *source;		/* the file read, as given */
	char *format;		/* the importer's word */
	GPtrArray *tasks;	/* struct gs_import_task *, by first appearance */
	GHashTable *by_key;	/* task key -> struct gs_import_task * */
	guint64 jobs;		/* jobs over all tasks */
	GPtrArray *notes;	/* char *: what the recording held that did not
				 * become a job, one line each, for the writer */
};

struct gs_import *gs_import_new(const char *source, const char *format);
void gs_import_free(struct gs_import *imp);

/* The task for process `key`, created on first use with a name made from
 * `name` (sanitised; made unique with a suffix). NULL and *error set when
 * GS_IMPORT_MAX_TASKS would be passed; `origin` positions the message. */
struct gs_import_task *gs_import_task(struct gs_import *imp, const char *key,
				      const char *name, guint32 origin,
				      GError **error);

/* The channel index of stream `stream` in `task`, created on first use.
 * -1 and *error set when GS_IMPORT_MAX_CHANNELS would be passed. */
gint gs_import_channel(struct gs_import *imp, struct gs_import_task *task,
		       const char *stream, guint32 origin, GError **error);

/* Adds one job. false and *error set over GS_IMPORT_MAX_JOBS. */
bool gs_import_job_add(struct gs_import *imp, struct gs_import_task *task,
		       guint32 channel, bool copy, guint64 submit_ns,
		       guint64 duration_ns, guint32 origin, GError **error);

/* Sets *error to "SOURCE:ORIGIN: message" (origin 0: "SOURCE: message"). */
void gs_import_error_at(const struct gs_import *imp, guint32 origin,
			GError **error, gint code, const char *fmt, ...)
	G_GNUC_PRINTF(5, 6);

/* Adds a line to imp->notes ("3 jobs queued but never run (dropped)"). */
void gs_import_note(struct gs_import *imp, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

/* One file format. `read` fills `out` (created by the caller with
 * gs_import_new) and returns false with *error set at the first problem;
 * nothing is written on failure. */
struct gs_importer {
	const char *format;	/* the command-line word, e.g. "chrome-json" */
	const char *summary;	/* one line for --help and `gpusim list` */
	bool (*read)(const char *path, struct gs_import *out, GError **error);
};

/* The importers, NULL-terminated (importers.c). */
extern const struct gs_importer *const gs_importers[];
const struct gs_importer *gs_importer_find(const char *format);

#endif
