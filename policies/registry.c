/* Every policy, by name. Adding a policy: one .c file with its ops table,
 * one line here. */
#include "policy.h"

extern const struct gs_policy_ops gs_policy_direct;

const struct gs_policy_ops *const gs_policy_registry[] = {
	&gs_policy_direct,
	0,
};

static int names_equal(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct gs_policy_ops *gs_policy_find(const char *name)
{
	hal_u32 i;

	for (i = 0; gs_policy_registry[i]; i++)
		if (names_equal(gs_policy_registry[i]->name, name))
			return gs_policy_registry[i];
	return 0;
}

const struct gs_param_desc *gs_policy_param(const struct gs_policy_ops *ops,
					    const char *name)
{
	hal_u32 i;

	for (i = 0; i < ops->n_params; i++)
		if (names_equal(ops->params[i].name, name))
			return &ops->params[i];
	return 0;
}
