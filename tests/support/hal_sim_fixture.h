/* What the tests of the simulator's HAL share (test_hal_sim*.c): a
 * scenario from a string and a simulation of it under a probe policy. */
#ifndef GS_TESTS_HAL_SIM_FIXTURE_H
#define GS_TESTS_HAL_SIM_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "sim/host/sim_internal.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

static inline struct gs_scenario *load(const char *yaml)
{
	GError *err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data(
		"hal.yaml", yaml, strlen(yaml), NULL, 0, &err);

	if (!sc)
		fail_msg("%s", err->message);
	return sc;
}

/* A simulation of `yaml` under `ops` (NULL: the scenario's policy),
 * recording the timeline's spans or not. */
static inline struct gs_sim *start_sim(const char *yaml,
				const struct gs_policy_ops *ops,
				struct gs_scenario **sc, bool timeline)
{
	struct gs_sim_options opt = { .policy_ops = ops,
				      .timeline = timeline };
	GError *err = NULL;
	struct gs_sim *sim;

	*sc = load(yaml);
	sim = gs_sim_new(*sc, &opt, &err);
	assert_non_null(sim);
	return sim;
}

static inline struct gs_sim *start(const char *yaml, const struct gs_policy_ops *ops,
			    struct gs_scenario **sc)
{
	return start_sim(yaml, ops, sc, false);
}

#endif
