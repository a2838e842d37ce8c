/* Result writers: the output folder written atomically (temporary names
 * renamed; a failure leaves nothing half-written). */
#include "tests/support/results_fixture.h"

/* --- atomic writes ----------------------------------------------------- */

static const char *const output_files[] = {
	"summary.json", "tasks.csv", "series.csv", "timeline.json",
};

static void test_write_twice_identical(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *other = g_build_filename(fx->dir, "again", NULL);
	char *first[G_N_ELEMENTS(output_files)];
	size_t i;

	write_ok(&fx->r, fx->dir, TRUE);
	for (i = 0; i < G_N_ELEMENTS(output_files); i++) {
		first[i] = read_output(fx->dir, output_files[i]);
		assert_non_null(first[i]);
	}
	write_ok(&fx->r, fx->dir, TRUE);  /* over the old files */
	write_ok(&fx->r, other, TRUE);    /* into a new directory */
	for (i = 0; i < G_N_ELEMENTS(output_files); i++) {
		g_autofree char *same = read_output(fx->dir, output_files[i]);
		g_autofree char *fresh = read_output(other, output_files[i]);

		assert_string_equal(first[i], same);
		assert_string_equal(first[i], fresh);
		g_free(first[i]);
	}
}

static void test_no_temp_files_remain(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *listing = NULL;

	write_ok(&fx->r, fx->dir, TRUE);
	listing = sorted_listing(fx->dir);
	assert_string_equal(listing,
			    "series.csv summary.json tasks.csv timeline.json");
}

static void test_without_timeline(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *listing = NULL;

	write_ok(&fx->r, fx->dir, FALSE);
	listing = sorted_listing(fx->dir);
	assert_string_equal(listing, "series.csv summary.json tasks.csv");
}

static void test_creates_nested_dir(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *nested = g_build_filename(fx->dir, "a", "b", NULL);
	g_autofree char *listing = NULL;

	write_ok(&fx->r, nested, FALSE);
	listing = sorted_listing(nested);
	assert_string_equal(listing, "series.csv summary.json tasks.csv");
}

static void test_parent_is_file_fails(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *plain = g_build_filename(fx->dir, "plain", NULL);
	g_autofree char *out = g_build_filename(plain, "out", NULL);
	g_autofree char *listing = NULL;
	g_autofree char *content = NULL;
	GError *error = NULL;

	assert_true(g_file_set_contents(plain, "x", 1, NULL));
	assert_false(gs_results_write_dir(&fx->r, out, TRUE, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, out));
	g_error_free(error);
	listing = sorted_listing(fx->dir);
	assert_string_equal(listing, "plain");
	assert_true(g_file_get_contents(plain, &content, NULL, NULL));
	assert_string_equal(content, "x");
}

/* The rename fails (a directory is in the way): the temporary file that was
 * already written must go. */
static void test_failed_rename_removes_temp(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *blocker = g_build_filename(fx->dir, "tasks.csv",
						    NULL);
	g_autofree char *inside = g_build_filename(blocker, "keep", NULL);
	g_autofree char *listing = NULL;
	GError *error = NULL;

	assert_int_equal(g_mkdir(blocker, 0700), 0);
	assert_true(g_file_set_contents(inside, "k", 1, NULL));
	assert_false(gs_results_write_dir(&fx->r, fx->dir, TRUE, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, blocker));
	g_error_free(error);
	listing = sorted_listing(fx->dir);
	assert_string_equal(listing, "tasks.csv");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_twice_identical,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_temp_files_remain,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_without_timeline,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_creates_nested_dir,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_parent_is_file_fails,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_rename_removes_temp,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
