/* The draws both of the generator's streams make (workloads/generate.c,
 * workloads/generate_more.c). */
#ifndef GS_GENERATE_DRAW_H
#define GS_GENERATE_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include "base/rng.h"

#define GS_GEN_US 1000ULL
#define GS_GEN_MS 1000000ULL

/* An integer in [lo, hi], uniformly. */
static inline uint64_t gs_gen_pick(struct gs_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + gs_rng_below(r, hi - lo + 1);
}

/* True with the given probability in percent. */
static inline bool gs_gen_chance(struct gs_rng *r, uint32_t percent)
{
	return gs_rng_below(r, 100) < percent;
}

#endif
