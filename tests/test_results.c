/* Result writers: summary.json, tasks.csv, series.csv, timeline.json, the
 * table, and the atomic write that puts them on disk. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "sim/host/results.h"
#include "sim/results/results_priv.h"
#include "tests/support/test_dirs.h"

struct fixture {
	char *dir;
	struct gs_results r;
};

static void add_task(struct gs_results *r, const struct gs_task_result *t)
{
	r->tasks = g_renew(struct gs_task_result, r->tasks, r->n_tasks + 1);
	r->tasks[r->n_tasks] = *t;
	r->tasks[r->n_tasks].name = g_strdup(t->name);
	r->tasks[r->n_tasks].vm = g_strdup(t->vm);
	r->n_tasks++;
}

static void add_track(struct gs_results *r, uint32_t gpu,
		      enum gs_track_kind kind, uint32_t track,
		      const char *label)
{
	struct gs_track t = {
		.gpu = gpu, .track_kind = kind, .track = track,
		.label = g_strdup(label),
	};

	g_array_append_val(r->tracks, t);
}

static void add_span(struct gs_results *r, gs_time_t start, gs_time_t end,
		     uint32_t gpu, enum gs_track_kind kind, uint32_t track,
		     const char *name, const char *category)
{
	struct gs_span s = {
		.start = start, .end = end, .gpu = gpu, .track_kind = kind,
		.track = track, .name = gs_results_intern(r, name),
		.category = gs_results_intern(r, category),
	};

	g_array_append_val(r->spans, s);
}

static void add_point(struct gs_results *r, gs_time_t t, uint32_t task,
		      uint64_t gpu, uint64_t acc, uint64_t vtime)
{
	struct gs_series_point p = {
		.t = t, .task = task, .gpu_time_ns = gpu,
		.accounted_gpu_time_ns = acc, .vtime_ns = vtime,
	};

	g_array_append_val(r->series, p);
}

/* Three tasks: one on the host with no estimate, one whose name needs CSV
 * quoting with a NAN round time and slowdown, one that did nothing. */
static void build_results(struct gs_results *r)
{
	gs_results_init(r);
	r->config = g_strdup("configs/test.yaml");
	r->name = g_strdup("two-vms");
	r->seed = 42;
	r->policy = g_strdup("dfq");
	r->sim_time_ns = 2 * GS_NS_PER_S;
	r->events = 123456;
	r->event_checksum = 0xdeadbeefULL;
	r->n_gpus = 2;

	add_task(r, &(struct gs_task_result){
		.name = "alpha", .vm = NULL, .weight = 1, .gpu = 0,
		.rounds = 10, .round_mean_ns = 1500000.0,
		.gpu_time_ns = 600000000, .has_accounted = false,
		.accounted_gpu_time_ns = 12345, .gpu_share = 0.6,
		.slowdown = 1.5, .killed = false });
	add_task(r, &(struct gs_task_result){
		.name = "b,\"q\"", .vm = "vm1", .weight = 2, .gpu = 1,
		.rounds = 0, .round_mean_ns = NAN,
		.gpu_time_ns = 400000000, .has_accounted = true,
		.accounted_gpu_time_ns = 390000000, .gpu_share = 0.4,
		.slowdown = NAN, .killed = true, .migrations = 3 });
	add_task(r, &(struct gs_task_result){
		.name = "gamma", .vm = "vm1", .weight = 1, .gpu = 0,
		.rounds = 5, .round_mean_ns = 2000.0, .gpu_time_ns = 0,
		.has_accounted = true, .accounted_gpu_time_ns = 0,
		.gpu_share = 0.0, .slowdown = 1.0, .killed = false });

	r->metrics = (struct gs_metrics){
		.jain_index = 0.9, .concurrency_efficiency = 1.75,
		.gpu_utilization = 0.5, .policy_cpu_overhead = 0.17,
		.ctx_switches = 1234, .accounting_error = NAN,
		.energy_j = INFINITY,
	};

	add_point(r, 1000000, 0, 500000, 0, 700);
	add_point(r, 1000000, 1, 400000, 390000, 800);
	add_point(r, 2000000, 0, 900000, 0, 1500);

	add_track(r, 0, GS_TRACK_ENGINE, 0, "compute");
	add_track(r, 0, GS_TRACK_CHANNEL, 3, "ch3 b,\"q\"");
	add_track(r, 1, GS_TRACK_POLICY, 0, "policy");
	add_span(r, 1234567, 1334567, 0, GS_TRACK_ENGINE, 0, "k\"1\n", "run");
	add_span(r, 5, 1005, 0, GS_TRACK_CHANNEL, 3, "submit", "run");
	add_span(r, 2000000, 3000001, 1, GS_TRACK_POLICY, 0, "drain",
		 "policy");
	r->timeline_truncated = true;
}


static int setup(void **state)
{
	struct fixture *fx = g_new0(struct fixture, 1);

	fx->dir = g_dir_make_tmp("gs_results_XXXXXX", NULL);
	if (!fx->dir)
		return -1;
	build_results(&fx->r);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	gs_results_clear(&fx->r);
	remove_tree(fx->dir);
	g_free(fx->dir);
	g_free(fx);
	return 0;
}

static char *read_output(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}


static void write_ok(const struct gs_results *r, const char *dir,
		     gboolean with_timeline)
{
	GError *error = NULL;
	gboolean ok = gs_results_write_dir(r, dir, with_timeline, &error);

	if (!ok)
		fail_msg("write failed: %s", error->message);
	assert_true(ok);
}

static JsonNode *parse_json(const char *text)
{
	g_autoptr(JsonParser) p = json_parser_new();
	GError *error = NULL;

	if (!json_parser_load_from_data(p, text, -1, &error))
		fail_msg("invalid JSON: %s", error->message);
	return json_node_copy(json_parser_get_root(p));
}

static void assert_members(JsonObject *o, const char *const *want)
{
	GList *members = json_object_get_members(o);
	GList *l = members;
	size_t i;

	for (i = 0; want[i]; i++, l = l->next) {
		assert_non_null(l);
		assert_string_equal(l->data, want[i]);
	}
	assert_null(l);
	g_list_free(members);
}

static void assert_null_member(JsonObject *o, const char *key)
{
	assert_true(json_object_has_member(o, key));
	assert_true(JSON_NODE_HOLDS_NULL(json_object_get_member(o, key)));
}

/* --- the table --------------------------------------------------------- */

static char *print_table(const struct gs_results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	gs_results_print_table(r, f);
	fclose(f);
	return buf;
}

/* --- interning --------------------------------------------------------- */

static void test_intern_in_order_of_first_use(void **state)
{
	struct gs_results r;

	(void)state;
	gs_results_init(&r);
	assert_int_equal(gs_results_intern(&r, "run"), 0);
	assert_int_equal(gs_results_intern(&r, "drain"), 1);
	assert_int_equal(gs_results_intern(&r, "run"), 0);
	assert_int_equal(gs_results_intern(&r, "sample"), 2);
	assert_int_equal(gs_results_intern(&r, "drain"), 1);
	assert_int_equal(r.names->len, 3);
	assert_string_equal(g_ptr_array_index(r.names, 0), "run");
	assert_string_equal(g_ptr_array_index(r.names, 1), "drain");
	assert_string_equal(g_ptr_array_index(r.names, 2), "sample");
	gs_results_clear(&r);
	gs_results_clear(&r); /* clearing twice is safe */
}

static void test_init_leaves_undefined_metrics_nan(void **state)
{
	struct gs_results r;

	(void)state;
	gs_results_init(&r);
	assert_true(isnan(r.metrics.jain_index));
	assert_true(isnan(r.metrics.accounting_error));
	assert_int_equal(r.series->len, 0);
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
		"gpu_time_ns", "accounted_gpu_time_ns", "gpu_share",
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
		"accounted_gpu_time_ns,gpu_share,slowdown,killed,migrations\n"
		"alpha,,1,0,10,1500000.0,600000000,,0.600000,1.500000,false,0\n"
		"\"b,\"\"q\"\"\",vm1,2,1,0,,400000000,390000000,0.400000,,"
		"true,3\n"
		"gamma,vm1,1,0,5,2000.0,0,0,0.000000,1.000000,false,0\n";
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

/* --- timeline.json ----------------------------------------------------- */

static JsonObject *event_at(JsonArray *events, guint i)
{
	return json_array_get_object_element(events, i);
}

static void assert_meta(JsonObject *e, const char *name, gint64 pid,
			gint64 tid)
{
	assert_string_equal(json_object_get_string_member(e, "ph"), "M");
	assert_string_equal(json_object_get_string_member(e, "name"), name);
	assert_int_equal(json_object_get_int_member(e, "pid"), pid);
	assert_int_equal(json_object_get_int_member(e, "tid"), tid);
}

static void assert_span(JsonObject *e, const char *name, gint64 pid,
			gint64 tid)
{
	static const char *const keys[] = {
		"name", "cat", "ph", "pid", "tid", "ts", "dur", NULL,
	};

	assert_members(e, keys);
	assert_string_equal(json_object_get_string_member(e, "ph"), "X");
	assert_string_equal(json_object_get_string_member(e, "name"), name);
	assert_int_equal(json_object_get_int_member(e, "pid"), pid);
	assert_int_equal(json_object_get_int_member(e, "tid"), tid);
}

static void test_timeline(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonObject *o, *e, *args;
	JsonArray *events;

	write_ok(&fx->r, fx->dir, TRUE);
	text = read_output(fx->dir, "timeline.json");
	assert_non_null(text);
	assert_true(g_str_has_prefix(text,
		"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"));
	/* Exact microseconds from integer nanoseconds. */
	assert_non_null(strstr(text, "\"ts\":1234.567,\"dur\":100.000}"));
	assert_non_null(strstr(text, "\"ts\":0.005,\"dur\":1.000}"));
	assert_non_null(strstr(text, "\"ts\":2000.000,\"dur\":1000.001}"));
	assert_non_null(strstr(text, "{\"name\":\"k\\\"1\\n\",\"cat\":\"run\""));

	root = parse_json(text);
	o = json_node_get_object(root);
	assert_string_equal(json_object_get_string_member(o,
							  "displayTimeUnit"),
			    "ns");
	events = json_object_get_array_member(o, "traceEvents");
	/* 2 GPUs + 3 tracks x 2 + 3 spans + the truncation note. */
	assert_int_equal(json_array_get_length(events), 2 + 6 + 3 + 1);

	assert_meta(event_at(events, 0), "process_name", 0, 0);
	args = json_object_get_object_member(event_at(events, 0), "args");
	assert_string_equal(json_object_get_string_member(args, "name"),
			    "GPU 0");
	assert_meta(event_at(events, 1), "process_name", 1, 0);
	args = json_object_get_object_member(event_at(events, 1), "args");
	assert_string_equal(json_object_get_string_member(args, "name"),
			    "GPU 1");

	assert_meta(event_at(events, 2), "thread_name", 0, 1);
	args = json_object_get_object_member(event_at(events, 2), "args");
	assert_string_equal(json_object_get_string_member(args, "name"),
			    "compute");
	assert_meta(event_at(events, 3), "thread_sort_index", 0, 1);
	assert_meta(event_at(events, 4), "thread_name", 0, 1003);
	args = json_object_get_object_member(event_at(events, 4), "args");
	assert_string_equal(json_object_get_string_member(args, "name"),
			    "ch3 b,\"q\"");
	assert_meta(event_at(events, 5), "thread_sort_index", 0, 1003);
	args = json_object_get_object_member(event_at(events, 5), "args");
	assert_int_equal(json_object_get_int_member(args, "sort_index"), 1003);
	assert_meta(event_at(events, 6), "thread_name", 1, 100);
	assert_meta(event_at(events, 7), "thread_sort_index", 1, 100);
	args = json_object_get_object_member(event_at(events, 7), "args");
	assert_int_equal(json_object_get_int_member(args, "sort_index"), 100);

	assert_span(event_at(events, 8), "k\"1\n", 0, 1);
	assert_span(event_at(events, 9), "submit", 0, 1003);
	assert_span(event_at(events, 10), "drain", 1, 100);
	assert_string_equal(json_object_get_string_member(event_at(events, 10),
							  "cat"), "policy");

	e = event_at(events, 11);
	assert_string_equal(json_object_get_string_member(e, "ph"), "i");
	assert_non_null(strstr(json_object_get_string_member(e, "name"),
			       "truncated at 3 spans"));
}

static void test_timeline_not_truncated_has_no_note(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonArray *events;

	fx->r.timeline_truncated = false;
	write_ok(&fx->r, fx->dir, TRUE);
	text = read_output(fx->dir, "timeline.json");
	assert_null(strstr(text, "truncated"));
	root = parse_json(text);
	events = json_object_get_array_member(json_node_get_object(root),
					      "traceEvents");
	assert_int_equal(json_array_get_length(events), 2 + 6 + 3);
}

/* A span cut at the end of the run carries "args":{"open":true}; the
 * others carry no args. */
static void test_timeline_open_span_marked(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	JsonArray *events;
	JsonObject *args;

	fx->r.timeline_truncated = false;
	g_array_index(fx->r.spans, struct gs_span, 2).open = true;
	write_ok(&fx->r, fx->dir, TRUE);
	text = read_output(fx->dir, "timeline.json");
	assert_non_null(strstr(text, "\"dur\":1000.001,"
				     "\"args\":{\"open\":true}}"));
	root = parse_json(text);
	events = json_object_get_array_member(json_node_get_object(root),
					      "traceEvents");
	assert_false(json_object_has_member(event_at(events, 8), "args"));
	assert_false(json_object_has_member(event_at(events, 9), "args"));
	args = json_object_get_object_member(event_at(events, 10), "args");
	assert_non_null(args);
	assert_true(json_object_get_boolean_member(args, "open"));
}

static void test_timeline_empty_is_valid(void **state)
{
	struct gs_results r;
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *text = NULL;
	struct fixture *fx = *state;

	gs_results_init(&r);
	write_ok(&r, fx->dir, TRUE);
	gs_results_clear(&r);
	text = read_output(fx->dir, "timeline.json");
	root = parse_json(text);
	assert_int_equal(json_array_get_length(json_object_get_array_member(
				 json_node_get_object(root), "traceEvents")),
			 0);
}

static void test_timeline_bad_name_index_fails_cleanly(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *listing = NULL;
	GError *error = NULL;

	g_array_index(fx->r.spans, struct gs_span, 1).name = 99;
	assert_false(gs_results_write_dir(&fx->r, fx->dir, TRUE, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, "timeline.json"));
	assert_non_null(strstr(error->message, fx->dir));
	g_error_free(error);
	/* Nothing of the failed run: the folder is as it was (empty). */
	listing = sorted_listing(fx->dir);
	assert_string_equal(listing, "");
}

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

/* The first of lines that starts with prefix. */
static const char *line_starting(char **lines, const char *prefix)
{
	for (; *lines; lines++)
		if (g_str_has_prefix(*lines, prefix))
			return *lines;
	fail_msg("no line starts with %s", prefix);
	return NULL;
}

static char **words(const char *line)
{
	g_auto(GStrv) raw = g_strsplit_set(line, " ", -1);
	GPtrArray *w = g_ptr_array_new();
	char **p;

	for (p = raw; *p; p++)
		if (**p)
			g_ptr_array_add(w, g_strdup(*p));
	g_ptr_array_add(w, NULL);
	return (char **)g_ptr_array_free(w, FALSE);
}

static void test_table(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = print_table(&fx->r);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_auto(GStrv) head = NULL, alpha = NULL, b = NULL;
	const char *header;
	size_t width;

	assert_string_equal(lines[0], "two-vms: policy dfq, seed 42, "
			    "2.000 s simulated, 123456 events");
	header = line_starting(lines, "task ");
	head = words(header);
	alpha = words(line_starting(lines, "alpha "));
	b = words(line_starting(lines, "b,\"q\" "));
	assert_int_equal(g_strv_length(head), 10);
	assert_int_equal(g_strv_length(alpha), 10);
	assert_int_equal(g_strv_length(b), 10);
	assert_string_equal(head[7], "slowdn");

	/* alpha: no VM, 1.5 ms rounds, 600 ms, 60 %, no estimate. */
	assert_string_equal(alpha[1], "-");
	assert_string_equal(alpha[4], "1500.0");
	assert_string_equal(alpha[5], "600.000");
	assert_string_equal(alpha[6], "60.0%");
	assert_string_equal(alpha[7], "1.50x");
	assert_string_equal(alpha[8], "-");
	assert_string_equal(alpha[9], "no");
	/* b: NAN round time and slowdown, an estimate, killed. */
	assert_string_equal(b[1], "vm1");
	assert_string_equal(b[4], "-");
	assert_string_equal(b[7], "-");
	assert_string_equal(b[8], "390.000");
	assert_string_equal(b[9], "yes");
	assert_non_null(line_starting(lines, "gamma "));

	/* Aligned, and within 80 columns for short names. */
	width = strlen(header);
	assert_true(width <= 80);
	assert_int_equal(strlen(line_starting(lines, "alpha ")), width);
	assert_int_equal(strlen(line_starting(lines, "gamma ")), width);

	assert_true(g_str_has_suffix(line_starting(lines,
		"  Jain's fairness index"), " 0.9000"));
	assert_true(g_str_has_suffix(line_starting(lines,
		"  accounting error"), " -"));
	assert_true(g_str_has_suffix(line_starting(lines, "  energy"),
				     " -"));
	assert_true(g_str_has_suffix(line_starting(lines,
		"  context switches"), " 1234"));
	assert_true(g_str_has_suffix(line_starting(lines,
		"  GPU utilization"), " 50.0 %"));
}

/* A 16-character name with wide figures (a 10 s run, a 100 % share) still
 * fits an 80-column terminal. */
static void test_table_fits_80_columns(void **state)
{
	struct fixture *fx = *state;
	struct gs_task_result *t = &fx->r.tasks[0];
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	char **l;

	g_free(t->name);
	t->name = g_strdup("sixteen-chars-ab");
	t->vm = g_strdup("vm12");
	t->rounds = 123456;
	t->round_mean_ns = 12345678.9;
	t->gpu_time_ns = 9999000000ULL;
	t->has_accounted = true;
	t->accounted_gpu_time_ns = 9999000000ULL;
	t->gpu_share = 1.0;
	t->slowdown = 12.34;
	text = print_table(&fx->r);
	lines = g_strsplit(text, "\n", -1);
	assert_non_null(strstr(text, "sixteen-chars-ab vm12"));
	for (l = lines; *l; l++)
		if (strlen(*l) > 80)
			fail_msg("%zu columns: %s", strlen(*l), *l);
}

static void test_table_widens_for_long_names(void **state)
{
	static const char long_name[] = "a-rather-long-task-name-of-40-chars!!!!";
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	const char *header, *row, *b;

	g_free(fx->r.tasks[0].name);
	fx->r.tasks[0].name = g_strdup(long_name);
	text = print_table(&fx->r);
	lines = g_strsplit(text, "\n", -1);
	header = line_starting(lines, "task ");
	row = line_starting(lines, long_name);
	b = line_starting(lines, "b,\"q\" ");
	assert_int_equal(strlen(row), strlen(header));
	assert_int_equal(strlen(b), strlen(header));
	/* The vm column starts at the same place in the header and rows. */
	assert_int_equal(strstr(header, " vm ") + 1 - header,
			 strstr(b, " vm1 ") + 1 - b);
}

/* A name with multi-byte characters is padded by characters, not bytes. */
static void test_table_pads_utf8_names(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	const char *header, *row;

	g_free(fx->r.tasks[0].name);
	fx->r.tasks[0].name = g_strdup("\xc3\xa9t\xc3\xa9-long-name");
	text = print_table(&fx->r);
	lines = g_strsplit(text, "\n", -1);
	header = line_starting(lines, "task ");
	row = line_starting(lines, "\xc3\xa9t\xc3\xa9");
	assert_int_equal(g_utf8_strlen(row, -1), g_utf8_strlen(header, -1));
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
		cmocka_unit_test(test_intern_in_order_of_first_use),
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
		cmocka_unit_test_setup_teardown(test_timeline_open_span_marked,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeline, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_timeline_not_truncated_has_no_note, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_timeline_empty_is_valid,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_timeline_bad_name_index_fails_cleanly, setup,
			teardown),
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
		cmocka_unit_test_setup_teardown(test_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_fits_80_columns,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_table_widens_for_long_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_pads_utf8_names,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
