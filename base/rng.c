/* xoshiro256** streams seeded through splitmix64 from (seed, stream name). */
#include "base/rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void gs_rng_seed(struct gs_rng *r, uint64_t seed, const char *stream)
{
	uint64_t x = seed ^ fnv1a(stream);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
	/* splitmix64 never yields four zeros in a row, but be explicit: an
	 * all-zero state would be a fixed point. */
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t gs_rng_next(struct gs_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t gs_rng_below(struct gs_rng *r, uint64_t n)
{
	/* Reject the top sliver that would make some residues more likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = gs_rng_next(r);
	while (x >= limit);
	return x % n;
}

uint64_t gs_rng_scaled(struct gs_rng *r, uint64_t n)
{
	__extension__ typedef unsigned __int128 u128;
	u128 m = (u128)gs_rng_next(r) * n;

	/* Products whose low word falls below 2^64 mod n are the surplus
	 * that would make some results more likely: draw again. */
	if ((uint64_t)m < n) {
		uint64_t surplus = (0 - n) % n;

		while ((uint64_t)m < surplus)
			m = (u128)gs_rng_next(r) * n;
	}
	return (uint64_t)(m >> 64);
}

double gs_rng_unit(struct gs_rng *r)
{
	return (double)(gs_rng_next(r) >> 11) * 0x1.0p-53;
}

/* ln(x) = k ln 2 + ln(m), m in [sqrt(1/2), sqrt(2)), and
 * ln(m) = 2 atanh(s) with s = (m - 1) / (m + 1), |s| < 0.172: the odd series
 * converges to double precision in a fixed number of terms. Only +, -, *, /
 * and frexp are used, which IEEE 754 makes exact-rounded everywhere. */
double gs_ln(double x)
{
	int k;
	double m = frexp(x, &k); /* x = m * 2^k, m in [0.5, 1) */
	double s, s2, term, sum;
	int i;

	if (m < 0.70710678118654752440) {
		m *= 2.0;
		k -= 1;
	}
	s = (m - 1.0) / (m + 1.0);
	s2 = s * s;
	term = s;
	sum = 0.0;
	for (i = 1; i <= 41; i += 2) {
		sum += term / i;
		term *= s2;
	}
	return k * 0.69314718055994530942 + 2.0 * sum;
}
