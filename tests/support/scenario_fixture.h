/* What the whole-scenario tests share (test_scenario*.c): a scenario
 * from a string, run to its end. */
#ifndef GS_TESTS_SCENARIO_FIXTURE_H
#define GS_TESTS_SCENARIO_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "sim/host/sim_internal.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

static inline struct gs_scenario *load(const char *yaml)
{
	GError *err = NULL;
	struct gs_scenario *sc =
		gs_scenario_load_data("test.yaml", yaml, strlen(yaml), NULL, 0,
				      &err);

	if (!sc)
		fail_msg("load failed: %s", err->message);
	return sc;
}

static inline void run(const char *yaml, bool standalone, struct gs_results *r)
{
	struct gs_scenario *sc = load(yaml);
	struct gs_sim_options opt = { .timeline = true,
				      .standalone_runs = standalone,
				      .check_invariants = true };
	GError *err = NULL;

	gs_results_init(r);
	if (!gs_run_scenario(sc, &opt, r, &err))
		fail_msg("%s", err->message);
	gs_scenario_free(sc);
}

#endif
