// SPDX-License-Identifier: GPL-2.0
/* Policy parameters in the kernel. The simulator takes them from the
 * scenario's YAML; here they come from one string, the module parameter
 * params= (or gs_linux_sched_args.params):
 *
 *     params="slice=30ms,engaged=1"
 *
 * Comma-separated name=value pairs, names as the policy declares them in
 * ops->params. Durations are written as in the simulator's scenarios
 * (policies/duration.c: ns, us, ms or s, a bare number is ns, a fraction
 * is fine if the result is whole ns: "1.5ms"; cycles are refused, the
 * module knows no clock); integers are
 * decimal or 0x hex; booleans are 1/0, y/n, yes/no, true/false, on/off. A
 * parameter not given takes the default string of its gs_param_desc. An
 * unknown name or a malformed value fails instance creation with -EINVAL.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "duration.h"
#include "gs_linux_priv.h"
#include "param_value.h"

/* The simulator's loader's parser (policies/duration.c), with no clock:
 * a duration in cycles is refused. */
static int gs_parse_duration(const char *v, u64 *out)
{
	switch (gs_duration_parse(v, 0, out)) {
	case GS_DUR_OK:
		return 0;
	case GS_DUR_OVERFLOW:
		return -ERANGE;
	default:
		return -EINVAL;
	}
}

static int gs_parse_bool(const char *v, u64 *out)
{
	bool b;

	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes")) {
		*out = 1;
		return 0;
	}
	if (!strcasecmp(v, "false") || !strcasecmp(v, "no")) {
		*out = 0;
		return 0;
	}
	if (kstrtobool(v, &b))
		return -EINVAL;
	*out = b;
	return 0;
}

static int gs_parse_value(const struct gs_param_desc *d, const char *v,
			  u64 *out)
{
	switch (d->type) {
	case GS_PARAM_DURATION:
		return gs_parse_duration(v, out);
	case GS_PARAM_BOOL:
		return gs_parse_bool(v, out);
	case GS_PARAM_UINT:
		return kstrtou64(v, 0, out) ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}

int gs_linux_parse_params(const struct gs_policy_ops *ops, const char *text,
			  u64 *out)
{
	char *copy, *cur, *item;
	bool given[GS_MAX_PARAMS] = { false };
	u32 i;
	int err = 0;

	if (ops->n_params > GS_MAX_PARAMS)
		return -EINVAL;
	copy = kstrdup(text ? text : "", GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	cur = copy;
	while (!err && (item = strsep(&cur, ",")) != NULL) {
		char *name = strim(item), *val = strchr(name, '=');
		int idx;

		if (!*name)
			continue;
		if (!val) {
			pr_err("gpusim: %s: params: '%s' is not name=value\n",
			       ops->name, name);
			err = -EINVAL;
			break;
		}
		*val++ = '\0';
		name = strim(name);
		val = strim(val);
		idx = gs_policy_param_index(ops, name);
		if (idx < 0) {
			pr_err("gpusim: %s: params: unknown parameter '%s'\n",
			       ops->name, name);
			err = -EINVAL;
		} else if (gs_parse_value(&ops->params[idx], val, &out[idx])) {
			pr_err("gpusim: %s: params: bad value '%s' for '%s'\n",
			       ops->name, val, name);
			err = -EINVAL;
		} else if (ops->params[idx].type == GS_PARAM_UINT &&
			   out[idx] > ops->params[idx].max) {
			/* the bound of the params table, as the loader's */
			unsigned long long max = ops->params[idx].max;

			pr_err("gpusim: %s: params: '%s' is at most %llu\n",
			       ops->name, name, max);
			err = -EINVAL;
		} else {
			given[idx] = true;
		}
	}
	for (i = 0; !err && i < ops->n_params; i++) {
		const struct gs_param_desc *d = &ops->params[i];

		if (given[i])
			continue;
		if (gs_param_default(d, &out[i])) {
			pr_err("gpusim: %s: bad default '%s' for '%s'\n",
			       ops->name, d->def, d->name);
			err = -EINVAL;
		}
	}
	kfree(copy);
	return err;
}
