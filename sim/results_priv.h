/* Shared by the result writers (sim/results_*.c) and their tests; not part
 * of the simulator's interface. */
#ifndef GS_RESULTS_PRIV_H
#define GS_RESULTS_PRIV_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/results.h"

/* Fills an open output file. Write errors need not be reported: the caller
 * checks the stream once at the end. Returns FALSE (with error set) only for
 * data that cannot be written, such as an index out of range. */
typedef gboolean (*gs_results_fill_fn)(const struct gs_results *r, FILE *f,
				       GError **error);

/* Writes dir/name through fill: into "dir/.name.tmp.XXXXXX", flushed,
 * fsync()ed and renamed over dir/name. On failure the temporary file is
 * removed and error names dir/name. dir must exist. */
gboolean gs_results_write_file(const struct gs_results *r, const char *dir,
			       const char *name, gs_results_fill_fn fill,
			       GError **error);

gboolean gs_results_fill_summary(const struct gs_results *r, FILE *f,
				 GError **error);
gboolean gs_results_fill_tasks_csv(const struct gs_results *r, FILE *f,
				   GError **error);
gboolean gs_results_fill_series_csv(const struct gs_results *r, FILE *f,
				    GError **error);
gboolean gs_results_fill_timeline(const struct gs_results *r, FILE *f,
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

/* Appends ns as microseconds, exactly: 1234567 -> "1234.567". */
void gs_append_us(GString *out, uint64_t ns);

#endif
