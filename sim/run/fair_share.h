/* The fair optimum of a shared GPU (LoGA 5.5, Fig. 11 "Fair"): each
 * task's max-min fair share of its GPU's time from its demand, and the
 * slowdown that share would cost it. */
#ifndef GS_FAIR_SHARE_H
#define GS_FAIR_SHARE_H

#include <stdint.h>

#include "sim/host/results.h"

/* Weighted max-min fairness (water filling) of `capacity` among n
 * claimants: nobody gets more than its demand, and what a satisfied one
 * leaves is split among the rest in proportion to their weights. */
void gs_max_min_fair(const double *demand, const double *weight, uint32_t n,
		     double capacity, double *share);

/* Fill fair_share and fair_slowdown of r's tasks: demand[i] is task i's
 * GPU busy fraction alone (NAN: unknown, the task's fields stay NAN).
 * Tasks share the capacity of their own GPU (weights: fair_weight). */
void gs_fair_optimum(struct gs_results *r, const double *demand);

#endif
