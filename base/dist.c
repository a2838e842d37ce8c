/* Drawing durations from a task's random stream. Only gs_ln, sqrt and the
 * four IEEE operations are used, so a seed gives the same draws on every
 * libm and compiler. */
#include "base/dist.h"

#include <glib.h>
#include <math.h>
#include <string.h>

/* Round a non-negative draw to whole nanoseconds; never GS_TIME_NEVER. */
static gs_time_t to_ns(double x)
{
	if (!(x > 0.0))
		return 0;
	if (x >= 18446744073709549568.0) /* largest double below 2^64 */
		return GS_TIME_NEVER - 1;
	return (gs_time_t)(x + 0.5);
}

/* Marsaglia's polar method; one of the pair is used, so a draw needs no
 * state beyond the stream. */
static double standard_normal(struct gs_rng *rng)
{
	double u, v, s;

	do {
		u = 2.0 * gs_rng_unit(rng) - 1.0;
		v = 2.0 * gs_rng_unit(rng) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	return u * sqrt(-2.0 * gs_ln(s) / s);
}

gs_time_t gs_dist_draw(const struct gs_dist *d, struct gs_rng *rng)
{
	switch (d->kind) {
	case GS_DIST_UNIFORM:
		if (d->b - d->a == UINT64_MAX)
			return gs_rng_next(rng);
		/* scaled, not mod: a range k times as wide draws k times
		 * the offset from the same stream */
		return d->a + gs_rng_scaled(rng, d->b - d->a + 1);
	case GS_DIST_EXPONENTIAL:
		/* 1 - u is in (0, 1], so the log is finite. */
		return to_ns(-(double)d->a * gs_ln(1.0 - gs_rng_unit(rng)));
	case GS_DIST_NORMAL:
		return to_ns((double)d->a +
			     (double)d->b * standard_normal(rng));
	case GS_DIST_EMPIRICAL:
		if (d->n == 0)
			return 0;
		return d->values[gs_rng_below(rng, d->n)];
	default:
		return d->a;
	}
}

gs_time_t gs_dist_mean(const struct gs_dist *d)
{
	__extension__ unsigned __int128 sum = 0;
	uint32_t i;

	switch (d->kind) {
	case GS_DIST_UNIFORM:
		return d->a + (d->b - d->a) / 2;
	case GS_DIST_EMPIRICAL:
		if (d->n == 0)
			return 0;
		for (i = 0; i < d->n; i++)
			sum += d->values[i];
		return (gs_time_t)(sum / d->n);
	default:
		/* constant; exponential and normal: the parameter (a normal
		 * clipped at 0 has a slightly larger mean) */
		return d->a;
	}
}

void gs_dist_clear(struct gs_dist *d)
{
	g_free(d->values);
	memset(d, 0, sizeof(*d));
}

void gs_dist_copy(struct gs_dist *dst, const struct gs_dist *src)
{
	*dst = *src;
	if (src->values)
		dst->values = g_memdup2(src->values,
					sizeof(gs_time_t) * src->n);
}
