/* Policies from outside the tree: a shared object (`gpusim new-policy`,
 * docs/writing-a-policy.md) loaded through GModule, checked as every
 * built-in policy is before it runs. */
#ifndef GS_POLICY_MODULE_H
#define GS_POLICY_MODULE_H

#include <glib.h>
#include <stdbool.h>

#include "policies/policy.h"

/* What is wrong with an ops table, or NULL when nothing is: the checks a
 * policy passes before gpusim runs it, built in or loaded (the ABI
 * version only for a module, `module` true). Free the result. */
char *gs_policy_ops_problem(const struct gs_policy_ops *ops, bool module);

/* Loads the policy of module `spec` and checks it. spec is a path (with a
 * '/'; a relative one from `dir`, NULL: the working directory) or a bare
 * name, searched as NAME.so in $GPUSIM_POLICY_PATH (folders separated by
 * ':'), then policy-modules/ beside the gpusim executable, then
 * ../lib/gpusim/policy-modules/ from it (where `make install` puts the
 * example policies). The module exports `gs_policy_NAME` (NAME: its file
 * name without .so, '-' read as '_'). It stays loaded until the process
 * ends, so the table may be used from anywhere. NULL with a message in
 * *error when it cannot be loaded or fails a check. */
const struct gs_policy_ops *gs_policy_module_load(const char *spec,
						  const char *dir,
						  GError **error);

/* The file a module's ops table was loaded from (as resolved), or NULL
 * for a built-in policy. */
const char *gs_policy_module_file(const struct gs_policy_ops *ops);

#endif
