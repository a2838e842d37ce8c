/* See pftrace_stream.h. */
#include "sim/results/pftrace_stream.h"

#include "sim/results/results_priv.h"

struct gs_pftrace_stream {
	struct gs_span_sink sink; /* first: the sink is the stream */
	GAsyncQueue *chunks;      /* struct chunk, to the thread */
	GThread *thread;          /* NULL: none, or joined */
	guint names_sent;         /* names handed with the chunks so far */
	/* the thread's until it is joined */
	struct pf_spans spans;
	struct pf_out out;        /* no stream: blocks */
};

/* A chunk of spans, and the names interned since the last one. NULL
 * spans: the end. */
struct chunk {
	GArray *spans;
	GPtrArray *names;
};

static void encode(struct gs_pftrace_stream *st, struct chunk *c)
{
	const struct gs_span *sp = (const struct gs_span *)c->spans->data;

	pf_spans_add_names(&st->spans, c->names);
	/* a span out of range is not encoded: the file is refused */
	if (pf_spans_note(&st->spans, sp, c->spans->len))
		pf_spans_put(&st->out, sp, c->spans->len, st->spans.names);
	g_ptr_array_unref(c->names);
	g_array_unref(c->spans);
	g_free(c);
}

static gpointer encode_chunks(gpointer data)
{
	struct gs_pftrace_stream *st = data;
	struct chunk *c;

	while ((c = g_async_queue_pop(st->chunks))->spans)
		encode(st, c);
	g_free(c);
	pf_finish(&st->out);
	return NULL;
}

static void take(struct gs_span_sink *sink, GArray *spans,
		 const GPtrArray *names)
{
	struct gs_pftrace_stream *st = (struct gs_pftrace_stream *)sink;
	struct chunk *c = g_new(struct chunk, 1);

	c->spans = spans;
	c->names = g_ptr_array_new_with_free_func(g_free);
	for (; st->names_sent < names->len; st->names_sent++)
		g_ptr_array_add(c->names,
				g_utf8_make_valid(g_ptr_array_index(
					names, st->names_sent), -1));
	sink->taken += spans->len;
	if (st->thread)
		g_async_queue_push(st->chunks, c);
	else
		encode(st, c);
}

struct gs_pftrace_stream *gs_pftrace_stream_new_unthreaded(void)
{
	struct gs_pftrace_stream *st = g_new0(struct gs_pftrace_stream, 1);

	st->sink.take = take;
	st->chunks = g_async_queue_new();
	pf_spans_init(&st->spans);
	return st;
}

struct gs_pftrace_stream *gs_pftrace_stream_new(void)
{
	struct gs_pftrace_stream *st;

	if (gs_write_seam_set())
		return NULL;
	st = gs_pftrace_stream_new_unthreaded();
	st->thread = gs_thread_new_quiet("gpusim-spans", encode_chunks, st);
	return st;
}

struct gs_span_sink *gs_pftrace_stream_sink(struct gs_pftrace_stream *st)
{
	return &st->sink;
}

static void join(struct gs_pftrace_stream *st)
{
	if (st->thread) {
		g_async_queue_push(st->chunks, g_new0(struct chunk, 1));
		g_thread_join(g_steal_pointer(&st->thread));
	} else {
		pf_finish(&st->out);
	}
}

const struct pf_spans *gs_pftrace_stream_finish(struct gs_span_sink *sink,
						const GPtrArray **blocks)
{
	struct gs_pftrace_stream *st = (struct gs_pftrace_stream *)sink;

	join(st);
	*blocks = st->out.blocks;
	return &st->spans;
}

void gs_pftrace_stream_free(struct gs_pftrace_stream *st)
{
	if (!st)
		return;
	join(st);
	g_async_queue_unref(st->chunks);
	if (st->out.blocks)
		g_ptr_array_unref(st->out.blocks);
	pf_spans_clear(&st->spans);
	g_free(st);
}
