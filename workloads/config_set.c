/* --set overrides: "key.path=value" edits of the parsed YAML tree, applied
 * before validation so an overridden value is checked like any other. The
 * nodes an override adds are remembered, so that an error in one of them
 * is reported against the override instead of a file position. */
#include "workloads/config_internal.h"

#include <stdarg.h>
#include <string.h>

#define CFG_MAX_PATH 64

static int set_error(struct cfg *c, const char *text, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static int set_error(struct cfg *c, const char *text, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	if (*c->error)
		return -1;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(c->error, GS_CONFIG_ERROR, GS_CONFIG_ERROR_INVALID,
		    "--set %s: %s", text, msg);
	return -1;
}

static bool parse_index(const char *s, size_t *out)
{
	size_t v = 0;

	if (!*s || strlen(s) > 9)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (size_t)(*s - '0');
	}
	*out = v;
	return true;
}

static int add_scalar(struct cfg *c, const char *text)
{
	return yaml_document_add_scalar(&c->doc, NULL,
					(yaml_char_t *)(uintptr_t)text,
					(int)strlen(text),
					YAML_PLAIN_SCALAR_STYLE);
}

/* The new value node: flow YAML when it looks like a mapping or list,
 * otherwise the text as one plain scalar. */
static int make_value(struct cfg *c, const char *text, const char *value)
{
	if (value[0] == '{' || value[0] == '[')
		return cfg_yaml_parse_value(&c->doc, value, text, c->error);
	return add_scalar(c, value);
}

/* Keys whose value may be written short, as one name that stands for a
 * mapping with that name under `full` (`policy: dfq` is
 * `policy: {name: dfq}`); a --set path through one expands it. */
static const struct {
	const char *key, *full;
} short_forms[] = {
	{ "policy", "name" }, { "scheduler", "name" },
	{ "app", "name" }, { "trace", "file" },
};

static const char *short_form_full_key(const char *key)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(short_forms); i++)
		if (!strcmp(short_forms[i].key, key))
			return short_forms[i].full;
	return NULL;
}

/* Replaces the short form under `key` of mapping `parent` by the mapping
 * it stands for. The name keeps its node, so an error in it still points
 * at the file. Returns the new mapping's index or 0. */
static int expand_short_form(struct cfg *c, const char *text, int parent,
			     const char *key, const char *full)
{
	int map = yaml_document_add_mapping(&c->doc, NULL,
					    YAML_BLOCK_MAPPING_STYLE);
	int k = map ? add_scalar(c, full) : 0;
	yaml_node_pair_t *p;

	if (!k) {
		set_error(c, text, "out of memory");
		return 0;
	}
	/* adding nodes may have moved the node array */
	p = cfg_map_find_pair(c, cfg_node(c, parent), key);
	if (!yaml_document_append_mapping_pair(&c->doc, map, k, p->value)) {
		set_error(c, text, "out of memory");
		return 0;
	}
	p = cfg_map_find_pair(c, cfg_node(c, parent), key);
	p->value = map;
	return map;
}

/* Sets component `key` of the node at index `parent` (whose path so far
 * is `where`) to node `value`, or, if value is 0, finds it (creating an
 * empty mapping where nothing is). Returns the child's index or 0. */
static int step(struct cfg *c, const char *text, int parent,
		const char *where, const char *key, int value)
{
	yaml_node_t *n = cfg_node(c, parent);
	size_t idx;

	if (n->type == YAML_SEQUENCE_NODE) {
		size_t len = cfg_seq_len(n);

		if (!parse_index(key, &idx)) {
			set_error(c, text,
				  "%s is a list; use an index such as %s.0",
				  where, where);
			return 0;
		}
		if (idx >= len) {
			set_error(c, text, "%s has no element %s%s", where,
				  key, len ? "" : " (it is empty)");
			return 0;
		}
		if (value)
			n->data.sequence.items.start[idx] = value;
		return n->data.sequence.items.start[idx];
	}
	if (n->type == YAML_MAPPING_NODE) {
		yaml_node_pair_t *p = cfg_map_find_pair(c, n, key);
		const char *full = short_form_full_key(key);
		int k;

		if (p && !value && full &&
		    cfg_node(c, p->value)->type == YAML_SCALAR_NODE &&
		    !cfg_is_null(cfg_node(c, p->value)))
			return expand_short_form(c, text, parent, key, full);
		if (p && !value && !cfg_is_null(cfg_node(c, p->value)))
			return p->value;
		if (!value)
			value = yaml_document_add_mapping(&c->doc, NULL,
						YAML_BLOCK_MAPPING_STYLE);
		if (!value) {
			set_error(c, text, "out of memory");
			return 0;
		}
		/* add_mapping may have moved the node array */
		n = cfg_node(c, parent);
		p = cfg_map_find_pair(c, n, key);
		if (p) {
			p->value = value;
			return value;
		}
		k = add_scalar(c, key);
		if (!k || !yaml_document_append_mapping_pair(&c->doc, parent, k,
							     value)) {
			set_error(c, text, "out of memory");
			return 0;
		}
		return value;
	}
	set_error(c, text, "%s is a single value, not a mapping", where);
	return 0;
}

static int apply_one(struct cfg *c, const char *text)
{
	const char *eq = strchr(text, '=');
	g_autofree char *path = NULL;
	g_auto(GStrv) parts = NULL;
	GString *where;
	int node, value;
	size_t n, i;

	if (!eq || eq == text)
		return set_error(c, text, "expected key.path=value");
	path = g_strndup(text, (gsize)(eq - text));
	parts = g_strsplit(path, ".", -1);
	n = g_strv_length(parts);
	if (n > CFG_MAX_PATH)
		return set_error(c, text, "the path has more than %d parts",
				 CFG_MAX_PATH);
	for (i = 0; i < n; i++)
		if (!*parts[i])
			return set_error(c, text, "empty part in key path '%s'",
					 path);
	value = make_value(c, text, eq + 1);
	if (!value)
		return set_error(c, text, "out of memory");
	node = 1; /* the root mapping */
	where = g_string_new(NULL);
	for (i = 0; node && i < n; i++) {
		node = step(c, text, node, i ? where->str : "the scenario",
			    parts[i], i + 1 == n ? value : 0);
		g_string_append_printf(where, "%s%s", i ? "." : "", parts[i]);
	}
	g_string_free(where, TRUE);
	return node ? 0 : -1;
}

int cfg_apply_overrides(struct cfg *c, const char *const *overrides,
			size_t n)
{
	size_t i;

	c->ov = g_new0(struct cfg_override, n ? n : 1);
	for (i = 0; i < n; i++) {
		int before = (int)(c->doc.nodes.top - c->doc.nodes.start);

		c->ov[i].text = overrides[i];
		c->ov[i].first_node = before + 1;
		c->n_ov = i + 1;
		if (apply_one(c, overrides[i]) < 0)
			return -1;
		c->ov[i].last_node = (int)(c->doc.nodes.top -
					   c->doc.nodes.start);
	}
	return 0;
}
