/* The folder's files written at once (results_write.c: the timeline on a
 * second thread): an error in either thread is reported as it would be
 * one file after another, and the folder stays all-or-nothing. The bytes
 * themselves are the goldens' and parallel_write_test.sh's. */
#include "tests/support/results_fixture.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_timeline_error_reported_no_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_timeline_error_keeps_old_folder, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
