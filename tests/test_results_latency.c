/* Result writers: the latency distributions (round times, job waits) in
 * summary.json, the printed table and a sweep's row. tasks.csv's columns
 * are in test_results.c's exact comparison. */
#include "tests/support/results_fixture.h"

#include "sim/results/results_write.h"

static JsonObject *task_member(JsonObject *root, guint i, const char *key)
{
	JsonArray *tasks = json_object_get_array_member(root, "tasks");

	return json_object_get_object_member(
		json_array_get_object_element(tasks, i), key);
}

static void test_summary_latencies(void **state)
{
	static const char *const keys[] = {
		"n", "min", "p50", "p90", "p99", "max", "mean", "std", NULL,
	};
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonObject *o, *round, *wait, *none;

	write_ok(&fx->r, fx->dir, FALSE);
	text = read_output(fx->dir, "summary.json");
	root = parse_json(text);
	o = json_node_get_object(root);
	round = task_member(o, 0, "round_ns");
	wait = task_member(o, 0, "wait_ns");
	assert_members(round, keys);
	assert_members(wait, keys);
	assert_int_equal(json_object_get_int_member(round, "n"), 10);
	assert_int_equal(json_object_get_int_member(round, "min"), 1000000);
	assert_int_equal(json_object_get_int_member(round, "p50"), 1500000);
	assert_int_equal(json_object_get_int_member(round, "p90"), 1900000);
	assert_int_equal(json_object_get_int_member(round, "p99"), 2000000);
	assert_int_equal(json_object_get_int_member(round, "max"), 2000000);
	assert_true(json_object_get_double_member(round, "std") == 250000.5);
	assert_int_equal(json_object_get_int_member(wait, "p90"), 5000);
	assert_true(json_object_get_double_member(wait, "mean") == 2000.0);
	/* no sample: n 0, every figure null */
	none = task_member(o, 1, "round_ns");
	assert_members(none, keys);
	assert_int_equal(json_object_get_int_member(none, "n"), 0);
	assert_null_member(none, "min");
	assert_null_member(none, "p99");
	assert_null_member(none, "mean");
	assert_null_member(none, "std");
}

/* The line after a caption, then the row of a task under it. */
static char **row_under(char **lines, const char *caption, const char *task)
{
	for (; *lines && strcmp(*lines, caption); lines++)
		;
	assert_non_null(*lines);
	for (lines++; *lines && **lines; lines++)
		if (g_str_has_prefix(*lines, task))
			return g_strsplit_set(*lines, " ", -1);
	fail_msg("no row %s under %s", task, caption);
	return NULL;
}

static void assert_row(char **cells, const char *const *want)
{
	GPtrArray *got = g_ptr_array_new();
	char **c;
	guint i;

	for (c = cells; *c; c++)
		if (**c)
			g_ptr_array_add(got, *c);
	for (i = 0; want[i]; i++) {
		assert_true(i < got->len);
		assert_string_equal(g_ptr_array_index(got, i), want[i]);
	}
	assert_int_equal(i, got->len);
	g_ptr_array_free(got, TRUE);
}

static void test_table_latencies(void **state)
{
	static const char *const round[] = {
		"alpha", "10", "1000.0", "1500.0", "1900.0", "2000.0",
		"2000.0", "250.0", NULL,
	};
	static const char *const wait[] = {
		"alpha", "20", "0.0", "1.0", "5.0", "9.0", "9.0", "2.5", NULL,
	};
	static const char *const none[] = {
		"gamma", "0", "-", "-", "-", "-", "-", "-", NULL,
	};
	struct fixture *fx = *state;
	g_autofree char *text = print_table(&fx->r);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_auto(GStrv) r = row_under(lines, "round time, us", "alpha ");
	g_auto(GStrv) w = row_under(lines, "job wait (written to started), us",
				    "alpha ");
	g_auto(GStrv) g = row_under(lines, "round time, us", "gamma ");

	assert_row(r, round);
	assert_row(w, wait);
	assert_row(g, none);
}

static const char *cell_of(GPtrArray *columns, GPtrArray *cells,
			   const char *column)
{
	guint i;

	for (i = 0; i < columns->len; i++)
		if (!strcmp(g_ptr_array_index(columns, i), column))
			return g_ptr_array_index(cells, i);
	fail_msg("no column %s", column);
	return NULL;
}

static void test_sweep_row_latencies(void **state)
{
	struct fixture *fx = *state;
	g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func(g_free);

	gs_results_row(&fx->r, columns, cells);
	assert_string_equal(cell_of(columns, cells, "alpha.round_p50_ns"),
			    "1500000");
	assert_string_equal(cell_of(columns, cells, "alpha.round_p99_ns"),
			    "2000000");
	assert_string_equal(cell_of(columns, cells, "alpha.wait_max_ns"),
			    "9000");
	assert_string_equal(cell_of(columns, cells, "alpha.round_std_ns"),
			    "250000.5");
	assert_string_equal(cell_of(columns, cells, "gamma.round_min_ns"),
			    "");
	assert_string_equal(cell_of(columns, cells, "gamma.wait_std_ns"), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_summary_latencies, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_table_latencies, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_sweep_row_latencies,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
