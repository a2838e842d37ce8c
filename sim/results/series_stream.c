/* See series_stream.h. */
#include "sim/results/series_stream.h"

#include <glib/gstdio.h>

#include "sim/results/results_priv.h"
#include "sim/results/series_csv.h"

struct gs_series_stream {
	struct gs_series_sink sink; /* first: the sink is the stream */
	GAsyncQueue *full;    /* blocks to the thread, then &end */
	GAsyncQueue *empty;   /* blocks written, back to the recorder */
	struct gs_series_block end; /* the mark of the last block */
	unsigned made;        /* blocks made (the recorder's count) */
	GThread *thread;      /* NULL once joined */
	char *dir;
	/* the thread's until it is joined */
	struct gs_series *series;
	bool drained;         /* every block up to &end was appended */
	bool wrote[2];        /* rows written without, with accounted */
	gboolean ok;          /* series.csv complete */
	GError *error;
};

/* Block b's rows into the file, in order. */
static void write_block(struct gs_series_csv *csv,
			const struct gs_series_block *b, FILE *f)
{
	uint32_t r, task = b->first;

	for (r = 0; r < b->n_rows; r++) {
		struct gs_series_point p = gs_series_block_point(b, r, task);

		gs_series_csv_row(csv, &p, b->accounts, f);
		if (++task == b->n_tasks)
			task = 0;
	}
}

/* The thread's loop: every block appended to the series and, while
 * the file takes them (f, NULL when it could not be created), written. */
static void take_blocks(struct gs_series_stream *st, FILE *f)
{
	struct gs_series_csv csv = { 0 };
	struct gs_series_block *b;

	while ((b = g_async_queue_pop(st->full)) != &st->end) {
		gs_series_append_block(st->series, b);
		if (f && !ferror(f)) {
			if (!csv.names)
				gs_series_csv_init(&csv, b->names, b->n_tasks);
			write_block(&csv, b, f);
			st->wrote[b->accounts] = true;
		}
		g_async_queue_push(st->empty, b);
	}
	if (f)
		gs_series_csv_flush(&csv, f);
	gs_series_csv_clear(&csv);
	st->drained = true;
}

static gboolean fill_file(const void *ctx, FILE *f, GError **error)
{
	(void)error;
	fputs(GS_SERIES_CSV_HEADER, f);
	/* the context is only passed through gs_write_stream_file_chunked()
	 * as const; the stream is this thread's */
	take_blocks((struct gs_series_stream *)ctx, f);
	return TRUE;
}

static gpointer run_stream(gpointer data)
{
	struct gs_series_stream *st = data;

	/* written while the run goes on: past the page cache (direct_out.h) */
	st->ok = gs_write_stream_file_direct(st->dir, "series.csv", fill_file,
					     st, &st->error);
	/* a file that could not be created: the series is made all the
	 * same, and end() reports the error */
	if (!st->drained)
		take_blocks(st, NULL);
	return NULL;
}

static void take(struct gs_series_sink *sink, struct gs_series_block *b)
{
	struct gs_series_stream *st = (struct gs_series_stream *)sink;

	g_async_queue_push(st->full, b);
}

uint32_t gs_series_stream_max_blocks(uint32_t n_tasks, uint32_t cap)
{
	uint32_t per_sample;

	cap = MAX(cap, 1u);
	per_sample = n_tasks / cap + (n_tasks % cap != 0);
	return MAX(per_sample + 1, 3u);
}

static struct gs_series_block *block(struct gs_series_sink *sink,
				     uint32_t n_tasks, uint32_t cap)
{
	struct gs_series_stream *st = (struct gs_series_stream *)sink;
	struct gs_series_block *b = g_async_queue_try_pop(st->empty);

	if (!b && st->made < gs_series_stream_max_blocks(n_tasks, cap)) {
		st->made++;
		return gs_series_block_new(n_tasks, cap);
	}
	if (!b)
		b = g_async_queue_pop(st->empty);
	if (b->n_tasks != n_tasks || b->cap < cap) {
		g_free(b);
		return gs_series_block_new(n_tasks, cap);
	}
	b->n_rows = 0;
	b->first = 0;
	return b;
}

static void join(struct gs_series_stream *st)
{
	struct gs_series_block *b;

	if (!st->thread)
		return;
	g_async_queue_push(st->full, &st->end);
	g_thread_join(g_steal_pointer(&st->thread));
	while ((b = g_async_queue_try_pop(st->empty)))
		g_free(b);
}

static struct gs_series *finish(struct gs_series_sink *sink)
{
	struct gs_series_stream *st = (struct gs_series_stream *)sink;

	join(st);
	return g_steal_pointer(&st->series);
}

/* Whether the rows written have the accounted column as r has it: each
 * row's cell is the task's has_accounted, the same for every task (the
 * policy's), and a block's rows were written as the block said. */
static bool accounted_as_written(const struct gs_series_stream *st,
				 const struct gs_results *r)
{
	uint32_t i;

	for (i = 0; i < r->n_tasks; i++)
		if (st->wrote[!r->tasks[i].has_accounted])
			return false;
	return true;
}

static gboolean end(const struct gs_results *r, GError **error)
{
	struct gs_series_stream *st = (struct gs_series_stream *)r->series_sink;
	g_autofree char *path = NULL;

	join(st);
	if (!st->ok) {
		g_propagate_error(error, g_steal_pointer(&st->error));
		return FALSE;
	}
	if (accounted_as_written(st, r))
		return TRUE;
	path = g_build_filename(st->dir, "series.csv", NULL);
	g_unlink(path);
	return gs_results_write_file_chunked(r, st->dir, "series.csv",
					     gs_results_fill_series_csv,
					     error);
}

struct gs_series_stream *gs_series_stream_new(const char *dir)
{
	struct gs_series_stream *st;

	if (gs_write_seam_set())
		return NULL;
	st = g_new0(struct gs_series_stream, 1);
	st->sink = (struct gs_series_sink){
		.take = take, .block = block, .finish = finish, .end = end,
	};
	st->full = g_async_queue_new();
	st->empty = g_async_queue_new();
	st->dir = g_strdup(dir);
	st->series = gs_series_new();
	st->thread = gs_thread_new_quiet("gpusim-series", run_stream, st);
	if (!st->thread) {
		gs_series_stream_free(st);
		return NULL;
	}
	return st;
}

struct gs_series_sink *gs_series_stream_sink(struct gs_series_stream *st)
{
	return st ? &st->sink : NULL;
}

void gs_series_stream_free(struct gs_series_stream *st)
{
	if (!st)
		return;
	join(st);
	g_async_queue_unref(st->full);
	g_async_queue_unref(st->empty);
	gs_series_free(st->series);
	g_clear_error(&st->error);
	g_free(st->dir);
	g_free(st);
}
