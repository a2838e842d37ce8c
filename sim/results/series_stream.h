/* series.csv written, and the run's compact series built, while the run
 * goes on.
 *
 * The stream is the recorder's series sink (struct gs_series_sink in
 * sim/host/results.h): each block of rows it takes goes to a thread
 * of its own, which appends its rows to the series (base/series.h) and
 * writes them to the file (series_csv.h), then hands the block back for
 * the recorder to fill again. At most gs_series_stream_max_blocks()
 * blocks exist: a recorder ahead of the thread waits for one. The
 * recorder's finish() waits for the thread and takes the series; the
 * results' end() then completes the file, rewriting it from the series
 * in the one case the rows written could be wrong: the accounted
 * column, which a policy turns on when it first reports accounted time,
 * was written otherwise than the results have it.
 *
 * The file is created in the temporary folder of an output folder begun
 * before the run (results_dir.h), as timeline.pftrace's stream is. */
#ifndef GS_SERIES_STREAM_H
#define GS_SERIES_STREAM_H

#include <glib.h>

#include "sim/host/results.h"

/* Blocks at most for samples of n_tasks rows in blocks of cap rows:
 * those of one whole sample, and one more, at least three (one the
 * recorder fills, one the thread writes, one between them). A sample is
 * one burst of the recorder's, n_tasks rows at one instant; with fewer
 * blocks than a sample spans, every sample waited for the thread to
 * write the sample before it (at 65,536 tasks, four blocks of 16,384
 * rows: 14-34 ms of a 0.34 s run spent waiting, with three). A block is
 * 32 bytes a row (record_series.c), so the bound is about 32 bytes a
 * task, 2.5 MB at 65,536 tasks. */
uint32_t gs_series_stream_max_blocks(uint32_t n_tasks, uint32_t cap);

struct gs_series_stream;

/* A stream into dir/series.csv (created by its thread). NULL with the
 * write seam of write_seam.c set (its byte count is the order the
 * files are written in, so series.csv is then written at the end), or
 * without a thread to be had: the recorder then appends the samples
 * itself. */
struct gs_series_stream *gs_series_stream_new(const char *dir);
/* What the simulation options take (opt.series_sink). */
struct gs_series_sink *gs_series_stream_sink(struct gs_series_stream *st);
/* Waits for the thread if finish() did not, and frees the stream. */
void gs_series_stream_free(struct gs_series_stream *st);

#endif
