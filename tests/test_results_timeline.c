/* Result writers: timeline.json (Chrome trace / Perfetto format). */
#include "tests/support/results_fixture.h"

/* --- timeline.json ----------------------------------------------------- */

static JsonObject *event_at(JsonArray *events, guint i)
{
	return json_array_get_object_element(events, i);
}

/* An event's phase ("M", "X"), name and where it is. */
static void assert_event(JsonObject *e, const char *ph, const char *name,
			 gint64 pid, gint64 tid)
{
	assert_string_equal(json_object_get_string_member(e, "ph"), ph);
	assert_string_equal(json_object_get_string_member(e, "name"), name);
	assert_int_equal(json_object_get_int_member(e, "pid"), pid);
	assert_int_equal(json_object_get_int_member(e, "tid"), tid);
}

static void assert_meta(JsonObject *e, const char *name, gint64 pid,
			gint64 tid)
{
	assert_event(e, "M", name, pid, tid);
}

static void assert_span(JsonObject *e, const char *name, gint64 pid,
			gint64 tid)
{
	static const char *const keys[] = {
		"name", "cat", "ph", "pid", "tid", "ts", "dur", NULL,
	};

	assert_members(e, keys);
	assert_event(e, "X", name, pid, tid);
}

/* A span cut at the run's end: "args":{"open":true}. */
static void assert_span_open(JsonObject *e, const char *name, gint64 pid,
			     gint64 tid)
{
	JsonObject *args = json_object_get_object_member(e, "args");

	assert_event(e, "X", name, pid, tid);
	assert_non_null(args);
	assert_true(json_object_get_boolean_member(args, "open"));
}

/* fx's results written; timeline.json's text and parsed root, and its
 * events. */
static JsonArray *written_events(struct fixture *fx, char **text,
				 JsonNode **root)
{
	write_ok(&fx->r, fx->dir, TRUE);
	*text = read_output(fx->dir, "timeline.json");
	assert_non_null(*text);
	*root = parse_json(*text);
	return json_object_get_array_member(json_node_get_object(*root),
					    "traceEvents");
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
	events = written_events(fx, &text, &root);
	assert_null(strstr(text, "truncated"));
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

/* A span record that stands for its channel's span too (on_channel) is
 * written twice, on the engine's track and then the channel's, and the
 * truncation note counts both. */
static void test_timeline_span_on_channel_twice(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	g_autoptr(GArray) flat = NULL;
	struct gs_span *engine;
	JsonArray *events;

	engine = &g_array_index(fx->r.spans, struct gs_span, 0);
	engine->on_channel = true;
	engine->channel = 3;
	engine->open = true;
	flat = gs_results_flat_spans(&fx->r);
	assert_int_equal(flat->len, 4);
	events = written_events(fx, &text, &root);
	assert_non_null(strstr(text, "timeline truncated at 4 spans"));
	/* 2 GPUs + 3 tracks x 2 + 4 spans + the truncation note */
	assert_int_equal(json_array_get_length(events), 2 + 6 + 4 + 1);
	assert_span_open(event_at(events, 8), "k\"1\n", 0, 1);
	assert_span_open(event_at(events, 9), "k\"1\n", 0, 1003);
	assert_true(json_object_get_double_member(event_at(events, 9), "ts") ==
		    json_object_get_double_member(event_at(events, 8), "ts"));
	assert_true(json_object_get_double_member(event_at(events, 9), "dur") ==
		    json_object_get_double_member(event_at(events, 8), "dur"));
	assert_span(event_at(events, 10), "submit", 0, 1003);
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
	assert_false(gs_results_write_dir(&fx->r, fx->dir, GS_TIMELINE_JSON,
					  &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, "timeline.json"));
	assert_non_null(strstr(error->message, fx->dir));
	g_error_free(error);
	/* Nothing of the failed run: the folder is as it was (empty). */
	listing = sorted_listing(fx->dir);
	assert_string_equal(listing, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_timeline_open_span_marked,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeline_span_on_channel_twice,
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
