/* The table of importers: one line per file format. */
#include "sim/import/import.h"

/* Each importer's file defines its struct gs_importer. */

const struct gs_importer *const gs_importers[] = {
	NULL,
};
