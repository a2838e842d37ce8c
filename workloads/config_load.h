/* Loading and validating scenario YAML. Every error is reported as
 * "file:line:column: message" (1-based, from libyaml marks) in a GError of
 * domain GS_CONFIG_ERROR; nothing is returned half-built. */
#ifndef GS_CONFIG_LOAD_H
#define GS_CONFIG_LOAD_H

#include <glib.h>
#include <stddef.h>

#include "workloads/scenario.h"

#define GS_CONFIG_ERROR (gs_config_error_quark())
GQuark gs_config_error_quark(void);

enum gs_config_error_code {
	GS_CONFIG_ERROR_IO = 1,     /* cannot read the file */
	GS_CONFIG_ERROR_SYNTAX = 2, /* not well-formed YAML */
	GS_CONFIG_ERROR_INVALID = 3,/* well-formed, but not a valid scenario */
};

/* overrides: n strings "key.path=value" from --set, applied to the YAML
 * tree before validation (path components are mapping keys or sequence
 * indexes: "tasks.0.behavior.throttle.kernel=50us"). An override whose path
 * does not exist adds the key when its parent mapping exists. */
struct gs_scenario *gs_scenario_load_file(const char *path,
					  const char *const *overrides,
					  size_t n_overrides, GError **error);
/* The scenario file's bytes, through the bounded reader (an I/O error or
 * a file over GS_MAX_INPUT_BYTES is GS_CONFIG_ERROR_IO, "PATH: ..."); for
 * callers that keep the text, as sweeps do. */
char *gs_scenario_read_file(const char *path, size_t *len, GError **error);
/* Same as gs_scenario_load_file, from memory; `name` stands for the file name in messages and in
 * relative paths (trace files are resolved against its directory). */
struct gs_scenario *gs_scenario_load_data(const char *name, const char *data,
					  size_t len,
					  const char *const *overrides,
					  size_t n_overrides, GError **error);

/* Parse "25us", "1.5ms", "2s", "300ns", "305 cycles" (at clock_hz), or a
 * bare integer (nanoseconds). Returns 0 on success, -1 on a bad string. */
int gs_parse_duration(const char *text, uint64_t clock_hz, gs_time_t *out);

#endif
