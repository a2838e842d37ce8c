/* timeline.pftrace written to its file during the run
 * (sim/results/pftrace_stream.c) against the same encoder driven at the
 * end over the whole results (results_pftrace.c): the same bytes on a
 * thread or not, across chunk boundaries of spans and of marks, with the
 * cap of timeline_max_spans inside a chunk and on its boundary, spans
 * left open at the end, several GPUs and policy tracks, names that are
 * not UTF-8 and names interned late in the run; the file holds its
 * chunks before the run ends; and the same error for a span naming a
 * string out of range. */
#include "tests/support/scenario_fixture.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/stat.h>

#include "sim/results/pftrace_stream.h"
#include "sim/results/results_priv.h"

enum mode { AT_END, STREAMED, UNTHREADED };

struct written {
	GBytes *bytes;
	guint taken[2];   /* spans and marks a stream took during the run */
	goffset at_end;   /* the file's size when the run ended */
};

static struct gs_pftrace_stream *stream_new(enum mode mode, const char *dir)
{
	g_autoptr(GError) err = NULL;
	struct gs_pftrace_stream *st =
		mode == STREAMED ? gs_pftrace_stream_new(dir, &err)
				 : gs_pftrace_stream_new_unthreaded(dir, &err);

	if (!st)
		fail_msg("%s", err->message);
	return st;
}

/* The timeline.pftrace of yaml written the way mode says. */
static struct written pftrace_of(const char *yaml, enum mode mode)
{
	struct gs_scenario *sc = load(yaml);
	g_autofree char *dir = g_dir_make_tmp("pftrace-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "timeline.pftrace", NULL);
	struct gs_pftrace_stream *st =
		mode == AT_END ? NULL : stream_new(mode, dir);
	struct gs_sim_options opt = {
		.timeline = true,
		.check_invariants = true,
		.span_sink = st ? gs_pftrace_stream_sink(st) : NULL,
	};
	g_autoptr(GError) err = NULL;
	struct written w = { 0 };
	struct gs_results r;
	GStatBuf sb;
	char *buf = NULL;
	gsize len = 0;

	gs_results_init(&r);
	if (!gs_run_scenario(sc, &opt, &r, &err))
		fail_msg("%s", err->message);
	if (st) {
		w.taken[0] = opt.span_sink->taken[0];
		w.taken[1] = opt.span_sink->taken[1];
		assert_int_equal(g_stat(path, &sb), 0);
		w.at_end = sb.st_size;
		if (!gs_pftrace_stream_end(&r, &err))
			fail_msg("%s", err->message);
	} else {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		if (!gs_results_fill_pftrace(&r, f, &err))
			fail_msg("%s", err->message);
		assert_int_equal(fclose(f), 0);
	}
	assert_true(g_file_get_contents(path, &buf, &len, NULL));
	w.bytes = g_bytes_new_take(buf, len);
	gs_results_clear(&r);
	gs_pftrace_stream_free(st);
	gs_scenario_free(sc);
	g_unlink(path);
	g_rmdir(dir);
	return w;
}

/* The three ways give the same bytes; the streams took at least
 * min_spans spans and min_marks marks in whole chunks. */
static void assert_same_bytes(const char *yaml, guint min_spans,
			      guint min_marks)
{
	struct written end = pftrace_of(yaml, AT_END);
	struct written streamed = pftrace_of(yaml, STREAMED);
	struct written alone = pftrace_of(yaml, UNTHREADED);

	assert_true(streamed.taken[0] >= min_spans);
	assert_true(streamed.taken[1] >= min_marks);
	assert_int_equal(streamed.taken[0] % GS_SPAN_CHUNK, 0);
	assert_int_equal(streamed.taken[1] % GS_SPAN_CHUNK, 0);
	assert_int_equal(alone.taken[0], streamed.taken[0]);
	assert_int_equal(alone.taken[1], streamed.taken[1]);
	assert_true(g_bytes_get_size(end.bytes) > 1000);
	assert_true(g_bytes_equal(end.bytes, streamed.bytes));
	assert_true(g_bytes_equal(end.bytes, alone.bytes));
	g_bytes_unref(end.bytes);
	g_bytes_unref(streamed.bytes);
	g_bytes_unref(alone.bytes);
}

/* Three chunks and more of each, and commands still running at the end
 * (their spans marked open, in the last chunk). */
static void test_many_chunks_same_bytes(void **state)
{
	(void)state;
	assert_same_bytes(
		"duration: 4s\nseed: 3\n"
		"tasks:\n"
		"  - name: a\n    behavior: {throttle: {kernel: {uniform: "
		"[20us, 60us]}}}\n"
		"  - name: b\n    count: 3\n    behavior: {throttle: {kernel: "
		"300us, sleep: 50us}}\n",
		3 * GS_SPAN_CHUNK, 3 * GS_SPAN_CHUNK);
}

/* The spans the first n span records of yaml's run stand for (a
 * command's is two: its engine's and its channel's). */
static guint spans_of_records(const char *yaml, guint n)
{
	struct gs_results r;
	guint i, spans = 0;

	run(yaml, false, &r);
	assert_true(r.spans->len >= n);
	for (i = 0; i < n; i++)
		spans += gs_span_count(&g_array_index(r.spans, struct gs_span,
						      i));
	gs_results_clear(&r);
	return spans;
}

/* The cap inside the second chunk, and on the second's boundary: the
 * truncation note counts the spans the stream took. The cap counts
 * spans, a chunk records: the boundary's cap is the spans of its
 * records. */
static void test_cap_same_bytes(void **state)
{
	static const char *const fmt =
		"duration: 1s\nseed: 1\noutput: {timeline_max_spans: %u}\n"
		"tasks:\n"
		"  - name: a\n    behavior: {throttle: {kernel: 30us}}\n"
		"  - name: b\n    behavior: {throttle: {kernel: 45us}}\n";
	g_autofree char *uncapped = g_strdup_printf(fmt, 1000000);
	g_autofree char *inside =
		g_strdup_printf(fmt, 2 * (GS_SPAN_CHUNK + 1001));
	g_autofree char *boundary = g_strdup_printf(
		fmt, spans_of_records(uncapped, 2 * GS_SPAN_CHUNK));

	(void)state;
	assert_same_bytes(inside, GS_SPAN_CHUNK, GS_SPAN_CHUNK);
	assert_same_bytes(boundary, 2 * GS_SPAN_CHUNK, 2 * GS_SPAN_CHUNK);
}

/* Two GPUs, and a policy whose phases are spans of their own track. */
static void test_gpus_and_policy_same_bytes(void **state)
{
	(void)state;
	assert_same_bytes(
		"duration: 1s\nseed: 2\nnode: {gpus: 2}\n"
		"policy: {name: dfq}\n"
		"tasks:\n"
		"  - name: a\n    gpu: 0\n    behavior: {throttle: {kernel: "
		"40us}}\n"
		"  - name: b\n    gpu: 1\n    behavior: {throttle: {kernel: "
		"70us}}\n",
		GS_SPAN_CHUNK, GS_SPAN_CHUNK);
}

/* A task that starts late, so its name is interned after chunks have
 * gone. */
static void test_late_names_same_bytes(void **state)
{
	(void)state;
	assert_same_bytes(
		"duration: 2s\nseed: 4\n"
		"tasks:\n"
		"  - name: a\n    behavior: {throttle: {kernel: 30us}}\n"
		"  - name: late\n    start: 1500ms\n    behavior: {throttle: "
		"{kernel: 50us}}\n",
		4 * GS_SPAN_CHUNK, 4 * GS_SPAN_CHUNK);
}

/* n spans on GPU gpu's compute engine named name, and as many submit
 * marks of channel 3 of task name. */
static void add_items(struct gs_results *r, GArray *spans, GArray *marks,
		      uint32_t name, guint n, gs_time_t t0)
{
	guint i;

	for (i = 0; i < n; i++) {
		struct gs_span sp = { .start = t0 + i, .end = t0 + i + 1,
				      .cmd = i + 1, .name = name,
				      .track_kind = GS_TRACK_ENGINE,
				      .channel = 3 };
		struct gs_cmd_mark m = { .t = t0 + i, .serial = i + 1,
					 .channel = 3, .task_name = name };

		g_array_append_val(spans, sp);
		g_array_append_val(marks, m);
	}
	(void)r;
}

static bool contains(const char *buf, size_t len, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (!memcmp(buf + i, s, n))
			return true;
	return false;
}

/* Names that are not UTF-8 (a scenario's names are checked, a
 * recording's are not), one of them interned after the first chunks:
 * results made by hand, handed to a stream chunk by chunk as the
 * recorder would, and whole to the writer at the end. */
static void test_bad_utf8_late_names_by_hand(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("pftrace-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "timeline.pftrace", NULL);
	struct gs_pftrace_stream *st =
		gs_pftrace_stream_new_unthreaded(dir, NULL);
	struct gs_results whole, tail;
	struct gs_track track = { .track_kind = GS_TRACK_ENGINE };
	GArray *s1 = g_array_new(FALSE, TRUE, sizeof(struct gs_span));
	GArray *m1 = g_array_new(FALSE, TRUE, sizeof(struct gs_cmd_mark));
	GArray *s2 = g_array_new(FALSE, TRUE, sizeof(struct gs_span));
	uint8_t order[] = { GS_CHUNK_MARKS, GS_CHUNK_SPANS, GS_CHUNK_SPANS };
	g_autoptr(GError) err = NULL;
	char *buf = NULL;
	gsize len = 0;
	FILE *f;
	struct gs_span_sink *sink;

	(void)state;
	assert_non_null(st);
	sink = gs_pftrace_stream_sink(st);
	gs_results_init(&whole);
	gs_results_init(&tail);
	gs_results_intern(&whole, "run");
	gs_results_intern(&whole, "a\xff\xfe");
	gs_results_intern(&tail, "run");
	gs_results_intern(&tail, "a\xff\xfe");
	track.label = g_strdup("comp\xffute");
	g_array_append_val(whole.tracks, track);
	track.label = g_strdup("comp\xffute");
	g_array_append_val(tail.tracks, track);
	/* marks, then spans of "a\xff\xfe" */
	add_items(&whole, s1, m1, 1, GS_SPAN_CHUNK, 0);
	g_array_append_vals(whole.spans, s1->data, s1->len);
	g_array_append_vals(whole.cmd_marks, m1->data, m1->len);
	sink->take(sink, GS_CHUNK_MARKS, m1, &tail.names, tail.tracks);
	sink->take(sink, GS_CHUNK_SPANS, s1, &tail.names, tail.tracks);
	/* then a name interned late, in a chunk and in the tail */
	gs_results_intern(&whole, "late\xc3");
	gs_results_intern(&tail, "late\xc3");
	add_items(&whole, s2, tail.cmd_marks, 2, GS_SPAN_CHUNK, 100000);
	g_array_append_vals(whole.spans, s2->data, s2->len);
	sink->take(sink, GS_CHUNK_SPANS, s2, &tail.names, tail.tracks);
	add_items(&whole, tail.spans, tail.cmd_marks, 2, 7, 200000);
	g_array_append_vals(whole.spans, tail.spans->data, tail.spans->len);
	g_array_append_vals(whole.cmd_marks, tail.cmd_marks->data,
			    tail.cmd_marks->len);
	g_byte_array_append(whole.chunk_order, order, sizeof(order));
	tail.span_sink = sink;
	if (!gs_pftrace_stream_end(&tail, &err))
		fail_msg("%s", err->message);
	assert_true(g_file_get_contents(path, &buf, &len, NULL));
	{
		g_autoptr(GBytes) streamed = g_bytes_new_take(buf, len);
		char *end_buf = NULL;
		size_t end_len = 0;
		g_autoptr(GBytes) at_end = NULL;

		f = open_memstream(&end_buf, &end_len);
		if (!gs_results_fill_pftrace(&whole, f, &err))
			fail_msg("%s", err->message);
		assert_int_equal(fclose(f), 0);
		at_end = g_bytes_new_take(end_buf, end_len);
		assert_true(g_bytes_get_size(at_end) > 100000);
		assert_true(g_bytes_equal(streamed, at_end));
		/* the names went in as U+FFFD, not as the bytes given */
		assert_false(contains(end_buf, end_len, "a\xff", 2));
		assert_true(contains(end_buf, end_len, "late\xef\xbf\xbd", 7));
	}
	gs_results_clear(&whole);
	gs_results_clear(&tail);
	gs_pftrace_stream_free(st);
	g_unlink(path);
	g_rmdir(dir);
}

/* The span records of the run so far and those left open at its end
 * (recorded as it closes): what fills the stream's chunks. */
static void count_spans(const char *yaml, guint *before_close, guint *open)
{
	struct gs_results r;
	guint i;

	run(yaml, false, &r);
	*open = 0;
	for (i = 0; i < r.spans->len; i++)
		*open += g_array_index(r.spans, struct gs_span, i).open;
	*before_close = r.spans->len - *open;
	gs_results_clear(&r);
}

/* The run's end records the open spans of 63 GPUs' engines and channels
 * (a record each, on_channel); a duration where they fill a chunk and
 * begin the next is searched for (about 4 span records a microsecond:
 * from 2ms on; the first found is the same on every run; 63, since the
 * GPUs run in step and a number of them dividing the chunk would fill it
 * exactly): no chunk leaves while the run closes, so all of them are
 * marked open, in the spans kept. */
static void test_open_spans_across_chunk_same_bytes(void **state)
{
	static const char *const fmt =
		"duration: %uus\nseed: 1\nnode: {gpus: 63}\n"
		"tasks:\n  - name: t\n    count: 63\n"
		"    behavior: {throttle: {kernel: 10us}}\n";
	guint us, before = 0, open = 0;

	(void)state;
	for (us = 2000; us < 3000; us++) {
		g_autofree char *yaml = g_strdup_printf(fmt, us);

		count_spans(yaml, &before, &open);
		if (before % GS_SPAN_CHUNK + open > GS_SPAN_CHUNK)
			break;
	}
	assert_true(us < 3000);
	{
		g_autofree char *yaml = g_strdup_printf(fmt, us);

		assert_same_bytes(yaml, before - before % GS_SPAN_CHUNK, 0);
	}
}

/* Without a thread the chunks are in the file when the run ends (but for
 * the encoder's last block of 64 KiB): what is left for the end is the
 * last chunks and the tail. */
static void test_file_written_during_run(void **state)
{
	struct written w = pftrace_of(
		"duration: 4s\nseed: 3\n"
		"tasks:\n"
		"  - name: a\n    behavior: {throttle: {kernel: 20us}}\n",
		UNTHREADED);

	(void)state;
	assert_true(w.taken[0] >= 10 * GS_SPAN_CHUNK);
	assert_true(g_bytes_get_size(w.bytes) > 4 * 1024 * 1024);
	assert_true(w.at_end >= (goffset)g_bytes_get_size(w.bytes) -
				       2 * 1024 * 1024);
	g_bytes_unref(w.bytes);
}

/* The results take the sink at collection: the teardown of channels
 * still busy at the end records spans, and must not hand them to a
 * stream that was ended and freed between collection and gs_sim_free()
 * (as `gpusim run` and the bench do; under AddressSanitizer this read
 * freed memory). */
static void test_sim_freed_after_stream(void **state)
{
	struct gs_scenario *sc = load(
		"duration: 50ms\nseed: 1\n"
		"tasks:\n"
		"  - name: a\n    count: 4\n"
		"    behavior: {throttle: {kernel: 300us}}\n");
	g_autofree char *dir = g_dir_make_tmp("pftrace-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "timeline.pftrace", NULL);
	struct gs_pftrace_stream *st = stream_new(STREAMED, dir);
	struct gs_sim_options opt = {
		.timeline = true,
		.span_sink = gs_pftrace_stream_sink(st),
	};
	g_autoptr(GError) err = NULL;
	struct gs_results r;
	struct gs_sim *sim;

	(void)state;
	sim = gs_sim_new(sc, &opt, &err);
	assert_non_null(sim);
	gs_sim_run(sim, NULL);
	gs_results_init(&r);
	gs_sim_collect(sim, &r);
	assert_ptr_equal(r.span_sink, gs_pftrace_stream_sink(st));
	assert_null(sim->opt.span_sink);
	if (!gs_pftrace_stream_end(&r, &err))
		fail_msg("%s", err->message);
	gs_pftrace_stream_free(st);
	gs_sim_free(sim); /* closes the busy channels: spans recorded */
	gs_results_clear(&r);
	gs_scenario_free(sc);
	g_unlink(path);
	g_rmdir(dir);
}

/* A span naming a string out of range, taken by a stream or written at
 * the end: the file is refused with the same message. */
static void test_bad_span_same_error(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("pftrace-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "timeline.pftrace", NULL);
	struct gs_pftrace_stream *st =
		gs_pftrace_stream_new_unthreaded(dir, NULL);
	GArray *chunk = g_array_new(FALSE, TRUE, sizeof(struct gs_span));
	struct gs_results kept, streamed;
	struct gs_span sp = { .start = 1, .end = 2 };
	g_autoptr(GError) kept_err = NULL, streamed_err = NULL;
	FILE *f = fopen("/dev/null", "w");
	guint i;

	(void)state;
	assert_non_null(st);
	gs_results_init(&kept);
	gs_results_init(&streamed);
	gs_results_intern(&kept, "run");
	gs_results_intern(&streamed, "run");
	for (i = 0; i < 5; i++) {
		sp.category = i == 3 ? 7 : 0;
		g_array_append_val(kept.spans, sp);
		g_array_append_val(i < 4 ? chunk : streamed.spans, sp);
	}
	streamed.span_sink = gs_pftrace_stream_sink(st);
	streamed.span_sink->take(streamed.span_sink, GS_CHUNK_SPANS, chunk,
				 &streamed.names, streamed.tracks);
	assert_false(gs_results_fill_pftrace(&kept, f, &kept_err));
	assert_false(gs_pftrace_stream_end(&streamed, &streamed_err));
	assert_string_equal(kept_err->message, "span 3 names string 0/7 of 1");
	assert_true(g_str_has_prefix(streamed_err->message, path));
	assert_true(g_str_has_suffix(streamed_err->message, kept_err->message));
	/* timeline.json cannot be written from a stream's results */
	g_clear_error(&streamed_err);
	assert_false(gs_results_fill_timeline(&streamed, f, &streamed_err));
	fclose(f);
	gs_results_clear(&kept);
	gs_results_clear(&streamed);
	gs_pftrace_stream_free(st);
	g_unlink(path);
	g_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_chunks_same_bytes),
		cmocka_unit_test(test_cap_same_bytes),
		cmocka_unit_test(test_gpus_and_policy_same_bytes),
		cmocka_unit_test(test_late_names_same_bytes),
		cmocka_unit_test(test_bad_utf8_late_names_by_hand),
		cmocka_unit_test(test_open_spans_across_chunk_same_bytes),
		cmocka_unit_test(test_file_written_during_run),
		cmocka_unit_test(test_bad_span_same_error),
		cmocka_unit_test(test_sim_freed_after_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
