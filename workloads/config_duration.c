/* Durations ("25us", "1.5ms", "305 cycles") parsed exactly with integer
 * arithmetic, and the distribution mappings that may stand in for them. */
#include "workloads/config_internal.h"

#include <string.h>

__extension__ typedef unsigned __int128 cfg_u128;

struct unit {
	const char *name;
	uint64_t ns; /* 0: cycles */
};

static const struct unit units[] = {
	{ "ns", 1 },
	{ "us", GS_NS_PER_US },
	{ "ms", GS_NS_PER_MS },
	{ "s", GS_NS_PER_S },
	{ "cycles", 0 },
	{ "cycle", 0 },
};

/* The number is read as ip + fp / 10^scale (at most 18 fractional digits
 * that matter); the result must then be a whole number of nanoseconds, or
 * is rounded to the nearest nanosecond for cycles (which rarely divide
 * evenly). */
enum cfg_dur_problem cfg_parse_duration(const char *text, uint64_t clock_hz,
					gs_time_t *out)
{
	static const struct unit bare = { "", 1 };
	const char *s = text;
	uint64_t ip = 0, fp = 0, pow10 = 1;
	cfg_u128 ns;
	const struct unit *u = NULL;
	bool digits = false, lost = false;
	size_t i;

	if (!s)
		return CFG_DUR_SYNTAX;
	while (*s == ' ')
		s++;
	if (*s == '-')
		return CFG_DUR_NEGATIVE;
	if (*s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (ip > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return CFG_DUR_OVERFLOW;
		ip = ip * 10 + (uint64_t)(*s - '0');
		digits = true;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			digits = true;
			if (pow10 == 1000000000000000000ULL) {
				lost |= *s != '0';
				continue;
			}
			fp = fp * 10 + (uint64_t)(*s - '0');
			pow10 *= 10;
		}
	}
	if (!digits)
		return CFG_DUR_SYNTAX;
	while (*s == ' ')
		s++;
	if (!*s)
		u = &bare;
	for (i = 0; !u && i < G_N_ELEMENTS(units); i++) {
		size_t len = strlen(units[i].name);
		const char *e = s + len;

		if (strncmp(s, units[i].name, len))
			continue;
		while (*e == ' ')
			e++;
		if (!*e)
			u = &units[i];
	}
	if (!u) {
		for (i = 0; s[i]; i++)
			if (!g_ascii_isalpha(s[i]) && s[i] != ' ')
				return CFG_DUR_SYNTAX;
		return CFG_DUR_UNIT;
	}
	if (lost)
		return CFG_DUR_PRECISION;
	if (u->ns == 0) {
		/* (ip + fp / pow10) * 1e9 / clock, rounded to nearest. */
		cfg_u128 num, den;

		if (!clock_hz)
			return CFG_DUR_NO_CLOCK;
		if (pow10 > 1000000000ULL)
			return CFG_DUR_PRECISION;
		if (ip > 1000000000000000000ULL)
			return CFG_DUR_OVERFLOW;
		num = ((cfg_u128)ip * pow10 + fp) * GS_NS_PER_S;
		den = (cfg_u128)pow10 * clock_hz;
		ns = (num + den / 2) / den;
	} else {
		cfg_u128 frac = (cfg_u128)fp * u->ns;

		if (frac % pow10)
			return CFG_DUR_PRECISION;
		ns = (cfg_u128)ip * u->ns + frac / pow10;
	}
	if (ns > UINT64_MAX - 1) /* GS_TIME_NEVER is not a duration */
		return CFG_DUR_OVERFLOW;
	*out = (gs_time_t)ns;
	return CFG_DUR_OK;
}

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
