/* An app's `request:` key: a duration or distribution per channel in place
 * of NEON Table 1's constant mean request. The round keeps Table 1's time;
 * the request count and the CPU remainder follow the distribution's mean,
 * and every request draws from it. */
#include <glib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/test_load.h"

#include "workloads/config_load.h"

#define US GS_NS_PER_US

static struct gs_scenario *load(const char *yaml, GError **err)
{
	return test_load("app.yaml", yaml, err);
}

static struct gs_scenario *load_ok(const char *yaml)
{
	return test_load_ok("app.yaml", yaml);
}

static uint32_t count_op(const struct gs_program *p, uint8_t op)
{
	uint32_t i, n = 0;

	for (i = 0; i < p->n_steps; i++)
		n += p->steps[i].op == op;
	return n;
}

static const struct gs_step *find_op(const struct gs_program *p, uint8_t op)
{
	uint32_t i;

	for (i = 0; i < p->n_steps; i++)
		if (p->steps[i].op == op)
			return &p->steps[i];
	fail_msg("no step of op %u", op);
	return NULL;
}

/* DCT (197us rounds) with exponential requests of mean 33us: 197 / 33 = 5
 * requests, each drawing from the distribution; cpu = 197 - 5 * 33 -
 * 5 * (5 + 1 + 1) = -3 clipped, so no CPU step. With mean 66us it is
 * Table 1's program again: 2 requests and 51us of CPU. */
static void test_distribution_sets_count_and_draws(void **state)
{
	struct gs_scenario *sc;
	const struct gs_program *p;
	uint32_t i;

	(void)state;
	sc = load_ok("duration: 1s\ntasks:\n  - name: a\n"
		     "    behavior: {app: {name: DCT, request: {exponential: 33us}}}\n");
	p = &sc->tasks[0].program;
	assert_int_equal(count_op(p, GS_OP_LAUNCH), 5);
	assert_int_equal(count_op(p, GS_OP_CPU), 0);
	for (i = 0; i < p->n_steps; i++) {
		if (p->steps[i].op != GS_OP_LAUNCH)
			continue;
		assert_int_equal(p->steps[i].dur.kind, GS_DIST_EXPONENTIAL);
		assert_int_equal(p->steps[i].dur.a, 33 * US);
	}
	gs_scenario_free(sc);

	sc = load_ok("duration: 1s\ntasks:\n  - name: a\n"
		     "    behavior: {app: {name: DCT, request: {empirical: [6us, 126us]}}}\n");
	p = &sc->tasks[0].program;
	assert_int_equal(count_op(p, GS_OP_LAUNCH), 2);
	assert_int_equal(find_op(p, GS_OP_LAUNCH)->dur.kind,
			 GS_DIST_EMPIRICAL);
	assert_int_equal(find_op(p, GS_OP_LAUNCH)->dur.n, 2);
	assert_int_equal(find_op(p, GS_OP_CPU)->dur.a, 51 * US);
	gs_scenario_free(sc);
}

/* Two-channel apps take one entry per channel: oclParticles (2006us) with
 * 100us + 302us pairs makes 2006 / 402 = 4 pairs, alternating channels. */
static void test_two_channels(void **state)
{
	struct gs_scenario *sc;
	const struct gs_program *p;
	uint32_t i, k = 0;

	(void)state;
	sc = load_ok("duration: 1s\ntasks:\n  - name: a\n"
		     "    behavior: {app: {name: oclParticles, request: [{uniform: [50us, 150us]}, 302us]}}\n");
	p = &sc->tasks[0].program;
	assert_int_equal(count_op(p, GS_OP_LAUNCH), 8);
	for (i = 0; i < p->n_steps; i++) {
		if (p->steps[i].op != GS_OP_LAUNCH)
			continue;
		assert_int_equal(p->steps[i].channel, k % 2);
		assert_int_equal(p->steps[i].dur.kind,
				 k % 2 ? GS_DIST_CONST : GS_DIST_UNIFORM);
		k++;
	}
	gs_scenario_free(sc);
}

struct bad_case {
	const char *yaml;
	const char *prefix; /* exact start of the message */
	const char *phrase; /* must appear in it */
};

static void test_bad_request(void **state)
{
	static const struct bad_case cases[] = {
		{ "duration: 1s\ntasks:\n  - name: a\n    behavior: {app: {name: oclParticles, request: 5us}}\n",
		  "app.yaml:4:51: ", "uses 2 channels; give a list of 2" },
		{ "duration: 1s\ntasks:\n  - name: a\n    behavior: {app: {name: DCT, request: [5us, 6us]}}\n",
		  "app.yaml:4:42: ", "uses 1 channel; the list has 2" },
		{ "duration: 1s\ntasks:\n  - name: a\n    behavior: {app: {name: DCT, request: [{poisson: 5us}]}}\n",
		  "app.yaml:4:44: ", "poisson" },
		{ "duration: 1s\ntasks:\n  - name: a\n    behavior: {app: {name: DCT, requests: 5us}}\n",
		  "app.yaml:4:33: ", "did you mean 'request'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) err = NULL;
		struct gs_scenario *sc = load(cases[i].yaml, &err);

		if (sc)
			fail_msg("case %zu loaded", i);
		if (!g_str_has_prefix(err->message, cases[i].prefix) ||
		    !strstr(err->message, cases[i].phrase))
			fail_msg("case %zu: %s", i, err->message);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distribution_sets_count_and_draws),
		cmocka_unit_test(test_two_channels),
		cmocka_unit_test(test_bad_request),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
