/* gpusim reproduce: the values an `expect` row's path selects from a run's
 * results (metrics.FIELD, vms.NAME.FIELD, gpus.N.FIELD or gpus.*.FIELD,
 * tasks.NAME.FIELD with NAME `*` or a counted task's every copy). */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "sim/cli/repro.h"

static double task_field(const struct gs_task_result *t, const char *field,
			 uint64_t sim_time_ns)
{
	/* LoGA Fig. 10: the GPU load the policy measured, its estimate of
	 * the task's GPU time over the run's length */
	if (!strcmp(field, "accounted_load"))
		return t->has_accounted && sim_time_ns
			       ? (double)t->accounted_gpu_time_ns /
					 (double)sim_time_ns
			       : NAN;
	if (!strcmp(field, "gpu_share"))
		return t->gpu_share;
	if (!strcmp(field, "migration_overhead"))
		return gs_task_migration_overhead(t);
	if (!strcmp(field, "migration_stall_ns"))
		return (double)t->migration_stall_ns;
	if (!strcmp(field, "slowdown"))
		return t->slowdown;
	if (!strcmp(field, "fair_share"))
		return t->fair_share;
	if (!strcmp(field, "fair_slowdown"))
		return t->fair_slowdown;
	if (!strcmp(field, "slowdown_vs_fair"))
		return t->slowdown / t->fair_slowdown;
	if (!strcmp(field, "share_vs_fair"))
		return t->gpu_share / t->fair_share;
	if (!strcmp(field, "round_mean_ns"))
		return t->round_mean_ns;
	if (!strcmp(field, "gpu_time_ns"))
		return (double)t->gpu_time_ns;
	if (!strcmp(field, "accounted_gpu_time_ns"))
		return t->has_accounted ? (double)t->accounted_gpu_time_ns : NAN;
	return (double)t->rounds;
}

/* GERM's metrics: utime, estimate_error_KIND, estimate_error_max_KIND. */
static bool germ_metric_field(const struct gs_metrics *m, const char *field,
			      double *out)
{
	static const char mean[] = "estimate_error_",
			  max[] = "estimate_error_max_";
	uint32_t k;

	if (!strcmp(field, "utime")) {
		*out = m->utime;
		return true;
	}
	for (k = 0; k < GS_ESTIMATE_KINDS; k++) {
		const char *name = gs_estimate_kind_names[k];

		if (!strncmp(field, max, sizeof(max) - 1) &&
		    !strcmp(field + sizeof(max) - 1, name)) {
			*out = m->estimates[k].max_error;
			return true;
		}
		if (!strncmp(field, mean, sizeof(mean) - 1) &&
		    !strcmp(field + sizeof(mean) - 1, name)) {
			*out = m->estimates[k].mean_error;
			return true;
		}
	}
	return false;
}

static double metric_field(const struct gs_metrics *m, const char *field)
{
	double germ;

	if (germ_metric_field(m, field, &germ))
		return germ;
	if (!strcmp(field, "jain_index"))
		return m->jain_index;
	if (!strcmp(field, "concurrency_efficiency"))
		return m->concurrency_efficiency;
	if (!strcmp(field, "gpu_utilization"))
		return m->gpu_utilization;
	if (!strcmp(field, "policy_cpu_overhead"))
		return m->policy_cpu_overhead;
	if (!strcmp(field, "ctx_switches"))
		return (double)m->ctx_switches;
	if (!strcmp(field, "accounting_error"))
		return m->accounting_error;
	if (!strcmp(field, "overloaded_time"))
		return m->overloaded_time;
	if (!strcmp(field, "mean_normalized_time"))
		return m->mean_normalized_time;
	if (!strcmp(field, "qos"))
		return m->qos;
	if (!strcmp(field, "migrations"))
		return (double)m->migrations;
	if (!strcmp(field, "demand_utilization"))
		return m->demand_utilization;
	if (!strcmp(field, "time_imbalanced"))
		return m->time_imbalanced;
	if (!strcmp(field, "monitor_accuracy"))
		return m->monitor_accuracy;
	return m->energy_j;
}

static double vm_field(const struct gs_vm_result *v, const char *field)
{
	if (!strcmp(field, "gpu_share"))
		return v->gpu_share;
	if (!strcmp(field, "scheduler_cpu_overhead"))
		return v->scheduler_cpu;
	if (!strcmp(field, "accounting_error"))
		return v->accounting_error;
	return v->host_shadowed;
}

/* One GPU of a node scenario; the times as shares of the run, as DCUDA
 * Fig. 10 draws its bands. */
static double gpu_field(const struct gs_gpu_result *g, const char *field,
			uint64_t sim_time_ns)
{
	double run = sim_time_ns ? (double)sim_time_ns : NAN;

	if (!strcmp(field, "time_0_50"))
		return (double)g->band_low_ns / run;
	if (!strcmp(field, "time_50_100"))
		return (double)g->band_high_ns / run;
	if (!strcmp(field, "overloaded_time"))
		return (double)g->band_over_ns / run;
	if (!strcmp(field, "awake_time"))
		return (double)g->awake_ns / run;
	if (!strcmp(field, "demand_utilization"))
		return g->demand_utilization;
	return g->energy_j;
}

/* gpus.N.FIELD: GPU N's value (none if the node has no GPU N);
 * gpus.*.FIELD: every GPU's. */
static void select_gpus(const struct gs_results *r, const char *path,
			const char *field, GArray *out)
{
	const char *which = path + 5;
	uint32_t i;
	double v;

	for (i = 0; i < r->n_gpus && r->node_report; i++) {
		if (*which != '*' &&
		    g_ascii_strtoull(which, NULL, 10) != (guint64)i)
			continue;
		v = gpu_field(&r->gpus[i], field, r->sim_time_ns);
		g_array_append_val(out, v);
	}
}

/* Whether `name` is the first `len` characters of path + `at`. */
static bool names(const char *path, size_t at, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(name, path + at, len);
}

/* Whether task `task` is the `len` characters at `name`, or one of its
 * copies (a task with `count: N` runs as NAME#0 .. NAME#N-1). */
static bool task_named(const char *task, const char *name, size_t len)
{
	if (strncmp(task, name, len))
		return false;
	if (!task[len])
		return true;
	if (task[len] != '#' || !task[len + 1])
		return false;
	for (task += len + 1; *task; task++)
		if (!g_ascii_isdigit(*task))
			return false;
	return true;
}

/* The values a path selects: one, or one per task for tasks.*.FIELD and
 * for a task with copies (every one must pass).
 * The loader checked the path's form. */
GArray *gs_repro_select_values(const struct gs_results *r, const char *path)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(double));
	const char *field = strrchr(path, '.') + 1;
	uint32_t i;
	double v;

	if (!strncmp(path, "metrics.", 8)) {
		v = metric_field(&r->metrics, field);
		g_array_append_val(out, v);
		return out;
	}
	if (!strncmp(path, "gpus.", 5)) {
		select_gpus(r, path, field, out);
		return out;
	}
	if (!strncmp(path, "vms.", 4)) {
		for (i = 0; i < r->n_vms; i++) {
			if (!names(path, 4, (size_t)(field - 1 - (path + 4)),
				   r->vms[i].name))
				continue;
			v = vm_field(&r->vms[i], field);
			g_array_append_val(out, v);
		}
		return out;
	}
	for (i = 0; i < r->n_tasks; i++) {
		size_t name_len = (size_t)(field - 1 - (path + 6));
		bool all = name_len == 1 && path[6] == '*';

		if (all || task_named(r->tasks[i].name, path + 6, name_len)) {
			v = task_field(&r->tasks[i], field, r->sim_time_ns);
			g_array_append_val(out, v);
		}
	}
	return out;
}
