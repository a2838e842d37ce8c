/* Node scenario tests: load a scenario from text and run it with the
 * standalone runs (slowdowns) and the invariants on. Header-only so every
 * test binary that includes it links only the library. */
#ifndef GS_TESTS_NODE_RUN_H
#define GS_TESTS_NODE_RUN_H

#include <string.h>

#include "sim/run/sim.h"
#include "workloads/config_load.h"

static inline struct gs_scenario *load_text(const char *yaml, GError **err)
{
	return gs_scenario_load_data("node.yaml", yaml, strlen(yaml), NULL, 0,
				     err);
}

/* ops: a policy to run instead of the scenario's own, or NULL. */
static inline void run_with(const char *yaml,
			    const struct gs_policy_ops *ops,
			    struct gs_results *r)
{
	GError *err = NULL;
	struct gs_scenario *sc = load_text(yaml, &err);
	struct gs_sim_options opt = { .standalone_runs = true,
				      .check_invariants = true,
				      .policy_ops = ops };

	if (!sc)
		fail_msg("load failed: %s", err->message);
	gs_results_init(r);
	if (!gs_run_scenario(sc, &opt, r, &err))
		fail_msg("%s", err->message);
	gs_scenario_free(sc);
}

#endif
