/* A double as printf's "%.1f" or "%.6f" writes it in the C locale (the
 * bytes g_ascii_formatd() gives, tasks.csv's number format), computed
 * without printf where it can be (fixed_double.c). */
#ifndef GS_FIXED_DOUBLE_H
#define GS_FIXED_DOUBLE_H

#include <stddef.h>

/* Writes d with `decimals` digits after the point (0 to 9) into buf (at
 * least G_ASCII_DTOSTR_BUF_SIZE bytes, NUL-ended) and returns the length.
 * d must be finite. */
size_t gs_format_fixed(char *buf, size_t size, double d, unsigned decimals);

#endif
