/* A channel's track carries its task's name (an index into the results'
 * names), not a label formatted during the run: the writers that show
 * it label it "ch<id> <task>" (gs_track_label), as the recorder did. */
#define _GNU_SOURCE /* memmem */
#include "tests/support/scenario_fixture.h"

#include "sim/results/results_priv.h"

static struct gs_track channel_track(uint32_t gpu, uint32_t id, uint32_t name)
{
	return (struct gs_track){ .gpu = gpu, .track_kind = GS_TRACK_CHANNEL,
				  .track = id, .name = name };
}

static void assert_label(const struct gs_results *r, const struct gs_track *t,
			 const char *want)
{
	g_autofree char *label = gs_track_label(r, t);

	assert_string_equal(label, want);
}

static void test_label_of_each_kind(void **state)
{
	struct gs_results r;
	struct gs_track t;
	uint32_t dct;
	(void)state;

	gs_results_init(&r);
	gs_results_intern(&r, "run");
	dct = gs_results_intern(&r, "dct");
	t = channel_track(0, 3, dct);
	assert_label(&r, &t, "ch3 dct");
	t = channel_track(1, 4096, r.names.n); /* out of range */
	assert_label(&r, &t, "ch4096 ?");
	t.label = "mine"; /* one given by hand wins */
	assert_label(&r, &t, "mine");
	t = (struct gs_track){ .track_kind = GS_TRACK_ENGINE,
			       .label = "compute" };
	assert_label(&r, &t, "compute");
	t = (struct gs_track){ .track_kind = GS_TRACK_POLICY, .name = dct };
	assert_label(&r, &t, ""); /* only a channel's comes from a name */
	gs_results_clear(&r);
}

/* What `gpusim run` writes into a file, as bytes. */
static GByteArray *fill(gboolean (*fill_fn)(const struct gs_results *,
					    FILE *, GError **),
			const struct gs_results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	GByteArray *out;

	assert_non_null(f);
	assert_true(fill_fn(r, f, NULL));
	fclose(f);
	out = g_byte_array_new_take((guint8 *)buf, len);
	return out;
}

static bool contains(const GByteArray *a, const char *s)
{
	return memmem(a->data, a->len, s, strlen(s)) != NULL;
}

static const char *const two_tasks =
	"name: labels\nseed: 1\nduration: 20ms\n"
	"gpu: {preset: kepler}\npolicy: {name: direct}\n"
	"output: {timeline_max_spans: %u}\n"
	"tasks:\n"
	"  - name: dct\n    behavior: {throttle: {kernel: 100us}}\n"
	"  - name: fft\n    count: 2\n"
	"    behavior: {throttle: {kernel: 300us}}\n";

/* A run's channel tracks: no label, the name of the task whose span or
 * mark named the channel first; both timelines show "ch<id> <task>",
 * with the whole timeline and with a cap that leaves tracks without a
 * span (labelled at the pftrace's end). */
static void check_run(uint32_t max_spans)
{
	g_autofree char *yaml = g_strdup_printf(two_tasks, max_spans);
	struct gs_results r;
	g_autoptr(GByteArray) json = NULL, pftrace = NULL;
	guint i, channels = 0;

	run(yaml, false, &r);
	assert_true(r.timeline_truncated == (max_spans < 1000));
	json = fill(gs_results_fill_timeline, &r);
	pftrace = fill(gs_results_fill_pftrace, &r);
	for (i = 0; i < r.tracks->len; i++) {
		const struct gs_track *t =
			&g_array_index(r.tracks, struct gs_track, i);
		const char *task;
		g_autofree char *want = NULL, *meta = NULL;

		if (t->track_kind != GS_TRACK_CHANNEL)
			continue;
		channels++;
		assert_null(t->label);
		assert_true(t->name < r.names.n);
		task = gs_results_name(&r, t->name);
		assert_true(!strcmp(task, "dct") || !strcmp(task, "fft#0") ||
			    !strcmp(task, "fft#1"));
		want = g_strdup_printf("ch%u %s", t->track, task);
		meta = g_strdup_printf("\"tid\":%u,\"args\":{\"name\":\"%s\"}",
				       1000u + t->track, want);
		assert_true(contains(json, meta));
		assert_true(contains(pftrace, want));
	}
	assert_int_equal(channels, 3);
	gs_results_clear(&r);
}

static void test_run_channel_tracks_named(void **state)
{
	(void)state;
	check_run(100000);
	check_run(4); /* the cap: the channels' tracks have no span */
}

/* Channel slots used again by later tasks, all past the timeline's cap:
 * two slots, four jobs one after another, the cap at 4 spans. */
static const char *const reused_slots =
	"name: reuse\nseed: 1\nduration: 200ms\n"
	"node: {gpus: 1, gpu: {preset: kepler, max_channels: 2}}\n"
	"policy: least-loaded\narrivals: {every: 20ms}\n"
	"output: {timeline_max_spans: 4}\n"
	"tasks:\n"
	"  - {name: first, behavior: {job: {demand: 50%, kernel: 1ms, "
	"length: 10ms}}}\n"
	"  - {name: second, behavior: {job: {demand: 50%, kernel: 1ms, "
	"length: 10ms}}}\n"
	"  - {name: third, behavior: {job: {demand: 50%, kernel: 1ms, "
	"length: 10ms}}}\n"
	"  - {name: fourth, behavior: {job: {demand: 50%, kernel: 1ms, "
	"length: 10ms}}}\n";

static bool has_name(const struct gs_results *r, const char *name)
{
	uint32_t i;

	for (i = 0; i < r->names.n; i++)
		if (!strcmp(gs_results_name(r, i), name))
			return true;
	return false;
}

/* Past the cap the recorder skips a span whose channel it marked traced
 * (track and owner's name known): the mark belongs to the channel's
 * owner, so a slot taken again by another task is registered anew and
 * every task that ran has its name interned, though only two channel
 * tracks exist and the cap was reached by the first job. */
static void test_reused_slot_past_cap(void **state)
{
	static const char *const jobs[] = { "first", "second", "third",
					    "fourth" };
	struct gs_results r;
	guint i, channels = 0;

	(void)state;
	run(reused_slots, false, &r);
	assert_true(r.timeline_truncated);
	for (i = 0; i < G_N_ELEMENTS(jobs); i++)
		assert_true(has_name(&r, jobs[i]));
	for (i = 0; i < r.tracks->len; i++)
		channels += g_array_index(r.tracks, struct gs_track,
					  i).track_kind == GS_TRACK_CHANNEL;
	assert_int_equal(channels, 2);
	gs_results_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_of_each_kind),
		cmocka_unit_test(test_run_channel_tracks_named),
		cmocka_unit_test(test_reused_slot_past_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
