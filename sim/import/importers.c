/* The table of importers: one line per file format. */
#include "sim/import/import.h"
#include "sim/import/drm_import.h"

#include <string.h>

/* Each importer's file defines its struct gs_importer. */
extern const struct gs_importer gs_importer_chrome_json;
extern const struct gs_importer gs_importer_nsys_sqlite;

const struct gs_importer *const gs_importers[] = {
	&gs_importer_chrome_json,
	&gs_importer_nsys_sqlite,
	&gs_importer_drm_text,
	&gs_importer_drm_tracecmd,
	NULL,
};

/* Here, beside the table, so that the model (import_model.c), which the
 * importers call, calls none of them. */
const struct gs_importer *gs_importer_find(const char *format)
{
	guint i;

	for (i = 0; gs_importers[i]; i++)
		if (!strcmp(gs_importers[i]->format, format))
			return gs_importers[i];
	return NULL;
}
