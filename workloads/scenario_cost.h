/* A rough, deterministic estimate of what running a scenario costs: the
 * number of commands its tasks launch in its duration, read from their
 * programs. A sweep starts its points in decreasing order of it, so the
 * longest points do not come last and leave the other workers idle. It
 * orders work only; no result depends on it. */
#ifndef GS_SCENARIO_COST_H
#define GS_SCENARIO_COST_H

#include <stdint.h>

#include "workloads/scenario.h"

/* Expected commands launched by one task of the scenario, replicas
 * included. */
uint64_t gs_task_cost(const struct gs_scenario *sc,
		      const struct gs_task_config *t);
/* The sum over the scenario's tasks. */
uint64_t gs_scenario_cost(const struct gs_scenario *sc);

#endif
