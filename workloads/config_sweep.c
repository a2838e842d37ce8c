/* The `sweep:` block: a grid of --set overrides and a list of seeds.
 *
 *   sweep:
 *     policy.name: [direct, dfq]
 *     tasks.1.behavior.throttle.kernel: [19us, 300us, 1700us]
 *     seeds: [1, 2, 3]
 *
 * Here only the shape is checked (paths, non-empty lists, no repeated
 * value); whether a value is valid where it goes is checked by loading
 * each point (workloads/sweep.c), which reports it at the value's
 * position. Values are kept as --set text, so a point is exactly a
 * `gpusim run --set ...` command line. */
#include <string.h>

#include "workloads/config_internal.h"

#define CFG_MAX_SWEEP_POINTS 1000000u

/* Top-level keys a sweep may not vary: the sweep itself, the paper
 * targets, and the seed (which has its own list, `seeds`). */
static const char *const unsweepable[] = { "sweep", "expect", "seed" };

static bool needs_quotes(const char *s)
{
	size_t len = strlen(s);

	if (!len || s[0] == ' ' || s[len - 1] == ' ')
		return true;
	return strpbrk(s, ",[]{}:#\"'&*!|>%@`\\\n\t") != NULL;
}

static void append_scalar(GString *out, const char *s, bool in_flow)
{
	const char *p;

	if (!in_flow && !strchr("[{\"'", s[0]) && *s) {
		g_string_append(out, s);
		return;
	}
	if (!needs_quotes(s)) {
		g_string_append(out, s);
		return;
	}
	g_string_append_c(out, '"');
	for (p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_c(out, '\\');
		if (*p == '\n')
			g_string_append(out, "\\n");
		else if (*p == '\t')
			g_string_append(out, "\\t");
		else
			g_string_append_c(out, *p);
	}
	g_string_append_c(out, '"');
}

/* The node as flow YAML that --set reads back to the same tree. Depth is
 * bounded by the loader's nesting limit. */
static void append_flow(struct cfg *c, GString *out, const yaml_node_t *n,
			bool in_flow)
{
	size_t i, len;

	if (n->type == YAML_SCALAR_NODE) {
		append_scalar(out, cfg_text(n), in_flow);
		return;
	}
	if (n->type == YAML_SEQUENCE_NODE) {
		len = cfg_seq_len(n);
		g_string_append_c(out, '[');
		for (i = 0; i < len; i++) {
			if (i)
				g_string_append(out, ", ");
			append_flow(c, out, cfg_seq_item(c, n, i), true);
		}
		g_string_append_c(out, ']');
		return;
	}
	g_string_append_c(out, '{');
	for (i = 0; i < cfg_map_size(n); i++) {
		const yaml_node_pair_t *p = &n->data.mapping.pairs.start[i];

		if (i)
			g_string_append(out, ", ");
		append_flow(c, out, cfg_node(c, p->key), true);
		g_string_append(out, ": ");
		append_flow(c, out, cfg_node(c, p->value), true);
	}
	g_string_append_c(out, '}');
}

/* `scenario_keys`: the top-level keys a path may start with (the
 * scenario's, NULL-terminated; the loader above owns the list). */
static int check_path(struct cfg *c, const yaml_node_t *key, const char *path,
		      const char *const *scenario_keys)
{
	g_auto(GStrv) parts = g_strsplit(path, ".", -1);
	const char *near;
	size_t i;

	for (i = 0; parts[i]; i++)
		if (!*parts[i])
			return cfg_error(c, key,
					 "sweep: empty part in key path '%s' (write it as for --set, e.g. policy.name)",
					 path);
	for (i = 0; i < G_N_ELEMENTS(unsweepable); i++)
		if (!strcmp(parts[0], unsweepable[i]))
			return cfg_error(c, key,
					 "sweep: '%s' cannot be swept%s", path,
					 strcmp(path, "seed") ? "" :
					 " (list the seeds under sweep.seeds)");
	for (i = 0; scenario_keys[i]; i++)
		if (!strcmp(parts[0], scenario_keys[i]))
			return 0;
	near = cfg_closest(parts[0], scenario_keys, i);
	if (!near && !strcmp(path, "seed"))
		near = "seeds";
	return cfg_error(c, key,
			 "sweep: unknown key path '%s': '%s' is not a scenario key%s%s%s",
			 path, parts[0], near ? " (did you mean '" : "",
			 near ? near : "", near ? "'?)" : "");
}

static int load_seeds(struct cfg *c, const yaml_node_t *list)
{
	struct gs_sweep_config *sw = &c->sc->sweep;
	size_t i, j, len;

	if (cfg_expect_seq(c, list, "sweep.seeds") < 0)
		return -1;
	len = cfg_seq_len(list);
	if (!len)
		return cfg_error(c, list,
				 "sweep.seeds: the list is empty (give at least one seed)");
	sw->seeds = g_new0(uint64_t, len);
	for (i = 0; i < len; i++) {
		const yaml_node_t *item = cfg_seq_item(c, list, i);

		if (cfg_u64(c, item, "sweep.seeds", 0, GS_SEED_MAX,
			    &sw->seeds[i]) < 0)
			return -1;
		for (j = 0; j < i; j++)
			if (sw->seeds[j] == sw->seeds[i])
				return cfg_error(c, item,
						 "sweep.seeds: seed %" G_GUINT64_FORMAT " is listed twice",
						 sw->seeds[i]);
		sw->n_seeds = (uint32_t)(i + 1);
	}
	return 0;
}

static int load_axis(struct cfg *c, const yaml_node_t *key,
		     const yaml_node_t *list, struct gs_sweep_axis *ax,
		     const char *const *scenario_keys)
{
	size_t i, j, len;

	ax->key = g_strdup(cfg_text(key));
	if (check_path(c, key, ax->key, scenario_keys) < 0)
		return -1;
	if (list->type != YAML_SEQUENCE_NODE) {
		g_autofree char *got = cfg_describe(list);

		return cfg_error(c, list,
				 "sweep %s: expected a list of values, e.g. [a, b], got %s",
				 ax->key, got);
	}
	len = cfg_seq_len(list);
	if (!len)
		return cfg_error(c, list,
				 "sweep %s: the list is empty (give at least one value)",
				 ax->key);
	ax->values = g_new0(char *, len + 1);
	ax->lines = g_new0(uint32_t, len);
	ax->columns = g_new0(uint32_t, len);
	for (i = 0; i < len; i++) {
		const yaml_node_t *item = cfg_seq_item(c, list, i);
		GString *text = g_string_new(NULL);

		if (cfg_is_null(item)) {
			g_string_free(text, TRUE);
			return cfg_error(c, item, "sweep %s: value %zu is empty",
					 ax->key, i + 1);
		}
		append_flow(c, text, item, false);
		ax->values[i] = g_string_free(text, FALSE);
		ax->lines[i] = (uint32_t)item->start_mark.line + 1;
		ax->columns[i] = (uint32_t)item->start_mark.column + 1;
		ax->n_values = (uint32_t)(i + 1);
		for (j = 0; j < i; j++)
			if (!strcmp(ax->values[j], ax->values[i]))
				return cfg_error(c, item,
						 "sweep %s: value '%s' is listed twice",
						 ax->key, ax->values[i]);
	}
	return 0;
}

int cfg_load_sweep(struct cfg *c, const yaml_node_t *key,
		   const yaml_node_t *map, const char *const *scenario_keys)
{
	struct gs_sweep_config *sw = &c->sc->sweep;
	uint64_t points = 1;
	size_t i, j, n;

	if (cfg_expect_map(c, map, "sweep") < 0)
		return -1;
	sw->line = (uint32_t)key->start_mark.line + 1;
	sw->column = (uint32_t)key->start_mark.column + 1;
	n = cfg_map_size(map);
	sw->axes = g_new0(struct gs_sweep_axis, n ? n : 1);
	for (i = 0; i < n; i++) {
		const yaml_node_pair_t *p = &map->data.mapping.pairs.start[i];
		const yaml_node_t *k = cfg_node(c, p->key);
		const yaml_node_t *v = cfg_node(c, p->value);
		const char *name = cfg_text(k);

		if (!name)
			return cfg_error(c, k, "sweep: a key must be a key path such as policy.name");
		for (j = 0; j < i; j++) {
			const yaml_node_pair_t *q =
				&map->data.mapping.pairs.start[j];

			if (!g_strcmp0(cfg_text(cfg_node(c, q->key)), name))
				return cfg_error(c, k, "sweep: '%s' is given twice",
						 name);
		}
		if (!strcmp(name, "seeds")) {
			if (load_seeds(c, v) < 0)
				return -1;
			points *= sw->n_seeds;
		} else {
			if (load_axis(c, k, v, &sw->axes[sw->n_axes],
				      scenario_keys) < 0) {
				sw->n_axes++;
				return -1;
			}
			points *= sw->axes[sw->n_axes++].n_values;
		}
		if (points > CFG_MAX_SWEEP_POINTS)
			return cfg_error(c, k,
					 "sweep: the grid has more than %u points",
					 CFG_MAX_SWEEP_POINTS);
	}
	if (!sw->n_axes && !sw->n_seeds)
		return cfg_error(c, map,
				 "sweep: give at least one key path with a list of values, or seeds: [...]");
	return 0;
}
