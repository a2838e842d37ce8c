/* timeline.pftrace with its spans encoded during the run
 * (sim/results/pftrace_stream.c): the same bytes as with every span kept
 * to the end, on a thread or not, across chunk boundaries, with the cap
 * of timeline_max_spans inside a chunk and on its boundary, spans left
 * open at the end, several GPUs and policy tracks; and the same error for
 * a span naming a string out of range. */
#include "tests/support/scenario_fixture.h"

#include <stdio.h>

#include "sim/results/pftrace_stream.h"
#include "sim/results/results_priv.h"

enum mode { KEPT, STREAMED, UNTHREADED };

/* The timeline.pftrace of yaml run with mode's span storage; *taken: the
 * spans a stream took during the run. */
static GBytes *pftrace_of(const char *yaml, enum mode mode, guint *taken)
{
	struct gs_scenario *sc = load(yaml);
	struct gs_pftrace_stream *st =
		mode == STREAMED     ? gs_pftrace_stream_new()
		: mode == UNTHREADED ? gs_pftrace_stream_new_unthreaded()
				     : NULL;
	struct gs_sim_options opt = {
		.timeline = true,
		.check_invariants = true,
		.span_sink = st ? gs_pftrace_stream_sink(st) : NULL,
	};
	g_autoptr(GError) err = NULL;
	struct gs_results r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	gs_results_init(&r);
	if (!gs_run_scenario(sc, &opt, &r, &err))
		fail_msg("%s", err->message);
	*taken = opt.span_sink ? opt.span_sink->taken : 0;
	if (!gs_results_fill_pftrace(&r, f, &err))
		fail_msg("%s", err->message);
	assert_int_equal(fclose(f), 0);
	gs_results_clear(&r);
	gs_pftrace_stream_free(st);
	gs_scenario_free(sc);
	return g_bytes_new_take(buf, len);
}

static void assert_same_bytes(const char *yaml, guint min_taken)
{
	guint none, taken, unthreaded;
	g_autoptr(GBytes) kept = pftrace_of(yaml, KEPT, &none);
	g_autoptr(GBytes) streamed = pftrace_of(yaml, STREAMED, &taken);
	g_autoptr(GBytes) alone = pftrace_of(yaml, UNTHREADED, &unthreaded);

	assert_int_equal(none, 0);
	assert_true(taken >= min_taken); /* the stream had chunks */
	assert_int_equal(taken % GS_SPAN_CHUNK, 0);
	assert_int_equal(unthreaded, taken);
	assert_true(g_bytes_get_size(kept) > 1000);
	assert_true(g_bytes_equal(kept, streamed));
	assert_true(g_bytes_equal(kept, alone));
}

/* Three chunks and more, and commands still running at the end (their
 * spans marked open, in the last chunk). */
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
		3 * GS_SPAN_CHUNK);
}

/* The cap inside the second chunk, and on the second's boundary: the
 * truncation note counts the spans the stream took. */
static void test_cap_same_bytes(void **state)
{
	static const char *const fmt =
		"duration: 1s\nseed: 1\noutput: {timeline_max_spans: %u}\n"
		"tasks:\n"
		"  - name: a\n    behavior: {throttle: {kernel: 30us}}\n"
		"  - name: b\n    behavior: {throttle: {kernel: 45us}}\n";
	g_autofree char *inside = g_strdup_printf(fmt, GS_SPAN_CHUNK + 1001);
	g_autofree char *boundary = g_strdup_printf(fmt, 2 * GS_SPAN_CHUNK);

	(void)state;
	assert_same_bytes(inside, GS_SPAN_CHUNK);
	assert_same_bytes(boundary, 2 * GS_SPAN_CHUNK);
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
		GS_SPAN_CHUNK);
}

/* The spans of the run so far and those left open at its end (recorded
 * as it closes). */
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

/* The run's end records the open spans of 64 GPUs' engines and channels;
 * a duration where they fill a chunk and begin the next is searched for
 * (about 8 spans a microsecond: from 1ms on; the first found is the same
 * on every run): no chunk leaves while the run
 * closes, so all of them are marked open, in the spans kept. */
static void test_open_spans_across_chunk_same_bytes(void **state)
{
	static const char *const fmt =
		"duration: %uus\nseed: 1\nnode: {gpus: 64}\n"
		"tasks:\n  - name: t\n    count: 64\n"
		"    behavior: {throttle: {kernel: 10us}}\n";
	guint us, before = 0, open = 0;

	(void)state;
	for (us = 1000; us < 1300; us++) {
		g_autofree char *yaml = g_strdup_printf(fmt, us);

		count_spans(yaml, &before, &open);
		if (before % GS_SPAN_CHUNK + open > GS_SPAN_CHUNK)
			break;
	}
	assert_true(us < 1300);
	{
		g_autofree char *yaml = g_strdup_printf(fmt, us);

		assert_same_bytes(yaml, before - before % GS_SPAN_CHUNK);
	}
}

/* A span naming a string out of range, taken by a stream or kept: the
 * file is refused with the same message. */
static void test_bad_span_same_error(void **state)
{
	struct gs_pftrace_stream *st = gs_pftrace_stream_new();
	GArray *chunk = g_array_new(FALSE, TRUE, sizeof(struct gs_span));
	struct gs_results kept, streamed;
	struct gs_span sp = { .start = 1, .end = 2 };
	g_autoptr(GError) kept_err = NULL, streamed_err = NULL;
	FILE *f = fopen("/dev/null", "w");
	guint i;

	(void)state;
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
	streamed.span_sink->take(streamed.span_sink, chunk, streamed.names);
	assert_false(gs_results_fill_pftrace(&kept, f, &kept_err));
	assert_false(gs_results_fill_pftrace(&streamed, f, &streamed_err));
	assert_string_equal(kept_err->message, "span 3 names string 0/7 of 1");
	assert_string_equal(streamed_err->message, kept_err->message);
	/* timeline.json cannot be written from a stream's results */
	g_clear_error(&streamed_err);
	assert_false(gs_results_fill_timeline(&streamed, f, &streamed_err));
	fclose(f);
	gs_results_clear(&kept);
	gs_results_clear(&streamed);
	gs_pftrace_stream_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_chunks_same_bytes),
		cmocka_unit_test(test_cap_same_bytes),
		cmocka_unit_test(test_gpus_and_policy_same_bytes),
		cmocka_unit_test(test_open_spans_across_chunk_same_bytes),
		cmocka_unit_test(test_bad_span_same_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
