/* Expanding a `sweep:` block into points (sweep_check.c checks them all
 * before any runs). */
#include <string.h>

#include "workloads/sweep.h"

#define SWEEP_ID_PART_MAX 32  /* characters of one value in an id */
#define SWEEP_ID_HASH_LEN 8   /* hex digits added when a value is mangled */

static void point_free(gpointer data)
{
	struct gs_sweep_point *p = data;

	g_free(p->id);
	g_strfreev(p->values);
	g_strfreev(p->sets);
	g_free(p->alone_cost);
	g_free(p);
}

static bool id_char(char ch)
{
	return g_ascii_isalnum(ch) || ch == '.' || ch == '+' || ch == '-';
}

/* Appends value to the id; returns false when it had to be changed
 * (characters outside [A-Za-z0-9.+-], or too long), so that the id no
 * longer says the value exactly. '_' separates values, so it is never
 * kept inside one. */
static bool append_id_part(GString *id, const char *value)
{
	bool exact = strlen(value) <= SWEEP_ID_PART_MAX;
	size_t i, start = id->len;

	for (i = 0; value[i] && i < SWEEP_ID_PART_MAX; i++) {
		if (id_char(value[i])) {
			g_string_append_c(id, value[i]);
			continue;
		}
		exact = false;
		if (id->len > start && id->str[id->len - 1] != '-')
			g_string_append_c(id, '-');
	}
	while (id->len > start + 1 && id->str[id->len - 1] == '-')
		g_string_truncate(id, id->len - 1);
	if (id->len == start)
		g_string_append_c(id, 'x');
	return exact;
}

static char *make_id(char **values, uint64_t seed, char **sets)
{
	GString *id = g_string_new(NULL);
	bool exact = true;
	size_t i;

	for (i = 0; values[i]; i++) {
		exact = append_id_part(id, values[i]) && exact;
		g_string_append_c(id, '_');
	}
	g_string_append_printf(id, "s%" G_GUINT64_FORMAT, seed);
	if (!exact) {
		g_autofree char *all = g_strjoinv("\n", sets);
		g_autofree char *sum = g_compute_checksum_for_string(
			G_CHECKSUM_SHA1, all, -1);

		g_string_append_printf(id, "-%.*s", SWEEP_ID_HASH_LEN, sum);
	}
	return g_string_free(id, FALSE);
}

GPtrArray *gs_sweep_expand(const struct gs_scenario *sc)
{
	const struct gs_sweep_config *sw = &sc->sweep;
	GPtrArray *points = g_ptr_array_new_with_free_func(point_free);
	uint32_t n_seeds = sw->n_seeds ? sw->n_seeds : 1;
	uint64_t total = n_seeds;
	uint32_t a;
	uint64_t k;

	for (a = 0; a < sw->n_axes; a++)
		total *= sw->axes[a].n_values;
	for (k = 0; k < total; k++) {
		struct gs_sweep_point *p = g_new0(struct gs_sweep_point, 1);
		uint64_t rest = k / n_seeds;

		p->index = (uint32_t)k;
		p->seed = sw->n_seeds ? sw->seeds[k % n_seeds] : sc->seed;
		p->values = g_new0(char *, sw->n_axes + 1);
		p->sets = g_new0(char *, sw->n_axes + 2);
		/* mixed radix, the last axis fastest */
		for (a = sw->n_axes; a-- > 0;) {
			const struct gs_sweep_axis *ax = &sw->axes[a];
			uint32_t v = (uint32_t)(rest % ax->n_values);

			rest /= ax->n_values;
			p->values[a] = g_strdup(ax->values[v]);
			p->sets[a] = g_strdup_printf("%s=%s", ax->key,
						     ax->values[v]);
		}
		p->sets[sw->n_axes] = g_strdup_printf("seed=%" G_GUINT64_FORMAT,
						      p->seed);
		p->id = make_id(p->values, p->seed, p->sets);
		g_ptr_array_add(points, p);
	}
	return points;
}

const struct gs_sweep_point *gs_sweep_find(GPtrArray *points,
					   const char *which)
{
	char *end = NULL;
	guint64 index;
	uint32_t i;

	for (i = 0; i < points->len; i++) {
		const struct gs_sweep_point *p = points->pdata[i];

		if (!strcmp(p->id, which))
			return p;
	}
	if (!g_ascii_isdigit(which[0]))
		return NULL;
	index = g_ascii_strtoull(which, &end, 10);
	if (*end || index >= points->len)
		return NULL;
	return points->pdata[index];
}
