/* gpusim run --record-hal FILE: the record of one scenario's run
 * (sim/host/record_hal.h, docs/hal-record.md), written atomically. */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>

#include "sim/cli/cli.h"
#include "sim/host/record_hal.h"
#include "workloads/scenario.h"

bool gs_cli_record_hal_single(const char *record_file, char **files)
{
	if (!record_file || !files || !files[0] || !files[1])
		return true;
	fprintf(stderr, "gpusim: --record-hal records one scenario; %u "
			"were given\n", g_strv_length(files));
	return false;
}

bool gs_cli_write_hal_record(const struct gs_hal_record *rec,
			     const struct gs_scenario *sc, const char *path)
{
	g_autofree char *about = g_strdup_printf(
		"scenario %s seed %" PRIu64, sc->name, (uint64_t)sc->seed);
	g_autofree char *text = gs_hal_record_text(rec, about);
	g_autoptr(GError) err = NULL;

	/* a temporary file renamed over path: never half a record */
	if (g_file_set_contents(path, text, -1, &err))
		return true;
	fprintf(stderr, "gpusim: %s\n", err->message);
	return false;
}
