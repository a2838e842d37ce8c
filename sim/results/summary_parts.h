/* summary.json with its tasks array encoded in parts by two threads
 * (issue 20): at 65,536 tasks the array is almost all of its 55 MB, and
 * a second core that has finished its own files can take parts of it.
 *
 * One thread writes the file (gs_summary_parts_fill): the head, then
 * each part in order, encoding it itself unless another thread took it,
 * then the tail. Others call gs_summary_parts_help(), which takes the
 * next part not yet taken, in order, each encoded into a buffer of its
 * own by a writer started in the state the file's writer has there (its
 * open containers, and whether the part's first task follows a comma),
 * so the file's bytes are those of one writer, whoever encoded which
 * part. A helper stays at most `window` parts ahead of the file, so what
 * it holds encoded is a few parts, not the half of the array it would
 * reach from the other end (27 MB at 65,536 tasks, on top of the run's
 * peak). When the file's next part is another thread's, still being
 * encoded, the filling thread takes the parts after it meanwhile, as a
 * helper would (within the window), and waits only when none is left to
 * take; with no helper it writes everything, as before. */
#ifndef GS_SUMMARY_PARTS_H
#define GS_SUMMARY_PARTS_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/host/results.h"
#include "sim/results/json_writer.h"

/* The three pieces of summary.json (results_json.c): up to the tasks
 * array's '[', the tasks [from, to), and the rest (written out). */
void gs_summary_head(struct gs_jsonw *b, const struct gs_results *r);
void gs_summary_tasks(struct gs_jsonw *b, const struct gs_results *r,
		      uint32_t from, uint32_t to);
void gs_summary_tail(struct gs_jsonw *b, const struct gs_results *r);

/* Tasks per part: parts of about 0.8 MB at 65,536 tasks (64 parts), few
 * enough that taking one costs nothing beside encoding it, many enough
 * that the filling thread seldom waits for the last one taken. */
#define GS_SUMMARY_PART_TASKS 1024
/* Parts a helper may be ahead of the file: about 3 MB held at most, and
 * room for the two threads' speeds to differ for a while. */
#define GS_SUMMARY_PART_WINDOW 4

struct gs_summary_parts;

/* Parts of part_tasks tasks each (at least 1) of r's summary; a helper
 * at most window parts ahead of the file (0: no bound). */
struct gs_summary_parts *gs_summary_parts_new(const struct gs_results *r,
					      uint32_t part_tasks,
					      uint32_t window);
void gs_summary_parts_free(struct gs_summary_parts *sp);

/* Writes summary.json to f, byte for byte what gs_results_fill_summary()
 * writes (a gs_results_fill_fn with sp for r's place). Once per sp. */
gboolean gs_summary_parts_fill(struct gs_summary_parts *sp, FILE *f,
			       GError **error);
/* Encodes parts the filling thread has not reached, in order, until
 * none is left or sp is closed, waiting while it is `window` parts
 * ahead; any thread, any time before sp is freed. */
void gs_summary_parts_help(struct gs_summary_parts *sp);
/* What gs_summary_parts_help() does a part at a time: takes the next
 * part not yet taken if a helper may (its index; GS_SUMMARY_PART_NONE
 * if none is left, sp is closed, or the window is full), and encodes a
 * part taken so (the filling thread waits for it until then). */
#define GS_SUMMARY_PART_NONE UINT32_MAX
uint32_t gs_summary_parts_take(struct gs_summary_parts *sp);
void gs_summary_parts_encode(struct gs_summary_parts *sp, uint32_t i);
/* No more parts are wanted (the file is written, or will not be):
 * helpers return. gs_summary_parts_fill() closes sp when it is done; the
 * thread that was to fill it must close it if it never does. */
void gs_summary_parts_close(struct gs_summary_parts *sp);
/* Parts taken so far, by any thread (a test's view). */
uint32_t gs_summary_parts_taken(struct gs_summary_parts *sp);

#endif
