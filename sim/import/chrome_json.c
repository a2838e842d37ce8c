/* chrome-json: Chrome Trace Event Format files, as PyTorch's profiler
 * (Kineto, libkineto/src/output_json.cpp) writes them.
 *
 * GPU jobs are complete events (`ph: "X"`) of category `kernel`,
 * `gpu_memcpy` or `gpu_memset`, whose `pid` is the device and `tid` the
 * stream (also in `args.device` and `args.stream`). `ts` and `dur` are
 * microseconds (Kineto prints three decimals: whole nanoseconds). The host
 * call that launched a job (`cuda_runtime` or `cuda_driver`, e.g.
 * cudaLaunchKernel) carries the same `args.correlation` and the launching
 * process as its `pid`: its start is the submission time and its process
 * the task. A job without one is submitted when the GPU started it, and
 * belongs to a task of its device. `process_name` metadata events (`ph:
 * "M"`) name the tasks. The file is `{"traceEvents": [...]}` or a bare
 * array of events (the Trace Event Format's two forms). */
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "sim/import/import.h"
#include "workloads/file_read.h"

/* The host call behind a correlation id. */
struct launch {
	char *process;		/* its pid, as text */
	guint64 at_ns;
};

struct reader {
	struct gs_import *imp;
	GHashTable *lines;	/* JsonObject * -> its first line */
	GArray *open_lines;	/* lines of the objects being parsed */
	GHashTable *names;	/* pid text -> process_name */
	GHashTable *launches;	/* correlation id -> struct launch * */
};

static void launch_free(gpointer p)
{
	struct launch *l = p;

	g_free(l->process);
	g_free(l);
}

/* json-glib tells no node's position once parsed: the parser's signals
 * give each object the line of its '{' while it is read. */
static void on_object_start(JsonParser *parser, gpointer data)
{
	struct reader *r = data;
	guint line = json_parser_get_current_line(parser);

	g_array_append_val(r->open_lines, line);
}

static void on_object_end(JsonParser *parser, JsonObject *object,
			  gpointer data)
{
	struct reader *r = data;
	guint line;

	(void)parser;
	if (!r->open_lines->len)
		return;
	line = g_array_index(r->open_lines, guint, r->open_lines->len - 1);
	g_array_set_size(r->open_lines, r->open_lines->len - 1);
	g_hash_table_insert(r->lines, object, GUINT_TO_POINTER(line));
}

static guint32 line_of(const struct reader *r, JsonObject *o)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(r->lines, o));
}

/* A pid, tid, stream or id: an integer or a string, as text; NULL for
 * anything else. */
static char *member_text(JsonObject *o, const char *name)
{
	JsonNode *n = o ? json_object_get_member(o, name) : NULL;

	if (!n || !JSON_NODE_HOLDS_VALUE(n))
		return NULL;
	if (json_node_get_value_type(n) == G_TYPE_INT64)
		return g_strdup_printf("%" G_GINT64_FORMAT,
				       json_node_get_int(n));
	if (json_node_get_value_type(n) == G_TYPE_STRING)
		return g_strdup(json_node_get_string(n));
	return NULL;
}

static const char *member_string(JsonObject *o, const char *name)
{
	JsonNode *n = o ? json_object_get_member(o, name) : NULL;

	if (!n || !JSON_NODE_HOLDS_VALUE(n) ||
	    json_node_get_value_type(n) != G_TYPE_STRING)
		return NULL;
	return json_node_get_string(n);
}

static JsonObject *member_object(JsonObject *o, const char *name)
{
	JsonNode *n = o ? json_object_get_member(o, name) : NULL;

	return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* Microseconds (`ts`, `dur`) as whole nanoseconds. false when the member
 * is missing, not a number, negative or past what 64 bits of nanoseconds
 * hold (the message then names it). */
static bool member_us(const struct reader *r, JsonObject *o, const char *name,
		      guint64 *ns, GError **error)
{
	JsonNode *n = json_object_get_member(o, name);
	double v = -1;

	if (n && JSON_NODE_HOLDS_VALUE(n)) {
		GType t = json_node_get_value_type(n);

		if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE)
			v = json_node_get_double(n);
	}
	/* 9.2e15 us is 2^63 ns */
	if (!(v >= 0 && v < 9.2e15)) {
		gs_import_error_at(r->imp, line_of(r, o), error,
				   GS_IMPORT_ERROR_PARSE,
				   "'%s' must be a number of microseconds, "
				   "at least 0", name);
		return false;
	}
	*ns = (guint64)llround(v * 1000.0);
	return true;
}

static bool is_gpu_job(const char *cat, bool *copy)
{
	*copy = !g_ascii_strcasecmp(cat, "gpu_memcpy") ||
		!g_ascii_strcasecmp(cat, "gpu_memset");
	return *copy || !g_ascii_strcasecmp(cat, "kernel");
}

static bool is_host_launch(const char *cat)
{
	return !g_ascii_strcasecmp(cat, "cuda_runtime") ||
	       !g_ascii_strcasecmp(cat, "cuda_driver");
}

/* First pass: process names and the host calls by correlation id. */
static bool note_host_event(struct reader *r, JsonObject *e, GError **error)
{
	const char *ph = member_string(e, "ph");
	const char *cat = member_string(e, "cat");
	const char *name = member_string(e, "name");
	JsonObject *args = member_object(e, "args");
	g_autofree char *pid = member_text(e, "pid");
	char *corr;
	struct launch *l;

	if (ph && !strcmp(ph, "M") && name && !strcmp(name, "process_name") &&
	    pid && member_string(args, "name")) {
		g_hash_table_replace(r->names, g_steal_pointer(&pid),
				     g_strdup(member_string(args, "name")));
		return true;
	}
	if (!ph || strcmp(ph, "X") || !cat || !is_host_launch(cat))
		return true;
	corr = member_text(args, "correlation");
	if (!corr || !pid) {
		g_free(corr);
		return true;	/* a host call that launched nothing */
	}
	l = g_new0(struct launch, 1);
	l->process = g_steal_pointer(&pid);
	if (!member_us(r, e, "ts", &l->at_ns, error)) {
		launch_free(l);
		g_free(corr);
		return false;
	}
	g_hash_table_replace(r->launches, corr, l);
	return true;
}

/* The task of a GPU job: its launching process, or its device. */
static struct gs_import_task *job_task(struct reader *r, JsonObject *e,
				       const struct launch *l,
				       const char *device, GError **error)
{
	g_autofree char *key = NULL, *fallback = NULL;
	const char *pid = l ? l->process : device;
	const char *name = g_hash_table_lookup(r->names, pid);

	key = g_strdup_printf(l ? "pid %s" : "device %s", pid);
	fallback = g_strdup_printf(l ? "pid%s" : "gpu%s", pid);
	return gs_import_task(r->imp, key, name ? name : fallback,
			      line_of(r, e), error);
}

/* Second pass: one job per GPU event. */
static bool add_gpu_event(struct reader *r, JsonObject *e, GError **error)
{
	const char *ph = member_string(e, "ph");
	const char *cat = member_string(e, "cat");
	JsonObject *args = member_object(e, "args");
	g_autofree char *device = NULL, *stream = NULL, *corr = NULL;
	g_autofree char *channel = NULL;
	const struct launch *l = NULL;
	struct gs_import_task *task;
	guint64 start, dur, submit;
	guint32 line = line_of(r, e);
	bool copy;
	gint ch;

	if (!ph || strcmp(ph, "X") || !cat || !is_gpu_job(cat, &copy))
		return true;
	if (!member_us(r, e, "ts", &start, error) ||
	    !member_us(r, e, "dur", &dur, error))
		return false;
	device = member_text(args, "device");
	if (!device)
		device = member_text(e, "pid");
	stream = member_text(args, "stream");
	if (!stream)
		stream = member_text(e, "tid");
	if (!device || !stream) {
		gs_import_error_at(r->imp, line, error, GS_IMPORT_ERROR_PARSE,
				   "a GPU event needs its device and stream "
				   "(args.device or pid, args.stream or tid)");
		return false;
	}
	corr = member_text(args, "correlation");
	if (corr)
		l = g_hash_table_lookup(r->launches, corr);
	/* the host's and the GPU's clocks may disagree by a little: a job
	 * is never submitted after the GPU started it */
	submit = l ? MIN(l->at_ns, start) : start;
	task = job_task(r, e, l, device, error);
	if (!task)
		return false;
	channel = g_strdup_printf("device %s stream %s", device, stream);
	ch = gs_import_channel(r->imp, task, channel, line, error);
	return ch >= 0 && gs_import_job_add(r->imp, task, (guint32)ch, copy,
					    submit, dur, line, error);
}

static JsonArray *events_of(struct reader *r, JsonNode *root, GError **error)
{
	JsonObject *o;
	JsonNode *events;

	if (root && JSON_NODE_HOLDS_ARRAY(root))
		return json_node_get_array(root);
	o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
	events = o ? json_object_get_member(o, "traceEvents") : NULL;
	if (events && JSON_NODE_HOLDS_ARRAY(events))
		return json_node_get_array(events);
	gs_import_error_at(r->imp, 1, error, GS_IMPORT_ERROR_PARSE,
			   "expected an array of trace events or an object "
			   "with a 'traceEvents' array");
	return NULL;
}

static bool read_events(struct reader *r, JsonArray *events, GError **error)
{
	guint n = json_array_get_length(events), i;

	for (i = 0; i < n; i++) {
		JsonNode *e = json_array_get_element(events, i);

		if (JSON_NODE_HOLDS_OBJECT(e) &&
		    !note_host_event(r, json_node_get_object(e), error))
			return false;
	}
	for (i = 0; i < n; i++) {
		JsonNode *e = json_array_get_element(events, i);

		if (JSON_NODE_HOLDS_OBJECT(e) &&
		    !add_gpu_event(r, json_node_get_object(e), error))
			return false;
	}
	if (!r->imp->jobs)
		gs_import_error_at(r->imp, 0, error, GS_IMPORT_ERROR_EMPTY,
				   "no GPU job: no complete event (ph X) of "
				   "category kernel, gpu_memcpy or gpu_memset");
	return r->imp->jobs > 0;
}

/* json-glib's message for data is "<data>:LINE:COLUMN: ..." */
static void parse_error(struct reader *r, const GError *err, GError **error)
{
	const char *msg = err->message;

	if (g_str_has_prefix(msg, "<data>:"))
		msg += strlen("<data>:");
	g_set_error(error, GS_IMPORT_ERROR, GS_IMPORT_ERROR_PARSE, "%s:%s",
		    r->imp->source, msg);
}

static bool chrome_json_read(const char *path, struct gs_import *out,
			     GError **error)
{
	struct reader r = { .imp = out };
	g_autoptr(JsonParser) parser = json_parser_new_immutable();
	g_autoptr(GError) err = NULL;
	g_autofree char *data = NULL;
	JsonArray *events;
	size_t len;
	bool ok = false;

	data = gs_read_file_bounded(path, GS_IMPORT_MAX_FILE_BYTES, &len, &err);
	if (!data) {
		g_set_error(error, GS_IMPORT_ERROR, GS_IMPORT_ERROR_READ, "%s",
			    err->message);
		return false;
	}
	r.lines = g_hash_table_new(g_direct_hash, g_direct_equal);
	r.open_lines = g_array_new(FALSE, FALSE, sizeof(guint));
	r.names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					g_free);
	r.launches = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   launch_free);
	g_signal_connect(parser, "object-start", G_CALLBACK(on_object_start),
			 &r);
	g_signal_connect(parser, "object-end", G_CALLBACK(on_object_end), &r);
	if (!json_parser_load_from_data(parser, data, (gssize)len, &err))
		parse_error(&r, err, error);
	else if ((events = events_of(&r, json_parser_get_root(parser), error)))
		ok = read_events(&r, events, error);
	g_hash_table_unref(r.launches);
	g_hash_table_unref(r.names);
	g_array_unref(r.open_lines);
	g_hash_table_unref(r.lines);
	return ok;
}

const struct gs_importer gs_importer_chrome_json = {
	.format = "chrome-json",
	.summary = "Chrome/Perfetto trace events (PyTorch profiler, Kineto): "
		   "kernel, gpu_memcpy, gpu_memset",
	.read = chrome_json_read,
};
