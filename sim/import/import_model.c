/* The import model: tasks, channels and jobs as importers find them. */
#include "sim/import/import.h"

#include <stdarg.h>
#include <string.h>

G_DEFINE_QUARK(gs-import-error-quark, gs_import_error)

static void task_free(gpointer p)
{
	struct gs_import_task *task = p;

	g_free(task->key);
	g_free(task->name);
	g_ptr_array_unref(task->channels);
	g_array_unref(task->jobs);
	g_free(task);
}

struct gs_import *gs_import_new(const char *source, const char *format)
{
	struct gs_import *imp = g_new0(struct gs_import, 1);

	imp->source = g_strdup(source);
	imp->format = g_strdup(format);
	imp->tasks = g_ptr_array_new_with_free_func(task_free);
	imp->by_key = g_hash_table_new(g_str_hash, g_str_equal);
	imp->notes = g_ptr_array_new_with_free_func(g_free);
	return imp;
}

void gs_import_free(struct gs_import *imp)
{
	if (!imp)
		return;
	g_hash_table_unref(imp->by_key);
	g_ptr_array_unref(imp->tasks);
	g_ptr_array_unref(imp->notes);
	g_free(imp->source);
	g_free(imp->format);
	g_free(imp);
}

void gs_import_error_at(const struct gs_import *imp, guint32 origin,
			GError **error, gint code, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (origin)
		g_set_error(error, GS_IMPORT_ERROR, code, "%s:%u: %s",
			    imp->source, origin, msg);
	else
		g_set_error(error, GS_IMPORT_ERROR, code, "%s: %s",
			    imp->source, msg);
	g_free(msg);
}

/* Scenario task names are plain words: anything else becomes '_', and an
 * empty name becomes "task". */
static char *sanitised_name(const char *name)
{
	GString *out = g_string_new(NULL);
	const char *p;

	for (p = name ? name : ""; *p && out->len < 48; p++)
		g_string_append_c(out, g_ascii_isalnum(*p) || *p == '_' ||
				  *p == '-' || *p == '.' ? *p : '_');
	if (!out->len)
		g_string_append(out, "task");
	return g_string_free(out, FALSE);
}

static bool name_taken(const struct gs_import *imp, const char *name)
{
	guint i;

	for (i = 0; i < imp->tasks->len; i++) {
		const struct gs_import_task *t = g_ptr_array_index(imp->tasks, i);

		if (!strcmp(t->name, name))
			return true;
	}
	return false;
}

struct gs_import_task *gs_import_task(struct gs_import *imp, const char *key,
				      const char *name, guint32 origin,
				      GError **error)
{
	struct gs_import_task *task = g_hash_table_lookup(imp->by_key, key);
	char *base;
	guint n;

	if (task)
		return task;
	if (imp->tasks->len >= GS_IMPORT_MAX_TASKS) {
		gs_import_error_at(imp, origin, error, GS_IMPORT_ERROR_LIMIT,
				   "more than %d processes", GS_IMPORT_MAX_TASKS);
		return NULL;
	}
	task = g_new0(struct gs_import_task, 1);
	task->key = g_strdup(key);
	base = sanitised_name(name);
	task->name = g_strdup(base);
	for (n = 2; name_taken(imp, task->name); n++) {
		g_free(task->name);
		task->name = g_strdup_printf("%s-%u", base, n);
	}
	g_free(base);
	task->channels = g_ptr_array_new_with_free_func(g_free);
	task->jobs = g_array_new(FALSE, FALSE, sizeof(struct gs_import_job));
	g_ptr_array_add(imp->tasks, task);
	g_hash_table_insert(imp->by_key, task->key, task);
	return task;
}

gint gs_import_channel(struct gs_import *imp, struct gs_import_task *task,
		       const char *stream, guint32 origin, GError **error)
{
	guint i;

	for (i = 0; i < task->channels->len; i++)
		if (!strcmp(g_ptr_array_index(task->channels, i), stream))
			return (gint)i;
	if (task->channels->len >= GS_IMPORT_MAX_CHANNELS) {
		gs_import_error_at(imp, origin, error, GS_IMPORT_ERROR_LIMIT,
				   "process '%s' uses more than %d streams",
				   task->key, GS_IMPORT_MAX_CHANNELS);
		return -1;
	}
	g_ptr_array_add(task->channels, g_strdup(stream));
	return (gint)task->channels->len - 1;
}

bool gs_import_job_add(struct gs_import *imp, struct gs_import_task *task,
		       guint32 channel, bool copy, guint64 submit_ns,
		       guint64 duration_ns, guint32 origin, GError **error)
{
	struct gs_import_job job = {
		.submit_ns = submit_ns, .duration_ns = duration_ns,
		.channel = channel, .copy = copy, .origin = origin,
	};

	g_return_val_if_fail(channel < task->channels->len, false);
	if (imp->jobs >= GS_IMPORT_MAX_JOBS) {
		gs_import_error_at(imp, origin, error, GS_IMPORT_ERROR_LIMIT,
				   "more than %d GPU jobs", GS_IMPORT_MAX_JOBS);
		return false;
	}
	g_array_append_val(task->jobs, job);
	imp->jobs++;
	return true;
}

void gs_import_note(struct gs_import *imp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(imp->notes, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}
