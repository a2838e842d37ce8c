/* Seeded pseudo-random streams (xoshiro256**), one per consumer.
 *
 * A stream is derived from the scenario seed and a stable name
 * ("task/dct/0", "policy"), so adding a task does not perturb the draws of
 * the others. Nothing here reads the clock or depends on addresses.
 */
#ifndef GS_RNG_H
#define GS_RNG_H

#include <stdint.h>

struct gs_rng {
	uint64_t s[4];
};

void gs_rng_seed(struct gs_rng *r, uint64_t seed, const char *stream);
uint64_t gs_rng_next(struct gs_rng *r);
/* Uniform in [0, n); n > 0. Unbiased (rejection). */
uint64_t gs_rng_below(struct gs_rng *r, uint64_t n);
/* Uniform in [0, n); n > 0. Unbiased, and floor(x n / 2^64) of the
 * stream's next word x (Lemire's multiply with its rare rejection), so
 * the same stream gives about k times the value for k times n: a
 * distribution drawn with it scales with its range, as one drawn by
 * inversion does. gs_rng_below's x mod n does not (twice the range
 * draws an unrelated value), so durations use this one; the generator
 * keeps gs_rng_below, whose draws name the seeds. */
uint64_t gs_rng_scaled(struct gs_rng *r, uint64_t n);
/* Uniform double in [0, 1) with 53 random bits. */
double gs_rng_unit(struct gs_rng *r);
/* Natural logarithm by a fixed sequence of IEEE operations, so distribution
 * draws give the same bits on every libm. x > 0. */
double gs_ln(double x);

#endif
