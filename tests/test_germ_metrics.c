/* GERM's figures through the whole simulator: a launch's `content:`
 * reaches drr through the HAL (hal_shadow_peek_content), drr's estimates
 * are compared with the commands' true lengths (estimate_error_* metrics,
 * GERM 6.4), and Utime (6.2) is (tmax - tmin) / sum t. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <math.h>
#include <string.h>

#include "sim/run/sim.h"
#include "workloads/config_load.h"

static struct gs_scenario *load_yaml(const char *yaml, GError **err)
{
	return gs_scenario_load_data("germ.yaml", yaml, strlen(yaml), NULL, 0,
				     err);
}

static void run_yaml(const char *yaml, struct gs_results *r)
{
	struct gs_sim_options opt = { .check_invariants = true };
	GError *err = NULL;
	struct gs_scenario *sc = load_yaml(yaml, &err);

	if (!sc)
		fail_msg("load failed: %s", err->message);
	gs_results_init(r);
	if (!gs_run_scenario(sc, &opt, r, &err))
		fail_msg("%s", err->message);
	gs_scenario_free(sc);
}

/* Texture uploads whose length is their size at 1 ns a byte, and command
 * groups of 2000 bytes whose length does not follow their size, queued
 * back to back so that drr's samples mix the two kinds: drr still
 * estimates the uploads exactly (the exact kind is taken at its estimate
 * and the other gets the rest of a sample), the command bytes only on
 * average. */
static const char *const uploads =
	"duration: 200ms\ngpu: {preset: kepler}\n"
	"policy: {name: drr}\n"
	"tasks:\n"
	"  - name: up\n    behavior: {script: [{repeat: {steps: [\n"
	"      {launch: {kernel: 64us, content: {texture_bytes: 64000}}},\n"
	"      {launch: {kernel: 128us, content: {texture_bytes: 128000}}},\n"
	"      {launch: {kernel: 50us, content: {cmd_bytes: 2000}}},\n"
	"      {launch: {kernel: 150us, content: {cmd_bytes: 2000}}},\n"
	"      wait]}}]}\n"
	"  - name: other\n"
	"    behavior: {throttle: {kernel: 100us, sleep: 0, blocking: false}}\n";

static void test_texture_estimates_are_exact_bytes_are_not(void **state)
{
	struct gs_results r;
	const struct gs_estimate_result *tex, *bytes;
	(void)state;

	run_yaml(uploads, &r);
	tex = &r.metrics.estimates[1];
	bytes = &r.metrics.estimates[4];
	assert_string_equal(gs_estimate_kind_names[1], "texture");
	assert_string_equal(gs_estimate_kind_names[4], "bytes");
	assert_true(tex->n > 10);
	assert_true(tex->max_error < 0.001);
	/* 2000 bytes estimated near the running mean of 50 and 150 us:
	 * off by about half either way */
	assert_true(bytes->n > 10);
	assert_true(bytes->mean_error > 0.2);
	/* the throttle has no contents: its class average */
	assert_true(r.metrics.estimates[0].n > 10);
	gs_results_clear(&r);
}

/* Utime under direct for tasks of 100 us and 900 us commands: round-robin
 * gives them GPU time 1:9, so (0.9 - 0.1) / 1. */
static void test_utime_is_spread_over_sum(void **state)
{
	struct gs_results r;
	(void)state;

	run_yaml("duration: 100ms\ngpu: {preset: kepler}\n"
		 "policy: {name: direct}\ntasks:\n"
		 "  - name: s\n    behavior: {throttle: {kernel: 100us, "
		 "sleep: 0, blocking: false}}\n"
		 "  - name: l\n    behavior: {throttle: {kernel: 900us, "
		 "sleep: 0, blocking: false}}\n", &r);
	assert_true(fabs(r.metrics.utime - 0.8) < 0.02);
	/* no policy estimates: none reported */
	assert_int_equal(r.metrics.estimates[0].n, 0);
	assert_true(isnan(r.metrics.estimates[0].mean_error));
	gs_results_clear(&r);
}

/* A mistake in `content:` is reported at its position. */
static void test_content_errors_have_positions(void **state)
{
	GError *err = NULL;
	struct gs_scenario *sc = load_yaml(
		"duration: 1ms\ntasks:\n"
		"  - name: a\n    behavior: {throttle: {kernel: 1us,\n"
		"      content: {vertexes: 3}}}\n", &err);
	(void)state;

	assert_null(sc);
	assert_non_null(err);
	assert_non_null(strstr(err->message, "germ.yaml:5:"));
	assert_non_null(strstr(err->message, "vertices"));
	g_clear_error(&err);
	sc = load_yaml("duration: 1ms\ntasks:\n"
		       "  - name: a\n    behavior: {throttle: {kernel: 1us,\n"
		       "      content: {texture_bytes: 5GiB}}}\n", &err);
	assert_null(sc);
	assert_non_null(strstr(err->message, "germ.yaml:5:"));
	g_clear_error(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_texture_estimates_are_exact_bytes_are_not),
		cmocka_unit_test(test_utime_is_spread_over_sum),
		cmocka_unit_test(test_content_errors_have_positions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
