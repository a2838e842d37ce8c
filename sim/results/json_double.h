/* A double as printf's "%.17g" writes it in the C locale, the bytes
 * g_ascii_dtostr() gives (json-glib's number format), computed without
 * printf where it can be (json_double.c). */
#ifndef GS_JSON_DOUBLE_H
#define GS_JSON_DOUBLE_H

#include <stdbool.h>
#include <stddef.h>

/* Writes d into buf (at least G_ASCII_DTOSTR_BUF_SIZE bytes, NUL-ended)
 * and returns the length. */
size_t gs_json_format_g17(char *buf, size_t size, double d);

/* The same, and *point says whether the text has a '.' (JSON's writer
 * appends ".0" when not), which the formatter knows without a search.
 * Bytes of buf past the text's NUL may be written too. */
size_t gs_json_format_g17_point(char *buf, size_t size, double d,
				bool *point);

#endif
