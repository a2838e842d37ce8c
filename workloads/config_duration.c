/* Durations ("25us", "1.5ms", "305 cycles") parsed exactly with integer
 * arithmetic, and the distribution mappings that may stand in for them. */
#include "workloads/config_internal.h"

#include "policies/duration.h"

#include <string.h>

/* The parser is the kernel-clean one the kernel module's params= uses
 * too; here it gains the loader's wording of its problems. */
enum cfg_dur_problem cfg_parse_duration(const char *text, uint64_t clock_hz,
					gs_time_t *out)
{
	hal_u64 ns = 0;
	enum gs_dur_problem p = gs_duration_parse(text, clock_hz, &ns);

	if (p == GS_DUR_OK)
		*out = ns;
	return (enum cfg_dur_problem)p;
}
_Static_assert(CFG_DUR_SYNTAX == (int)GS_DUR_SYNTAX &&
	       CFG_DUR_NEGATIVE == (int)GS_DUR_NEGATIVE &&
	       CFG_DUR_UNIT == (int)GS_DUR_UNIT &&
	       CFG_DUR_PRECISION == (int)GS_DUR_PRECISION &&
	       CFG_DUR_OVERFLOW == (int)GS_DUR_OVERFLOW &&
	       CFG_DUR_NO_CLOCK == (int)GS_DUR_NO_CLOCK,
	       "the loader's problems are the parser's");

int gs_parse_duration(const char *text, uint64_t clock_hz, gs_time_t *out)
{
	return cfg_parse_duration(text, clock_hz, out) == CFG_DUR_OK ? 0 : -1;
}

char *cfg_duration_message(enum cfg_dur_problem p, const char *text,
			   const char *what)
{
	switch (p) {
	case CFG_DUR_NEGATIVE:
		return g_strdup_printf("%s: durations cannot be negative, got '%s'",
				       what, text);
	case CFG_DUR_UNIT:
		return g_strdup_printf("%s: unknown unit in '%s' (use ns, us, ms, s or cycles)",
				       what, text);
	case CFG_DUR_PRECISION:
		return g_strdup_printf("%s: '%s' is not a whole number of nanoseconds",
				       what, text);
	case CFG_DUR_OVERFLOW:
		return g_strdup_printf("%s: '%s' is too large", what, text);
	case CFG_DUR_NO_CLOCK:
		return g_strdup_printf("%s: '%s' needs a clock, but clock_hz is 0",
				       what, text);
	default:
		return g_strdup_printf("%s: expected a duration such as 25us, got '%s'",
				       what, text);
	}
}

int cfg_duration(struct cfg *c, const yaml_node_t *n, const char *what,
		 uint64_t clock_hz, gs_time_t max, gs_time_t *out)
{
	const char *s = cfg_text(n);
	enum cfg_dur_problem p;
	gs_time_t v = 0;

	if (!s || cfg_is_null(n)) {
		g_autofree char *got = cfg_describe(n);

		return cfg_error(c, n,
				 "%s: expected a duration such as 25us, got %s",
				 what, got);
	}
	if (n->data.scalar.length > 64 || strlen(s) != n->data.scalar.length)
		p = CFG_DUR_SYNTAX;
	else
		p = cfg_parse_duration(s, clock_hz, &v);
	if (p == CFG_DUR_OK && v > max)
		p = CFG_DUR_OVERFLOW;
	if (p != CFG_DUR_OK) {
		g_autofree char *shown = g_strndup(s, 64);
		g_autofree char *msg = cfg_duration_message(p, shown, what);

		if (p == CFG_DUR_OVERFLOW)
			return cfg_error(c, n, "%s (at most %" G_GUINT64_FORMAT
					 "ns)", msg, max);
		return cfg_error(c, n, "%s", msg);
	}
	*out = v;
	return 0;
}

static const char *const dist_kinds[] = {
	"uniform", "exponential", "normal", "empirical", NULL,
};

static int dist_uniform(struct cfg *c, const yaml_node_t *v,
			const char *what, uint64_t clock_hz,
			struct gs_dist *out)
{
	if (cfg_seq_len(v) != 2) {
		g_autofree char *got = cfg_describe(v);

		return cfg_error(c, v,
				 "%s: uniform takes a list of two durations [low, high], got %s",
				 what, got);
	}
	if (cfg_duration(c, cfg_seq_item(c, v, 0), what, clock_hz,
			 CFG_MAX_DURATION, &out->a) < 0 ||
	    cfg_duration(c, cfg_seq_item(c, v, 1), what, clock_hz,
			 CFG_MAX_DURATION, &out->b) < 0)
		return -1;
	if (out->a > out->b)
		return cfg_error(c, v, "%s: uniform low bound is above its high bound",
				 what);
	out->kind = GS_DIST_UNIFORM;
	return 0;
}

static int dist_normal(struct cfg *c, const yaml_node_t *v,
		       const char *what, uint64_t clock_hz,
		       struct gs_dist *out)
{
	static const char *const keys[] = { "mean", "stddev", NULL };
	yaml_node_t *mean, *sd;

	if (v->type != YAML_MAPPING_NODE) {
		g_autofree char *got = cfg_describe(v);

		return cfg_error(c, v,
				 "%s: normal takes {mean: ..., stddev: ...}, got %s",
				 what, got);
	}
	if (cfg_map_check(c, v, "normal", keys) < 0)
		return -1;
	mean = cfg_map_get(c, v, "mean");
	sd = cfg_map_get(c, v, "stddev");
	if (!mean || !sd)
		return cfg_error(c, v, "%s: normal needs both 'mean' and 'stddev'",
				 what);
	if (cfg_duration(c, mean, "mean", clock_hz, CFG_MAX_DURATION,
			 &out->a) < 0 ||
	    cfg_duration(c, sd, "stddev", clock_hz, CFG_MAX_DURATION,
			 &out->b) < 0)
		return -1;
	out->kind = GS_DIST_NORMAL;
	return 0;
}

static int dist_empirical(struct cfg *c, const yaml_node_t *v,
			  const char *what, uint64_t clock_hz,
			  struct gs_dist *out)
{
	size_t n = cfg_seq_len(v), i;
	gs_time_t *values;

	if (v->type != YAML_SEQUENCE_NODE || n == 0 || n > CFG_MAX_EMPIRICAL) {
		g_autofree char *got = cfg_describe(v);

		return cfg_error(c, v,
				 "%s: empirical takes a list of 1 to %u durations, got %s",
				 what, CFG_MAX_EMPIRICAL, got);
	}
	values = g_new(gs_time_t, n);
	for (i = 0; i < n; i++) {
		if (cfg_duration(c, cfg_seq_item(c, v, i), what, clock_hz,
				 CFG_MAX_DURATION, &values[i]) < 0) {
			g_free(values);
			return -1;
		}
	}
	out->kind = GS_DIST_EMPIRICAL;
	out->values = values;
	out->n = (uint32_t)n;
	return 0;
}

int cfg_dist(struct cfg *c, const yaml_node_t *n, const char *what,
	     uint64_t clock_hz, struct gs_dist *out)
{
	yaml_node_pair_t *p;
	yaml_node_t *v;
	const char *kind;

	memset(out, 0, sizeof(*out));
	if (!n || n->type != YAML_MAPPING_NODE) {
		gs_time_t t;

		if (n && n->type == YAML_SEQUENCE_NODE)
			return cfg_error(c, n,
					 "%s: expected a duration such as 25us or a distribution such as {uniform: [50us, 150us]}, got a list",
					 what);
		if (cfg_duration(c, n, what, clock_hz, CFG_MAX_DURATION, &t) < 0)
			return -1;
		*out = gs_dist_const(t);
		return 0;
	}
	if (cfg_map_check(c, n, what, dist_kinds) < 0)
		return -1;
	if (cfg_map_size(n) != 1)
		return cfg_error(c, n,
				 "%s: a distribution has exactly one of uniform, exponential, normal, empirical",
				 what);
	p = n->data.mapping.pairs.start;
	kind = cfg_text(cfg_node(c, p->key));
	v = cfg_node(c, p->value);
	if (!strcmp(kind, "uniform"))
		return dist_uniform(c, v, what, clock_hz, out);
	if (!strcmp(kind, "normal"))
		return dist_normal(c, v, what, clock_hz, out);
	if (!strcmp(kind, "empirical"))
		return dist_empirical(c, v, what, clock_hz, out);
	if (cfg_duration(c, v, what, clock_hz, CFG_MAX_DURATION, &out->a) < 0)
		return -1;
	out->kind = GS_DIST_EXPONENTIAL;
	return 0;
}
