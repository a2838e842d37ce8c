/* The task keys drm_sched-style scheduling reads: `priority` (enum
 * hal_priority, default normal); loaded, defaulted and refused with a
 * position. */
#include <glib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "policies/hal.h"
#include "workloads/config_load.h"

#define TASK(extra)                                                     \
	"duration: 1s\n"                                                \
	"tasks:\n"                                                      \
	"  - name: a\n"                                                 \
	extra                                                           \
	"    behavior:\n"                                               \
	"      throttle: {kernel: 100us}\n"

static struct gs_scenario *load(const char *yaml, GError **err)
{
	return gs_scenario_load_data("keys.yaml", yaml, strlen(yaml), NULL, 0,
				     err);
}

static const struct {
	const char *yaml;
	uint8_t priority;
} prio_cases[] = {
	{ TASK(""), HAL_PRIO_NORMAL },
	{ TASK("    priority: kernel\n"), HAL_PRIO_KERNEL },
	{ TASK("    priority: high\n"), HAL_PRIO_HIGH },
	{ TASK("    priority: normal\n"), HAL_PRIO_NORMAL },
	{ TASK("    priority: low\n"), HAL_PRIO_LOW },
};

static void test_priority_values(void **state)
{
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(prio_cases); i++) {
		g_autoptr(GError) err = NULL;
		struct gs_scenario *sc = load(prio_cases[i].yaml, &err);

		if (!sc)
			fail_msg("case %zu: %s", i, err->message);
		assert_int_equal(sc->tasks[0].priority, prio_cases[i].priority);
		gs_scenario_free(sc);
	}
}

static const struct {
	const char *desc;
	const char *yaml;
	const char *prefix;
	const char *phrase;
} bad_cases[] = {
	{ "unknown priority name, at the value",
	  TASK("    priority: urgent\n"), "keys.yaml:4:15: ", "priority" },
	{ "a number is not a priority",
	  TASK("    priority: 3\n"), "keys.yaml:4:15: ", "priority" },
};

static void test_bad_keys(void **state)
{
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		g_autoptr(GError) err = NULL;
		struct gs_scenario *sc = load(bad_cases[i].yaml, &err);

		if (sc)
			fail_msg("%s: loaded", bad_cases[i].desc);
		if (!g_str_has_prefix(err->message, bad_cases[i].prefix) ||
		    !strstr(err->message, bad_cases[i].phrase))
			fail_msg("%s: got '%s'", bad_cases[i].desc,
				 err->message);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_priority_values),
		cmocka_unit_test(test_bad_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
