/* An unsigned integer's decimal digits, written straight where they go:
 * the result files hold tens of millions of integers (series.csv four a
 * row, summary.json some twenty a task), and printf's format parsing, or
 * a copy of each number's few bytes through memcpy, was a visible part
 * of their time. */
#ifndef GS_DECIMAL_DIGITS_H
#define GS_DECIMAL_DIGITS_H

#include <stdint.h>

/* The most digits of a uint64_t. */
#define GS_U64_DIGITS 20

/* 10^n for n = 1 to 19, and 0 for n = 0 (so that 0 has one digit). */
static const uint64_t gs_u64_pow10[GS_U64_DIGITS] = {
	0ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

/* How many digits v has: from its bit length, log10(2) ~ 1233 / 2^12
 * (exact for bit lengths up to 64), then one comparison, rather than a
 * division per four digits. */
static inline unsigned gs_u64_digits(uint64_t v)
{
	unsigned bits = 64 - (unsigned)__builtin_clzll(v | 1);
	unsigned t = (bits * 1233) >> 12; /* floor(log10(2^bits)) */

	return t + 1 - (v < gs_u64_pow10[t]);
}

/* Two decimal digits per entry: "00" to "99". */
static const char gs_digit_pairs[] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/* v's digits at p (gs_u64_digits(v) of them, no NUL); returns their
 * end. Two digits per division, in 32-bit arithmetic once v fits. */
static inline char *gs_put_u64(char *p, uint64_t v)
{
	char *end = p + gs_u64_digits(v), *q = end;
	uint32_t w;

	while (v > UINT32_MAX) {
		unsigned d = (unsigned)(v % 100);

		v /= 100;
		q -= 2;
		q[0] = gs_digit_pairs[2 * d];
		q[1] = gs_digit_pairs[2 * d + 1];
	}
	w = (uint32_t)v;
	while (w >= 100) {
		unsigned d = w % 100;

		w /= 100;
		q -= 2;
		q[0] = gs_digit_pairs[2 * d];
		q[1] = gs_digit_pairs[2 * d + 1];
	}
	if (w >= 10) {
		q[-2] = gs_digit_pairs[2 * w];
		q[-1] = gs_digit_pairs[2 * w + 1];
	} else {
		q[-1] = (char)('0' + w);
	}
	return end;
}

#endif
