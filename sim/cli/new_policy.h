/* gpusim new-policy: the skeleton's files (new_policy_files.c). */
#ifndef GS_NEW_POLICY_H
#define GS_NEW_POLICY_H

struct gs_new_policy_file {
	const char *name;     /* with @NAME@ */
	const char *contents; /* with @NAME@, @GPUSIM@ and @DEV@ */
};

/* NULL-terminated. */
extern const struct gs_new_policy_file gs_new_policy_files[];

#endif
