/* "%.Nf" without printf, for tasks.csv's doubles (five per task).
 *
 * glibc's printf rounds the exact binary value of a double to N decimals,
 * an exact tie to even (the default rounding mode), with multi-precision
 * arithmetic: at 65,536 tasks that was a fifth of tasks.csv's time. A
 * double is m x 2^e with m < 2^53; times 10^N (N <= 9, under 2^30) it is
 * below 2^83, so for -127 <= e <= 10 the scaled value is one quotient and
 * remainder of 128-bit integers (a shift), which give the same digits
 * and the same rounding. Other values (and compilers without __int128)
 * go through g_ascii_formatd() as before. tests/test_fixed_double.c
 * compares both on ties and millions of values. */
#include "sim/results/fixed_double.h"

#include "sim/results/decimal_digits.h"

#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MAX_DECIMALS 9

static size_t with_printf(char *buf, size_t size, double d,
			  unsigned decimals)
{
	char fmt[8];

	g_snprintf(fmt, sizeof(fmt), "%%.%uf", decimals);
	g_ascii_formatd(buf, (gint)size, fmt, d);
	return strlen(buf);
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

/* The digits of v (below 10^38) at p; returns their end. */
static char *put_u128(char *p, u128 v)
{
	char tmp[40];
	size_t n = sizeof(tmp);

	do {
		tmp[--n] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	memcpy(p, tmp + n, sizeof(tmp) - n);
	return p + (sizeof(tmp) - n);
}

size_t gs_format_fixed(char *buf, size_t size, double d, unsigned decimals)
{
	uint64_t bits, m, scale = 1;
	int e;
	u128 q, rem, half;
	char digits[48], *end, *p = buf;
	size_t n, whole;
	unsigned i;

	if (!isfinite(d) || decimals > MAX_DECIMALS ||
	    size < G_ASCII_DTOSTR_BUF_SIZE)
		return with_printf(buf, size, d, decimals);
	memcpy(&bits, &d, sizeof(bits));
	m = bits & ((UINT64_C(1) << 52) - 1);
	e = (int)((bits >> 52) & 0x7ff);
	if (e) /* normal: the hidden bit; subnormals have e = 1 - 1075 */
		m |= UINT64_C(1) << 52;
	else
		e = 1;
	e -= 1075; /* |d| = m x 2^e */
	if (e > 10)
		return with_printf(buf, size, d, decimals);
	for (i = 0; i < decimals; i++)
		scale *= 10;
	if (!m || e < -127) {
		q = 0; /* below 2^53 x 2^-128 x 10^9 < 2^-45: rounds to 0 */
	} else if (e >= 0) {
		q = ((u128)m << e) * scale; /* below 2^63 x 2^30 */
	} else {
		u128 num = (u128)m * scale; /* below 2^83 */

		q = num >> -e;
		rem = num - (q << -e);
		half = (u128)1 << (-e - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
	}
	if (bits >> 63)
		*p++ = '-';
	/* a 128-bit division per digit is a library call: most values'
	 * digits fit 64 bits */
	end = q >> 64 ? put_u128(digits, q) : gs_put_u64(digits, (uint64_t)q);
	n = (size_t)(end - digits);
	/* at least one digit before the point: leading zeros as needed */
	whole = n > decimals ? n - decimals : 0;
	if (whole) {
		memcpy(p, digits, whole);
		p += whole;
	} else {
		*p++ = '0';
	}
	if (decimals) {
		*p++ = '.';
		for (i = (unsigned)n; i < decimals; i++)
			*p++ = '0';
		memcpy(p, digits + whole, n - whole);
		p += n - whole;
	}
	*p = '\0';
	return (size_t)(p - buf);
}
#else
size_t gs_format_fixed(char *buf, size_t size, double d, unsigned decimals)
{
	return with_printf(buf, size, d, decimals);
}
#endif
