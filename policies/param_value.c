/* gs_param_default (param_value.h). */
#include "duration.h"
#include "param_value.h"

static int same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Decimal digits only, as the defaults are written. */
static int parse_decimal(const char *s, hal_u64 *out)
{
	hal_u64 v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		hal_u64 d = (hal_u64)(*s - '0');

		if (*s < '0' || *s > '9' ||
		    v > hal_div64(0xffffffffffffffffULL - d, 10))
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int gs_param_default(const struct gs_param_desc *d, hal_u64 *out)
{
	const char *def = d->def ? d->def : "0";

	switch (d->type) {
	case GS_PARAM_DURATION:
		return gs_duration_parse(def, 0, out) == GS_DUR_OK ? 0 : -1;
	case GS_PARAM_BOOL:
		if (same(def, "true") || same(def, "false")) {
			*out = same(def, "true");
			return 0;
		}
		return -1;
	case GS_PARAM_UINT:
		return parse_decimal(def, out);
	default:
		return -1;
	}
}

int gs_param_defaults(const struct gs_policy_ops *ops, hal_u64 *values)
{
	hal_u32 i;

	for (i = 0; i < ops->n_params; i++)
		if (gs_param_default(&ops->params[i], &values[i]) < 0)
			return -1 - (int)i;
	return 0;
}
