/* Loading a scenario from text in the tests that check what the loader
 * makes of it (header-only, as test_dirs.h). Include it after cmocka.h. */
#ifndef GS_TESTS_TEST_LOAD_H
#define GS_TESTS_TEST_LOAD_H

#include <glib.h>
#include <string.h>

#include "workloads/config_load.h"

/* The scenario in yaml, reported as file in error messages; NULL and *err
 * set on an error. */
static inline struct gs_scenario *test_load(const char *file,
					    const char *yaml, GError **err)
{
	return gs_scenario_load_data(file, yaml, strlen(yaml), NULL, 0, err);
}

/* As test_load, failing the test on an error. */
static inline struct gs_scenario *test_load_ok(const char *file,
					       const char *yaml)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = test_load(file, yaml, &err);

	if (!sc)
		fail_msg("unexpected error: %s", err->message);
	return sc;
}

#endif
