/* The `expect` block: the paper targets a scenario reproduces, read by
 * `gpusim reproduce`. Each entry names a figure, a quantity, the paper's
 * value and the range gpusim's value must fall in, and optionally the
 * overrides that turn this scenario into the point being checked. */
#include <math.h>
#include <string.h>

#include "workloads/config_internal.h"

#include "policies/policy.h"

static const char *const expect_keys[] = {
	"id", "figure", "quantity", "paper", "value", "set", "compare", "min",
	"max", "baseline", "seeds", "sweep", "peak", "paper_value",
	"known_gap", "reduce", "reference", "far_from_paper", NULL,
};

/* enum gs_expect_reduce; "peak" is written as the `peak` key instead */
static const char *const reduce_names[] = { "peak", "mean", "max", "min" };

static const char *const compare_names[] = {
	"none", "loss_vs_direct", "increase_vs_direct",
	"reduction_vs_baseline", "increase_vs_baseline",
	"reduction_vs_reference", "increase_vs_reference",
};

/* Fields a value path may name. */
static const char *const task_fields[] = {
	"gpu_share", "slowdown", "round_mean_ns", "gpu_time_ns",
	"accounted_gpu_time_ns", "rounds",
	"fair_share", "fair_slowdown", "slowdown_vs_fair",
	"share_vs_fair", "accounted_load",
	/* DCUDA Fig. 9 */
	"migration_stall_ns", "migration_overhead", NULL,
};
static const char *const metric_fields[] = {
	"jain_index", "concurrency_efficiency", "gpu_utilization",
	"policy_cpu_overhead", "ctx_switches", "accounting_error", "energy_j",
	"overloaded_time", "mean_normalized_time", "qos", "migrations",
	/* GERM (Dwarakinath 2008) 6.2 and 6.4 */
	"utime", "estimate_error_class", "estimate_error_max_class",
	"estimate_error_texture", "estimate_error_max_texture",
	"estimate_error_swap", "estimate_error_max_swap",
	"estimate_error_vertices", "estimate_error_max_vertices",
	"estimate_error_bytes", "estimate_error_max_bytes",
	/* DCUDA 2.3 and 4.3 */
	"demand_utilization", "time_imbalanced", "monitor_accuracy", NULL,
};

/* Node scenarios, one GPU's: DCUDA Fig. 10's bands as shares of the run */
static const char *const gpu_fields[] = {
	"time_0_50", "time_50_100", "overloaded_time", "awake_time",
	"demand_utilization", "energy_j", NULL,
};

static const char *const vm_fields[] = {
	"gpu_share", "scheduler_cpu_overhead", "accounting_error",
	"host_shadowed", NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* gpus.N.FIELD (N a GPU's index) or gpus.*.FIELD */
static bool gpu_path(const char *path)
{
	const char *p = path + 5, *last = strrchr(path, '.');

	if (strncmp(path, "gpus.", 5) || last <= p)
		return false;
	if (!(*p == '*' && p + 1 == last))
		for (; p < last; p++)
			if (!g_ascii_isdigit(*p))
				return false;
	return in_list(gpu_fields, last + 1);
}

static int check_value_path(struct cfg *c, const yaml_node_t *n,
			    const char *path)
{
	const char *dot = strchr(path, '.');
	const char *last = strrchr(path, '.');

	if (dot && !strncmp(path, "metrics.", 8) && dot == last &&
	    in_list(metric_fields, dot + 1))
		return 0;
	if (dot && !strncmp(path, "tasks.", 6) && last > dot + 1 &&
	    in_list(task_fields, last + 1))
		return 0;
	if (dot && !strncmp(path, "vms.", 4) && last > dot + 1 &&
	    in_list(vm_fields, last + 1))
		return 0;
	if (gpu_path(path))
		return 0;
	return cfg_error(c, n,
			 "value: expected tasks.NAME.FIELD, tasks.*.FIELD, vms.NAME.FIELD, gpus.N.FIELD, gpus.*.FIELD or metrics.FIELD (task fields: gpu_share, slowdown, round_mean_ns, gpu_time_ns, accounted_gpu_time_ns, rounds, migration_stall_ns, migration_overhead; vm fields: gpu_share, scheduler_cpu_overhead, accounting_error, host_shadowed; gpu fields: time_0_50, time_50_100, overloaded_time, awake_time, demand_utilization, energy_j; metrics: jain_index, concurrency_efficiency, gpu_utilization, policy_cpu_overhead, ctx_switches, accounting_error, energy_j, overloaded_time, mean_normalized_time, qos, migrations, demand_utilization, time_imbalanced, monitor_accuracy, utime, estimate_error_KIND, estimate_error_max_KIND with KIND class, texture, swap, vertices or bytes), got '%s'",
			 path);
}

static int read_number(struct cfg *c, const yaml_node_t *n, const char *what,
		       double *out)
{
	const char *s = cfg_text(n);
	char *end = NULL;

	if (!s || cfg_is_null(n))
		return cfg_error(c, n, "%s: expected a number", what);
	*out = g_ascii_strtod(s, &end);
	if (end == s || *end || !isfinite(*out))
		return cfg_error(c, n, "%s: expected a number, got '%s'", what,
				 s);
	return 0;
}

static int read_set(struct cfg *c, const yaml_node_t *n, const char *what,
		    char ***out)
{
	size_t i, len;

	if (cfg_expect_seq(c, n, what) < 0)
		return -1;
	len = cfg_seq_len(n);
	*out = g_new0(char *, len + 1);
	for (i = 0; i < len; i++) {
		const yaml_node_t *item = cfg_seq_item(c, n, i);
		const char *s = cfg_text(item);

		if (!s || !strchr(s, '=') || s[0] == '=')
			return cfg_error(c, item,
					 "%s: expected KEY.PATH=VALUE, as with --set",
					 what);
		(*out)[i] = g_strdup(s);
	}
	return 0;
}

/* `reduce: mean|max|min` of a sweep row (not together with `peak`) or of a
 * row over several tasks or GPUs. */
static int read_reduce(struct cfg *c, const yaml_node_t *map,
		       const yaml_node_t *pk, struct gs_expect *e)
{
	yaml_node_t *v = cfg_map_get(c, map, "reduce");
	int r = 0;

	if (!v)
		return 0;
	if (cfg_enum(c, v, "reduce", reduce_names, G_N_ELEMENTS(reduce_names),
		     &r) < 0)
		return -1;
	if (r == GS_REDUCE_PEAK)
		return cfg_error(c, v,
				 "reduce: mean, max or min (a peak check is written as 'peak: INDEX')");
	if (pk)
		return cfg_error(c, pk,
				 "peak: not together with 'reduce' (one value per sweep row)");
	e->reduce = (uint8_t)r;
	return 0;
}

/* The keys for node scenarios: a baseline policy, a seed count to average
 * over, and a sweep whose `peak` point must show the largest value. */
static int load_node_keys(struct cfg *c, const yaml_node_t *map,
			  struct gs_expect *e)
{
	yaml_node_t *v;
	bool vs_base = e->compare == GS_COMPARE_REDUCTION_VS_BASELINE ||
		       e->compare == GS_COMPARE_INCREASE_VS_BASELINE;

	if ((v = cfg_map_get(c, map, "baseline"))) {
		if (cfg_string(c, v, "baseline", false, &e->baseline) < 0)
			return -1;
		if (!gs_policy_find(e->baseline))
			return cfg_error(c, v, "baseline: unknown policy '%s'",
					 e->baseline);
	}
	if (vs_base && !e->baseline && !cfg_map_get(c, map, "reference"))
		return cfg_error(c, map,
				 "expect entry: compare %s needs 'baseline' (the reference policy) or 'reference' (the reference run's overrides)",
				 compare_names[e->compare]);
	if (e->baseline && !vs_base)
		return cfg_error(c, cfg_map_get(c, map, "baseline"),
				 "baseline: only with compare reduction_vs_baseline or increase_vs_baseline");
	if ((v = cfg_map_get(c, map, "seeds"))) {
		if (cfg_u32(c, v, "seeds", 1, 1000, &e->seeds) < 0)
			return -1;
		if (strncmp(e->value, "metrics.", 8) != 0)
			return cfg_error(c, v,
					 "seeds: the value must be a metrics.FIELD to average");
	}
	if ((v = cfg_map_get(c, map, "sweep"))) {
		yaml_node_t *pk = cfg_map_get(c, map, "peak");

		if (read_set(c, v, "sweep", &e->sweep) < 0)
			return -1;
		if (g_strv_length(e->sweep) < 2)
			return cfg_error(c, v, "sweep: give at least two points");
		if (read_reduce(c, map, pk, e) < 0)
			return -1;
		if (!pk && !e->reduce)
			return cfg_error(c, map,
					 "expect entry: a sweep needs 'peak' (the index of the point that must be largest) or 'reduce' (mean or max)");
		if (pk && cfg_u32(c, pk, "peak", 0,
				  g_strv_length(e->sweep) - 1, &e->peak) < 0)
			return -1;
		/* one number per point: a metric or one named task's field
		 * (a mean over apps, LoGA Fig. 7's "average increase") */
		if (strncmp(e->value, "metrics.", 8) != 0 &&
		    (strncmp(e->value, "tasks.", 6) != 0 ||
		     strchr(e->value, '*')))
			return cfg_error(c, v,
					 "sweep: the value must be a metrics.FIELD or one task's tasks.NAME.FIELD");
	} else if (cfg_map_get(c, map, "peak")) {
		return cfg_error(c, cfg_map_get(c, map, "peak"),
				 "peak: only with 'sweep'");
	} else if (cfg_map_get(c, map, "reduce")) {
		bool several = !strncmp(e->value, "tasks.", 6) ||
			       !strncmp(e->value, "gpus.", 5);

		if (read_reduce(c, map, NULL, e) < 0)
			return -1;
		/* over tasks or GPUs in one run, or over the seeds' runs
		 * (each against its baseline): not both at once */
		if (e->seeds ? several : (!several || e->baseline))
			return cfg_error(c, cfg_map_get(c, map, "reduce"),
					 "reduce: only with 'sweep', 'seeds' and a metrics.FIELD (the seeds' values as one), or a tasks.* or gpus.* value (several tasks' or GPUs' values as one)");
	}
	return 0;
}

/* `reference`: the overrides, on top of `set`, of the run the row is
 * compared with. With a baseline compare they apply beside the baseline
 * policy (if any), to every seed and sweep point (Fleig Table 5.2: the
 * same policy, the app on the host); with a *_vs_reference compare the
 * two runs are compared value by value, so one run against one run
 * (DCUDA Fig. 9: NVCR's migration against DCUDA's). */
static int load_reference(struct cfg *c, const yaml_node_t *map,
			  struct gs_expect *e)
{
	yaml_node_t *v = cfg_map_get(c, map, "reference");
	bool vs_ref = e->compare == GS_COMPARE_REDUCTION_VS_REFERENCE ||
		      e->compare == GS_COMPARE_INCREASE_VS_REFERENCE;
	bool vs_base = e->compare == GS_COMPARE_REDUCTION_VS_BASELINE ||
		       e->compare == GS_COMPARE_INCREASE_VS_BASELINE;

	if (!v && vs_ref)
		return cfg_error(c, map,
				 "expect entry: compare %s needs 'reference' (the reference run's overrides)",
				 compare_names[e->compare]);
	if (!v)
		return 0;
	if (!vs_ref && !vs_base)
		return cfg_error(c, v,
				 "reference: only with compare reduction_vs_reference, increase_vs_reference, reduction_vs_baseline or increase_vs_baseline");
	if (vs_ref && (e->seeds || e->sweep))
		return cfg_error(c, v,
				 "reference: not together with 'seeds' or 'sweep' under compare %s (one run against one run, value by value)",
				 compare_names[e->compare]);
	return read_set(c, v, "reference", &e->reference);
}

/* `baseline_set` was a second name for `reference` under a baseline
 * compare; refused at its position, naming the key that replaced it. */
static int refuse_old_keys(struct cfg *c, const yaml_node_t *map)
{
	yaml_node_t *v = cfg_map_get(c, map, "baseline_set");

	if (!v)
		return 0;
	return cfg_error(c, v,
			 "baseline_set: not a key any more; write 'reference' (the same KEY.PATH=VALUE list: the overrides of the run the row is compared with)");
}

static int load_one(struct cfg *c, const yaml_node_t *map, struct gs_expect *e)
{
	static const char *const required[] = { "id", "quantity", "value" };
	yaml_node_t *v;
	int compare = 0;
	size_t i;

	if (cfg_expect_map(c, map, "an expect entry") < 0 ||
	    refuse_old_keys(c, map) < 0 ||
	    cfg_map_check(c, map, "expect entry", expect_keys) < 0)
		return -1;
	e->line = (uint32_t)map->start_mark.line + 1;
	for (i = 0; i < G_N_ELEMENTS(required); i++)
		if (!cfg_map_get(c, map, required[i]))
			return cfg_error(c, map,
					 "expect entry: missing required key '%s'",
					 required[i]);
	if (cfg_string(c, cfg_map_get(c, map, "id"), "id", true, &e->id) < 0 ||
	    cfg_string(c, cfg_map_get(c, map, "quantity"), "quantity", false,
		       &e->quantity) < 0)
		return -1;
	v = cfg_map_get(c, map, "value");
	if (cfg_string(c, v, "value", false, &e->value) < 0 ||
	    check_value_path(c, v, e->value) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "figure")) &&
	    cfg_string(c, v, "figure", false, &e->figure) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "paper")) &&
	    cfg_string(c, v, "paper", false, &e->paper) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "paper_value"))) {
		if (read_number(c, v, "paper_value", &e->paper_value) < 0)
			return -1;
		/* a relative error against 0 has no meaning: a "~0" claim
		 * is a band (min/max), not a paper value */
		if (e->paper_value == 0)
			return cfg_error(c, v,
					 "paper_value: must not be 0 (the relative error divides by it; state a ~0 claim with min/max)");
		e->has_paper_value = true;
	}
	if ((v = cfg_map_get(c, map, "known_gap")) &&
	    cfg_string(c, v, "known_gap", false, &e->known_gap) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "far_from_paper"))) {
		if (cfg_string(c, v, "far_from_paper", false,
			       &e->far_from_paper) < 0)
			return -1;
		/* the reason is for a distance, which needs the value */
		if (!e->has_paper_value)
			return cfg_error(c, v,
					 "far_from_paper: needs paper_value (the reason is for the row's distance from it)");
	}
	if ((v = cfg_map_get(c, map, "set")) &&
	    read_set(c, v, "set", &e->set) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "compare")) &&
	    cfg_enum(c, v, "compare", compare_names,
		     G_N_ELEMENTS(compare_names), &compare) < 0)
		return -1;
	e->compare = (uint8_t)compare;
	if (load_node_keys(c, map, e) < 0 || load_reference(c, map, e) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "min"))) {
		if (read_number(c, v, "min", &e->min) < 0)
			return -1;
		e->has_min = true;
	}
	if ((v = cfg_map_get(c, map, "max"))) {
		if (read_number(c, v, "max", &e->max) < 0)
			return -1;
		e->has_max = true;
	}
	if (!e->has_min && !e->has_max)
		return cfg_error(c, map,
				 "expect entry: give 'min', 'max' or both (the pass range)");
	if (e->has_min && e->has_max && e->min > e->max)
		return cfg_error(c, map, "expect entry: min is above max");
	return 0;
}

int cfg_load_expect(struct cfg *c, const yaml_node_t *list)
{
	struct gs_scenario *sc = c->sc;
	size_t i, len;

	if (cfg_expect_seq(c, list, "expect") < 0)
		return -1;
	len = cfg_seq_len(list);
	sc->expect = g_new0(struct gs_expect, len ? len : 1);
	for (i = 0; i < len; i++) {
		sc->n_expect++;
		if (load_one(c, cfg_seq_item(c, list, i), &sc->expect[i]) < 0)
			return -1;
	}
	return 0;
}
