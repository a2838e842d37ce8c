/* Shared by the result writers (sim/results_*.c) and their tests; not part
 * of the simulator's interface. */
#ifndef GS_RESULTS_PRIV_H
#define GS_RESULTS_PRIV_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/thread_quiet.h"
#include "sim/results/results_write.h"

/* Fills an open output file. Write errors need not be reported: the caller
 * checks the stream once at the end. Returns FALSE (with error set) only for
 * data that cannot be written, such as an index out of range. */
typedef gboolean (*gs_results_fill_fn)(const struct gs_results *r, FILE *f,
				       GError **error);

/* Writes the new file dir/name through fill, flushed to the kernel; dir
 * is a temporary folder of results_dir.h, whose commit makes it durable
 * and publishes it whole. On failure error names dir/name (the folder is
 * dropped, file and all). */
gboolean gs_results_write_file(const struct gs_results *r, const char *dir,
			       const char *name, gs_results_fill_fn fill,
			       GError **error);
/* The same for a fill that gathers its bytes in chunks of its own
 * (tasks.csv, series.csv): no stdio buffer between them and write(2),
 * which copied the 70 MB of a 65,536-task run's two files once more. */
gboolean gs_results_write_file_chunked(const struct gs_results *r,
				       const char *dir, const char *name,
				       gs_results_fill_fn fill,
				       GError **error);
/* The same for a fill function with a context of its own. */
typedef gboolean (*gs_stream_fill_fn)(const void *ctx, FILE *f,
				      GError **error);
gboolean gs_write_stream_file(const char *dir, const char *name,
			      gs_stream_fill_fn fn, const void *ctx,
			      GError **error);
/* The same without a stdio buffer, for a fill that gathers its bytes in
 * chunks of its own (series_stream.c). */
gboolean gs_write_stream_file_chunked(const char *dir, const char *name,
				      gs_stream_fill_fn fn, const void *ctx,
				      GError **error);
/* The same past the page cache where the file system allows (direct_out.h),
 * for a file written while the run goes on (series_stream.c). */
gboolean gs_write_stream_file_direct(const char *dir, const char *name,
				     gs_stream_fill_fn fn, const void *ctx,
				     GError **error);
/* The same for a string. */
gboolean gs_write_text_file(const char *dir, const char *name,
			    const char *text, GError **error);
/* write(2) for every output byte, with the test seam of write_seam.c
 * (GPUSIM_FAIL_WRITE_AFTER, GPUSIM_PAUSE_WRITE_AFTER). */
ssize_t gs_write_fd(int fd, const void *buf, size_t len);
/* An output file of the folder (created O_EXCL), through a FILE with a
 * buffer of bufsz bytes (0: none), written past the page cache when direct
 * and the file system allows (direct_out.h); NULL with errno when it
 * cannot be created. Every file of the folder is opened here. */
struct gs_out_file;
FILE *gs_out_file_open(const char *path, size_t bufsz, bool direct,
		       struct gs_out_file **of);
/* Closes it: complete (its bytes flushed; 0, or the errno of the first
 * write that failed) or abandoned, for a folder being discarded (its last
 * bytes may be missing; 0). */
int gs_out_file_close(FILE *f, struct gs_out_file *of, bool complete);
/* Whether that seam is set. Its byte count is the order files are written
 * in, so with it set they are written one at a time (results_write.c).
 * Call it before starting threads that write: it reads the environment
 * once. */
bool gs_write_seam_set(void);


/* The files of a run's folder, NULL-terminated. */
extern const char *const gs_results_files[];
/* Writes them (the timeline in the given format, none for
 * GS_TIMELINE_NONE) into the fresh folder dir. */
gboolean gs_results_write_files(const struct gs_results *r, const char *dir,
				enum gs_timeline_format timeline,
				GError **error);

gboolean gs_results_fill_summary(const struct gs_results *r, FILE *f,
				 GError **error);
gboolean gs_results_fill_tasks_csv(const struct gs_results *r, FILE *f,
				   GError **error);
gboolean gs_results_fill_series_csv(const struct gs_results *r, FILE *f,
				    GError **error);
gboolean gs_results_fill_timeline(const struct gs_results *r, FILE *f,
				  GError **error);
/* FALSE (with error set) when a span names a string out of range. */
gboolean gs_results_check_spans(const struct gs_results *r, GError **error);
/* Track t's label, newly allocated: its own, or for a channel's track
 * without one "ch<id> <task>" (the task "?" if t->name is out of range). */
char *gs_track_label(const struct gs_results *r, const struct gs_track *t);
/* timeline.pftrace (results_pftrace.c) */
gboolean gs_results_fill_pftrace(const struct gs_results *r, FILE *f,
				 GError **error);

/* Appends s to out as a quoted JSON string. Invalid UTF-8 becomes U+FFFD,
 * so the output is always valid JSON; NULL is written as null. */
void gs_json_append_string(GString *out, const char *s);

/* s, or a valid-UTF-8 copy of it in *tmp (free it), for JSON writers. */
const char *gs_results_utf8(const char *s, char **tmp);

/* Appends a CSV cell: quoted per RFC 4180 when s holds a comma, a quote, CR
 * or LF; nothing for NULL. */
void gs_csv_append_cell(GString *out, const char *s);

/* Appends d with printf format fmt ("%.6f"), in the C locale whatever the
 * process locale is; appends nothing for NAN or an infinity. */
void gs_csv_append_double(GString *out, const char *fmt, double d);
/* Appends v in decimal, as "%" PRIu64 would. */
void gs_csv_append_u64(GString *out, uint64_t v);

/* Appends ns as microseconds, exactly: 1234567 -> "1234.567". */
void gs_append_us(GString *out, uint64_t ns);

#endif
