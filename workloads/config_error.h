/* The error domain of the scenario loader (defined in config_yaml.c):
 * shared by workloads/config_*.c without their depending on the loader's
 * entry points of config_load.h. */
#ifndef GS_CONFIG_ERROR_H
#define GS_CONFIG_ERROR_H

#include <glib.h>

#define GS_CONFIG_ERROR (gs_config_error_quark())
GQuark gs_config_error_quark(void);

enum gs_config_error_code {
	GS_CONFIG_ERROR_IO = 1,     /* cannot read the file */
	GS_CONFIG_ERROR_SYNTAX = 2, /* not well-formed YAML */
	GS_CONFIG_ERROR_INVALID = 3,/* well-formed, but not a valid scenario */
};

#endif
