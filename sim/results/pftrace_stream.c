/* See pftrace_stream.h. */
#include "sim/results/pftrace_stream.h"

#include <errno.h>

#include "base/thread_quiet.h"
#include "sim/results/pftrace_enc.h"
#include "sim/results/results_priv.h"

struct gs_pftrace_stream {
	struct gs_span_sink sink; /* first: the sink is the stream */
	GAsyncQueue *chunks;      /* struct chunk, to the thread */
	GAsyncQueue *spare[2];    /* emptied item arrays, back, by kind */
	GThread *thread;          /* NULL: none, or joined */
	guint names_sent;         /* names handed with the chunks so far */
	guint tracks_sent;        /* tracks likewise */
	char *path;
	struct gs_out_file *of;   /* f's file (results_priv.h) */
	FILE *f;
	struct pf_enc enc;        /* the thread's until it is joined */
};

/* A chunk of spans or marks, and the names and tracks registered since
 * the last one. NULL items: the end. */
struct chunk {
	enum gs_chunk_kind kind;
	GArray *items;
	bool recycle;      /* items are the stream's: to spare[kind] after */
	struct gs_strtab names; /* copies, as given */
	GArray *tracks;    /* struct gs_track, labels: valid-UTF-8 copies */
};

/* Copies of what r registered since the last chunk, for the thread:
 * the recorder's arrays grow while it encodes. */
static void take_new(struct gs_pftrace_stream *st, struct chunk *c,
		     const struct gs_strtab *names, const GArray *tracks)
{
	c->names = (struct gs_strtab)GS_STRTAB_INIT;
	for (; names && st->names_sent < names->n; st->names_sent++)
		gs_strtab_append(&c->names,
				 gs_strtab_get(names, st->names_sent));
	c->tracks = g_array_new(FALSE, FALSE, sizeof(struct gs_track));
	for (; tracks && st->tracks_sent < tracks->len; st->tracks_sent++) {
		struct gs_track t = g_array_index(tracks, struct gs_track,
						  st->tracks_sent);

		if (t.track_kind == GS_TRACK_CHANNEL)
			continue; /* labelled from its task (pftrace_enc.h) */
		t.label = g_utf8_make_valid(t.label ? t.label : "", -1);
		g_array_append_val(c->tracks, t);
	}
}

/* Emptied arrays kept for the recorder's next chunks, at most this many
 * of each kind: a chunk's array is 8,192 items (450 KB of spans), and
 * filling a fresh one each time cost the recording thread a page fault
 * every 4 KB (about 7,000 in a 60 s run of 16 channels). Two cover the
 * one being filled while another is encoded. */
#define PF_SPARE_ARRAYS 2

/* items, done with: kept for the recorder when it is the stream's to keep
 * and fewer than PF_SPARE_ARRAYS are waiting, else freed. */
static void give_back(struct gs_pftrace_stream *st, struct chunk *c)
{
	if (c->recycle &&
	    g_async_queue_length(st->spare[c->kind]) < PF_SPARE_ARRAYS) {
		g_array_set_size(c->items, 0);
		g_async_queue_push(st->spare[c->kind], c->items);
		return;
	}
	g_array_unref(c->items);
}

static void encode(struct gs_pftrace_stream *st, struct chunk *c)
{
	struct pf_enc *e = &st->enc;
	guint i;

	for (i = 0; i < c->names.n; i++)
		pf_enc_add_name(e, gs_strtab_get(&c->names, i));
	for (i = 0; i < c->tracks->len; i++) {
		struct gs_track *t = &g_array_index(c->tracks, struct gs_track, i);

		pf_enc_add_track(e, t, g_steal_pointer(&t->label));
	}
	if (c->kind == GS_CHUNK_SPANS)
		pf_enc_spans(e, (const struct gs_span *)c->items->data,
			     c->items->len);
	else
		pf_enc_marks(e, (const struct gs_cmd_mark *)c->items->data,
			     c->items->len);
	gs_strtab_clear(&c->names);
	g_array_unref(c->tracks);
	give_back(st, c);
	g_free(c);
}

static gpointer encode_chunks(gpointer data)
{
	struct gs_pftrace_stream *st = data;
	struct chunk *c;

	while ((c = g_async_queue_pop(st->chunks))->items)
		encode(st, c);
	g_free(c);
	return NULL;
}

static void take(struct gs_span_sink *sink, enum gs_chunk_kind kind,
		 GArray *items, const struct gs_strtab *names,
		 const GArray *tracks)
{
	struct gs_pftrace_stream *st = (struct gs_pftrace_stream *)sink;
	struct chunk *c = g_new(struct chunk, 1);

	c->kind = kind;
	c->items = items;
	c->recycle = true;
	take_new(st, c, names, tracks);
	sink->taken[kind] += items->len;
	if (st->thread) {
		g_async_queue_push(st->chunks, c);
	} else {
		encode(st, c);
	}
}

static GArray *spare(struct gs_span_sink *sink, enum gs_chunk_kind kind)
{
	struct gs_pftrace_stream *st = (struct gs_pftrace_stream *)sink;

	return g_async_queue_try_pop(st->spare[kind]);
}

/* A stream whose file is written past the page cache when direct (no
 * stdio buffer either way: the encoder hands over blocks of 64 KiB,
 * pftrace_out.c). */
static struct gs_pftrace_stream *stream_new(const char *dir, bool direct,
					    GError **error)
{
	struct gs_pftrace_stream *st = g_new0(struct gs_pftrace_stream, 1);

	st->path = g_build_filename(dir, "timeline.pftrace", NULL);
	st->f = gs_out_file_open(st->path, 0, direct, &st->of);
	if (!st->f) {
		int err = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    "cannot create %s: %s", st->path,
			    g_strerror(err));
		g_free(st->path);
		g_free(st);
		return NULL;
	}
	st->sink.take = take;
	st->sink.end = gs_pftrace_stream_end;
	st->sink.spare = spare;
	st->chunks = g_async_queue_new();
	st->spare[GS_CHUNK_SPANS] = g_async_queue_new_full(
		(GDestroyNotify)g_array_unref);
	st->spare[GS_CHUNK_MARKS] = g_async_queue_new_full(
		(GDestroyNotify)g_array_unref);
	pf_enc_init(&st->enc, st->f);
	return st;
}

struct gs_pftrace_stream *gs_pftrace_stream_new_unthreaded(const char *dir,
							   GError **error)
{
	return stream_new(dir, false, error);
}

struct gs_pftrace_stream *gs_pftrace_stream_new(const char *dir,
						GError **error)
{
	struct gs_pftrace_stream *st;

	if (gs_write_seam_set())
		return NULL;
	/* past the page cache (direct_out.h) only from a thread of its own:
	 * a direct write waits for the disk, and without that thread the
	 * simulation (a sweep's worker at -j as many as the cores) would
	 * wait with it */
	st = stream_new(dir, gs_threads_available(), error);
	if (st)
		st->thread = gs_thread_new_quiet("gpusim-pftrace",
						 encode_chunks, st);
	return st;
}

struct gs_span_sink *gs_pftrace_stream_sink(struct gs_pftrace_stream *st)
{
	return &st->sink;
}

static void join(struct gs_pftrace_stream *st)
{
	if (!st->thread)
		return;
	g_async_queue_push(st->chunks, g_new0(struct chunk, 1));
	g_thread_join(g_steal_pointer(&st->thread));
}

/* Flushes and closes the file; FALSE with error on a write error. */
static gboolean close_file(struct gs_pftrace_stream *st, GError **error)
{
	int err;

	pf_finish(&st->enc.out);
	err = gs_out_file_close(g_steal_pointer(&st->f), st->of, true);
	if (err)
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    "cannot write %s: %s", st->path, g_strerror(err));
	return !err;
}

gboolean gs_pftrace_stream_end(const struct gs_results *r, GError **error)
{
	struct gs_pftrace_stream *st = (struct gs_pftrace_stream *)r->span_sink;
	struct chunk c = { 0 };
	GError *tail_error = NULL;
	gboolean ok;

	join(st);
	/* the last chunks, as results_pftrace.c cuts them */
	take_new(st, &c, &r->names, r->tracks);
	c.kind = GS_CHUNK_SPANS;
	c.items = g_array_ref(r->spans);
	encode(st, g_memdup2(&c, sizeof(c)));
	pf_enc_marks(&st->enc, (const struct gs_cmd_mark *)r->cmd_marks->data,
		     r->cmd_marks->len);
	ok = pf_put_tail(&st->enc, r, &tail_error);
	if (!close_file(st, error)) {
		g_clear_error(&tail_error);
		return FALSE;
	}
	if (!ok)
		g_propagate_prefixed_error(error, tail_error, "%s: ",
					   st->path);
	return ok;
}

void gs_pftrace_stream_free(struct gs_pftrace_stream *st)
{
	if (!st)
		return;
	join(st);
	if (st->f) {
		pf_finish(&st->enc.out);
		gs_out_file_close(st->f, st->of, false);
	}
	g_async_queue_unref(st->chunks);
	g_async_queue_unref(st->spare[GS_CHUNK_SPANS]);
	g_async_queue_unref(st->spare[GS_CHUNK_MARKS]);
	pf_enc_clear(&st->enc);
	g_free(st->path);
	g_free(st);
}
