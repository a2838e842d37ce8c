/* timeline.pftrace written to its file while the run goes on.
 *
 * The stream is the recorder's span sink (struct gs_span_sink in
 * sim/host/results.h): each full chunk of spans or command marks it takes
 * goes, with copies of the names and tracks registered since the last
 * one, to a thread of its own, which encodes it (pftrace_enc.h) straight
 * into the file and frees it. At the end gs_pftrace_stream_end() encodes
 * the last, partial chunks left in the results and the tail (task
 * counters, the truncation note: results_pftrace.c), so only those wait
 * for the end. The bytes are those results_pftrace.c writes from the
 * whole results: the same encoder over the same chunks.
 *
 * The file is created in the temporary folder of an output folder begun
 * before the run (results_dir.h), so an error or a signal leaves nothing
 * behind, as for the files written at the end. Without a thread to be
 * had it encodes each chunk as it takes it. */
#ifndef GS_PFTRACE_STREAM_H
#define GS_PFTRACE_STREAM_H

#include <glib.h>

#include "sim/host/results.h"

struct gs_pftrace_stream;

/* A stream into dir/timeline.pftrace (a new file), encoded and written
 * on a thread of its own, past the page cache where the file system
 * suits (sim/results/direct_out.h); without a thread to be had it
 * encodes each chunk as it takes it, through the page cache. NULL with
 * error set if it cannot be created; NULL without an error with the
 * write seam of write_seam.c set: its byte count is the order the files
 * are written in, so the timeline is then written at the end, after the
 * others. */
struct gs_pftrace_stream *gs_pftrace_stream_new(const char *dir,
						GError **error);
/* A stream that encodes each chunk when it takes it, as one does when no
 * thread can be had, through the page cache (tests take this path on
 * purpose). */
struct gs_pftrace_stream *gs_pftrace_stream_new_unthreaded(const char *dir,
							   GError **error);
/* Waits for the thread and closes the file if still open. */
void gs_pftrace_stream_free(struct gs_pftrace_stream *st);
/* What the simulation options take (opt.span_sink). */
struct gs_span_sink *gs_pftrace_stream_sink(struct gs_pftrace_stream *st);

/* Completes the file of r->span_sink (a stream's sink) with what r still
 * holds, flushed to the kernel and closed; FALSE with error (naming the
 * file) on a write error or a span naming a string out of range. */
gboolean gs_pftrace_stream_end(const struct gs_results *r, GError **error);

#endif
