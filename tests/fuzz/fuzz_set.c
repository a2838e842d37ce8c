/* Fuzz target: --set overrides (paths and values) applied to one fixed,
 * valid scenario that has a bit of everything a path can reach (gpu,
 * host, policy parameters, VMs, tasks of each behaviour, output, sweep).
 * The input is up to MAX_SETS lines, each one --set argument as typed.
 * A bad override must be refused naming the --set at fault; a good one
 * must give a scenario that runs with every invariant holding. */
#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tests/fuzz/fuzz_check.h"
#include "workloads/config_load.h"

#define MAX_SETS 8

static const char base_scenario[] =
	"name: fuzz-set\n"
	"seed: 7\n"
	"duration: 20ms\n"
	"gpu: {preset: kepler, mmio_read: 1us}\n"
	"host: {trap: 2us}\n"
	"policy:\n"
	"  name: hdfq\n"
	"  params: {}\n"
	"vms:\n"
	"  - name: alice\n"
	"  - name: bob\n"
	"    weight: 2\n"
	"    hints: false\n"
	"tasks:\n"
	"  - name: batch\n"
	"    behavior:\n"
	"      throttle: {kernel: 500us, sleep: 0, blocking: true}\n"
	"  - name: a-app\n"
	"    vm: alice\n"
	"    channels: 2\n"
	"    behavior:\n"
	"      script:\n"
	"        - repeat:\n"
	"            count: forever\n"
	"            steps:\n"
	"              - launch: {kernel: 40us, channel: 1, engine: copy}\n"
	"              - wait: {channel: 1, mode: spin}\n"
	"              - launch: 100us\n"
	"              - wait\n"
	"              - cpu: 20us\n"
	"              - round\n"
	"  - name: b-render\n"
	"    vm: bob\n"
	"    count: 2\n"
	"    behavior:\n"
	"      throttle: {kernel: {uniform: [100us, 300us]}, sleep: 100us}\n"
	"output: {series_interval: 1ms}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);
	char **lines = g_strsplit(text, "\n", MAX_SETS + 1);
	guint n = g_strv_length(lines);
	GError *err = NULL;
	struct gs_scenario *sc;

	/* the last piece holds whatever follows the MAX_SETS-th newline */
	if (n > MAX_SETS)
		n = MAX_SETS;
	sc = gs_scenario_load_data("fuzz-set.yaml", base_scenario,
				   sizeof(base_scenario) - 1,
				   (const char *const *)lines, n, &err);
	fuzz_check_outcome(sc, &err);
	g_strfreev(lines);
	g_free(text);
	return 0;
}
