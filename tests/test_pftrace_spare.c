/* The item arrays a timeline stream hands back to the recorder
 * (sim/results/pftrace_stream.c, gs_span_sink.spare): an array taken is
 * returned empty once encoded, of the kind it was taken as, at most
 * PF_SPARE_ARRAYS of a kind are kept, and a run whose chunks reuse them
 * writes the bytes of one that never does. */
#include "tests/support/scenario_fixture.h"

#include <glib/gstdio.h>

#include "sim/results/pftrace_stream.h"
#include "sim/results/results_priv.h"

static GArray *chunk_of(enum gs_chunk_kind kind)
{
	size_t size = kind == GS_CHUNK_SPANS ? sizeof(struct gs_span)
					     : sizeof(struct gs_cmd_mark);
	GArray *a = g_array_sized_new(FALSE, TRUE, (guint)size,
				      GS_SPAN_CHUNK);

	g_array_set_size(a, GS_SPAN_CHUNK);
	return a;
}

/* Unthreaded, a chunk is encoded as it is taken, so its array is back at
 * once; the other kind's queue stays empty; a third array of a kind
 * beyond the two kept is freed, not queued. */
static void test_taken_arrays_come_back_empty(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("pftrace-spare-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "timeline.pftrace", NULL);
	g_autoptr(GError) err = NULL;
	struct gs_pftrace_stream *st =
		gs_pftrace_stream_new_unthreaded(dir, &err);
	struct gs_span_sink *sink;
	struct gs_strtab names = GS_STRTAB_INIT;
	GArray *tracks = g_array_new(FALSE, FALSE, sizeof(struct gs_track));
	GArray *a, *b, *back;
	(void)state;

	if (!st)
		fail_msg("%s", err->message);
	sink = gs_pftrace_stream_sink(st);
	assert_non_null(sink->spare);
	assert_null(sink->spare(sink, GS_CHUNK_SPANS));

	a = chunk_of(GS_CHUNK_SPANS);
	sink->take(sink, GS_CHUNK_SPANS, a, &names, tracks);
	assert_null(sink->spare(sink, GS_CHUNK_MARKS));
	back = sink->spare(sink, GS_CHUNK_SPANS);
	assert_ptr_equal(back, a);
	assert_int_equal(back->len, 0);
	assert_null(sink->spare(sink, GS_CHUNK_SPANS));

	/* three taken, none asked back: two wait, the third was freed */
	b = chunk_of(GS_CHUNK_MARKS);
	sink->take(sink, GS_CHUNK_MARKS, b, &names, tracks);
	sink->take(sink, GS_CHUNK_MARKS, chunk_of(GS_CHUNK_MARKS), &names,
		   tracks);
	sink->take(sink, GS_CHUNK_MARKS, chunk_of(GS_CHUNK_MARKS), &names,
		   tracks);
	assert_ptr_equal(sink->spare(sink, GS_CHUNK_MARKS), b);
	a = sink->spare(sink, GS_CHUNK_MARKS);
	assert_non_null(a);
	assert_int_equal(a->len, 0);
	assert_null(sink->spare(sink, GS_CHUNK_MARKS));
	assert_int_equal(sink->taken[GS_CHUNK_SPANS], GS_SPAN_CHUNK);
	assert_int_equal(sink->taken[GS_CHUNK_MARKS], 3 * GS_SPAN_CHUNK);

	g_array_unref(a);
	g_array_unref(b);
	g_array_unref(back);
	g_array_unref(tracks);
	gs_pftrace_stream_free(st);
	g_unlink(path);
	g_rmdir(dir);
}

/* The stream's own spare(), and how many arrays it gave the recorder. */
static GArray *(*stream_spare)(struct gs_span_sink *, enum gs_chunk_kind);
static unsigned spares_given;

static GArray *counted_spare(struct gs_span_sink *sink,
			     enum gs_chunk_kind kind)
{
	GArray *a = stream_spare(sink, kind);

	spares_given += a != NULL;
	return a;
}

/* Bytes of yaml's timeline.pftrace streamed during the run, with the
 * stream's spare arrays offered to the recorder or hidden from it. */
static GBytes *streamed(const char *yaml, bool offer_spares, bool *reused)
{
	struct gs_scenario *sc = load(yaml);
	g_autofree char *dir = g_dir_make_tmp("pftrace-spare-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "timeline.pftrace", NULL);
	g_autoptr(GError) err = NULL;
	struct gs_pftrace_stream *st =
		gs_pftrace_stream_new_unthreaded(dir, &err);
	struct gs_sim_options opt = { .timeline = true };
	struct gs_results r;
	char *buf = NULL;
	gsize len = 0;

	if (!st)
		fail_msg("%s", err->message);
	opt.span_sink = gs_pftrace_stream_sink(st);
	stream_spare = opt.span_sink->spare;
	spares_given = 0;
	opt.span_sink->spare = offer_spares ? counted_spare : NULL;
	gs_results_init(&r);
	if (!gs_run_scenario(sc, &opt, &r, &err))
		fail_msg("%s", err->message);
	/* unthreaded, a chunk is encoded as it is taken: each chunk after
	 * the first of a kind was filled in the array of the one before */
	*reused = opt.span_sink->taken[GS_CHUNK_SPANS] >= 2 * GS_SPAN_CHUNK &&
		  opt.span_sink->taken[GS_CHUNK_MARKS] >= 2 * GS_SPAN_CHUNK &&
		  spares_given == opt.span_sink->taken[GS_CHUNK_SPANS] /
					  GS_SPAN_CHUNK +
				  opt.span_sink->taken[GS_CHUNK_MARKS] /
					  GS_SPAN_CHUNK;
	if (!gs_pftrace_stream_end(&r, &err))
		fail_msg("%s", err->message);
	assert_true(g_file_get_contents(path, &buf, &len, NULL));
	gs_results_clear(&r);
	gs_pftrace_stream_free(st);
	gs_scenario_free(sc);
	g_unlink(path);
	g_rmdir(dir);
	return g_bytes_new_take(buf, len);
}

/* Enough commands for several chunks of spans and of marks. */
static const char *const many_chunks =
	"name: spare\nseed: 3\nduration: 1s\n"
	"gpu: {preset: kepler}\n"
	"tasks:\n"
	"  - name: a\n    count: 3\n"
	"    behavior: {throttle: {kernel: 20us}}\n";

static void test_reused_arrays_same_bytes(void **state)
{
	bool reused_with, reused_without;
	g_autoptr(GBytes) with = streamed(many_chunks, true, &reused_with);
	g_autoptr(GBytes) without = streamed(many_chunks, false,
					     &reused_without);
	(void)state;

	assert_true(reused_with);
	assert_true(g_bytes_equal(with, without));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taken_arrays_come_back_empty),
		cmocka_unit_test(test_reused_arrays_same_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
