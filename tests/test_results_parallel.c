/* The folder's files written at once (results_write.c: the timeline on a
 * second thread): an error in either thread is reported as it would be
 * one file after another, and the folder stays all-or-nothing; the
 * timeline writer's channel slots (pftrace_chans.c) are dense and
 * distinct. The bytes themselves are the goldens' and
 * parallel_write_test.sh's. */
#include "tests/support/results_fixture.h"

#include "sim/results/pftrace_chans.h"
#include "sim/results/results_write.h"

/* A span naming a string that does not exist: the timeline's writer
 * refuses it, and only it (the other files do not read spans). */
static void break_timeline(struct gs_results *r)
{
	g_array_index(r->spans, struct gs_span, 0).category = 1000;
}

/* The timeline fails on its thread while the others are written: the
 * error is the timeline's, and no folder appears. */
static void test_timeline_error_reported_no_folder(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *out = g_build_filename(fx->dir, "out", NULL);
	GError *error = NULL;
	enum gs_timeline_format formats[] = { GS_TIMELINE_PFTRACE,
					      GS_TIMELINE_JSON };
	size_t i;

	break_timeline(&fx->r);
	for (i = 0; i < G_N_ELEMENTS(formats); i++) {
		assert_false(gs_results_write_dir(&fx->r, out, formats[i],
						  &error));
		assert_non_null(error);
		assert_non_null(strstr(error->message,
				       i ? "timeline.json" : "timeline.pftrace"));
		assert_non_null(strstr(error->message, "names string 0/1000"));
		g_clear_error(&error);
		assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
	}
}

/* An earlier run's folder survives a failed timeline whole. */
static void test_timeline_error_keeps_old_folder(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *out = g_build_filename(fx->dir, "out", NULL);
	g_autofree char *before = NULL, *after = NULL, *listing = NULL;
	GError *error = NULL;

	write_ok(&fx->r, out, TRUE);
	before = read_output(out, "summary.json");
	fx->r.seed = 7; /* the new run's summary would differ */
	break_timeline(&fx->r);
	assert_false(gs_results_write_dir(&fx->r, out, GS_TIMELINE_PFTRACE,
					  &error));
	g_clear_error(&error);
	after = read_output(out, "summary.json");
	assert_non_null(after);
	assert_string_equal(before, after);
	listing = sorted_listing(out);
	assert_string_equal(listing, "series.csv summary.json tasks.csv "
				     "timeline.json");
}

/* Channels of three GPUs, ids sparse: each (gpu, channel) a slot of its
 * own, below n_slots, GPUs after one another. */
static void test_channel_slots_distinct(void **state)
{
	struct gs_results r;
	struct gs_cmd_mark m = { .gpu = 2, .channel = 4, .kind = GS_MARK_SUBMIT };
	struct pf_chans c;
	bool *seen;
	uint32_t g, ch;
	(void)state;

	gs_results_init(&r);
	add_track(&r, 0, GS_TRACK_CHANNEL, 3, "ch3");
	add_track(&r, 0, GS_TRACK_ENGINE, 9, "compute"); /* not a channel */
	add_track(&r, 1, GS_TRACK_CHANNEL, 0, "ch0");
	g_array_append_val(r.cmd_marks, m);
	pf_chans_init(&c, &r);
	assert_int_equal(c.n_gpus, 3);
	assert_int_equal(c.n_slots, 4 + 1 + 5);
	seen = g_new0(bool, c.n_slots);
	for (g = 0; g < 3; g++) {
		uint32_t n = g == 0 ? 4 : g == 1 ? 1 : 5;

		for (ch = 0; ch < n; ch++) {
			size_t s = pf_chans_slot(&c, g, ch);

			assert_true(s < c.n_slots);
			assert_false(seen[s]);
			seen[s] = true;
		}
	}
	g_free(seen);
	pf_chans_clear(&c);
	gs_results_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_timeline_error_reported_no_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_timeline_error_keeps_old_folder, setup, teardown),
		cmocka_unit_test(test_channel_slots_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
