/* The files of a sweep: point.json (the mark of a finished point and its
 * row), sweep.csv and manifest.json. A point's folder is published whole
 * with its point.json; sweep.csv and manifest.json are published together
 * (sim/results/results_dir.h). Every byte depends only on the configuration and
 * the results, never on -j or on timing. */
#include <errno.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/results/results_dir.h"
#include "sim/results/results_priv.h"
#include "sim/cli/sweep.h"
#include "workloads/file_read.h"
#include "workloads/policy_module.h"
#include "workloads/scenario.h"

#ifndef GS_COMMIT
#define GS_COMMIT ""
#endif

#define POINT_FILE "point.json"

static void hash_string(GChecksum *sum, const char *s)
{
	g_checksum_update(sum, (const guchar *)s, (gssize)strlen(s) + 1);
}

/* A policy module is part of the configuration: rebuilt with other code,
 * the finished points are stale. Its bytes go into the hash (a module
 * that cannot be read again hashes as its name only; the run then fails
 * to load it anyway). */
static void hash_policy_module(GChecksum *sum, const struct gs_scenario *sc)
{
	const char *file = sc ? gs_policy_module_file(sc->policy.ops) : NULL;
	g_autofree char *bytes = NULL;
	gsize len = 0;

	if (!file)
		return;
	hash_string(sum, "module");
	hash_string(sum, file);
	if (g_file_get_contents(file, &bytes, &len, NULL))
		g_checksum_update(sum, (const guchar *)bytes, (gssize)len);
}

void gs_sweep_job_hash(struct gs_sweep_job *job)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	size_t i;

	g_checksum_update(sum, (const guchar *)job->data, (gssize)job->len);
	hash_string(sum, "");
	for (i = 0; job->base_sets && job->base_sets[i]; i++)
		hash_string(sum, job->base_sets[i]);
	hash_policy_module(sum, job->sc);
	g_free(job->config_hash);
	job->config_hash = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
}

char *gs_sweep_point_hash(const struct gs_sweep_job *job,
			  const struct gs_sweep_point *p)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	char *out;
	size_t i;

	hash_string(sum, job->config_hash);
	for (i = 0; p->sets[i]; i++)
		hash_string(sum, p->sets[i]);
	out = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return out;
}

char *gs_sweep_point_dir(const struct gs_sweep_job *job,
			 const struct gs_sweep_point *p)
{
	return g_build_filename(job->out_dir, "points", p->id, NULL);
}

void gs_point_record_free(struct gs_point_record *rec)
{
	if (!rec)
		return;
	/* a record being read may have one array or none yet */
	if (rec->columns)
		g_ptr_array_unref(rec->columns);
	if (rec->cells)
		g_ptr_array_unref(rec->cells);
	g_free(rec);
}

static void add_strings(JsonBuilder *b, const char *member,
			char *const *strv, size_t n)
{
	size_t i;

	json_builder_set_member_name(b, member);
	json_builder_begin_array(b);
	for (i = 0; i < n; i++)
		json_builder_add_string_value(b, strv[i]);
	json_builder_end_array(b);
}

/* Pretty JSON of the builder's root plus a final newline, written to
 * dir/name (dir being a temporary folder of results_dir.h). */
static gboolean write_json(JsonBuilder *b, const char *dir, const char *name,
			   GError **error)
{
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	g_autofree char *text = NULL;
	g_autofree char *with_nl = NULL;

	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	text = json_generator_to_data(gen, NULL);
	with_nl = g_strconcat(text, "\n", NULL);
	return gs_write_text_file(dir, name, with_nl, error);
}

static void add_point_fields(JsonBuilder *b, const struct gs_sweep_job *job,
			     const struct gs_sweep_point *p)
{
	g_autofree char *hash = gs_sweep_point_hash(job, p);

	json_builder_set_member_name(b, "id");
	json_builder_add_string_value(b, p->id);
	json_builder_set_member_name(b, "index");
	json_builder_add_int_value(b, p->index);
	json_builder_set_member_name(b, "seed");
	json_builder_add_int_value(b, (gint64)p->seed);
	add_strings(b, "set", p->sets, g_strv_length(p->sets));
	json_builder_set_member_name(b, "point_hash");
	json_builder_add_string_value(b, hash);
}

gboolean gs_sweep_write_point(const struct gs_sweep_job *job,
			      const struct gs_sweep_point *p,
			      const struct gs_point_record *rec,
			      const char *dir, GError **error)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	const GPtrArray *columns = rec->columns, *cells = rec->cells;

	json_builder_begin_object(b);
	add_point_fields(b, job, p);
	json_builder_set_member_name(b, "config_hash");
	json_builder_add_string_value(b, job->config_hash);
	json_builder_set_member_name(b, "gpusim_version");
	json_builder_add_string_value(b, GS_VERSION);
	json_builder_set_member_name(b, "commit");
	json_builder_add_string_value(b, GS_COMMIT);
	add_strings(b, "columns", (char *const *)columns->pdata, columns->len);
	add_strings(b, "row", (char *const *)cells->pdata, cells->len);
	json_builder_end_object(b);
	return write_json(b, dir, POINT_FILE, error);
}

static GPtrArray *read_strings(JsonObject *o, const char *member)
{
	JsonArray *a;
	GPtrArray *out;
	guint i;

	if (!json_object_has_member(o, member) ||
	    !JSON_NODE_HOLDS_ARRAY(json_object_get_member(o, member)))
		return NULL;
	a = json_object_get_array_member(o, member);
	out = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < json_array_get_length(a); i++) {
		JsonNode *n = json_array_get_element(a, i);

		if (!JSON_NODE_HOLDS_VALUE(n) ||
		    json_node_get_value_type(n) != G_TYPE_STRING) {
			g_ptr_array_unref(out);
			return NULL;
		}
		g_ptr_array_add(out, g_strdup(json_node_get_string(n)));
	}
	return out;
}

struct gs_point_record *gs_sweep_read_point(const struct gs_sweep_job *job,
					    const struct gs_sweep_point *p)
{
	g_autofree char *dir = gs_sweep_point_dir(job, p);
	g_autofree char *path = g_build_filename(dir, POINT_FILE, NULL);
	g_autofree char *want = gs_sweep_point_hash(job, p);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autofree char *text = NULL;
	struct gs_point_record *rec;
	size_t len;
	JsonObject *o;
	JsonNode *root;

	text = gs_read_file_bounded(path, GS_MAX_INPUT_BYTES, &len, NULL);
	if (!text || !json_parser_load_from_data(parser, text, (gssize)len,
						 NULL))
		return NULL;
	root = json_parser_get_root(parser);
	if (!root || !JSON_NODE_HOLDS_OBJECT(root))
		return NULL;
	o = json_node_get_object(root);
	if (g_strcmp0(json_object_get_string_member_with_default(
			      o, "point_hash", ""), want))
		return NULL;
	rec = g_new0(struct gs_point_record, 1);
	rec->columns = read_strings(o, "columns");
	rec->cells = read_strings(o, "row");
	if (!rec->columns || !rec->cells ||
	    rec->columns->len != rec->cells->len) {
		gs_point_record_free(rec);
		return NULL;
	}
	return rec;
}

/* --- sweep.csv --- */

static void csv_row_end(GString *out)
{
	g_string_append_c(out, '\n');
}

static void csv_cell(GString *out, bool first, const char *s)
{
	if (!first)
		g_string_append_c(out, ',');
	gs_csv_append_cell(out, s);
}

/* The columns of all rows, in order of first appearance (grid order). */
static GPtrArray *union_columns(struct gs_point_record **recs, guint n)
{
	GPtrArray *all = g_ptr_array_new();
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash,
						      g_str_equal);
	guint i, j;

	for (i = 0; i < n; i++) {
		if (!recs[i])
			continue;
		for (j = 0; j < recs[i]->columns->len; j++) {
			char *col = recs[i]->columns->pdata[j];

			if (g_hash_table_add(seen, col))
				g_ptr_array_add(all, col);
		}
	}
	return all;
}

static const char *cell_of(const struct gs_point_record *rec,
			   const char *column, guint guess)
{
	guint j;

	if (guess < rec->columns->len &&
	    !strcmp(rec->columns->pdata[guess], column))
		return rec->cells->pdata[guess];
	for (j = 0; j < rec->columns->len; j++)
		if (!strcmp(rec->columns->pdata[j], column))
			return rec->cells->pdata[j];
	return NULL;
}

static char *sweep_csv(const struct gs_sweep_job *job,
		       struct gs_point_record **recs)
{
	const struct gs_sweep_config *sw = &job->sc->sweep;
	GString *out = g_string_new(NULL);
	g_autoptr(GPtrArray) cols = union_columns(recs, job->points->len);
	guint i, j;

	csv_cell(out, true, "point");
	csv_cell(out, false, "seed");
	for (j = 0; j < sw->n_axes; j++)
		csv_cell(out, false, sw->axes[j].key);
	for (j = 0; j < cols->len; j++)
		csv_cell(out, false, cols->pdata[j]);
	csv_row_end(out);
	for (i = 0; i < job->points->len; i++) {
		const struct gs_sweep_point *p = job->points->pdata[i];
		char seed[24];

		if (!recs[i])
			continue;
		g_snprintf(seed, sizeof(seed), "%" G_GUINT64_FORMAT, p->seed);
		csv_cell(out, true, p->id);
		csv_cell(out, false, seed);
		for (j = 0; j < sw->n_axes; j++)
			csv_cell(out, false, p->values[j]);
		for (j = 0; j < cols->len; j++)
			csv_cell(out, false, cell_of(recs[i], cols->pdata[j],
						     j));
		csv_row_end(out);
	}
	return g_string_free(out, FALSE);
}

/* --- manifest.json --- */

static gboolean write_manifest(const struct gs_sweep_job *job,
			       struct gs_point_record **recs, const char *dir,
			       GError **error)
{
	const struct gs_sweep_config *sw = &job->sc->sweep;
	g_autoptr(JsonBuilder) b = json_builder_new();
	guint i;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "name");
	json_builder_add_string_value(b, job->sc->name);
	json_builder_set_member_name(b, "config");
	json_builder_add_string_value(b, job->file);
	json_builder_set_member_name(b, "config_hash");
	json_builder_add_string_value(b, job->config_hash);
	add_strings(b, "set", job->base_sets,
		    job->base_sets ? g_strv_length(job->base_sets) : 0);
	json_builder_set_member_name(b, "gpusim_version");
	json_builder_add_string_value(b, GS_VERSION);
	json_builder_set_member_name(b, "commit");
	json_builder_add_string_value(b, GS_COMMIT);
	json_builder_set_member_name(b, "axes");
	json_builder_begin_array(b);
	for (i = 0; i < sw->n_axes; i++) {
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "key");
		json_builder_add_string_value(b, sw->axes[i].key);
		add_strings(b, "values", sw->axes[i].values,
			    sw->axes[i].n_values);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "points");
	json_builder_begin_array(b);
	for (i = 0; i < job->points->len; i++) {
		json_builder_begin_object(b);
		add_point_fields(b, job, job->points->pdata[i]);
		json_builder_set_member_name(b, "finished");
		json_builder_add_boolean_value(b, recs[i] != NULL);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return write_json(b, dir, "manifest.json", error);
}

static const char *const summary_files[] = {
	"sweep.csv", "manifest.json", NULL,
};

static guint count_lines(const char *text)
{
	guint n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* --collect must not throw away a table: not one with more rows (the
 * points it merged are gone or were run with another configuration), nor
 * the manifest of another configuration. */
static gboolean check_keeps(const struct gs_sweep_job *job, const char *csv,
			    GError **error)
{
	g_autofree char *csv_path = g_build_filename(job->out_dir, "sweep.csv",
						     NULL);
	g_autofree char *man_path = g_build_filename(job->out_dir,
						     "manifest.json", NULL);
	g_autofree char *old = NULL, *manifest = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) read_err = NULL;
	JsonNode *root;
	size_t len;

	/* Read as every input is, bounded: a table or manifest that cannot be
	 * read whole is not replaced either. */
	old = gs_read_file_bounded(csv_path, GS_MAX_INPUT_BYTES, &len,
				   &read_err);
	if (!old && !g_error_matches(read_err, G_FILE_ERROR,
				     G_FILE_ERROR_NOENT)) {
		g_propagate_prefixed_error(error, g_steal_pointer(&read_err),
					   "keeping it (--force replaces it): ");
		return FALSE;
	}
	if (old && count_lines(old) > count_lines(csv)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
			    "%s has %u rows, the finished points would make "
			    "%u; keeping it (--force replaces it)", csv_path,
			    count_lines(old) - 1, count_lines(csv) - 1);
		return FALSE;
	}
	manifest = gs_read_file_bounded(man_path, GS_MAX_INPUT_BYTES, &len,
					NULL);
	if (!manifest || !json_parser_load_from_data(parser, manifest,
						     (gssize)len, NULL))
		return TRUE;
	root = json_parser_get_root(parser);
	if (root && JSON_NODE_HOLDS_OBJECT(root) &&
	    g_strcmp0(json_object_get_string_member_with_default(
			      json_node_get_object(root), "config_hash", ""),
		      job->config_hash)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
			    "%s was written for another configuration (the "
			    "scenario file or a --set differs); keeping it "
			    "(--force replaces it)", man_path);
		return FALSE;
	}
	return TRUE;
}

gboolean gs_sweep_write_summary(const struct gs_sweep_job *job, bool keep,
				struct gs_point_record **recs,
				unsigned *missing, GError **error)
{
	guint n = job->points->len, i;
	g_autofree char *csv = NULL;
	struct gs_outdir od;
	gboolean ok;

	*missing = 0;
	for (i = 0; i < n; i++) {
		if (!recs[i])
			recs[i] = gs_sweep_read_point(job,
						      job->points->pdata[i]);
		if (!recs[i])
			(*missing)++;
	}
	csv = sweep_csv(job, recs);
	ok = (!keep || check_keeps(job, csv, error)) &&
	     gs_outdir_begin(&od, job->out_dir, summary_files, false, error);
	if (ok) {
		ok = gs_write_text_file(od.tmp, "sweep.csv", csv, error) &&
		     write_manifest(job, recs, od.tmp, error);
		if (ok)
			ok = gs_outdir_commit(&od, error);
		else
			gs_outdir_fail(&od, error);
	}
	return ok;
}

void gs_point_records_free(struct gs_point_record **recs, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		gs_point_record_free(recs[i]);
	g_free(recs);
}
