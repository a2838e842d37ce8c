/* One run as one row of named cells, for sweep.csv: the run's figures
 * under fixed column names, then each task's under "TASK.FIELD". Numbers
 * are formatted as in tasks.csv (C locale, empty when a figure does not
 * exist), so a sweep row and the point's own files agree. */
#include <inttypes.h>
#include <math.h>

#include "sim/results/results_priv.h"

static void add(GPtrArray *columns, GPtrArray *cells, char *column,
		GString *cell)
{
	g_ptr_array_add(columns, column);
	g_ptr_array_add(cells, g_string_free(cell, FALSE));
}

static void add_u64(GPtrArray *columns, GPtrArray *cells, char *column,
		    uint64_t v)
{
	GString *cell = g_string_new(NULL);

	g_string_append_printf(cell, "%" PRIu64, v);
	add(columns, cells, column, cell);
}

static void add_double(GPtrArray *columns, GPtrArray *cells, char *column,
		       const char *fmt, double v)
{
	GString *cell = g_string_new(NULL);

	gs_csv_append_double(cell, fmt, v);
	add(columns, cells, column, cell);
}

/* A distribution's order statistics as TASK.KIND_STAT_ns, as in
 * tasks.csv (the sweep's plots read them). */
static void add_latency(GPtrArray *columns, GPtrArray *cells,
			const char *task, const char *kind,
			const struct gs_latency_stats *st)
{
	static const char *const stat[] = { "min", "p50", "p90", "p99",
					    "max" };
	const uint64_t v[] = { st->min, st->p50, st->p90, st->p99, st->max };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(v); i++) {
		char *column = g_strdup_printf("%s.%s_%s_ns", task, kind,
					       stat[i]);

		if (st->n)
			add_u64(columns, cells, column, v[i]);
		else
			add(columns, cells, column, g_string_new(NULL));
	}
	add_double(columns, cells,
		   g_strdup_printf("%s.%s_std_ns", task, kind), "%.1f",
		   st->n ? st->std : NAN);
}

static void add_task(GPtrArray *columns, GPtrArray *cells,
		     const struct gs_task_result *t)
{
	const char *n = t->name;

	add_u64(columns, cells, g_strconcat(n, ".rounds", NULL), t->rounds);
	add_double(columns, cells, g_strconcat(n, ".round_mean_ns", NULL),
		   "%.1f", t->round_mean_ns);
	add_latency(columns, cells, n, "round", &t->round);
	add_latency(columns, cells, n, "wait", &t->wait);
	add_u64(columns, cells, g_strconcat(n, ".gpu_time_ns", NULL),
		t->gpu_time_ns);
	if (t->has_accounted)
		add_u64(columns, cells,
			g_strconcat(n, ".accounted_gpu_time_ns", NULL),
			t->accounted_gpu_time_ns);
	else
		add(columns, cells,
		    g_strconcat(n, ".accounted_gpu_time_ns", NULL),
		    g_string_new(NULL));
	add_double(columns, cells, g_strconcat(n, ".gpu_share", NULL), "%.6f",
		   t->gpu_share);
	add_double(columns, cells, g_strconcat(n, ".slowdown", NULL), "%.6f",
		   t->slowdown);
	add(columns, cells, g_strconcat(n, ".killed", NULL),
	    g_string_new(t->killed ? "true" : "false"));
}

void gs_results_row(const struct gs_results *r, GPtrArray *columns,
		    GPtrArray *cells)
{
	const struct gs_metrics *m = &r->metrics;
	uint32_t i;

	add(columns, cells, g_strdup("policy_name"), g_string_new(r->policy));
	add_u64(columns, cells, g_strdup("sim_time_ns"),
		(uint64_t)r->sim_time_ns);
	add_u64(columns, cells, g_strdup("events"), r->events);
	add_double(columns, cells, g_strdup("jain_index"), "%.6f",
		   m->jain_index);
	add_double(columns, cells, g_strdup("concurrency_efficiency"), "%.6f",
		   m->concurrency_efficiency);
	add_double(columns, cells, g_strdup("gpu_utilization"), "%.6f",
		   m->gpu_utilization);
	add_double(columns, cells, g_strdup("policy_cpu_overhead"), "%.6f",
		   m->policy_cpu_overhead);
	add_u64(columns, cells, g_strdup("ctx_switches"), m->ctx_switches);
	add_double(columns, cells, g_strdup("accounting_error"), "%.6f",
		   m->accounting_error);
	add_double(columns, cells, g_strdup("energy_j"), "%.3f", m->energy_j);
	if (r->node_report) {
		/* as summary.json's node metrics */
		add_double(columns, cells, g_strdup("overloaded_time"), "%.6f",
			   m->overloaded_time);
		add_double(columns, cells, g_strdup("mean_normalized_time"),
			   "%.6f", m->mean_normalized_time);
		add_double(columns, cells, g_strdup("qos"), "%.6f", m->qos);
		add_u64(columns, cells, g_strdup("migrations"), m->migrations);
		add_double(columns, cells, g_strdup("demand_utilization"),
			   "%.6f", m->demand_utilization);
		add_double(columns, cells, g_strdup("time_imbalanced"), "%.6f",
			   m->time_imbalanced);
	}
	for (i = 0; i < r->n_tasks; i++)
		add_task(columns, cells, &r->tasks[i]);
}
