/* Loading and validating scenario YAML. Every error is reported as
 * "file:line:column: message" (1-based, from libyaml marks) in a GError of
 * domain GS_CONFIG_ERROR; nothing is returned half-built. */
#ifndef GS_CONFIG_LOAD_H
#define GS_CONFIG_LOAD_H

#include <glib.h>
#include <stddef.h>

#include "workloads/config_duration.h"
#include "workloads/config_error.h"
#include "workloads/scenario.h"

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

#endif
