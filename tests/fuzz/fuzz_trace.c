/* Fuzz target: the trace CSV reader. The input is the CSV file a trace
 * task replays; a fixed scenario next to it names it, so the input goes
 * through the same path as a user's trace (file reading included). A bad
 * CSV must be refused with FILE:LINE:COLUMN; a good one must replay with
 * every invariant holding. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tests/fuzz/fuzz_check.h"
#include "workloads/config_load.h"

static const char scenario[] =
	"duration: 20ms\n"
	"policy: dfq\n"
	"tasks:\n"
	"  - name: replay\n"
	"    channels: 4\n"
	"    behavior: {trace: {file: fuzz.csv}}\n"
	"  - name: other\n"
	"    behavior:\n"
	"      throttle: {kernel: 200us, sleep: 0, blocking: true}\n";

/* One folder for the life of the process (a fuzzer runs millions of
 * inputs in one process), removed at exit. */
static char *fuzz_dir;

static void remove_fuzz_dir(void)
{
	g_autofree char *csv = g_build_filename(fuzz_dir, "fuzz.csv", NULL);

	g_unlink(csv);
	g_rmdir(fuzz_dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *csv = NULL, *yaml = NULL;
	GError *err = NULL;
	struct gs_scenario *sc;

	if (!fuzz_dir) {
		fuzz_dir = g_dir_make_tmp("gs_fuzz_trace_XXXXXX", NULL);
		if (!fuzz_dir)
			abort();
		atexit(remove_fuzz_dir);
	}
	csv = g_build_filename(fuzz_dir, "fuzz.csv", NULL);
	yaml = g_build_filename(fuzz_dir, "fuzz.yaml", NULL);
	if (!g_file_set_contents(csv, (const char *)data, (gssize)size, NULL))
		abort();
	sc = gs_scenario_load_data(yaml, scenario, sizeof(scenario) - 1,
				   NULL, 0, &err);
	fuzz_check_outcome(sc, &err);
	return 0;
}
