/* The table `gpusim run` prints: a header line, one row per task (at most
 * max_rows of them, then a line saying how many more there are), then the
 * run's metrics. Columns are as wide as their widest cell, so names up to
 * about 16 characters fit in 80 columns and longer ones widen the table
 * instead of breaking its alignment. A figure that does not exist is "-".
 * Numbers use the C locale, as in the files, so the table can be compared
 * byte for byte in tests. */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "sim/results/results_priv.h"

enum task_col {
	COL_NAME,
	COL_VM,
	COL_GPU,
	COL_ROUNDS,
	COL_ROUND_US,
	COL_GPU_MS,
	COL_SHARE,
	COL_SLOWDOWN,
	COL_ACCOUNTED_MS,
	COL_KILLED,
	N_COLS,
};

struct table_col {
	const char *title;
	bool left;
};

static const struct table_col task_cols[N_COLS] = {
	[COL_NAME] = { "task", true },
	[COL_VM] = { "vm", true },
	[COL_GPU] = { "gpu", false },
	[COL_ROUNDS] = { "rounds", false },
	[COL_ROUND_US] = { "round_us", false },
	[COL_GPU_MS] = { "gpu_ms", false },
	[COL_SHARE] = { "share", false },
	[COL_SLOWDOWN] = { "slowdn", false },
	[COL_ACCOUNTED_MS] = { "acct_ms", false },
	[COL_KILLED] = { "killed", false },
};

/* The distribution tables: one per kind of latency, in microseconds. */
enum latency_col {
	LCOL_NAME, LCOL_N, LCOL_MIN, LCOL_P50, LCOL_P90, LCOL_P99, LCOL_MAX,
	LCOL_STD, N_LCOLS,
};

static const struct table_col latency_cols[N_LCOLS] = {
	[LCOL_NAME] = { "task", true }, [LCOL_N] = { "n", false },
	[LCOL_MIN] = { "min", false },  [LCOL_P50] = { "p50", false },
	[LCOL_P90] = { "p90", false },  [LCOL_P99] = { "p99", false },
	[LCOL_MAX] = { "max", false },  [LCOL_STD] = { "std", false },
};

/* d with printf format fmt in the C locale, then suffix; "-" when d is NAN
 * or infinite. */
static char *fmt_double(const char *fmt, double d, const char *suffix)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(d))
		return g_strdup("-");
	return g_strconcat(g_ascii_formatd(buf, sizeof(buf), fmt, d), suffix,
			   NULL);
}

static char *fmt_ms(uint64_t ns)
{
	return fmt_double("%.3f", (double)ns / 1e6, "");
}

static void task_cells(const struct gs_task_result *t, char **cell)
{
	cell[COL_NAME] = g_strdup(t->name ? t->name : "-");
	cell[COL_VM] = g_strdup(t->vm ? t->vm : "-");
	cell[COL_GPU] = g_strdup_printf("%" PRIu32, t->gpu);
	cell[COL_ROUNDS] = g_strdup_printf("%" PRIu64, t->rounds);
	cell[COL_ROUND_US] = fmt_double("%.1f", t->round_mean_ns / 1e3, "");
	cell[COL_GPU_MS] = fmt_ms(t->gpu_time_ns);
	cell[COL_SHARE] = fmt_double("%.1f", t->gpu_share * 100.0, "%");
	cell[COL_SLOWDOWN] = fmt_double("%.2f", t->slowdown, "x");
	cell[COL_ACCOUNTED_MS] = t->has_accounted ?
		fmt_ms(t->accounted_gpu_time_ns) : g_strdup("-");
	cell[COL_KILLED] = g_strdup(t->killed ? "yes" : "no");
}

static void print_row(FILE *out, const struct table_col *cols, int n_cols,
		      const char *const *cell, const int *width)
{
	int c;

	for (c = 0; c < n_cols; c++) {
		const char *sep = c == 0 ? "" : " ";
		int w = width[c];

		if (cols[c].left)
			fprintf(out, "%s%-*s", sep, w, cell[c]);
		else
			fprintf(out, "%s%*s", sep, w, cell[c]);
	}
	fputc('\n', out);
}

/* Printed width of a cell: one column per UTF-8 character, which is right
 * for the names people give tasks; one per byte if it is not UTF-8. */
static int cell_width(const char *s)
{
	if (!g_utf8_validate(s, -1, NULL))
		return (int)strlen(s);
	return (int)g_utf8_strlen(s, -1);
}

/* The cells of one task's row. */
typedef void (*row_cells_fn)(const struct gs_task_result *t, char **cell,
			     const void *arg);

/* One row for each of the first n_rows tasks, columns as wide as their
 * widest cell among them, then a line for the rest, if any. */
static void print_table(const struct gs_results *r, FILE *out,
			uint32_t n_rows, const struct table_col *cols,
			int n_cols, row_cells_fn row_cells, const void *arg)
{
	const char *title[(int)N_COLS > (int)N_LCOLS ? (int)N_COLS
						     : (int)N_LCOLS];
	char **cells = g_new0(char *, (gsize)n_rows * (gsize)n_cols);
	int width[G_N_ELEMENTS(title)], pad[G_N_ELEMENTS(title)];
	uint32_t i;
	int c;

	for (c = 0; c < n_cols; c++) {
		title[c] = cols[c].title;
		width[c] = cell_width(title[c]);
	}
	for (i = 0; i < n_rows; i++) {
		char **row = &cells[(gsize)i * (gsize)n_cols];

		row_cells(&r->tasks[i], row, arg);
		for (c = 0; c < n_cols; c++)
			width[c] = MAX(width[c], cell_width(row[c]));
	}
	print_row(out, cols, n_cols, title, width);
	for (i = 0; i < n_rows; i++) {
		char **row = &cells[(gsize)i * (gsize)n_cols];

		/* printf pads by bytes; add what multi-byte names lack. */
		for (c = 0; c < n_cols; c++)
			pad[c] = width[c] + (int)strlen(row[c]) -
				 cell_width(row[c]);
		print_row(out, cols, n_cols, (const char *const *)row, pad);
	}
	if (n_rows < r->n_tasks)
		fprintf(out, "... and %" PRIu32 " more tasks (every task is "
			"in tasks.csv and summary.json; --rows=0 prints all "
			"here)\n", r->n_tasks - n_rows);
	for (i = 0; i < (gsize)n_rows * (gsize)n_cols; i++)
		g_free(cells[i]);
	g_free(cells);
}

static void task_row(const struct gs_task_result *t, char **cell,
		     const void *arg)
{
	(void)arg;
	task_cells(t, cell);
}

static char *fmt_us(uint64_t ns)
{
	return fmt_double("%.1f", (double)ns / 1e3, "");
}

/* arg: the offset of the distribution in struct gs_task_result. */
static void latency_row(const struct gs_task_result *t, char **cell,
			const void *arg)
{
	const struct gs_latency_stats *st = (const void *)((const char *)t +
					    *(const size_t *)arg);
	int c;

	cell[LCOL_NAME] = g_strdup(t->name ? t->name : "-");
	cell[LCOL_N] = g_strdup_printf("%" PRIu64, st->n);
	if (!st->n) {
		for (c = LCOL_MIN; c < N_LCOLS; c++)
			cell[c] = g_strdup("-");
		return;
	}
	cell[LCOL_MIN] = fmt_us(st->min);
	cell[LCOL_P50] = fmt_us(st->p50);
	cell[LCOL_P90] = fmt_us(st->p90);
	cell[LCOL_P99] = fmt_us(st->p99);
	cell[LCOL_MAX] = fmt_us(st->max);
	cell[LCOL_STD] = fmt_double("%.1f", st->std / 1e3, "");
}

/* Round (cycle) times and job waits, a table each (too wide for one). */
static void print_latencies(const struct gs_results *r, FILE *out,
			    uint32_t n_rows)
{
	static const size_t round_at = offsetof(struct gs_task_result, round);
	static const size_t wait_at = offsetof(struct gs_task_result, wait);

	fputs("\nround time, us\n", out);
	print_table(r, out, n_rows, latency_cols, N_LCOLS, latency_row,
		    &round_at);
	fputs("\njob wait (written to started), us\n", out);
	print_table(r, out, n_rows, latency_cols, N_LCOLS, latency_row,
		    &wait_at);
}

static void print_metric(FILE *out, const char *label, char *value)
{
	fprintf(out, "  %-24s %s\n", label, value);
	g_free(value);
}

static void print_metrics(const struct gs_metrics *m, FILE *out)
{
	print_metric(out, "Jain's fairness index",
		     fmt_double("%.4f", m->jain_index, ""));
	print_metric(out, "concurrency efficiency",
		     fmt_double("%.4f", m->concurrency_efficiency, ""));
	print_metric(out, "GPU utilization",
		     fmt_double("%.1f", m->gpu_utilization * 100.0, " %"));
	print_metric(out, "policy CPU overhead",
		     fmt_double("%.2f", m->policy_cpu_overhead * 100.0,
				" % of a core"));
	print_metric(out, "context switches",
		     g_strdup_printf("%" PRIu64, m->ctx_switches));
	print_metric(out, "accounting error",
		     fmt_double("%.2f", m->accounting_error * 100.0, " %"));
	print_metric(out, "energy", fmt_double("%.3f", m->energy_j, " J"));
}

/* Node scenarios: the DCUDA figures. */
static void print_node_metrics(const struct gs_metrics *m, FILE *out)
{
	g_autofree char *qos_label = g_strdup_printf(
		"QoS (slowed < %g%%)", m->qos_degradation * 100.0);

	print_metric(out, "overloaded GPU time",
		     fmt_double("%.1f", m->overloaded_time * 100.0, " %"));
	print_metric(out, "mean normalised time",
		     fmt_double("%.3f", m->mean_normalized_time, "x"));
	print_metric(out, "demand utilisation",
		     fmt_double("%.1f", m->demand_utilization * 100.0, " %"));
	print_metric(out, "time imbalanced",
		     fmt_double("%.1f", m->time_imbalanced * 100.0, " %"));
	print_metric(out, qos_label, fmt_double("%.1f", m->qos * 100.0, " %"));
	print_metric(out, "migrations",
		     g_strdup_printf("%" PRIu64, m->migrations));
}

/* Scenarios with VMs: one line per VM, its share, its own scheduler's
 * CPU time and accounting error, and how long the host's policy kept its
 * channels shadowed (what a scheduler inside it cannot see). */
static void print_vms(const struct gs_results *r, FILE *out)
{
	uint32_t i;

	fprintf(out, "\n  %-12s %-10s %7s %9s %9s %9s\n", "vm", "scheduler",
		"share", "sched_cpu", "acct_err", "shadowed");
	for (i = 0; i < r->n_vms; i++) {
		const struct gs_vm_result *v = &r->vms[i];
		g_autofree char *share = fmt_double("%.1f",
						    v->gpu_share * 100.0, "%");
		g_autofree char *cpu = fmt_double("%.2f",
						  v->scheduler_cpu * 100.0,
						  "%");
		g_autofree char *err = fmt_double(
			"%.1f", v->accounting_error * 100.0, "%");
		g_autofree char *shadowed = fmt_double(
			"%.1f", v->host_shadowed * 100.0, "%");

		fprintf(out, "  %-12s %-10s %7s %9s %9s %9s\n", v->name,
			v->scheduler ? v->scheduler : "-", share, cpu, err,
			shadowed);
	}
}

/* A simulated duration in the largest unit that keeps it above 1. */
static char *fmt_duration(uint64_t ns)
{
	if (ns >= GS_NS_PER_S)
		return fmt_double("%.3f", (double)ns / 1e9, " s");
	if (ns >= GS_NS_PER_MS)
		return fmt_double("%.3f", (double)ns / 1e6, " ms");
	if (ns >= GS_NS_PER_US)
		return fmt_double("%.3f", (double)ns / 1e3, " us");
	return g_strdup_printf("%" PRIu64 " ns", ns);
}

void gs_results_print_table(const struct gs_results *r, FILE *out,
			    uint32_t max_rows)
{
	g_autofree char *sim_time = fmt_duration(r->sim_time_ns);
	uint32_t n_rows = max_rows && max_rows < r->n_tasks ? max_rows
							  : r->n_tasks;

	fprintf(out, "%s: policy %s, seed %" PRIu64 ", %s simulated, %" PRIu64
		" events\n\n", r->name ? r->name : "(unnamed)",
		r->policy ? r->policy : "-", r->seed, sim_time, r->events);
	print_table(r, out, n_rows, task_cols, N_COLS, task_row, NULL);
	print_latencies(r, out, n_rows);
	fputc('\n', out);
	print_metrics(&r->metrics, out);
	if (r->node_report)
		print_node_metrics(&r->metrics, out);
	if (r->n_vms)
		print_vms(r, out);
}
