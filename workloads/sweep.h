/* A scenario's `sweep:` grid as a list of points. A point is the base
 * scenario plus --set overrides (one value per axis) and a seed. Points are
 * numbered in grid order: the first axis varies slowest, the seeds
 * fastest. Their ids name their result folders, so they depend only on the
 * point's own values: adding a value to an axis renames no other point. */
#ifndef GS_SWEEP_H
#define GS_SWEEP_H

#include <glib.h>
#include <stdint.h>

#include "workloads/scenario.h"

struct gs_sweep_point {
	uint32_t index;
	char *id;        /* "dfq_19us_s1": values joined by '_', then s<seed> */
	uint64_t seed;
	char **values;   /* one per axis, NULL-terminated */
	char **sets;     /* "key=value" per axis, then "seed=N"; NULL-term. */
	uint64_t cost;   /* gs_scenario_cost of the point (set by
			  * gs_sweep_validate): the order points start in */
	uint32_t n_defs; /* its task definitions (set by gs_sweep_validate) */
	uint64_t *alone_cost; /* each one's standalone run's cost, likewise */
};

/* The points of sc->sweep (one point, the base scenario with its seed,
 * when sc has no sweep block). A GPtrArray of struct gs_sweep_point *
 * that frees them. */
GPtrArray *gs_sweep_expand(const struct gs_scenario *sc);

/* Load every point of the scenario in data (file `name`, base overrides
 * base_sets[0..n_base)), so that no point fails after others have run. An
 * axis value that is wrong where it goes is reported at the value's
 * position ("FILE:LINE:COL: sweep KEY: ..."). */
gboolean gs_sweep_validate(const char *name, const char *data, size_t len,
			   const char *const *base_sets, size_t n_base,
			   const struct gs_scenario *sc, GPtrArray *points,
			   GError **error);

/* The point whose id is `which`, or whose index is `which` written in
 * decimal; NULL if none. */
const struct gs_sweep_point *gs_sweep_find(GPtrArray *points,
					   const char *which);

#endif
