/* gpusim compare: two runs' results read into flat tables of named
 * values (compare_read.c), so that a results folder and a sweep table
 * compare alike. */
#ifndef GS_COMPARE_H
#define GS_COMPARE_H

#include <glib.h>
#include <stdbool.h>

/* One value: `jain_index`, `TASK.gpu_share`; in a sweep table each is
 * prefixed with its point, `POINT/jain_index`. */
struct gs_cmp_value {
	char *key;
	bool numeric;
	double num;
	char *text; /* as written: "false", "null", "0.25" */
};

struct gs_cmp_table {
	GPtrArray *values;  /* struct gs_cmp_value *, in file order */
	GHashTable *by_key; /* key -> struct gs_cmp_value * */
	bool sweep;         /* read from a sweep table */
};

/* Reads a results folder (its summary.json), a sweep folder (its
 * sweep.csv) or a sweep table itself. NULL with the problem in *error
 * (FILE:LINE:COLUMN or FILE:LINE where there is one). */
struct gs_cmp_table *gs_cmp_read(const char *path, GError **error);
void gs_cmp_table_free(struct gs_cmp_table *t);

/* The part of a key a --metric pattern is matched against: after the
 * point of a sweep table's row. */
const char *gs_cmp_metric_of(const char *key, bool sweep);

#endif
