/* Durations that are constants or distributions, drawn from a task's own
 * random stream. */
#ifndef GS_DIST_H
#define GS_DIST_H

#include <stdint.h>

#include "base/event.h"
#include "base/rng.h"

enum gs_dist_kind {
	GS_DIST_CONST = 0,       /* a */
	GS_DIST_UNIFORM = 1,     /* [a, b] */
	GS_DIST_EXPONENTIAL = 2, /* mean a */
	GS_DIST_NORMAL = 3,      /* mean a, standard deviation b, clipped at 0 */
	GS_DIST_EMPIRICAL = 4,   /* one of values[0..n) with equal probability */
};

struct gs_dist {
	uint8_t kind;
	gs_time_t a, b;
	uint32_t n;
	gs_time_t *values; /* owned; GS_DIST_EMPIRICAL only */
};

static inline struct gs_dist gs_dist_const(gs_time_t t)
{
	struct gs_dist d = { .kind = GS_DIST_CONST, .a = t };
	return d;
}

gs_time_t gs_dist_draw(const struct gs_dist *d, struct gs_rng *rng);
gs_time_t gs_dist_mean(const struct gs_dist *d);
void gs_dist_clear(struct gs_dist *d);
/* Deep copy (values duplicated). */
void gs_dist_copy(struct gs_dist *dst, const struct gs_dist *src);

#endif
