/* Typed readers of scalar nodes: integers, booleans, enumerations, names
 * and watts, each with a message that names the key and quotes the text. */
#include "workloads/config_internal.h"

#include <string.h>

static int expected(struct cfg *c, const yaml_node_t *n, const char *what,
		    const char *kind)
{
	g_autofree char *got = cfg_describe(n);

	return cfg_error(c, n, "%s: expected %s, got %s", what, kind, got);
}

/* Decimal digits, optionally grouped with '_' (100_000). */
static bool parse_u64_text(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	bool digit = false;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s == '_' && digit && s[1] >= '0' && s[1] <= '9')
			continue;
		if (*s < '0' || *s > '9')
			return false;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
		digit = true;
	}
	*out = v;
	return true;
}

int cfg_u64(struct cfg *c, const yaml_node_t *n, const char *what,
	    uint64_t min, uint64_t max, uint64_t *out)
{
	const char *s = cfg_text(n);
	uint64_t v;

	if (!s || cfg_is_null(n))
		return expected(c, n, what, "an integer");
	if (!parse_u64_text(s, &v)) {
		if (*s == '-' && parse_u64_text(s + 1, &v))
			return cfg_error(c, n,
					 "%s must be between %" G_GUINT64_FORMAT
					 " and %" G_GUINT64_FORMAT ", got %s",
					 what, min, max, s);
		if (*s >= '0' && *s <= '9' && strspn(s, "0123456789_") ==
		    strlen(s))
			return cfg_error(c, n, "%s: %s is too large (at most %"
					 G_GUINT64_FORMAT ")", what, s, max);
		return expected(c, n, what, "an integer");
	}
	if (v < min || v > max)
		return cfg_error(c, n,
				 "%s must be between %" G_GUINT64_FORMAT " and %"
				 G_GUINT64_FORMAT ", got %s", what, min, max, s);
	*out = v;
	return 0;
}

int cfg_u32(struct cfg *c, const yaml_node_t *n, const char *what,
	    uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;

	if (cfg_u64(c, n, what, min, max, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int cfg_bool(struct cfg *c, const yaml_node_t *n, const char *what,
	     bool *out)
{
	static const char *const yes[] = { "true", "True", "TRUE" };
	static const char *const no[] = { "false", "False", "FALSE" };
	const char *s = cfg_text(n);
	size_t i;

	for (i = 0; s && i < G_N_ELEMENTS(yes); i++) {
		if (!strcmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return expected(c, n, what, "true or false");
}

int cfg_enum(struct cfg *c, const yaml_node_t *n, const char *what,
	     const char *const *names, size_t n_names, int *out)
{
	const char *s = cfg_text(n);
	g_autofree char *list = NULL;
	GString *buf;
	const char *close;
	size_t i;

	for (i = 0; s && i < n_names; i++) {
		if (!strcmp(s, names[i])) {
			*out = (int)i;
			return 0;
		}
	}
	buf = g_string_new(NULL);
	for (i = 0; i < n_names; i++)
		g_string_append_printf(buf, "%s%s", i ? ", " : "", names[i]);
	list = g_string_free(buf, FALSE);
	close = s && !cfg_is_null(n) ? cfg_closest(s, names, n_names) : NULL;
	if (close)
		return cfg_error(c, n, "%s: unknown value '%s'; did you mean '%s'?",
				 what, s, close);
	{
		g_autofree char *got = cfg_describe(n);

		return cfg_error(c, n, "%s: expected one of %s, got %s", what,
				 list, got);
	}
}

int cfg_string(struct cfg *c, const yaml_node_t *n, const char *what,
	       bool word, char **out)
{
	const char *s = cfg_text(n);
	size_t len;

	if (!s || cfg_is_null(n))
		return expected(c, n, what, word ?
				"a name made of letters, digits, '_', '.' and '-'" :
				"a string");
	len = n->data.scalar.length;
	if (word) {
		if (len > 128)
			return cfg_error(c, n, "%s: names are at most 128 characters",
					 what);
		if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_.-") != len)
			return cfg_error(c, n,
					 "%s '%s' may only contain letters, digits, '_', '.' and '-'",
					 what, s);
	} else if (strlen(s) != len) {
		return cfg_error(c, n, "%s: contains a NUL character", what);
	}
	*out = g_strdup(s);
	return 0;
}

int cfg_watts(struct cfg *c, const yaml_node_t *n, const char *what,
	      uint32_t *out_mw)
{
	const char *s = cfg_text(n);
	uint64_t mw = 0;
	int frac = -1;

	if (!s || !*s || cfg_is_null(n))
		return expected(c, n, what, "a number of watts such as 25 or 12.5");
	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || frac >= 3 || mw > 100000000)
			return expected(c, n, what,
					"a number of watts such as 25 or 12.5 (at most 3 decimals)");
		mw = mw * 10 + (uint64_t)(*s - '0');
		if (frac >= 0)
			frac++;
	}
	for (frac = frac < 0 ? 0 : frac; frac < 3; frac++)
		mw *= 10;
	if (mw > 1000000000ULL)
		return cfg_error(c, n, "%s must be at most 1000000 watts", what);
	*out_mw = (uint32_t)mw;
	return 0;
}
