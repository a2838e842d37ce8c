/* Fuzz target: scenario loading and validation, then a short simulation
 * of whatever loads. Any input must give a scenario or a positioned error,
 * never a crash, a leak or a hang.
 *
 * An input may start with lines "#set KEY.PATH=VALUE", applied as --set
 * overrides, so the fuzzer also exercises the override paths. */
#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tests/fuzz/fuzz_check.h"
#include "workloads/config_load.h"

#define MAX_SETS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);
	const char *p = text;
	char *sets[MAX_SETS];
	size_t n_sets = 0, i;
	GError *err = NULL;
	struct gs_scenario *sc;

	while (n_sets < MAX_SETS && g_str_has_prefix(p, "#set ")) {
		const char *eol = strchr(p, '\n');

		if (!eol)
			break;
		sets[n_sets++] = g_strndup(p + 5, (gsize)(eol - p - 5));
		p = eol + 1;
	}
	sc = gs_scenario_load_data("fuzz.yaml", p, size - (size_t)(p - text),
				   (const char *const *)sets, n_sets, &err);
	fuzz_check_outcome(sc, &err);
	for (i = 0; i < n_sets; i++)
		g_free(sets[i]);
	g_free(text);
	return 0;
}
