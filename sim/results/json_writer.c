/* The streaming JSON writer of json_writer.h. Its layout follows
 * json-glib 1.6's generator with pretty printing: a container's first
 * value starts a new line, each later one follows ",\n"; values are
 * indented two spaces per level; a member reads "\"key\" : value"; a
 * non-empty container closes on a new line at its own indent; an empty
 * array is "[]" but an empty object is "{", its own indent, then "}". */
#include "sim/results/json_writer.h"

#include "sim/results/decimal_digits.h"
#include "sim/results/json_double.h"

#include <glib.h>
#include <math.h>
#include <string.h>

void gs_jsonw_init(struct gs_jsonw *w, FILE *f)
{
	w->f = f;
	w->mem = NULL;
	w->depth = 0;
	w->len = 0;
}

void gs_jsonw_init_part(struct gs_jsonw *w, GString *mem,
			const struct gs_jsonw *at)
{
	w->f = NULL;
	w->mem = mem;
	w->len = 0;
	w->depth = at->depth;
	memcpy(w->open, at->open, sizeof(w->open[0]) * at->depth);
}

static void sink(struct gs_jsonw *w, const char *s, size_t n)
{
	if (w->mem)
		g_string_append_len(w->mem, s, (gssize)n);
	else
		fwrite(s, 1, n, w->f);
}

void gs_jsonw_finish(struct gs_jsonw *w)
{
	sink(w, w->buf, w->len);
	w->len = 0;
}

static void out(struct gs_jsonw *w, const char *s, size_t n)
{
	if (n > sizeof(w->buf) - w->len) {
		gs_jsonw_finish(w);
		if (n > sizeof(w->buf)) {
			sink(w, s, n);
			return;
		}
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static void out_c(struct gs_jsonw *w, char c)
{
	if (w->len == sizeof(w->buf))
		gs_jsonw_finish(w);
	w->buf[w->len++] = c;
}

static void out_s(struct gs_jsonw *w, const char *s)
{
	out(w, s, strlen(s));
}

static void indent(struct gs_jsonw *w, unsigned level)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)level * 2;

	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		out(w, spaces, k);
		n -= k;
	}
}

/* What comes before a value of the innermost container: the separator
 * and the indent of its level. */
static void separate(struct gs_jsonw *w)
{
	if (w->depth == 0)
		return;
	if (w->open[w->depth - 1].n++ == 0)
		out_c(w, '\n');
	else
		out(w, ",\n", 2);
	indent(w, w->depth);
}

/* Before a value: inside an array it is an element of its own; inside an
 * object gs_jsonw_member() has already written its start. */
static void value_start(struct gs_jsonw *w)
{
	if (w->depth > 0 && w->open[w->depth - 1].array)
		separate(w);
}

/* json-generator.c's json_strescape(): '"' and '\\' escaped; bytes 1 to
 * 0x1e and 0x7f as \b \f \n \r \t or \u00xx; 0x1f is let through (the
 * test of json-glib 1.6 is "< 0x1f"), as are bytes of 0x80 and above. */
static bool needs_escape(unsigned char c)
{
	return c == '"' || c == '\\' || (c >= 1 && c < 0x1f) || c == 0x7f;
}

static void escape(struct gs_jsonw *w, const char *s)
{
	const char *p = s, *run = s;

	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (!needs_escape(c))
			continue;
		out(w, run, (size_t)(p - run));
		run = p + 1;
		switch (c) {
		case '"':  out_s(w, "\\\""); break;
		case '\\': out_s(w, "\\\\"); break;
		case '\b': out_s(w, "\\b"); break;
		case '\f': out_s(w, "\\f"); break;
		case '\n': out_s(w, "\\n"); break;
		case '\r': out_s(w, "\\r"); break;
		case '\t': out_s(w, "\\t"); break;
		default: {
			char u[8];

			g_snprintf(u, sizeof(u), "\\u00%02x", (unsigned)c);
			out_s(w, u);
			break;
		}
		}
	}
	out(w, run, (size_t)(p - run));
}

static void quoted(struct gs_jsonw *w, const char *s)
{
	out_c(w, '"');
	escape(w, s);
	out_c(w, '"');
}

/* Whether s has no byte that escape() changes. */
static bool plain(const char *s, size_t *len)
{
	const char *p = s;

	for (; *p; p++)
		if (needs_escape((unsigned char)*p))
			return false;
	*len = (size_t)(p - s);
	return true;
}

/* The deepest indent gs_jsonw_key() writes the fast way: summary.json
 * nests four deep. */
#define MEMBER_INDENT_MAX 16
static const char member_spaces[MEMBER_INDENT_MAX + 1] = "                ";

/* n <= 16 bytes from s to p with no call and no byte read past s + n:
 * two copies of a fixed length that overlap when n is not a power of
 * two (a call to memcpy was a sixth of a member's instructions). */
static void copy_short(char *p, const char *s, size_t n)
{
	if (n >= 8) {
		memcpy(p, s, 8);
		memcpy(p + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else {
		if (n >= 1)
			p[0] = s[0];
		if (n >= 2)
			p[n - 1] = s[n - 1];
		if (n == 3)
			p[1] = s[1];
	}
}

/* The general way: any key, escaped, at any depth. */
static void member_slow(struct gs_jsonw *w, const char *key)
{
	separate(w);
	quoted(w, key);
	out(w, " : ", 3);
}

/* A member's key, and what comes before it, put into the buffer at once
 * when it fits: some thirty per task, each a dozen small copies the slow
 * way. */
void gs_jsonw_key(struct gs_jsonw *w, const char *key, size_t n)
{
	size_t level = w->depth;
	char *p;

	if (level == 0 || level > MEMBER_INDENT_MAX / 2 || n > 16 ||
	    2 + MEMBER_INDENT_MAX + n + 5 > sizeof(w->buf) - w->len) {
		member_slow(w, key);
		return;
	}
	p = w->buf + w->len;
	*p = ',';
	p += w->open[level - 1].n++ != 0;
	*p++ = '\n';
	/* a copy of a fixed length (two stores), of which the indent is
	 * kept: a memset() of 2 to 8 bytes was a call per member */
	memcpy(p, member_spaces, MEMBER_INDENT_MAX);
	p += 2 * level;
	*p++ = '"';
	copy_short(p, key, n);
	p += n;
	memcpy(p, "\" : ", 4);
	p += 4;
	w->len = (size_t)(p - w->buf);
}

void gs_jsonw_member(struct gs_jsonw *w, const char *key)
{
	size_t n;

	if (plain(key, &n))
		gs_jsonw_key(w, key, n);
	else
		member_slow(w, key);
}

static void begin(struct gs_jsonw *w, bool array)
{
	value_start(w);
	g_return_if_fail(w->depth < GS_JSONW_MAX_DEPTH);
	w->open[w->depth].array = array;
	w->open[w->depth].n = 0;
	w->depth++;
	out_c(w, array ? '[' : '{');
}

void gs_jsonw_begin_object(struct gs_jsonw *w)
{
	begin(w, false);
}

void gs_jsonw_begin_array(struct gs_jsonw *w)
{
	begin(w, true);
}

void gs_jsonw_end(struct gs_jsonw *w)
{
	bool array;
	uint32_t n;

	g_return_if_fail(w->depth > 0);
	w->depth--;
	array = w->open[w->depth].array;
	n = w->open[w->depth].n;
	if (n > 0)
		out_c(w, '\n');
	if (n > 0 || !array)
		indent(w, w->depth);
	out_c(w, array ? ']' : '}');
}

void gs_jsonw_string(struct gs_jsonw *w, const char *s)
{
	value_start(w);
	if (s)
		quoted(w, s);
	else
		out(w, "null", 4);
}

/* Digits by hand (decimal_digits.h), as "%" G_GINT64_FORMAT writes
 * them, straight into the buffer when they fit: summary.json has some
 * twenty integers per task. */
void gs_jsonw_int(struct gs_jsonw *w, int64_t v)
{
	char buf[GS_U64_DIGITS + 1], *p;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	value_start(w);
	if (sizeof(w->buf) - w->len >= sizeof(buf)) {
		p = w->buf + w->len;
		if (v < 0)
			*p++ = '-';
		w->len = (size_t)(gs_put_u64(p, u) - w->buf);
		return;
	}
	p = buf;
	if (v < 0)
		*p++ = '-';
	out(w, buf, (size_t)(gs_put_u64(p, u) - buf));
}

/* Formatted straight into the buffer when it has room for the longest
 * text and its ".0". */
void gs_jsonw_double(struct gs_jsonw *w, double d)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];
	bool point;
	size_t n;

	if (!isfinite(d)) {
		gs_jsonw_null(w);
		return;
	}
	value_start(w);
	if (sizeof(w->buf) - w->len >= sizeof(buf) + 2) {
		n = gs_json_format_g17_point(w->buf + w->len, sizeof(buf), d,
					     &point);
		w->len += n;
		if (!point) {
			memcpy(w->buf + w->len, ".0", 2);
			w->len += 2;
		}
		return;
	}
	n = gs_json_format_g17_point(buf, sizeof(buf), d, &point);
	out(w, buf, n);
	if (!point)
		out(w, ".0", 2);
}

void gs_jsonw_bool(struct gs_jsonw *w, bool v)
{
	value_start(w);
	out_s(w, v ? "true" : "false");
}

void gs_jsonw_null(struct gs_jsonw *w)
{
	value_start(w);
	out(w, "null", 4);
}
