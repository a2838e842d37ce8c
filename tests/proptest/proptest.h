/* Property tests over generated scenarios (make proptest): invariants,
 * determinism, metamorphic relations and oracles, run in-process. A
 * failure names the seed, policy and preset, so that
 * `gpusim generate --seed N --policy P --preset X` rebuilds the scenario. */
#ifndef GS_PROPTEST_H
#define GS_PROPTEST_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/host/results.h"
#include "workloads/generate.h"

/* One case: a generated scenario and where its failures are counted. */
struct pt_case {
	struct gs_gen_scenario base;
	unsigned failures;
	unsigned checks;
	unsigned known;       /* failures of an open, listed defect */
	unsigned edition;     /* the generator's (enum gs_gen_edition) */
};

/* Runs g (with --set overrides) in a scratch folder: load, simulate,
 * check the invariants, collect. False with *why (to g_free) when loading,
 * initialising or an invariant fails. */
bool pt_run(const struct gs_gen_scenario *g, const char *const *overrides,
	    size_t n_overrides, struct gs_results *r, char **why);
/* g (with --set overrides) loaded as pt_run loads it, its files written
 * into pt_scratch(); NULL with *why (to g_free) when it does not load. */
struct gs_scenario *pt_load(const struct gs_gen_scenario *g,
			    const char *const *overrides, size_t n_overrides,
			    char **why);
/* The folder, removed at exit, where the cases write their files. */
const char *pt_scratch(void);
/* The result files of r (summary.json, tasks.csv, series.csv), joined:
 * what two runs must agree on byte for byte. */
char *pt_result_bytes(const struct gs_results *r);

/* Records a failed check: prints the relation, the seed line and the
 * detail. */
void pt_fail(struct pt_case *c, const char *relation, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

/* A failure of an open defect named in the test (not counted as failed,
 * but printed, so it is seen until fixed). */
void pt_known(struct pt_case *c, const char *relation, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

/* Each returns after counting its checks and failures in c. */
void pt_check_ranges(struct pt_case *c);
void pt_check_determinism(struct pt_case *c);
void pt_check_set_identity(struct pt_case *c);
void pt_check_weight_scale(struct pt_case *c);
void pt_check_reorder(struct pt_case *c);
void pt_check_idle_task(struct pt_case *c);
void pt_check_time_scale(struct pt_case *c);
void pt_check_lone_task(struct pt_case *c);
void pt_check_output_independence(struct pt_case *c);
void pt_check_standalone_beside(struct pt_case *c);
/* Oracles: scenarios built around the seed rather than drawn whole. */
void pt_check_direct_shares(struct pt_case *c);
void pt_check_work_conserving(struct pt_case *c);

/* Share of task `name` in r, or -1 if absent. */
double pt_share(const struct gs_results *r, const char *name);
const struct gs_task_result *pt_task(const struct gs_results *r,
				     const char *name);

#endif
