/* The line format of a HAL record: writing values and calls, reading
 * tokens back (hal_record.h). */
#include "hal_record.h"

static void put(struct hrec_out *o, char ch)
{
	if (o->len + 1 >= o->size) {
		o->overflow = 1;
		return;
	}
	o->buf[o->len++] = ch;
	o->buf[o->len] = 0;
}

void hrec_reset(struct hrec_out *o)
{
	o->len = 0;
	o->overflow = 0;
	if (o->size)
		o->buf[0] = 0;
}

void hrec_str(struct hrec_out *o, const char *s)
{
	while (*s)
		put(o, *s++);
}

void hrec_u64(struct hrec_out *o, hal_u64 v)
{
	char digits[20];
	int n = 0;

	do {
		/* v % 10 and v / 10 by shifts would do too; a 64-bit
		 * division goes through hal_div64 on 32-bit kernels */
		hal_u64 q = hal_div64(v, 10);

		digits[n++] = (char)('0' + (v - q * 10));
		v = q;
	} while (v);
	while (n)
		put(o, digits[--n]);
}

void hrec_s64(struct hrec_out *o, hal_s64 v)
{
	if (v < 0) {
		put(o, '-');
		hrec_u64(o, (hal_u64)0 - (hal_u64)v);
	} else {
		hrec_u64(o, (hal_u64)v);
	}
}

static void put_escaped(struct hrec_out *o, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	if (!s || !*s) {
		put(o, '-');
		return;
	}
	if (s[0] == '-' && !s[1]) {
		hrec_str(o, "%2D");
		return;
	}
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch <= ' ' || ch > '~' || ch == '%') {
			put(o, '%');
			put(o, hex[ch >> 4]);
			put(o, hex[ch & 15]);
		} else {
			put(o, (char)ch);
		}
	}
}

void hrec_value(struct hrec_out *o, char kind, hal_u64 v)
{
	put(o, ' ');
	switch (kind) {
	case 'i':
		hrec_s64(o, (hal_s64)v);
		break;
	case 't':
		put(o, 't');
		hrec_u64(o, v);
		break;
	case 'c':
		if (!v) {
			put(o, '-');
			break;
		}
		put(o, 'c');
		hrec_u64(o, v);
		break;
	case 's':
		put_escaped(o, (const char *)(unsigned long)v);
		break;
	default:
		hrec_u64(o, v);
		break;
	}
}

void hrec_call(struct hrec_out *o, const char *name, const char *kinds,
	       const hal_u64 *args, const char *okinds, const hal_u64 *outs)
{
	hal_u32 i;

	hrec_str(o, name);
	for (i = 0; kinds && kinds[i]; i++)
		hrec_value(o, kinds[i], args[i]);
	if (!okinds || !okinds[0])
		return;
	hrec_str(o, " =");
	for (i = 0; okinds[i]; i++)
		hrec_value(o, okinds[i], outs[i]);
}

const char *hrec_token(struct hrec_in *in, hal_u32 *len)
{
	const char *start;

	while (in->p < in->end && *in->p == ' ')
		in->p++;
	start = in->p;
	while (in->p < in->end && *in->p != ' ')
		in->p++;
	*len = (hal_u32)(in->p - start);
	return *len ? start : 0;
}

int hrec_token_is(const char *tok, hal_u32 len, const char *s)
{
	hal_u32 i;

	for (i = 0; i < len; i++)
		if (s[i] != tok[i])
			return 0;
	return s[len] == 0;
}

static int parse_digits(const char *p, hal_u32 len, hal_u64 *v)
{
	hal_u64 n = 0;
	hal_u32 i;

	if (!len || len > 20)
		return -1;
	for (i = 0; i < len; i++) {
		hal_u64 d;

		if (p[i] < '0' || p[i] > '9')
			return -1;
		d = (hal_u64)(p[i] - '0');
		if (n > hal_div64(~(hal_u64)0 - d, 10))
			return -1;
		n = n * 10 + d;
	}
	*v = n;
	return 0;
}

int hrec_parse(struct hrec_in *in, char kind, hal_u64 *v)
{
	hal_u32 len;
	const char *tok = hrec_token(in, &len);

	if (!tok)
		return -1;
	switch (kind) {
	case 's':
		/* the token itself: hal_task_name decodes it */
		*v = (hal_u64)(unsigned long)tok;
		return 0;
	case 'i':
		if (tok[0] == '-') {
			if (parse_digits(tok + 1, len - 1, v) < 0)
				return -1;
			*v = (hal_u64)0 - *v;
			return 0;
		}
		return parse_digits(tok, len, v);
	case 't':
		return tok[0] == 't' ? parse_digits(tok + 1, len - 1, v) : -1;
	case 'c':
		if (len == 1 && tok[0] == '-') {
			*v = 0;
			return 0;
		}
		return tok[0] == 'c' ? parse_digits(tok + 1, len - 1, v) : -1;
	default:
		return parse_digits(tok, len, v);
	}
}

static int hex_value(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

hal_u32 hrec_unescape(const char *tok, hal_u32 len, char *buf, hal_u32 size)
{
	hal_u32 i, n = 0;

	if (!size)
		return 0;
	if (len == 1 && tok[0] == '-')
		len = 0;
	for (i = 0; i < len && n + 1 < size; i++) {
		if (tok[i] == '%' && i + 2 < len &&
		    hex_value(tok[i + 1]) >= 0 && hex_value(tok[i + 2]) >= 0) {
			buf[n++] = (char)(hex_value(tok[i + 1]) * 16 +
					  hex_value(tok[i + 2]));
			i += 2;
		} else {
			buf[n++] = tok[i];
		}
	}
	buf[n] = 0;
	return n;
}
