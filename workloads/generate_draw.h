/* The draws the generator's streams share (workloads/generate.c,
 * generate_more.c, generate_behaviour.c). */
#ifndef GS_GENERATE_DRAW_H
#define GS_GENERATE_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include "base/rng.h"
#include "workloads/generate.h"

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

/* Whole microseconds spread evenly over the octaves of [lo_us, hi_us], so
 * short and long commands are equally likely. */
static inline gs_time_t gs_gen_log_us(struct gs_rng *r, uint64_t lo_us,
				      uint64_t hi_us)
{
	uint64_t lo = lo_us, hi;
	uint32_t octaves = 0;

	while ((lo_us << (octaves + 1)) <= hi_us)
		octaves++;
	lo = lo_us << gs_rng_below(r, octaves + 1);
	hi = lo * 2 > hi_us ? hi_us : lo * 2;
	return gs_gen_pick(r, lo, hi) * GS_GEN_US;
}

/* A constant (most of the time) or one of the distributions, around m. */
static inline struct gs_gen_dur gs_gen_draw_dur(struct gs_rng *r,
						gs_time_t m)
{
	struct gs_gen_dur d = { .dist = GS_GEN_CONST, .v = { m, 0, 0 } };
	uint64_t roll = gs_rng_below(r, 10);

	if (roll >= 6)
		d.dist = (uint8_t)(roll - 5); /* uniform .. empirical */
	switch (d.dist) {
	case GS_GEN_UNIFORM:
		d.v[0] = m / 2;
		d.v[1] = m + m / 2;
		break;
	case GS_GEN_NORMAL:
		d.v[1] = m / 4;
		break;
	case GS_GEN_EMPIRICAL:
		d.v[0] = m / 2;
		d.v[1] = m;
		d.v[2] = 2 * m;
		break;
	default:
		break;
	}
	return d;
}

/* A command group's contents (GERM 4.7.3), each figure 0 now and then:
 * drr estimates from the first that is not 0. */
static inline struct gs_gen_content gs_gen_draw_content(struct gs_rng *r)
{
	static const uint32_t sizes[] = { 0, 1, 300, 4096, 65536 };
	struct gs_gen_content c;

	c.texture_bytes = sizes[gs_rng_below(r, 5)];
	c.swaps = (uint32_t)gs_rng_below(r, 3);
	c.vertices = sizes[gs_rng_below(r, 5)];
	c.cmd_bytes = sizes[gs_rng_below(r, 5)];
	return c;
}

#endif
