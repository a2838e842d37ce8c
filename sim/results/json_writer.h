/* A streaming JSON writer: values go straight to a FILE as they are
 * produced, with no tree in memory, in the bytes json-glib 1.6's
 * JsonGenerator writes with pretty printing and an indent of two spaces
 * (json-generator.c: dump_node, dump_object, dump_array, dump_value,
 * json_strescape). summary.json is written through it, so a run with
 * 65,536 tasks does not hold a tree of every field (issue 20).
 *
 *   gs_jsonw_begin_object(&w);
 *   gs_jsonw_member(&w, "n");  gs_jsonw_int(&w, 3);
 *   gs_jsonw_end(&w);
 *
 * Inside an object every value is preceded by gs_jsonw_member(); inside an
 * array it is not; gs_jsonw_finish() writes out what is still buffered.
 * Write errors are left in the FILE for the caller. */
#ifndef GS_JSON_WRITER_H
#define GS_JSON_WRITER_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* summary.json nests four deep (root, tasks, a task, a distribution). */
#define GS_JSONW_MAX_DEPTH 16
/* Bytes gathered before one fwrite(): a summary is millions of short
 * pieces, and stdio's per-call work was a visible part of writing it. */
#define GS_JSONW_BUFSZ 8192

struct gs_jsonw {
	FILE *f;
	GString *mem; /* where the bytes go instead of f (when not NULL) */
	size_t len;
	char buf[GS_JSONW_BUFSZ];
	unsigned depth; /* open containers */
	struct {
		bool array;
		uint32_t n; /* values written in it so far */
	} open[GS_JSONW_MAX_DEPTH];
};

void gs_jsonw_init(struct gs_jsonw *w, FILE *f);
/* A writer whose bytes are appended to mem, for a part of a document
 * written apart and put in its place later: it starts in the state of
 * another writer at (its open containers and their value counts), so
 * its bytes are those at would have written from there. */
void gs_jsonw_init_part(struct gs_jsonw *w, GString *mem,
			const struct gs_jsonw *at);
/* Writes out the buffered bytes; call it once the document is complete. */
void gs_jsonw_finish(struct gs_jsonw *w);

void gs_jsonw_begin_object(struct gs_jsonw *w);
void gs_jsonw_begin_array(struct gs_jsonw *w);
/* Closes the innermost open object or array. */
void gs_jsonw_end(struct gs_jsonw *w);

/* The name of the next value of the open object, escaped as json-glib
 * escapes it (the caller makes it valid UTF-8). */
void gs_jsonw_member(struct gs_jsonw *w, const char *key);
/* The same for a key of n bytes that needs no escape (letters, digits,
 * '_': every key of summary.json), its length known to the caller, so
 * it is not scanned; GS_JSONW_KEY() gives a literal's. */
void gs_jsonw_key(struct gs_jsonw *w, const char *key, size_t n);
#define GS_JSONW_KEY(w, lit) gs_jsonw_key((w), "" lit "", sizeof(lit) - 1)

/* s escaped as json-glib escapes it; NULL is written as null. */
void gs_jsonw_string(struct gs_jsonw *w, const char *s);
void gs_jsonw_int(struct gs_jsonw *w, int64_t v);
/* "%.17g" as g_ascii_dtostr() writes it (json_double.h), with ".0" appended when it has
 * no point, as json-glib does; NAN and infinities are written as null
 * (json-glib would write "nan.0", which no JSON reader accepts). */
void gs_jsonw_double(struct gs_jsonw *w, double d);
void gs_jsonw_bool(struct gs_jsonw *w, bool v);
void gs_jsonw_null(struct gs_jsonw *w);

#endif
