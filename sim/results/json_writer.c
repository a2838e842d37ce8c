/* The streaming JSON writer of json_writer.h. Its layout follows
 * json-glib 1.6's generator with pretty printing: a container's first
 * value starts a new line, each later one follows ",\n"; values are
 * indented two spaces per level; a member reads "\"key\" : value"; a
 * non-empty container closes on a new line at its own indent; an empty
 * array is "[]" but an empty object is "{", its own indent, then "}". */
#include "sim/results/json_writer.h"

#include <glib.h>
#include <math.h>
#include <string.h>

void gs_jsonw_init(struct gs_jsonw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void indent(struct gs_jsonw *w, unsigned level)
{
	static const char spaces[] = "                                ";
	size_t n = (size_t)level * 2;

	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		fwrite(spaces, 1, k, w->f);
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
		putc('\n', w->f);
	else
		fputs(",\n", w->f);
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

static void escape(FILE *f, const char *s)
{
	const char *p = s, *run = s;

	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (!needs_escape(c))
			continue;
		fwrite(run, 1, (size_t)(p - run), f);
		run = p + 1;
		switch (c) {
		case '"':  fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:   fprintf(f, "\\u00%02x", (unsigned)c); break;
		}
	}
	fwrite(run, 1, (size_t)(p - run), f);
}

static void quoted(FILE *f, const char *s)
{
	putc('"', f);
	escape(f, s);
	putc('"', f);
}

void gs_jsonw_member(struct gs_jsonw *w, const char *key)
{
	separate(w);
	quoted(w->f, key);
	fputs(" : ", w->f);
}

static void begin(struct gs_jsonw *w, bool array)
{
	value_start(w);
	g_return_if_fail(w->depth < GS_JSONW_MAX_DEPTH);
	w->open[w->depth].array = array;
	w->open[w->depth].n = 0;
	w->depth++;
	putc(array ? '[' : '{', w->f);
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
		putc('\n', w->f);
	if (n > 0 || !array)
		indent(w, w->depth);
	putc(array ? ']' : '}', w->f);
}

void gs_jsonw_string(struct gs_jsonw *w, const char *s)
{
	value_start(w);
	if (s)
		quoted(w->f, s);
	else
		fputs("null", w->f);
}

/* Digits by hand, as "%" G_GINT64_FORMAT writes them: summary.json has
 * some twenty integers per task. */
void gs_jsonw_int(struct gs_jsonw *w, int64_t v)
{
	char buf[21];
	size_t n = sizeof(buf);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	value_start(w);
	do {
		buf[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[--n] = '-';
	fwrite(buf + n, 1, sizeof(buf) - n, w->f);
}

void gs_jsonw_double(struct gs_jsonw *w, double d)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(d)) {
		gs_jsonw_null(w);
		return;
	}
	value_start(w);
	fputs(g_ascii_dtostr(buf, sizeof(buf), d), w->f);
	if (!strchr(buf, '.'))
		fputs(".0", w->f);
}

void gs_jsonw_bool(struct gs_jsonw *w, bool v)
{
	value_start(w);
	fputs(v ? "true" : "false", w->f);
}

void gs_jsonw_null(struct gs_jsonw *w)
{
	value_start(w);
	fputs("null", w->f);
}
