/* The libyaml side of the loader: parsing with limits, positioned errors,
 * "did you mean", and access to mappings and lists. */
#include "workloads/config_internal.h"

#include <stdarg.h>
#include <string.h>

G_DEFINE_QUARK(gs-config-error-quark, gs_config_error)

/* --- errors --- */

static const struct cfg_override *override_of(const struct cfg *c,
					       int index)
{
	size_t i;

	if (index <= c->file_nodes)
		return NULL;
	for (i = 0; i < c->n_ov; i++)
		if (index >= c->ov[i].first_node && index <= c->ov[i].last_node)
			return &c->ov[i];
	return NULL;
}

int cfg_error(struct cfg *c, const yaml_node_t *node, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	const struct cfg_override *ov = NULL;
	va_list ap;

	if (!c->error || *c->error)
		return -1;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (node && c->have_doc)
		ov = override_of(c, cfg_node_index(c, node));
	if (ov)
		g_set_error(c->error, GS_CONFIG_ERROR, GS_CONFIG_ERROR_INVALID,
			    "--set %s: %s", ov->text, msg);
	else if (node)
		g_set_error(c->error, GS_CONFIG_ERROR, GS_CONFIG_ERROR_INVALID,
			    "%s:%zu:%zu: %s", c->file,
			    node->start_mark.line + 1,
			    node->start_mark.column + 1, msg);
	else
		g_set_error(c->error, GS_CONFIG_ERROR, GS_CONFIG_ERROR_INVALID,
			    "%s:1:1: %s", c->file, msg);
	return -1;
}

int cfg_error_at(GError **error, int code, const char *file, size_t line,
		 size_t column, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	if (!error || *error)
		return -1;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, GS_CONFIG_ERROR, code, "%s:%zu:%zu: %s", file, line,
		    column, msg);
	return -1;
}

/* Levenshtein distance, ASCII case-insensitive, capped at 3 (the caller
 * only cares about <= 2); words longer than 64 bytes are "far". */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65];

	if (la > 64 || lb > 64)
		return 3;
	if ((la > lb ? la - lb : lb - la) > 2)
		return 3;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], best;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = g_ascii_tolower(a[i - 1]) ==
				      g_ascii_tolower(b[j - 1]) ? 0 : 1;

			best = diag + cost;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb] > 3 ? 3 : row[lb];
}

const char *cfg_closest(const char *word, const char *const *candidates,
			size_t n)
{
	const char *best = NULL;
	size_t best_d = 3, i;

	for (i = 0; i < n; i++) {
		size_t d = g_ascii_strcasecmp(word, candidates[i]) == 0 ?
			   0 : edit_distance(word, candidates[i]);

		if (d < best_d) {
			best = candidates[i];
			best_d = d;
		}
	}
	return best;
}

/* --- parsing --- */

/* 1-based line and column of byte offset in data. */
static void offset_position(const char *data, size_t len, size_t offset,
			    size_t *line, size_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < offset && i < len; i++) {
		if (data[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int parser_error(yaml_parser_t *p, const char *file,
			const char *data, size_t len, GError **error)
{
	const char *problem = p->problem ? p->problem : "malformed YAML";
	size_t line, col;

	if (p->error == YAML_READER_ERROR) {
		offset_position(data, len, p->problem_offset, &line, &col);
		return cfg_error_at(error, GS_CONFIG_ERROR_SYNTAX, file, line,
				    col, "%s (the file must be UTF-8 text)",
				    problem);
	}
	if (p->error == YAML_MEMORY_ERROR)
		return cfg_error_at(error, GS_CONFIG_ERROR_SYNTAX, file, 1, 1,
				    "out of memory while parsing");
	if (p->problem_mark.index < len &&
	    data[p->problem_mark.index] == '\t')
		return cfg_error_at(error, GS_CONFIG_ERROR_SYNTAX, file,
				    p->problem_mark.line + 1,
				    p->problem_mark.column + 1,
				    "%s: a tab (YAML is indented with spaces only)",
				    problem);
	if (p->context)
		return cfg_error_at(error, GS_CONFIG_ERROR_SYNTAX, file,
				    p->problem_mark.line + 1,
				    p->problem_mark.column + 1,
				    "%s (%s at line %zu, column %zu)", problem,
				    p->context, p->context_mark.line + 1,
				    p->context_mark.column + 1);
	return cfg_error_at(error, GS_CONFIG_ERROR_SYNTAX, file,
			    p->problem_mark.line + 1,
			    p->problem_mark.column + 1, "%s", problem);
}

/* Walk the event stream once before building the tree: it is where
 * aliases (whose expansion could be exponential or cyclic), runaway
 * nesting and runaway node counts are refused, with their positions. */
static int prescan(const char *file, const char *data, size_t len,
		   GError **error)
{
	yaml_parser_t p;
	yaml_event_t ev;
	size_t depth = 0, nodes = 0, docs = 0;
	int rc = 0;
	bool done = false;

	if (!yaml_parser_initialize(&p))
		return cfg_error_at(error, GS_CONFIG_ERROR_SYNTAX, file, 1, 1,
				    "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	while (!done && rc == 0) {
		size_t line, col;

		if (!yaml_parser_parse(&p, &ev)) {
			rc = parser_error(&p, file, data, len, error);
			break;
		}
		line = ev.start_mark.line + 1;
		col = ev.start_mark.column + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rc = cfg_error_at(error,
					GS_CONFIG_ERROR_SYNTAX, file, line, col,
					"only one YAML document is allowed in a scenario");
			break;
		case YAML_ALIAS_EVENT:
			rc = cfg_error_at(error, GS_CONFIG_ERROR_SYNTAX, file,
					  line, col,
					  "YAML aliases (*%s) are not supported; write the value out",
					  (const char *)ev.data.alias.anchor);
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > CFG_MAX_DEPTH)
				rc = cfg_error_at(error,
					GS_CONFIG_ERROR_SYNTAX, file, line, col,
					"nesting deeper than %d levels",
					CFG_MAX_DEPTH);
			/* fall through */
		case YAML_SCALAR_EVENT:
			if (rc == 0 && ++nodes > CFG_MAX_NODES)
				rc = cfg_error_at(error,
					GS_CONFIG_ERROR_SYNTAX, file, line, col,
					"more than %u YAML values in one file",
					CFG_MAX_NODES);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return rc;
}

static int load_document(yaml_document_t *doc, const char *file,
			 const char *data, size_t len, GError **error)
{
	yaml_parser_t p;
	int rc = 0;

	if (prescan(file, data, len, error) < 0)
		return -1;
	if (!yaml_parser_initialize(&p))
		return cfg_error_at(error, GS_CONFIG_ERROR_SYNTAX, file, 1, 1,
				    "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	if (!yaml_parser_load(&p, doc))
		rc = parser_error(&p, file, data, len, error);
	yaml_parser_delete(&p);
	return rc;
}

int cfg_yaml_load(struct cfg *c, const char *data, size_t len)
{
	yaml_node_t *root;

	if (len > GS_MAX_INPUT_BYTES) {
		g_set_error(c->error, GS_CONFIG_ERROR, GS_CONFIG_ERROR_IO,
			    "%s: larger than %zu bytes", c->file,
			    GS_MAX_INPUT_BYTES);
		return -1;
	}
	if (load_document(&c->doc, c->file, data, len, c->error) < 0)
		return -1;
	c->have_doc = true;
	c->file_nodes = (int)(c->doc.nodes.top - c->doc.nodes.start);
	root = yaml_document_get_root_node(&c->doc);
	if (!root || cfg_is_null(root))
		return cfg_error_at(c->error, GS_CONFIG_ERROR_INVALID, c->file,
				    1, 1,
				    "the file is empty; a scenario needs at least 'duration' and 'tasks'");
	if (root->type != YAML_MAPPING_NODE)
		return cfg_error(c, root,
				 "a scenario must be a mapping of keys (duration:, tasks:, ...), got %s",
				 root->type == YAML_SEQUENCE_NODE ?
				 "a list" : "a single value");
	return 0;
}

/* Copy node `index` of src into dst; returns its index in dst or 0.
 * Depth is bounded by the prescan. */
static int copy_node(yaml_document_t *dst, yaml_document_t *src, int index)
{
	yaml_node_t *n = yaml_document_get_node(src, index);
	int out = 0;

	switch (n->type) {
	case YAML_SCALAR_NODE:
		out = yaml_document_add_scalar(dst, NULL, n->data.scalar.value,
					       (int)n->data.scalar.length,
					       n->data.scalar.style);
		break;
	case YAML_SEQUENCE_NODE: {
		yaml_node_item_t *it;

		out = yaml_document_add_sequence(dst, NULL,
						 YAML_FLOW_SEQUENCE_STYLE);
		for (it = n->data.sequence.items.start;
		     out && it < n->data.sequence.items.top; it++) {
			int v = copy_node(dst, src, *it);

			if (!v || !yaml_document_append_sequence_item(dst, out,
								      v))
				return 0;
		}
		break;
	}
	case YAML_MAPPING_NODE: {
		yaml_node_pair_t *pr;

		out = yaml_document_add_mapping(dst, NULL,
						YAML_FLOW_MAPPING_STYLE);
		for (pr = n->data.mapping.pairs.start;
		     out && pr < n->data.mapping.pairs.top; pr++) {
			int k = copy_node(dst, src, pr->key);
			int v = k ? copy_node(dst, src, pr->value) : 0;

			if (!v || !yaml_document_append_mapping_pair(dst, out,
								     k, v))
				return 0;
		}
		break;
	}
	default:
		break;
	}
	return out;
}

int cfg_yaml_parse_value(yaml_document_t *doc, const char *text,
			 const char *prefix, GError **error)
{
	yaml_document_t tmp;
	g_autoptr(GError) err = NULL;
	yaml_node_t *root;
	int out;

	if (load_document(&tmp, "value", text, strlen(text), &err) < 0) {
		/* "value:1:5: msg" -> "--set a=b: msg (at column 5)" */
		const char *msg = err->message + strlen("value:");
		const char *rest = strchr(msg, ':');

		rest = rest ? strchr(rest + 1, ':') : NULL;
		g_set_error(error, GS_CONFIG_ERROR, GS_CONFIG_ERROR_SYNTAX,
			    "--set %s: %s", prefix,
			    rest ? rest + 2 : msg);
		return 0;
	}
	root = yaml_document_get_root_node(&tmp);
	out = root ? copy_node(doc, &tmp, 1) : 0;
	yaml_document_delete(&tmp);
	if (!out)
		g_set_error(error, GS_CONFIG_ERROR, GS_CONFIG_ERROR_SYNTAX,
			    "--set %s: could not use the value", prefix);
	return out;
}

/* --- node access --- */

bool cfg_is_null(const yaml_node_t *n)
{
	const char *s;

	if (!n || n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") ||
	       !strcmp(s, "Null") || !strcmp(s, "NULL");
}

const char *cfg_text(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

char *cfg_describe(const yaml_node_t *n)
{
	const char *s;

	if (!n || cfg_is_null(n))
		return g_strdup("nothing");
	if (n->type == YAML_MAPPING_NODE)
		return g_strdup("a mapping");
	if (n->type == YAML_SEQUENCE_NODE)
		return g_strdup("a list");
	s = cfg_text(n);
	if (n->data.scalar.length > 40)
		return g_strdup_printf("'%.40s...'", s);
	return g_strdup_printf("'%s'", s);
}

int cfg_expect_map(struct cfg *c, const yaml_node_t *n, const char *what)
{
	g_autofree char *got = NULL;

	if (n && (n->type == YAML_MAPPING_NODE || cfg_is_null(n)))
		return 0;
	got = cfg_describe(n);
	return cfg_error(c, n, "%s must be a mapping of keys, got %s", what,
			 got);
}

int cfg_expect_seq(struct cfg *c, const yaml_node_t *n, const char *what)
{
	g_autofree char *got = NULL;

	if (n && n->type == YAML_SEQUENCE_NODE)
		return 0;
	got = cfg_describe(n);
	return cfg_error(c, n, "%s must be a list, got %s", what, got);
}

size_t cfg_map_size(const yaml_node_t *map)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return 0;
	return (size_t)(map->data.mapping.pairs.top -
			map->data.mapping.pairs.start);
}

size_t cfg_seq_len(const yaml_node_t *seq)
{
	if (!seq || seq->type != YAML_SEQUENCE_NODE)
		return 0;
	return (size_t)(seq->data.sequence.items.top -
			seq->data.sequence.items.start);
}

yaml_node_t *cfg_seq_item(struct cfg *c, const yaml_node_t *seq, size_t i)
{
	return cfg_node(c, seq->data.sequence.items.start[i]);
}

yaml_node_pair_t *cfg_map_find_pair(struct cfg *c, const yaml_node_t *map,
				    const char *key)
{
	yaml_node_pair_t *p;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *k = cfg_text(cfg_node(c, p->key));

		if (k && !strcmp(k, key))
			return p;
	}
	return NULL;
}

yaml_node_t *cfg_map_get(struct cfg *c, const yaml_node_t *map,
			 const char *key)
{
	yaml_node_pair_t *p = cfg_map_find_pair(c, map, key);

	return p ? cfg_node(c, p->value) : NULL;
}

yaml_node_t *cfg_map_key(struct cfg *c, const yaml_node_t *map,
			 const char *key)
{
	yaml_node_pair_t *p = cfg_map_find_pair(c, map, key);

	return p ? cfg_node(c, p->key) : NULL;
}

static int unknown_key(struct cfg *c, const yaml_node_t *key_node,
		       const char *key, const char *what,
		       const char *const *allowed)
{
	size_t n = g_strv_length((char **)allowed);
	const char *close = cfg_closest(key, allowed, n);
	g_autofree char *list = NULL;

	if (close)
		return cfg_error(c, key_node,
				 "unknown key '%s' in %s; did you mean '%s'?",
				 key, what, close);
	if (n == 0)
		return cfg_error(c, key_node,
				 "unknown key '%s' in %s (it takes no keys)",
				 key, what);
	list = g_strjoinv(", ", (char **)allowed);
	return cfg_error(c, key_node, "unknown key '%s' in %s (allowed: %s)",
			 key, what, list);
}

int cfg_map_check(struct cfg *c, const yaml_node_t *map, const char *what,
		  const char *const *allowed)
{
	yaml_node_pair_t *p, *q;

	if (!map) /* an absent section */
		return 0;
	if (cfg_expect_map(c, map, what) < 0)
		return -1;
	if (map->type != YAML_MAPPING_NODE)
		return 0;
	/* Each key is checked against the allowed list before the earlier
	 * keys, so this loop is bounded by the allowed list's length. */
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *kn = cfg_node(c, p->key);
		const char *k = cfg_text(kn);
		size_t i;
		bool ok = false;

		if (!k)
			return cfg_error(c, kn,
					 "keys of %s must be plain words, not %s",
					 what, kn->type == YAML_MAPPING_NODE ?
					 "mappings" : "lists");
		for (i = 0; allowed[i]; i++)
			ok |= !strcmp(allowed[i], k);
		if (!ok)
			return unknown_key(c, kn, k, what, allowed);
		for (q = map->data.mapping.pairs.start; q < p; q++) {
			yaml_node_t *prev = cfg_node(c, q->key);

			if (!strcmp(cfg_text(prev), k))
				return cfg_error(c, kn,
						 "duplicate key '%s' in %s (first at line %zu)",
						 k, what,
						 prev->start_mark.line + 1);
		}
	}
	return 0;
}
