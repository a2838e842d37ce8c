/* The params= string of a HAL record's instance line (record_hal.h):
 * written from the values the simulator's loader gave the instance, and
 * parsed back in `gpusim replay` with the syntax of the kernel module's
 * params= (policies/linux/params.c), so that the replay in user space
 * and the one in the kernel (which runs params.c itself) can each check
 * that the string gives the values the record's hal_param answered. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policies/duration.h"
#include "policies/param_value.h"
#include "policies/policy.h"
#include "sim/host/record_hal.h"

/* The largest unit that writes v exactly; "0s" for zero. */
static void append_duration(GString *out, hal_u64 v)
{
	static const struct {
		const char *unit;
		hal_u64 ns;
	} units[] = { { "s", 1000000000ULL }, { "ms", 1000000ULL },
		      { "us", 1000ULL }, { "ns", 1ULL } };
	guint i;

	for (i = 0; i < G_N_ELEMENTS(units); i++)
		if (v % units[i].ns == 0) {
			g_string_append_printf(out, "%" G_GUINT64_FORMAT "%s",
					       v / units[i].ns, units[i].unit);
			return;
		}
}

char *gs_hal_rec_params_text(const struct gs_policy_ops *ops,
			     const hal_u64 *values)
{
	hal_u64 def[GS_MAX_PARAMS];
	GString *out = g_string_new(NULL);
	uint32_t i;

	if (gs_param_defaults(ops, def) < 0)
		g_error("policy %s: a malformed default", ops->name);
	for (i = 0; i < ops->n_params; i++) {
		const struct gs_param_desc *d = &ops->params[i];

		if (values[i] == def[i])
			continue;
		g_string_append_printf(out, "%s%s=", out->len ? "," : "",
				       d->name);
		if (d->type == GS_PARAM_DURATION)
			append_duration(out, values[i]);
		else if (d->type == GS_PARAM_BOOL)
			g_string_append(out, values[i] ? "true" : "false");
		else
			g_string_append_printf(out, "%" G_GUINT64_FORMAT,
					       values[i]);
	}
	return g_string_free(out, FALSE);
}

/* The kernel's booleans: 1/0, y/n, yes/no, true/false, on/off (kstrtobool
 * and params.c's words), any case. */
static int parse_bool(const char *v, hal_u64 *out)
{
	static const char *const yes[] = { "1", "y", "yes", "true", "on" };
	static const char *const no[] = { "0", "n", "no", "false", "off" };
	guint i;

	for (i = 0; i < G_N_ELEMENTS(yes); i++) {
		if (!g_ascii_strcasecmp(v, yes[i]))
			return *out = 1, 0;
		if (!g_ascii_strcasecmp(v, no[i]))
			return *out = 0, 0;
	}
	return -1;
}

/* kstrtou64(v, 0, ...): decimal, 0x hexadecimal or 0 octal, nothing
 * after the digits. */
static int parse_uint(const char *v, hal_u64 *out)
{
	char *end;
	unsigned long long n;

	if (!g_ascii_isdigit(*v))
		return -1;
	errno = 0;
	n = strtoull(v, &end, 0);
	if (errno || *end)
		return -1;
	*out = n;
	return 0;
}

static int parse_value(const struct gs_param_desc *d, const char *v,
		       hal_u64 *out)
{
	switch (d->type) {
	case GS_PARAM_DURATION:
		return gs_duration_parse(v, 0, out) == GS_DUR_OK ? 0 : -1;
	case GS_PARAM_BOOL:
		return parse_bool(v, out);
	case GS_PARAM_UINT:
		return parse_uint(v, out) < 0 || *out > d->max ? -1 : 0;
	default:
		return -1;
	}
}

int gs_hal_rec_params_parse(const struct gs_policy_ops *ops,
			    const char *text, hal_u64 *values)
{
	g_auto(GStrv) items = g_strsplit(text, ",", -1);
	guint i;

	if (ops->n_params > GS_MAX_PARAMS ||
	    gs_param_defaults(ops, values) < 0)
		return -1;
	for (i = 0; items[i]; i++) {
		char *name = g_strstrip(items[i]), *val = strchr(name, '=');
		int idx;

		if (!*name)
			continue;
		if (!val)
			return -1;
		*val++ = '\0';
		idx = gs_policy_param_index(ops, g_strstrip(name));
		if (idx < 0 ||
		    parse_value(&ops->params[idx], g_strstrip(val),
				&values[idx]) < 0)
			return -1;
	}
	return 0;
}
