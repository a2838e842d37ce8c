/* nsys-sqlite: the SQLite export of an NVIDIA Nsight Systems report
 * (`nsys export --type sqlite`), whose schema NVIDIA documents in "SQLite
 * Export Schema Reference" (Nsight Systems documentation, nsys-exporter).
 *
 * GPU jobs are the rows of CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY and _MEMSET
 * (start and end in nanoseconds, deviceId, streamId, correlationId and the
 * process as globalPid). The CUDA call that launched a job is the row of
 * CUPTI_ACTIVITY_KIND_RUNTIME with the same correlationId in the same
 * process (globalTid: the process in the bits above the low 24, which hold
 * the thread, per the documentation's "Serialized process and thread
 * identifiers"); its start is the submission time. A job without one is
 * submitted when the GPU started it. Tasks are named after the process's
 * main thread (ThreadNames.nameId in StringIds) when the report has it. */
#include <sqlite3.h>
#include <stdarg.h>
#include <string.h>

#include "sim/import/import.h"

/* globalTid / 0x1000000 % 0x1000000: the process id (documentation). */
#define SERIAL_ID_BITS 24
#define SERIAL_ID_MASK ((G_GINT64_CONSTANT(1) << SERIAL_ID_BITS) - 1)

/* The GPU tables, in the order they are read, and the engine they use. */
static const struct {
	const char *table;
	bool copy;
} gpu_tables[] = {
	{ "CUPTI_ACTIVITY_KIND_KERNEL", false },
	{ "CUPTI_ACTIVITY_KIND_MEMCPY", true },
	{ "CUPTI_ACTIVITY_KIND_MEMSET", true },
};

struct reader {
	struct gs_import *imp;
	sqlite3 *db;
	GHashTable *launches;	/* "pid:correlation" -> submission ns */
	GHashTable *names;	/* pid -> main thread's name */
};

static void db_error(struct reader *r, const char *table, gint64 row,
		     GError **error, const char *fmt, ...) G_GNUC_PRINTF(5, 6);

/* "FILE: TABLE row N: message" (row 0: "FILE: TABLE: message"). */
static void db_error(struct reader *r, const char *table, gint64 row,
		     GError **error, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (row)
		g_set_error(error, GS_IMPORT_ERROR, GS_IMPORT_ERROR_PARSE,
			    "%s: %s row %" G_GINT64_FORMAT ": %s",
			    r->imp->source, table, row, msg);
	else
		g_set_error(error, GS_IMPORT_ERROR, GS_IMPORT_ERROR_PARSE,
			    "%s: %s: %s", r->imp->source, table, msg);
}

static bool has_table(struct reader *r, const char *table)
{
	sqlite3_stmt *st = NULL;
	bool found = false;

	if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM sqlite_master WHERE "
			       "type = 'table' AND name = ?", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC) == SQLITE_OK)
		found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static sqlite3_stmt *prepare(struct reader *r, const char *table,
			     const char *sql, GError **error)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_error(r, table, 0, error, "%s", sqlite3_errmsg(r->db));
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* Column `col` of the current row as an integer >= 0; false (and the
 * message naming the table, row and column) for anything else. */
static bool column_count(struct reader *r, sqlite3_stmt *st, int col,
			 const char *table, gint64 row, gint64 *out,
			 GError **error)
{
	if (sqlite3_column_type(st, col) != SQLITE_INTEGER ||
	    (*out = sqlite3_column_int64(st, col)) < 0) {
		db_error(r, table, row, error,
			 "%s must be an integer, at least 0",
			 sqlite3_column_name(st, col));
		return false;
	}
	return true;
}

/* The end of a query's rows: false and the message unless all were read. */
static bool step_done(struct reader *r, int rc, const char *table,
		      GError **error)
{
	if (rc != SQLITE_DONE) {
		db_error(r, table, 0, error, "%s", sqlite3_errmsg(r->db));
		return false;
	}
	return true;
}

/* Opening reads nothing: a file that is not a database fails here, at
 * its first read ("file is not a database"). */
static bool is_database(struct reader *r, GError **error)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(r->db, "SELECT 1 FROM sqlite_master", -1,
				    &st, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return true;
	g_set_error(error, GS_IMPORT_ERROR, GS_IMPORT_ERROR_READ, "%s: %s",
		    r->imp->source, sqlite3_errmsg(r->db));
	return false;
}

/* The host calls by process and correlation id. */
static bool read_launches(struct reader *r, GError **error)
{
	static const char table[] = "CUPTI_ACTIVITY_KIND_RUNTIME";
	sqlite3_stmt *st;
	int rc;

	if (!has_table(r, table))
		return true;
	st = prepare(r, table, "SELECT rowid, globalTid, correlationId, start "
		     "FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY rowid", error);
	if (!st)
		return false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gint64 row = sqlite3_column_int64(st, 0), tid, corr, start;

		if (!column_count(r, st, 1, table, row, &tid, error) ||
		    !column_count(r, st, 2, table, row, &corr, error) ||
		    !column_count(r, st, 3, table, row, &start, error)) {
			sqlite3_finalize(st);
			return false;
		}
		g_hash_table_replace(r->launches, g_strdup_printf(
			"%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
			(tid >> SERIAL_ID_BITS) & SERIAL_ID_MASK, corr),
			g_memdup2(&start, sizeof(start)));
	}
	rc = step_done(r, rc, table, error);
	sqlite3_finalize(st);
	return rc;
}

/* Each process's name: its main thread's (the thread whose id is the
 * process id), when the report names threads. */
static bool read_names(struct reader *r, GError **error)
{
	sqlite3_stmt *st;
	int rc;

	if (!has_table(r, "ThreadNames") || !has_table(r, "StringIds"))
		return true;
	st = prepare(r, "ThreadNames", "SELECT t.globalTid, s.value FROM "
		     "ThreadNames AS t JOIN StringIds AS s ON s.id = t.nameId "
		     "ORDER BY t.rowid", error);
	if (!st)
		return false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		gint64 tid = sqlite3_column_int64(st, 0);
		gint64 pid = (tid >> SERIAL_ID_BITS) & SERIAL_ID_MASK;
		const char *name = (const char *)sqlite3_column_text(st, 1);

		if (name && (tid & SERIAL_ID_MASK) == pid)
			g_hash_table_replace(r->names, g_memdup2(&pid,
								 sizeof(pid)),
					     g_strdup(name));
	}
	rc = step_done(r, rc, "ThreadNames", error);
	sqlite3_finalize(st);
	return rc;
}

/* One GPU row: columns rowid, start, end, deviceId, streamId, globalPid,
 * correlationId. */
static bool add_row(struct reader *r, sqlite3_stmt *st, const char *table,
		    bool copy, GError **error)
{
	gint64 row = sqlite3_column_int64(st, 0), v[6];
	g_autofree char *key = NULL, *fallback = NULL, *stream = NULL;
	g_autofree char *launch_key = NULL;
	const gint64 *launched;
	const char *name;
	struct gs_import_task *task;
	guint64 submit;
	gint64 pid;
	gint ch;
	int i;

	for (i = 0; i < 6; i++)
		if (!column_count(r, st, i + 1, table, row, &v[i], error))
			return false;
	if (v[1] < v[0]) {
		db_error(r, table, row, error, "end is before start");
		return false;
	}
	pid = (v[4] >> SERIAL_ID_BITS) & SERIAL_ID_MASK;
	launch_key = g_strdup_printf("%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
				     pid, v[5]);
	launched = g_hash_table_lookup(r->launches, launch_key);
	/* never submitted after the GPU started it (the host's and the GPU's
	 * clocks may disagree by a little) */
	submit = (guint64)(launched ? MIN(*launched, v[0]) : v[0]);
	name = g_hash_table_lookup(r->names, &pid);
	key = g_strdup_printf("pid %" G_GINT64_FORMAT, pid);
	fallback = g_strdup_printf("pid%" G_GINT64_FORMAT, pid);
	task = gs_import_task(r->imp, key, name ? name : fallback,
			      (guint32)row, error);
	if (!task)
		return false;
	stream = g_strdup_printf("device %" G_GINT64_FORMAT " stream %"
				 G_GINT64_FORMAT, v[2], v[3]);
	ch = gs_import_channel(r->imp, task, stream, (guint32)row, error);
	return ch >= 0 && gs_import_job_add(r->imp, task, (guint32)ch, copy,
					    submit, (guint64)(v[1] - v[0]),
					    (guint32)row, error);
}

static bool read_gpu_table(struct reader *r, const char *table, bool copy,
			   GError **error)
{
	g_autofree char *sql = g_strdup_printf(
		"SELECT rowid, start, end, deviceId, streamId, globalPid, "
		"correlationId FROM %s ORDER BY start, rowid", table);
	sqlite3_stmt *st = prepare(r, table, sql, error);
	int rc;

	if (!st)
		return false;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (!add_row(r, st, table, copy, error)) {
			sqlite3_finalize(st);
			return false;
		}
	rc = step_done(r, rc, table, error);
	sqlite3_finalize(st);
	return rc;
}

static bool read_db(struct reader *r, GError **error)
{
	guint i, tables = 0;

	if (!is_database(r, error) || !read_launches(r, error) ||
	    !read_names(r, error))
		return false;
	for (i = 0; i < G_N_ELEMENTS(gpu_tables); i++) {
		if (!has_table(r, gpu_tables[i].table))
			continue;
		tables++;
		if (!read_gpu_table(r, gpu_tables[i].table, gpu_tables[i].copy,
				    error))
			return false;
	}
	if (!r->imp->jobs) {
		gs_import_error_at(r->imp, 0, error, GS_IMPORT_ERROR_EMPTY,
				   tables ? "no GPU job: the kernel, memcpy "
				   "and memset tables are empty" :
				   "no table CUPTI_ACTIVITY_KIND_KERNEL, "
				   "_MEMCPY or _MEMSET (was CUDA traced?)");
		return false;
	}
	return true;
}

static bool nsys_sqlite_read(const char *path, struct gs_import *out,
			     GError **error)
{
	struct reader r = { .imp = out };
	bool ok;

	/* read-only, and never creating a missing file */
	if (sqlite3_open_v2(path, &r.db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		g_set_error(error, GS_IMPORT_ERROR, GS_IMPORT_ERROR_READ,
			    "%s: %s", path, r.db ? sqlite3_errmsg(r.db) :
			    "cannot open");
		sqlite3_close(r.db);
		return false;
	}
	r.launches = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   g_free);
	r.names = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
					g_free);
	ok = read_db(&r, error);
	g_hash_table_unref(r.names);
	g_hash_table_unref(r.launches);
	sqlite3_close(r.db);
	return ok;
}

const struct gs_importer gs_importer_nsys_sqlite = {
	.format = "nsys-sqlite",
	.summary = "Nsight Systems SQLite export (nsys export --type sqlite): "
		   "CUDA kernels, memcpy, memset",
	.read = nsys_sqlite_read,
};
