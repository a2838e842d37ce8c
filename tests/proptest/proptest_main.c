/* make proptest: every relation over generated scenarios, for every
 * registered policy on both presets, PROPTEST_N seeds each (default 30),
 * then the fixed regression cases (seeds that once failed).
 *
 *   build/proptest                         the default count
 *   PROPTEST_N=200 build/proptest          a long run
 *   PROPTEST_FROM=501 PROPTEST_N=1000 PROPTEST_POLICY=drr,drm-rr
 *                                          seeds 501..1000, two policies
 *   build/proptest SEED POLICY PRESET [EDITION]
 *                                      one case, as a failure names it
 *   PROPTEST_EDITION=2 build/proptest  scenarios as the generator's
 *                                      edition 2 drew them (generate
 *                                      --edition 2; PROPTEST_CLASSIC=1 is
 *                                      edition 1)
 *
 * Each regression case is drawn by the edition it was found with
 * (pt_regression_lists).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "policies/policy.h"
#include "tests/proptest/proptest.h"
#include "tests/proptest/pt_regressions.h"

static const char *const presets[] = { "kepler", "volta" };

static void run_case(struct pt_case *total, uint64_t seed,
		     const char *policy, const char *preset, unsigned edition)
{
	struct gs_gen_options opt = { .policy = policy, .preset = preset,
				      .edition = edition };
	struct pt_case *c = g_new0(struct pt_case, 1);
	GError *err = NULL;

	if (!gs_gen_draw(&c->base, seed, &opt, &err)) {
		printf("FAIL generate: %s\n", err->message);
		g_error_free(err);
		total->failures++;
		g_free(c);
		return;
	}
	c->edition = edition ? edition : GS_GEN_EDITIONS;
	pt_check_ranges(c);
	pt_check_determinism(c);
	pt_check_set_identity(c);
	pt_check_weight_scale(c);
	pt_check_reorder(c);
	pt_check_idle_task(c);
	pt_check_time_scale(c);
	pt_check_lone_task(c);
	pt_check_output_independence(c);
	/* a scenario and each definition alone, twice: on one preset, as
	 * the threads and the given figures do not depend on it */
	if (!strcmp(preset, "kepler"))
		pt_check_standalone_beside(c);
	if (!strcmp(policy, "direct") && !strcmp(preset, "kepler"))
		pt_check_direct_shares(c);
	if (!strcmp(policy, "direct") || !strcmp(policy, "loga"))
		pt_check_work_conserving(c);
	total->checks += c->checks;
	total->failures += c->failures;
	total->known += c->known;
	g_free(c);
}

/* The policies' g_message lines (a task killed, a VM notified) are the
 * runs' own business here: thousands of them would bury the FAIL lines. */
static void drop_message(const gchar *domain, GLogLevelFlags level,
			 const gchar *message, gpointer data)
{
	(void)domain;
	(void)level;
	(void)message;
	(void)data;
}

/* PROPTEST_POLICY: a comma-separated list, or every registered policy
 * (and then the regression cases too) when unset. */
static bool policy_selected(const char *name)
{
	const char *only = getenv("PROPTEST_POLICY");
	g_auto(GStrv) names = NULL;

	if (!only || !*only)
		return true;
	names = g_strsplit(only, ",", -1);
	return g_strv_contains((const char *const *)names, name);
}

int main(int argc, char **argv)
{
	const char *env = getenv("PROPTEST_N");
	const char *from = getenv("PROPTEST_FROM");
	uint64_t n = env ? g_ascii_strtoull(env, NULL, 10) : 30, seed;
	uint64_t first = from ? g_ascii_strtoull(from, NULL, 10) : 1;
	const char *ed = getenv("PROPTEST_EDITION");
	/* PROPTEST_CLASSIC=1: the generator's first stream only */
	unsigned edition = getenv("PROPTEST_CLASSIC") &&
			   strcmp(getenv("PROPTEST_CLASSIC"), "0") ?
		GS_GEN_EDITION_CLASSIC :
		ed ? (unsigned)g_ascii_strtoull(ed, NULL, 10) : 0;
	struct pt_case total = { .checks = 0 };
	unsigned cases = 0;
	size_t p, k, i, l;

	g_log_set_handler(NULL, G_LOG_LEVEL_MESSAGE, drop_message, NULL);
	if (argc == 4 || argc == 5) {
		run_case(&total, g_ascii_strtoull(argv[1], NULL, 10), argv[2],
			 argv[3], argc == 5 ?
			 (unsigned)g_ascii_strtoull(argv[4], NULL, 10) :
			 edition);
		printf("proptest: %u checks, %u failed\n", total.checks,
		       total.failures);
		return total.failures ? 1 : 0;
	}
	for (seed = MAX(first, 1); seed <= n; seed++)
		for (p = 0; gs_policy_registry[p]; p++)
			for (k = 0; k < G_N_ELEMENTS(presets); k++) {
				if (!policy_selected(
					    gs_policy_registry[p]->name))
					continue;
				run_case(&total, seed,
					 gs_policy_registry[p]->name,
					 presets[k], edition);
				cases++;
			}
	for (l = 0; l < pt_n_regression_lists; l++)
		for (i = 0; i < pt_regression_lists[l].n; i++) {
			const struct pt_regression *r =
				&pt_regression_lists[l].cases[i];

			if (!policy_selected(r->policy))
				continue;
			run_case(&total, r->seed, r->policy, r->preset,
				 pt_regression_lists[l].edition);
			cases++;
		}
	printf("proptest: %u cases (seeds %" G_GUINT64_FORMAT "..%"
	       G_GUINT64_FORMAT " of edition %u x %s x both presets, and the "
	       "regression cases of those), %u checks, %u failed, %u known "
	       "open defects\n", cases, MAX(first, 1), n,
	       edition ? edition : (unsigned)GS_GEN_EDITIONS,
	       getenv("PROPTEST_POLICY") ? getenv("PROPTEST_POLICY") :
	       "every policy", total.checks, total.failures, total.known);
	return total.failures ? 1 : 0;
}
