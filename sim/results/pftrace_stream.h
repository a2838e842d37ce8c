/* timeline.pftrace's spans section encoded while the run goes on.
 *
 * The stream is the recorder's span sink (struct gs_span_sink in
 * sim/host/results.h): each full chunk of spans it takes goes to a
 * thread of its own, which encodes the chunk's slices (pftrace_spans.h)
 * into blocks of memory and frees it. At the end the file's writer
 * (results_pftrace.c) waits for the thread, writes the header packets and
 * the command marks, then these blocks, then the spans of the last,
 * partial chunk: the same bytes as without a stream. The simulation and
 * the encoding share the run's time on two cores, and the spans are held
 * once, encoded, rather than as structs and then encoded.
 *
 * The stream writes no file, so a failure or a signal leaves nothing
 * behind. Without a thread to be had it encodes each chunk as it takes
 * it. */
#ifndef GS_PFTRACE_STREAM_H
#define GS_PFTRACE_STREAM_H

#include "sim/host/results.h"
#include "sim/results/pftrace_spans.h"

struct gs_pftrace_stream;

/* NULL with the write seam of results_file.c set: its byte count is the
 * order the files are written in, so the timeline is then encoded when it
 * is written, after the others, as without a stream. */
struct gs_pftrace_stream *gs_pftrace_stream_new(void);
/* A stream that encodes each chunk when it takes it, as one does when no
 * thread can be had (tests take this path on purpose). */
struct gs_pftrace_stream *gs_pftrace_stream_new_unthreaded(void);
/* Waits for the thread; safe to call with it still encoding. */
void gs_pftrace_stream_free(struct gs_pftrace_stream *st);
/* What the simulation options take (opt.span_sink). */
struct gs_span_sink *gs_pftrace_stream_sink(struct gs_pftrace_stream *st);

/* The spans the sink took, once all are encoded (it waits for the thread
 * the first time): their facts, and in *blocks their slices' packets. */
const struct pf_spans *gs_pftrace_stream_finish(struct gs_span_sink *sink,
						const GPtrArray **blocks);

#endif
