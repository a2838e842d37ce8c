/* Result writers: summary.json, tasks.csv and series.csv, to the byte
 * (timeline.json: test_results_timeline.c; the table:
 * test_results_table.c; putting them on disk: test_results_atomic.c;
 * interning names: test_results_intern.c). */
#include "tests/support/results_fixture.h"

/* --- init --------------------------------------------------------------- */

static void test_init_leaves_undefined_metrics_nan(void **state)
{
	struct gs_results r;

	(void)state;
	gs_results_init(&r);
	assert_true(isnan(r.metrics.jain_index));
	assert_true(isnan(r.metrics.accounting_error));
	assert_int_equal(gs_series_rows(r.series), 0);
	gs_results_clear(&r);
}

/* --- string helpers ---------------------------------------------------- */

static const struct {
	const char *desc, *in, *want;
} json_escape_cases[] = {
	{ "plain ASCII", "plain", "\"plain\"" },
	{ "quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "short escapes", "\n\t\r\b\f", "\"\\n\\t\\r\\b\\f\"" },
	{ "other controls", "\x01\x1f", "\"\\u0001\\u001f\"" },
	{ "UTF-8 kept", "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
	{ "invalid UTF-8 replaced", "a\xff", "\"a\xef\xbf\xbd\"" },
	{ "U+2028 escaped", "\xe2\x80\xa8", "\"\\u2028\"" },
	{ "U+2029 escaped", "\xe2\x80\xa9", "\"\\u2029\"" },
	{ "other E2 sequence kept", "\xe2\x82\xac", "\"\xe2\x82\xac\"" },
	{ "empty", "", "\"\"" },
	{ "NULL", NULL, "null" },
};

static void test_json_escape(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(json_escape_cases); i++) {
		g_autoptr(GString) out = g_string_new(NULL);
		g_autoptr(JsonNode) node = NULL;

		gs_json_append_string(out, json_escape_cases[i].in);
		if (strcmp(out->str, json_escape_cases[i].want) != 0)
			fail_msg("%s: got %s, want %s",
				 json_escape_cases[i].desc, out->str,
				 json_escape_cases[i].want);
		/* And a JSON parser reads it back. */
		g_string_prepend_c(out, '[');
		g_string_append_c(out, ']');
		node = parse_json(out->str);
		if (json_escape_cases[i].in &&
		    g_utf8_validate(json_escape_cases[i].in, -1, NULL))
			assert_string_equal(json_array_get_string_element(
				json_node_get_array(node), 0),
				json_escape_cases[i].in);
	}
}

static const struct {
	const char *desc, *in, *want;
} csv_cell_cases[] = {
	{ "plain", "alpha", "alpha" },
	{ "comma", "a,b", "\"a,b\"" },
	{ "quote doubled", "a\"b", "\"a\"\"b\"" },
	{ "newline", "a\nb", "\"a\nb\"" },
	{ "carriage return", "a\rb", "\"a\rb\"" },
	{ "space needs no quotes", "a b", "a b" },
	{ "NULL is an empty cell", NULL, "" },
};

static void test_csv_cell(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(csv_cell_cases); i++) {
		g_autoptr(GString) out = g_string_new(NULL);

		gs_csv_append_cell(out, csv_cell_cases[i].in);
		if (strcmp(out->str, csv_cell_cases[i].want) != 0)
			fail_msg("%s: got [%s], want [%s]",
				 csv_cell_cases[i].desc, out->str,
				 csv_cell_cases[i].want);
	}
}

static void test_us_exact(void **state)
{
	static const struct {
		uint64_t ns;
		const char *want;
	} cases[] = {
		{ 0, "0.000" },
		{ 5, "0.005" },
		{ 999, "0.999" },
		{ 1000, "1.000" },
		{ 1234567, "1234.567" },
		{ 1000000001, "1000000.001" },
		{ UINT64_MAX, "18446744073709551.615" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GString) out = g_string_new(NULL);

		gs_append_us(out, cases[i].ns);
		assert_string_equal(out->str, cases[i].want);
	}
}

/* --- summary.json ------------------------------------------------------ */

static void test_summary_keys_nulls(void **state)
{
	static const char *const top[] = {
		"config", "name", "seed", "policy", "sim_time_ns", "events",
		"capped", "event_checksum", "invariants", "tasks", "metrics", NULL,
	};
	static const char *const task[] = {
		"name", "vm", "weight", "gpu", "rounds", "round_mean_ns",
		"round_ns", "wait_ns", "gpu_time_ns", "accounted_gpu_time_ns", "gpu_share",
		"slowdown", "killed", NULL,
	};
	static const char *const metrics[] = {
		"jain_index", "concurrency_efficiency", "gpu_utilization",
		"policy_cpu_overhead", "ctx_switches", "accounting_error",
		"energy_j", "utime", NULL,
	};
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonObject *o, *t0, *t1, *m;
	JsonArray *tasks;
	guint i;

	write_ok(&fx->r, fx->dir, FALSE);
	text = read_output(fx->dir, "summary.json");
	assert_non_null(text);
	assert_true(g_str_has_prefix(text, "{\n  \"config\""));
	assert_true(g_str_has_suffix(text, "}\n"));
	assert_null(strstr(text, "nan"));
	assert_null(strstr(text, "inf"));

	root = parse_json(text);
	o = json_node_get_object(root);
	assert_members(o, top);
	assert_string_equal(json_object_get_string_member(o, "config"),
			    "configs/test.yaml");
	assert_string_equal(json_object_get_string_member(o, "name"),
			    "two-vms");
	assert_int_equal(json_object_get_int_member(o, "seed"), 42);
	assert_string_equal(json_object_get_string_member(o, "policy"), "dfq");
	assert_int_equal(json_object_get_int_member(o, "sim_time_ns"),
			 2000000000);
	assert_int_equal(json_object_get_int_member(o, "events"), 123456);
	assert_string_equal(json_object_get_string_member(o,
							  "event_checksum"),
			    "0x00000000deadbeef");
	assert_string_equal(json_object_get_string_member(o, "invariants"),
			    "ok");

	tasks = json_object_get_array_member(o, "tasks");
	assert_int_equal(json_array_get_length(tasks), 3);
	for (i = 0; i < 3; i++)
		assert_members(json_array_get_object_element(tasks, i), task);
	t0 = json_array_get_object_element(tasks, 0);
	t1 = json_array_get_object_element(tasks, 1);
	assert_string_equal(json_object_get_string_member(t0, "name"),
			    "alpha");
	assert_null_member(t0, "vm");
	assert_null_member(t0, "accounted_gpu_time_ns");
	assert_true(json_object_get_double_member(t0, "round_mean_ns") ==
		    1500000.0);
	assert_true(json_object_get_double_member(t0, "slowdown") == 1.5);
	assert_false(json_object_get_boolean_member(t0, "killed"));
	assert_int_equal(json_object_get_int_member(t0, "gpu_time_ns"),
			 600000000);

	assert_string_equal(json_object_get_string_member(t1, "name"),
			    "b,\"q\"");
	assert_string_equal(json_object_get_string_member(t1, "vm"), "vm1");
	assert_int_equal(json_object_get_int_member(t1, "weight"), 2);
	assert_int_equal(json_object_get_int_member(t1, "gpu"), 1);
	assert_null_member(t1, "round_mean_ns");
	assert_null_member(t1, "slowdown");
	assert_int_equal(json_object_get_int_member(t1,
						    "accounted_gpu_time_ns"),
			 390000000);
	assert_true(json_object_get_boolean_member(t1, "killed"));

	m = json_object_get_object_member(o, "metrics");
	assert_members(m, metrics);
	assert_true(json_object_get_double_member(m, "jain_index") == 0.9);
	assert_int_equal(json_object_get_int_member(m, "ctx_switches"), 1234);
	assert_null_member(m, "accounting_error");
	assert_null_member(m, "energy_j"); /* infinite */
}

static void test_summary_null_strings_and_clamp(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonObject *o;

	g_clear_pointer(&fx->r.config, g_free);
	g_clear_pointer(&fx->r.policy, g_free);
	fx->r.seed = UINT64_MAX;
	write_ok(&fx->r, fx->dir, FALSE);
	text = read_output(fx->dir, "summary.json");
	root = parse_json(text);
	o = json_node_get_object(root);
	assert_null_member(o, "config");
	assert_null_member(o, "policy");
	assert_int_equal(json_object_get_int_member(o, "seed"), INT64_MAX);
}

/* --- CSV --------------------------------------------------------------- */

static void test_tasks_csv_exact(void **state)
{
	static const char want[] =
		"name,vm,weight,gpu,rounds,round_mean_ns,gpu_time_ns,"
		"accounted_gpu_time_ns,gpu_share,slowdown,killed,migrations,"
		"migration_stall_ns,"
		"round_min_ns,round_p50_ns,round_p90_ns,round_p99_ns,"
		"round_max_ns,round_std_ns,wait_min_ns,wait_p50_ns,"
		"wait_p90_ns,wait_p99_ns,wait_max_ns,wait_std_ns\n"
		"alpha,,1,0,10,1500000.0,600000000,,0.600000,1.500000,false,0,0,"
		"1000000,1500000,1900000,2000000,2000000,250000.5,"
		"0,1000,5000,9000,9000,2500.0\n"
		"\"b,\"\"q\"\"\",vm1,2,1,0,,400000000,390000000,0.400000,,"
		"true,3,52500000,,,,,,,,,,,,\n"
		"gamma,vm1,1,0,5,2000.0,0,0,0.000000,1.000000,false,0,0,"
		",,,,,,,,,,,\n";
	struct fixture *fx = *state;
	g_autofree char *text = NULL;

	write_ok(&fx->r, fx->dir, FALSE);
	text = read_output(fx->dir, "tasks.csv");
	assert_non_null(text);
	assert_string_equal(text, want);
}

static void test_series_csv_rows(void **state)
{
	static const char want[] =
		"time_ns,task,gpu_time_ns,accounted_gpu_time_ns,vtime_ns\n"
		"1000000,alpha,500000,,700\n"
		"1000000,\"b,\"\"q\"\"\",400000,390000,800\n"
		"2000000,alpha,900000,,1500\n";
	struct fixture *fx = *state;
	g_autofree char *text = NULL;

	write_ok(&fx->r, fx->dir, FALSE);
	text = read_output(fx->dir, "series.csv");
	assert_non_null(text);
	assert_string_equal(text, want);
}

/* A decimal comma in the process locale must not reach the files or the
 * table. Skipped where no such locale is installed (LOCPATH may point at
 * one made with localedef -i de_DE -f UTF-8). */
static void test_output_ignores_locale(void **state)
{
	static const char *const files[] = {
		"summary.json", "tasks.csv", "series.csv", "timeline.json",
	};
	struct fixture *fx = *state;
	g_autofree char *saved = g_strdup(setlocale(LC_NUMERIC, NULL));
	g_autofree char *table_c = NULL, *table_de = NULL;
	char *before[G_N_ELEMENTS(files)];
	size_t i;

	write_ok(&fx->r, fx->dir, TRUE);
	for (i = 0; i < G_N_ELEMENTS(files); i++)
		before[i] = read_output(fx->dir, files[i]);
	table_c = print_table(&fx->r);
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") &&
	    !setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
		for (i = 0; i < G_N_ELEMENTS(files); i++)
			g_free(before[i]);
		/* skip() jumps out: free what g_autofree would have */
		g_clear_pointer(&table_c, g_free);
		g_clear_pointer(&saved, g_free);
		skip();
	}
	write_ok(&fx->r, fx->dir, TRUE);
	table_de = print_table(&fx->r);
	setlocale(LC_NUMERIC, saved);
	assert_string_equal(table_c, table_de);
	for (i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *after = read_output(fx->dir, files[i]);

		assert_string_equal(before[i], after);
		g_free(before[i]);
	}
}

/* A violated invariant: the results are written all the same, with the
 * verdict and the message beside the checksum. */
static void test_summary_invariant_violation(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonObject *o;

	fx->r.invariant_violation = g_strdup("invariant 'no command lost' "
					     "violated at 5 ns: lost");
	write_ok(&fx->r, fx->dir, FALSE);
	text = read_output(fx->dir, "summary.json");
	root = parse_json(text);
	o = json_node_get_object(root);
	assert_string_equal(json_object_get_string_member(o, "invariants"),
			    "violated");
	assert_string_equal(json_object_get_string_member(
				    o, "invariant_violation"),
			    "invariant 'no command lost' violated at 5 ns: "
			    "lost");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_leaves_undefined_metrics_nan),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_csv_cell),
		cmocka_unit_test(test_us_exact),
		cmocka_unit_test_setup_teardown(test_summary_keys_nulls,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_summary_null_strings_and_clamp, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_summary_invariant_violation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tasks_csv_exact,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_series_csv_rows,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_ignores_locale,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
