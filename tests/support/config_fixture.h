/* What the scenario loader's tests share (test_config*.c): a minimal
 * valid scenario to change one thing in, and loading from a string. */
#ifndef GS_TESTS_CONFIG_FIXTURE_H
#define GS_TESTS_CONFIG_FIXTURE_H

#include <glib.h>
#include <glib/gstdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_model/gpu.h"
#include "policies/policy.h"
#include "workloads/apps.h"
#include "workloads/config_load.h"

#define US GS_NS_PER_US
#define MS GS_NS_PER_MS

/* A minimal valid scenario; cases below change one thing. */
#define HEAD "duration: 1s\n"
#define THROTTLE_TASK                                                   \
	"tasks:\n"                                                      \
	"  - name: a\n"                                                 \
	"    behavior:\n"                                               \
	"      throttle: {kernel: 100us}\n"

static inline struct gs_scenario *load(const char *yaml,
				       const char *const *sets,
				       size_t n_sets, GError **err)
{
	return gs_scenario_load_data("bad.yaml", yaml, strlen(yaml), sets,
				     n_sets, err);
}

static inline struct gs_scenario *load_ok(const char *yaml,
					  const char *const *sets,
					  size_t n_sets)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = load(yaml, sets, n_sets, &err);

	if (!sc)
		fail_msg("unexpected error: %s", err->message);
	return sc;
}

#endif
