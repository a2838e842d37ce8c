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

/* How many digits v has. */
static inline unsigned gs_u64_digits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return v >= 1000 ? n + 3 : v >= 100 ? n + 2 : v >= 10 ? n + 1 : n;
}

/* v's digits at p (gs_u64_digits(v) of them, no NUL); returns their
 * end. Two digits per division. */
static inline char *gs_put_u64(char *p, uint64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char *end = p + gs_u64_digits(v), *q = end;

	while (v >= 100) {
		unsigned d = (unsigned)(v % 100);

		v /= 100;
		q -= 2;
		q[0] = pairs[2 * d];
		q[1] = pairs[2 * d + 1];
	}
	if (v >= 10) {
		q[-2] = pairs[2 * v];
		q[-1] = pairs[2 * v + 1];
	} else {
		q[-1] = (char)('0' + v);
	}
	return end;
}

#endif
