/* The timeline's recorder up to its cap and past it.
 *
 * It keeps a command's span once: a record on its engine's track that
 * stands for its channel's span too (on_channel, channel set), where it
 * kept two. The cap of timeline_max_spans still counts spans: with room
 * for one only, the engine's is kept and the channel's dropped.
 *
 * Past the cap it wants a span only when the span has a track not yet
 * registered, and the GPU model then calls its span hook only for those
 * (gs_gpu_span_wanted); the recorder asks for that at the first span it
 * drops, and host.c stops calling for command marks at the first mark
 * dropped. What the timeline shows is unchanged (the tests of the writers
 * and tests/test_track_label.c's reused slots past the cap); here the
 * calls themselves. */
#include "tests/support/gpu_fixture.h"
#include "tests/support/scenario_fixture.h"

/* Spans reported from the from'th on, of kind (-1: any) on channel ch
 * (GS_CHAN_NONE: any or none). */
static guint spans_from(const struct mock *m, guint from, int kind,
			uint32_t ch)
{
	guint n = 0;

	for (; from < m->spans->len; from++) {
		const struct span_rec *s =
			&g_array_index(m->spans, struct span_rec, from);

		n += (kind < 0 || s->kind == kind) &&
		     (ch == GS_CHAN_NONE || s->chan == ch);
	}
	return n;
}

static void test_model_calls_for_untraced_tracks_only(void **state)
{
	struct mock *m = mock_new("kepler", 5 * US);
	struct gs_channel *a, *b;
	guint from;
	(void)state;

	a = gs_gpu_channel_open(m->gpu, 0, NULL);
	b = gs_gpu_channel_open(m->gpu, 1, NULL); /* a context of its own */
	/* below the cap: every span, traced or not */
	a->traced = true;
	m->gpu->engines[GS_ENGINE_COMPUTE].traced = true;
	submit(a, 10 * US, GS_ENGINE_COMPUTE);
	run_until(m, 1 * MS);
	assert_int_equal(spans_from(m, 0, GS_SPAN_SWITCH, GS_CHAN_NONE), 1);
	assert_int_equal(spans_from(m, 0, GS_SPAN_RUN, a->id), 1);

	/* past it: nothing of a traced channel on a traced engine */
	m->gpu->spans_untraced_only = true;
	from = m->spans->len;
	submit(a, 10 * US, GS_ENGINE_COMPUTE);
	run_until(m, 2 * MS);
	assert_int_equal(a->completed, 2);
	assert_int_equal(spans_from(m, from, -1, GS_CHAN_NONE), 0);
	/* of an untraced channel its command only: the engine's switch to
	 * it has no track to register */
	submit(b, 10 * US, GS_ENGINE_COMPUTE);
	run_until(m, 3 * MS);
	assert_int_equal(b->completed, 1);
	assert_int_equal(spans_from(m, from, -1, GS_CHAN_NONE), 1);
	assert_int_equal(spans_from(m, from, GS_SPAN_RUN, b->id), 1);
	/* both traced: nothing, switches between them included */
	b->traced = true;
	from = m->spans->len;
	submit(a, 10 * US, GS_ENGINE_COMPUTE);
	submit(b, 10 * US, GS_ENGINE_COMPUTE);
	run_until(m, 4 * MS);
	assert_int_equal(a->completed + b->completed, 5);
	assert_int_equal(m->gpu->engines[GS_ENGINE_COMPUTE].ctx_switches, 4);
	assert_int_equal(spans_from(m, from, -1, GS_CHAN_NONE), 0);
	/* an engine not yet traced: all its spans, the switches too (to
	 * the channel not loaded last) */
	m->gpu->engines[GS_ENGINE_COMPUTE].traced = false;
	if (m->gpu->engines[GS_ENGINE_COMPUTE].cur == a)
		a = b;
	submit(a, 10 * US, GS_ENGINE_COMPUTE);
	run_until(m, 5 * MS);
	assert_int_equal(spans_from(m, from, GS_SPAN_SWITCH, GS_CHAN_NONE), 1);
	assert_int_equal(spans_from(m, from, GS_SPAN_RUN, a->id), 1);
	mock_free(m);
}

/* A busy channel per task, so that many commands run after the cap. */
static const char *const busy =
	"name: busy\nseed: 1\nduration: 20ms\n"
	"output: {timeline_max_spans: %u}\n"
	"tasks:\n"
	"  - name: t\n    count: 4\n    channels: 1\n"
	"    behavior: {throttle: {kernel: 50us}}\n";

/* The recorder switches the GPU's calls to untraced spans at the first
 * span it drops, and off its own calls for marks at the first mark it
 * drops; neither while the cap holds everything. */
static void test_recorder_asks_at_the_cap(void **state)
{
	static const unsigned caps[] = { 40, 1000000 };
	unsigned i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(caps); i++) {
		g_autofree char *yaml = g_strdup_printf(busy, caps[i]);
		struct gs_scenario *sc = load(yaml);
		struct gs_sim_options opt = { .timeline = true };
		struct gs_sim *sim = gs_sim_new(sc, &opt, NULL);
		bool capped = caps[i] < 1000;

		assert_non_null(sim);
		assert_true(sim->rec_marks);
		assert_false(sim->gpus[0]->spans_untraced_only);
		gs_sim_run(sim, NULL);
		assert_true(sim->rec->timeline_truncated == capped);
		assert_true(sim->gpus[0]->spans_untraced_only == capped);
		assert_true(sim->rec_marks == !capped);
		gs_sim_free(sim);
		gs_scenario_free(sc);
	}
}

static void run_capped(unsigned cap, struct gs_results *r)
{
	g_autofree char *yaml = g_strdup_printf(busy, cap);

	run(yaml, false, r);
}

static void test_command_is_one_record(void **state)
{
	struct gs_results r;
	g_autoptr(GArray) flat = NULL;
	guint i, doubles = 0, commands = 0;
	(void)state;

	run_capped(1000000, &r);
	assert_false(r.timeline_truncated);
	for (i = 0; i < r.spans->len; i++) {
		const struct gs_span *s =
			&g_array_index(r.spans, struct gs_span, i);

		/* channel spans only through their engine's record */
		assert_int_not_equal(s->track_kind, GS_TRACK_CHANNEL);
		if (s->cmd) {
			commands++;
			assert_true(s->on_channel);
			assert_int_equal(s->track_kind, GS_TRACK_ENGINE);
		}
		doubles += s->on_channel;
	}
	assert_true(commands > 100);
	flat = gs_results_flat_spans(&r);
	assert_int_equal(flat->len, r.spans->len + doubles);
	/* each record's channel copy follows it, on the command's channel */
	for (i = 0; i + 1 < flat->len; i++) {
		const struct gs_span *a = &g_array_index(flat, struct gs_span, i);
		const struct gs_span *b =
			&g_array_index(flat, struct gs_span, i + 1);

		if (a->track_kind != GS_TRACK_ENGINE || !a->cmd)
			continue;
		assert_int_equal(b->track_kind, GS_TRACK_CHANNEL);
		assert_int_equal(b->track, a->channel);
		assert_int_equal(b->start, a->start);
		assert_int_equal(b->end, a->end);
		assert_int_equal(b->cmd, a->cmd);
	}
	gs_results_clear(&r);
}

/* The cap counts spans, whatever their records: an odd cap ends on an
 * engine span whose channel's was dropped. */
static void test_cap_counts_spans(void **state)
{
	static const unsigned caps[] = { 40, 41, 301 };
	unsigned k;
	(void)state;

	for (k = 0; k < G_N_ELEMENTS(caps); k++) {
		struct gs_results r;
		g_autoptr(GArray) flat = NULL;
		const struct gs_span *last;

		run_capped(caps[k], &r);
		assert_true(r.timeline_truncated);
		flat = gs_results_flat_spans(&r);
		assert_int_equal(flat->len, caps[k]);
		last = &g_array_index(r.spans, struct gs_span,
				      r.spans->len - 1);
		if (caps[k] % 2 && last->cmd)
			assert_false(last->on_channel);
		gs_results_clear(&r);
	}
}

/* Without a timeline host.c makes no call for marks at all. */
static void test_no_mark_calls_without_timeline(void **state)
{
	struct gs_scenario *sc = load("name: quiet\nseed: 1\nduration: 1ms\n"
				      "tasks:\n  - {name: t, behavior: "
				      "{throttle: {kernel: 50us}}}\n");
	struct gs_sim_options opt = { .timeline = false };
	struct gs_sim *sim = gs_sim_new(sc, &opt, NULL);
	(void)state;

	assert_non_null(sim);
	assert_false(sim->rec_marks);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_calls_for_untraced_tracks_only),
		cmocka_unit_test(test_recorder_asks_at_the_cap),
		cmocka_unit_test(test_no_mark_calls_without_timeline),
		cmocka_unit_test(test_command_is_one_record),
		cmocka_unit_test(test_cap_counts_spans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
