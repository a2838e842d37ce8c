/* The drm_sched KUnit two-client shapes (configs/drm/) under the drm
 * policies: every shape runs to its end under each of them on both
 * presets, and where the first second of a shape has an answer worked
 * out by hand, the GPU shares match it. */
#include <glib.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/host/results.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

static void run(const char *shape, const char *policy, const char *preset,
		const char *duration, struct gs_results *r)
{
	g_autofree char *path = g_strdup_printf("configs/drm/%s.yaml", shape);
	g_autofree char *p = g_strdup_printf("policy.name=%s", policy);
	g_autofree char *g = g_strdup_printf("gpu.preset=%s", preset);
	g_autofree char *d = g_strdup_printf("duration=%s", duration);
	const char *ovr[] = { p, g, d };
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = gs_scenario_load_file(path, ovr, 3, &err);
	struct gs_sim_options opt = { .check_invariants = true };

	if (!sc)
		fail_msg("%s: %s", shape, err->message);
	gs_results_init(r);
	if (!gs_run_scenario(sc, &opt, r, &err))
		fail_msg("%s under %s: %s", shape, policy, err->message);
	gs_scenario_free(sc);
}

static const char *const shapes[] = {
	"normal_normal", "normal_low", "high_normal", "high_low",
	"half_half", "half_half_low", "half_high_half",
	"low_hog_interactive", "heavy_interactive", "very_heavy_interactive",
};
/* ceil(1 s / (job_cnt x job_us + wait_us)) of each client (the files'
 * comments): each client finishes all its cycles. */
static const uint64_t cycles[][2] = {
	{ 125, 125 }, { 125, 125 }, { 125, 125 }, { 125, 125 },
	{ 334, 200 }, { 334, 200 }, { 334, 200 },
	{ 125, 96 }, { 100, 100 }, { 5, 100 },
};
static const char *const drm_policies[] = { "drm-fifo", "drm-rr",
					    "drm-fair" };
static const char *const presets[] = { "kepler", "volta" };

static void test_every_shape_finishes(void **state)
{
	size_t s, p, k, i;
	(void)state;

	G_STATIC_ASSERT(G_N_ELEMENTS(shapes) == G_N_ELEMENTS(cycles));
	for (s = 0; s < G_N_ELEMENTS(shapes); s++)
		for (p = 0; p < G_N_ELEMENTS(drm_policies); p++)
			for (k = 0; k < G_N_ELEMENTS(presets); k++) {
				struct gs_results r;

				run(shapes[s], drm_policies[p], presets[k],
				    "4s", &r);
				assert_int_equal(r.n_tasks, 2);
				for (i = 0; i < 2; i++)
					if (r.tasks[i].rounds != cycles[s][i])
						fail_msg("%s %s %s: client %zu "
							 "did %" G_GUINT64_FORMAT
							 " cycles",
							 shapes[s],
							 drm_policies[p],
							 presets[k], i,
							 (guint64)r.tasks[i]
								 .rounds);
				gs_results_clear(&r);
			}
}

/* Two clients that each queue 125 jobs of 8 ms at once: in the first
 * second the GPU can run 125 of the 250, and who gets them is the
 * policy's priority rule.
 *  - direct: the GPU's round-robin, half each;
 *  - drm-fifo, drm-rr: strict priority: the higher client's 125 jobs all
 *    run first; the lower one gets only the job that went out with the
 *    second credit at the start (8 ms of 1 s: 0.008);
 *  - drm-fair: virtual time grows as GPU time << shift (1, 2, 4, 7 for
 *    kernel, high, normal, low): the shares go as 2^-shift, normal:low
 *    8:1 (0.889), high:normal 4:1 (0.8), high:low 32:1 (0.970); charged
 *    one job late, so within 0.015.
 * Equal priorities: half each under every policy. */
static const struct {
	const char *shape, *policy;
	double first_share, tol;
} priority_cases[] = {
	{ "normal_low", "direct", 0.5, 0.01 },
	{ "normal_low", "drm-fifo", 0.992, 0.002 },
	{ "normal_low", "drm-rr", 0.992, 0.002 },
	{ "normal_low", "drm-fair", 8.0 / 9, 0.015 },
	{ "high_normal", "drm-fifo", 0.992, 0.002 },
	{ "high_normal", "drm-fair", 4.0 / 5, 0.015 },
	{ "high_low", "drm-rr", 0.992, 0.002 },
	{ "high_low", "drm-fair", 32.0 / 33, 0.015 },
	{ "normal_normal", "drm-fifo", 0.5, 0.01 },
	{ "normal_normal", "drm-rr", 0.5, 0.01 },
	{ "normal_normal", "drm-fair", 0.5, 0.01 },
};

static void test_priority_shares_first_second(void **state)
{
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(priority_cases); i++) {
		struct gs_results r;
		double got;

		run(priority_cases[i].shape, priority_cases[i].policy,
		    "kepler", "1s", &r);
		got = r.tasks[0].gpu_share;
		if (fabs(got - priority_cases[i].first_share) >
		    priority_cases[i].tol)
			fail_msg("%s under %s: first client's share %.4f, "
				 "expected %.4f +- %.3f",
				 priority_cases[i].shape,
				 priority_cases[i].policy, got,
				 priority_cases[i].first_share,
				 priority_cases[i].tol);
		gs_results_clear(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_shape_finishes),
		cmocka_unit_test(test_priority_shares_first_second),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
