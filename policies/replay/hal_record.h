/* The line format of a HAL record (docs/hal-record.md), shared by the
 * simulator's recorder and the replay HAL so that both write a call the
 * same way, byte for byte. Kernel rules: no libc, no floating point.
 *
 * A call is one line: its name, its arguments, and for a query " = " and
 * the values it returned. Each value has a kind (a letter of the `kinds`
 * strings below): */
#ifndef GS_HAL_RECORD_H
#define GS_HAL_RECORD_H

#include "../hal.h"

#define HREC_MAGIC "gpusim-hal-record"
#define HREC_VERSION 1

/* Value kinds:
 *   'u' unsigned decimal          'i' signed decimal
 *   't' a task, written t<N>      'c' a channel, c<N>; '-' for none (0)
 *   's' a string (the value is its address), written with %XX escapes
 *       for '%', space, control characters and bytes above 0x7e; '-'
 *       for the empty string, which is written %00-free as "%2D" when a
 *       string is "-" itself. */
struct hrec_out {
	char *buf;
	hal_u32 size;  /* buf's size; the text stays NUL-terminated */
	hal_u32 len;
	int overflow;  /* a line did not fit: it was cut */
};

void hrec_reset(struct hrec_out *o);
void hrec_str(struct hrec_out *o, const char *s);
void hrec_u64(struct hrec_out *o, hal_u64 v);
void hrec_s64(struct hrec_out *o, hal_s64 v);
/* One value of kind `kind`, preceded by a space. */
void hrec_value(struct hrec_out *o, char kind, hal_u64 v);
/* "name a1 a2" and, when okinds is not empty, " = o1 o2". */
void hrec_call(struct hrec_out *o, const char *name, const char *kinds,
	       const hal_u64 *args, const char *okinds, const hal_u64 *outs);

/* Reading: a cursor over one line of the record. */
struct hrec_in {
	const char *p, *end; /* the rest of the line */
};

/* The next space-separated token, its length in *len; 0 at the end. */
const char *hrec_token(struct hrec_in *in, hal_u32 *len);
/* Whether token (tok, len) is the text `s`. */
int hrec_token_is(const char *tok, hal_u32 len, const char *s);
/* Parses a value of kind `kind` from the next token; 0 on success, -1
 * when it is missing or malformed. A string's value is the address of
 * its (escaped) token. */
int hrec_parse(struct hrec_in *in, char kind, hal_u64 *v);
/* Decodes escaped string token (tok, len) into buf (size bytes, always
 * NUL-terminated); its decoded length. */
hal_u32 hrec_unescape(const char *tok, hal_u32 len, char *buf, hal_u32 size);

#endif
