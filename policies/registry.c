/* Every policy, by name. Adding a policy: one .c file with its ops table,
 * one line here. */
#include "policy.h"
#include "util.h"

extern const struct gs_policy_ops gs_policy_direct;
extern const struct gs_policy_ops gs_policy_dfq;
extern const struct gs_policy_ops gs_policy_drr;
extern const struct gs_policy_ops gs_policy_hdfq;
extern const struct gs_policy_ops gs_policy_loga;
extern const struct gs_policy_ops gs_policy_timeslice;
extern const struct gs_policy_ops gs_policy_round_robin;
extern const struct gs_policy_ops gs_policy_least_loaded;
extern const struct gs_policy_ops gs_policy_dcuda;
extern const struct gs_policy_ops gs_policy_migrate_once;
extern const struct gs_policy_ops gs_policy_drm_fifo;
extern const struct gs_policy_ops gs_policy_drm_rr;
extern const struct gs_policy_ops gs_policy_drm_fair;

const struct gs_policy_ops *const gs_policy_registry[] = {
	&gs_policy_direct,
	&gs_policy_dfq,
	&gs_policy_drr,
	&gs_policy_hdfq,
	&gs_policy_loga,
	&gs_policy_timeslice,
	&gs_policy_round_robin,
	&gs_policy_least_loaded,
	&gs_policy_dcuda,
	&gs_policy_migrate_once,
	&gs_policy_drm_fifo,
	&gs_policy_drm_rr,
	&gs_policy_drm_fair,
	0,
};

const struct gs_policy_ops *gs_policy_find(const char *name)
{
	hal_u32 i;

	for (i = 0; gs_policy_registry[i]; i++)
		if (pstr_eq(gs_policy_registry[i]->name, name))
			return gs_policy_registry[i];
	return 0;
}

int gs_policy_param_index(const struct gs_policy_ops *ops, const char *name)
{
	hal_u32 i;

	for (i = 0; i < ops->n_params; i++)
		if (pstr_eq(ops->params[i].name, name))
			return (int)i;
	return -1;
}

const struct gs_param_desc *gs_policy_param(const struct gs_policy_ops *ops,
					    const char *name)
{
	int i = gs_policy_param_index(ops, name);

	return i < 0 ? 0 : &ops->params[i];
}
