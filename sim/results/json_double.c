/* "%.17g" without printf, for summary.json's doubles (json_writer.h).
 *
 * glibc's printf formats a double exactly: its 17 significant digits are
 * the exact binary value rounded to nearest, an exact tie to even. Most
 * of summary.json's time went there (multi-precision arithmetic for
 * every one of some twelve doubles per task). A double is m x 2^e with
 * m < 2^53; for decimal exponents -6 to 37 the value scaled to 17 digits
 * is one quotient of 128-bit integers, whose remainder gives the same
 * rounding. Values outside that range (and 0, which printf writes as
 * "0" or "-0") go through g_ascii_dtostr() as before. tests/test_json_double.c
 * compares both on millions of values. */
#include "sim/results/json_double.h"

#include "sim/results/decimal_digits.h"

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

/* Compilers without 128-bit integers (32-bit targets) take printf's
 * path for every value. */
#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

#define DIGITS 17
#define MIN_EXP10 (-6) /* 10^(16 + 6) x 2^53 < 2^128 */
#define MAX_EXP10 37   /* 2^74 x 2^53 < 2^128 */

/* 10^0 to 10^38, the powers below 2^128: a table rather than a product
 * per call (three per value, up to 22 factors each). */
static const u128 pow10_table[] = {
	1ULL,
	10ULL,
	100ULL,
	1000ULL,
	10000ULL,
	100000ULL,
	1000000ULL,
	10000000ULL,
	100000000ULL,
	1000000000ULL,
	10000000000ULL,
	100000000000ULL,
	1000000000000ULL,
	10000000000000ULL,
	100000000000000ULL,
	1000000000000000ULL,
	10000000000000000ULL,
	100000000000000000ULL,
	1000000000000000000ULL,
	10000000000000000000ULL,
	(u128)10000000000000000000ULL * 10ULL,
	(u128)10000000000000000000ULL * 100ULL,
	(u128)10000000000000000000ULL * 1000ULL,
	(u128)10000000000000000000ULL * 10000ULL,
	(u128)10000000000000000000ULL * 100000ULL,
	(u128)10000000000000000000ULL * 1000000ULL,
	(u128)10000000000000000000ULL * 10000000ULL,
	(u128)10000000000000000000ULL * 100000000ULL,
	(u128)10000000000000000000ULL * 1000000000ULL,
	(u128)10000000000000000000ULL * 10000000000ULL,
	(u128)10000000000000000000ULL * 100000000000ULL,
	(u128)10000000000000000000ULL * 1000000000000ULL,
	(u128)10000000000000000000ULL * 10000000000000ULL,
	(u128)10000000000000000000ULL * 100000000000000ULL,
	(u128)10000000000000000000ULL * 1000000000000000ULL,
	(u128)10000000000000000000ULL * 10000000000000000ULL,
	(u128)10000000000000000000ULL * 100000000000000000ULL,
	(u128)10000000000000000000ULL * 1000000000000000000ULL,
	(u128)10000000000000000000ULL * 10000000000000000000ULL,
};

static u128 pow10_u128(int n)
{
	return pow10_table[n];
}

/* |d| = m x 2^e2 scaled by 10^(16 - x10): its integer quotient and
 * remainder over den. False when a factor does not fit. */
static bool scaled(uint64_t m, int e2, int x10, u128 *q, u128 *r, u128 *den)
{
	int s = DIGITS - 1 - x10;
	u128 num;

	if (s >= 0) {
		num = (u128)m * pow10_u128(s);
		if (e2 >= 0) {
			if (e2 > 127 || (num >> (127 - e2)) != 0)
				return false;
			num <<= e2;
			*den = 1;
		} else {
			if (-e2 > 127)
				return false;
			/* a power of two: a shift and a mask, not a 128-bit
			 * division (a library call), for most values */
			*den = (u128)1 << -e2;
			*q = num >> -e2;
			*r = num & (*den - 1);
			return true;
		}
	} else {
		if (e2 < 0 || e2 > 74)
			return false;
		num = (u128)m << e2;
		*den = pow10_u128(-s);
	}
	*q = num / *den;
	*r = num % *den;
	return true;
}

/* floor(log10(2^e)), the decimal exponent of the first digit of every
 * value in [2^e, 2^(e+1)) or the one below it: 78913 / 2^18 is log10(2)
 * rounded up by less than 10^-6, which stays exact for |e| < 1000 (the
 * same constant as Ryu's log10Pow2). A negative product is floored. */
static int exp10_guess(int e)
{
	int64_t p = (int64_t)e * 78913;

	return (int)(p >= 0 ? p >> 18 : -((-p + (1 << 18) - 1) >> 18));
}

/* The 17 significant digits of |d| (d finite, not 0) as an integer in
 * [10^16, 10^17) and the decimal exponent of the first; false when the
 * value is out of this code's range. */
static bool digits17(double d, uint64_t *digits, int *x10)
{
	const u128 lo = pow10_u128(DIGITS - 1), hi = pow10_u128(DIGITS);
	int e2, x, tries;
	uint64_t bits, m;
	u128 q, r, den;

	/* |d| = m x 2^e2 read from its IEEE 754 fields (frexp(), ldexp()
	 * and log10() were a third of this function's time); subnormals
	 * are far below 10^MIN_EXP10 */
	memcpy(&bits, &d, sizeof(bits));
	e2 = (int)((bits >> 52) & 0x7ff);
	if (e2 == 0)
		return false;
	m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
	e2 -= 1023 + 52;
	x = exp10_guess(e2 + 52);
	/* the guess may be one low: the quotient says */
	for (tries = 0; tries < 3; tries++) {
		if (x < MIN_EXP10 || x > MAX_EXP10 ||
		    !scaled(m, e2, x, &q, &r, &den))
			return false;
		if (q >= hi)
			x++;
		else if (q < lo)
			x--;
		else
			break;
	}
	if (tries == 3)
		return false;
	if (r * 2 > den || (r * 2 == den && (q & 1)))
		q++;
	if (q == hi) { /* 99...9.5 rounded up to 10^17 */
		q = lo;
		x++;
	}
	*digits = (uint64_t)q;
	*x10 = x;
	return true;
}

/* v < 10^8 as exactly 8 digits at p: 32-bit divisions by constants, two
 * digits per table entry (a 64-bit division per digit was a third of a
 * double's instructions). */
static void put8(char *p, uint32_t v)
{
	uint32_t hi = v / 10000, lo = v % 10000;

	memcpy(p, gs_digit_pairs + 2 * (hi / 100), 2);
	memcpy(p + 2, gs_digit_pairs + 2 * (hi % 100), 2);
	memcpy(p + 4, gs_digit_pairs + 2 * (lo / 100), 2);
	memcpy(p + 6, gs_digit_pairs + 2 * (lo % 100), 2);
}

/* Room for the 17 digits and the fixed-size copies that read past
 * them (layout() copies 16 bytes from at most the 17th). */
#define DIG_ROOM 40

/* %g's layout of 17 digits with exponent x: fixed for -4 <= x < 17,
 * else d.ddd e+XX; trailing zeros of the fraction dropped, and the point
 * with them when none is left. Digits are moved by copies of a fixed
 * length (inlined stores, no call), which may write past the text's end
 * inside out's G_ASCII_DTOSTR_BUF_SIZE bytes; *point says whether the
 * text has a '.'. */
static size_t layout(char *out, bool neg, uint64_t digits, int x,
		     bool *point)
{
	char dig[DIG_ROOM];
	uint64_t top = digits / 100000000; /* the first 9 digits */
	int n = DIGITS;
	char *p = out;

	memset(dig + DIGITS, '0', DIG_ROOM - DIGITS);
	dig[0] = (char)('0' + top / 100000000);
	put8(dig + 1, (uint32_t)(top % 100000000));
	put8(dig + 9, (uint32_t)(digits % 100000000));
	while (n > 1 && dig[n - 1] == '0')
		n--; /* significant digits left */
	if (neg)
		*p++ = '-';
	*point = true;
	if (x >= -4 && x < DIGITS) {
		if (x < 0) {
			memcpy(p, "0.000", 5);
			p += 1 - x;
			memcpy(p, dig, DIGITS);
			p += n;
		} else {
			memcpy(p, dig, DIGITS);
			p += x + 1;
			if (n > x + 1) {
				*p++ = '.';
				memcpy(p, dig + x + 1, 16);
				p += n - x - 1;
			} else {
				*point = false;
			}
		}
	} else {
		int ax = x < 0 ? -x : x;

		*p++ = dig[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, dig + 1, 16);
			p += n - 1;
		} else {
			*point = false;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		if (ax >= 100)
			*p++ = (char)('0' + ax / 100);
		memcpy(p, gs_digit_pairs + 2 * (ax % 100), 2);
		p += 2;
	}
	*p = '\0';
	return (size_t)(p - out);
}

#endif

size_t gs_json_format_g17_point(char *buf, size_t size, double d,
				bool *point)
{
	size_t n;

	g_return_val_if_fail(size >= G_ASCII_DTOSTR_BUF_SIZE, 0);
#ifdef __SIZEOF_INT128__
	{
		uint64_t digits;
		int x;

		if (d != 0 && isfinite(d) && digits17(d, &digits, &x))
			return layout(buf, signbit(d) != 0, digits, x, point);
	}
#endif
	n = strlen(g_ascii_dtostr(buf, (gint)size, d));
	*point = memchr(buf, '.', n) != NULL;
	return n;
}

size_t gs_json_format_g17(char *buf, size_t size, double d)
{
	bool point;

	return gs_json_format_g17_point(buf, size, d, &point);
}
