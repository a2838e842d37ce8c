/* gpusim compare: reading summary.json and sweep.csv into flat tables. */
#include "sim/cli/compare.h"

#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#define CMP_ERROR g_quark_from_static_string("gs-compare")

static void value_free(gpointer p)
{
	struct gs_cmp_value *v = p;

	g_free(v->key);
	g_free(v->text);
	g_free(v);
}

static struct gs_cmp_table *table_new(bool sweep)
{
	struct gs_cmp_table *t = g_new0(struct gs_cmp_table, 1);

	t->values = g_ptr_array_new_with_free_func(value_free);
	t->by_key = g_hash_table_new(g_str_hash, g_str_equal);
	t->sweep = sweep;
	return t;
}

void gs_cmp_table_free(struct gs_cmp_table *t)
{
	if (!t)
		return;
	g_hash_table_destroy(t->by_key);
	g_ptr_array_unref(t->values);
	g_free(t);
}

/* A number only when the whole text is a decimal one (a checksum such
 * as 0xff9f... is text, not a number). */
static bool parse_number(const char *s, double *out)
{
	char *end;

	if (!*s || s[strspn(s, "0123456789+-.eE")])
		return false;
	*out = g_ascii_strtod(s, &end);
	return *end == '\0';
}

/* Adds key = text; a later value of the same key replaces nothing (the
 * first one counts, as in file order). */
static void add(struct gs_cmp_table *t, char *key, const char *text)
{
	struct gs_cmp_value *v;

	if (g_hash_table_contains(t->by_key, key)) {
		g_free(key);
		return;
	}
	v = g_new0(struct gs_cmp_value, 1);
	v->key = key;
	v->text = g_strdup(text);
	v->numeric = parse_number(text, &v->num);
	g_ptr_array_add(t->values, v);
	g_hash_table_insert(t->by_key, v->key, v);
}

/* --- summary.json --- */

static char *node_text(JsonNode *n)
{
	GType type;

	if (JSON_NODE_HOLDS_NULL(n))
		return g_strdup("null");
	if (!JSON_NODE_HOLDS_VALUE(n))
		return NULL;
	type = json_node_get_value_type(n);
	if (type == G_TYPE_BOOLEAN)
		return g_strdup(json_node_get_boolean(n) ? "true" : "false");
	if (type == G_TYPE_STRING)
		return g_strdup(json_node_get_string(n));
	if (type == G_TYPE_INT64)
		return g_strdup_printf("%" G_GINT64_FORMAT,
				       json_node_get_int(n));
	{
		char buf[G_ASCII_DTOSTR_BUF_SIZE];

		return g_strdup(g_ascii_dtostr(buf, sizeof(buf),
					       json_node_get_double(n)));
	}
}

/* Every scalar member of o as prefix + name. */
static void add_members(struct gs_cmp_table *t, JsonObject *o,
			const char *prefix)
{
	g_autoptr(GList) names = json_object_get_members(o);
	GList *l;

	for (l = names; l; l = l->next) {
		g_autofree char *text =
			node_text(json_object_get_member(o, l->data));

		if (text)
			add(t, g_strconcat(prefix, l->data, NULL), text);
	}
}

static struct gs_cmp_table *read_summary(const char *file, GError **error)
{
	g_autoptr(JsonParser) p = json_parser_new();
	g_autoptr(GError) err = NULL;
	struct gs_cmp_table *t;
	JsonObject *root, *metrics;
	JsonArray *tasks;
	guint i;

	if (!json_parser_load_from_file(p, file, &err)) {
		/* json-glib's messages start with <data>:LINE:COL or
		 * LINE:COL */
		const char *m = err->message;

		if (g_str_has_prefix(m, "<data>:"))
			m += strlen("<data>:");
		g_set_error(error, CMP_ERROR, 0, "%s:%s", file, m);
		return NULL;
	}
	if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p))) {
		g_set_error(error, CMP_ERROR, 0,
			    "%s:1:1: not a gpusim summary (no object)", file);
		return NULL;
	}
	root = json_node_get_object(json_parser_get_root(p));
	if (!json_object_has_member(root, "metrics") ||
	    !json_object_has_member(root, "tasks")) {
		g_set_error(error, CMP_ERROR, 0, "%s:1:1: not a gpusim "
			    "summary (no metrics or tasks)", file);
		return NULL;
	}
	t = table_new(false);
	add_members(t, root, "");
	metrics = json_object_get_object_member(root, "metrics");
	if (metrics)
		add_members(t, metrics, "");
	tasks = json_object_get_array_member(root, "tasks");
	for (i = 0; tasks && i < json_array_get_length(tasks); i++) {
		JsonObject *task = json_array_get_object_element(tasks, i);
		const char *name = task && json_object_has_member(task, "name")
			? json_object_get_string_member(task, "name") : NULL;
		g_autofree char *prefix = NULL;

		if (!name)
			continue;
		prefix = g_strconcat(name, ".", NULL);
		add_members(t, task, prefix);
	}
	return t;
}

/* --- sweep.csv --- */

/* The cells of one line (RFC 4180 quoting: "a,b", "say ""x"""); NULL on
 * an unterminated quote. */
static GPtrArray *csv_cells(const char *line)
{
	GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
	GString *cell = g_string_new(NULL);
	const char *p = line;
	bool quoted = false;

	for (;; p++) {
		if (quoted) {
			if (!*p) {
				g_string_free(cell, TRUE);
				g_ptr_array_unref(cells);
				return NULL;
			}
			if (*p == '"' && p[1] == '"')
				g_string_append_c(cell, *p++);
			else if (*p == '"')
				quoted = false;
			else
				g_string_append_c(cell, *p);
		} else if (*p == '"') {
			quoted = true;
		} else if (*p == ',' || !*p) {
			g_ptr_array_add(cells, g_strdup(cell->str));
			g_string_truncate(cell, 0);
			if (!*p)
				break;
		} else if (*p != '\r') {
			g_string_append_c(cell, *p);
		}
	}
	g_string_free(cell, TRUE);
	return cells;
}

static struct gs_cmp_table *read_sweep(const char *file, GError **error)
{
	g_autofree char *data = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GPtrArray) head = NULL;
	g_autoptr(GError) err = NULL;
	struct gs_cmp_table *t;
	guint i, j;

	if (!g_file_get_contents(file, &data, NULL, &err)) {
		g_set_error(error, CMP_ERROR, 0, "%s", err->message);
		return NULL;
	}
	lines = g_strsplit(data, "\n", -1);
	head = lines[0] ? csv_cells(lines[0]) : NULL;
	if (!head || head->len < 2 ||
	    strcmp(g_ptr_array_index(head, 0), "point")) {
		g_set_error(error, CMP_ERROR, 0, "%s:1: not a sweep table "
			    "(its first column is not 'point')", file);
		return NULL;
	}
	t = table_new(true);
	for (i = 1; lines[i]; i++) {
		g_autoptr(GPtrArray) row = NULL;

		if (!*lines[i])
			continue;
		row = csv_cells(lines[i]);
		if (!row || row->len != head->len) {
			g_set_error(error, CMP_ERROR, 0, "%s:%u: %s", file,
				    i + 1, row ? "not as many cells as the "
				    "header has columns" : "unterminated quote");
			gs_cmp_table_free(t);
			return NULL;
		}
		for (j = 1; j < row->len; j++)
			add(t, g_strdup_printf("%s/%s",
					       (char *)row->pdata[0],
					       (char *)head->pdata[j]),
			    row->pdata[j]);
	}
	return t;
}

struct gs_cmp_table *gs_cmp_read(const char *path, GError **error)
{
	g_autofree char *summary = g_build_filename(path, "summary.json",
						    NULL);
	g_autofree char *sweep = g_build_filename(path, "sweep.csv", NULL);

	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		if (g_file_test(summary, G_FILE_TEST_IS_REGULAR))
			return read_summary(summary, error);
		if (g_file_test(sweep, G_FILE_TEST_IS_REGULAR))
			return read_sweep(sweep, error);
		g_set_error(error, CMP_ERROR, 0, "%s: neither a results "
			    "folder (summary.json) nor a sweep folder "
			    "(sweep.csv)", path);
		return NULL;
	}
	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		g_set_error(error, CMP_ERROR, 0, "%s: no such file or folder",
			    path);
		return NULL;
	}
	if (g_str_has_suffix(path, ".json"))
		return read_summary(path, error);
	return read_sweep(path, error);
}

const char *gs_cmp_metric_of(const char *key, bool sweep)
{
	const char *slash = sweep ? strchr(key, '/') : NULL;

	return slash ? slash + 1 : key;
}
