/* summary.json: the run's figures for scripts, written field by field
 * through json_writer.h as json-glib's generator wrote them (no tree of
 * every task in memory). Keys keep a fixed order (DESIGN section 8) and a
 * figure that does not exist (NAN, no estimate, no VM) is null, never
 * "nan". */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sim/results/json_writer.h"
#include "sim/results/results_priv.h"
#include "sim/results/summary_parts.h"

/* The add_ helpers take a literal key (GS_JSONW_KEY: its length known,
 * not scanned, some thirty times per task). */
static void put_string(struct gs_jsonw *b, const char *key, size_t n,
		       const char *s)
{
	g_autofree char *tmp = NULL;

	gs_jsonw_key(b, key, n);
	gs_jsonw_string(b, gs_results_utf8(s, &tmp));
}

/* JSON integers were signed 64-bit for json-glib, and stay so; larger
 * values cannot occur in a run (584 years of nanoseconds) and are
 * clamped. */
static void put_uint(struct gs_jsonw *b, const char *key, size_t n,
		     uint64_t v)
{
	gs_jsonw_key(b, key, n);
	gs_jsonw_int(b, v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

static void put_double(struct gs_jsonw *b, const char *key, size_t n,
		       double d)
{
	gs_jsonw_key(b, key, n);
	gs_jsonw_double(b, d); /* null when not finite */
}

static void put_bool(struct gs_jsonw *b, const char *key, size_t n, bool v)
{
	gs_jsonw_key(b, key, n);
	gs_jsonw_bool(b, v);
}

#define add_string(b, key, s) put_string(b, "" key "", sizeof(key) - 1, s)
#define add_uint(b, key, v) put_uint(b, "" key "", sizeof(key) - 1, v)
#define add_double(b, key, d) put_double(b, "" key "", sizeof(key) - 1, d)
#define add_bool(b, key, v) put_bool(b, "" key "", sizeof(key) - 1, v)

/* LoGA 5.5's fair optimum (sim/run/fair_share.c), with standalone runs. */
static void add_fair_optimum(struct gs_jsonw *b, const struct gs_task_result *t)
{
	if (!t->has_fair)
		return;
	add_double(b, "fair_share", t->fair_share);
	add_double(b, "fair_slowdown", t->fair_slowdown);
}

/* One latency distribution (base/latency.h) as an object of
 * nanoseconds; its figures are null when it has no sample. */
static void put_latency(struct gs_jsonw *b, const char *key, size_t n,
			const struct gs_latency_stats *st)
{
	gs_jsonw_key(b, key, n);
	gs_jsonw_begin_object(b);
	add_uint(b, "n", st->n);
	if (st->n) {
		add_uint(b, "min", st->min);
		add_uint(b, "p50", st->p50);
		add_uint(b, "p90", st->p90);
		add_uint(b, "p99", st->p99);
		add_uint(b, "max", st->max);
	} else {
		static const char *const none[] = { "min", "p50", "p90",
						    "p99", "max" };
		size_t i;

		for (i = 0; i < G_N_ELEMENTS(none); i++) {
			gs_jsonw_member(b, none[i]);
			gs_jsonw_null(b);
		}
	}
	add_double(b, "mean", st->n ? st->mean : NAN);
	add_double(b, "std", st->n ? st->std : NAN);
	gs_jsonw_end(b);
}

#define add_latency(b, key, st) \
	put_latency(b, "" key "", sizeof(key) - 1, st)

/* Issue 18's distributions: round (cycle) times and job waits. */
static void add_task_latencies(struct gs_jsonw *b, const struct gs_task_result *t)
{
	add_latency(b, "round_ns", &t->round);
	add_latency(b, "wait_ns", &t->wait);
}

/* Node scenarios: a task's moves and what they cost it (DCUDA Fig. 9). */
static void add_migration_cost(struct gs_jsonw *b, const struct gs_task_result *t)
{
	add_uint(b, "migrations", t->migrations);
	add_uint(b, "migration_stall_ns", t->migration_stall_ns);
	add_double(b, "migration_overhead", gs_task_migration_overhead(t));
}

/* Node scenarios where a policy estimated the task's demand: the
 * estimate beside the declared demand (DCUDA 3.2's monitor). */
static void add_monitored_demand(struct gs_jsonw *b,
				 const struct gs_task_result *t)
{
	if (!t->has_monitored)
		return;
	add_double(b, "declared_demand", t->declared_demand);
	add_double(b, "monitored_demand", t->monitored_demand);
}

static void add_task(struct gs_jsonw *b, const struct gs_task_result *t,
		     bool node)
{
	gs_jsonw_begin_object(b);
	add_string(b, "name", t->name);
	add_string(b, "vm", t->vm);
	add_uint(b, "weight", t->weight);
	add_uint(b, "gpu", t->gpu);
	add_uint(b, "rounds", t->rounds);
	add_double(b, "round_mean_ns", t->round_mean_ns);
	add_task_latencies(b, t);
	add_uint(b, "gpu_time_ns", t->gpu_time_ns);
	if (t->has_accounted) {
		add_uint(b, "accounted_gpu_time_ns", t->accounted_gpu_time_ns);
	} else {
		GS_JSONW_KEY(b, "accounted_gpu_time_ns");
		gs_jsonw_null(b);
	}
	add_double(b, "gpu_share", t->gpu_share);
	add_double(b, "slowdown", t->slowdown);
	add_fair_optimum(b, t);
	add_bool(b, "killed", t->killed);
	if (node) {
		add_migration_cost(b, t);
		add_monitored_demand(b, t);
	}
	gs_jsonw_end(b);
}

/* Node scenarios: one entry per GPU. */
static void add_gpus(struct gs_jsonw *b, const struct gs_results *r)
{
	uint32_t i;

	GS_JSONW_KEY(b, "gpus");
	gs_jsonw_begin_array(b);
	for (i = 0; i < r->n_gpus; i++) {
		const struct gs_gpu_result *g = &r->gpus[i];

		gs_jsonw_begin_object(b);
		add_uint(b, "gpu", i);
		add_uint(b, "time_0_50_ns", g->band_low_ns);
		add_uint(b, "time_50_100_ns", g->band_high_ns);
		add_uint(b, "time_overloaded_ns", g->band_over_ns);
		add_uint(b, "awake_ns", g->awake_ns);
		add_uint(b, "wakeups", g->wakeups);
		add_double(b, "energy_j", g->energy_j);
		add_double(b, "demand_utilization", g->demand_utilization);
		gs_jsonw_end(b);
	}
	gs_jsonw_end(b);
}

/* Scenarios with VMs: one entry per VM. */
static void add_vms(struct gs_jsonw *b, const struct gs_results *r)
{
	uint32_t i;

	GS_JSONW_KEY(b, "vms");
	gs_jsonw_begin_array(b);
	for (i = 0; i < r->n_vms; i++) {
		const struct gs_vm_result *v = &r->vms[i];

		gs_jsonw_begin_object(b);
		add_string(b, "name", v->name);
		add_string(b, "scheduler", v->scheduler);
		add_double(b, "gpu_share", v->gpu_share);
		add_double(b, "scheduler_cpu_overhead", v->scheduler_cpu);
		add_double(b, "accounting_error", v->accounting_error);
		add_double(b, "host_shadowed", v->host_shadowed);
		gs_jsonw_end(b);
	}
	gs_jsonw_end(b);
}

/* GERM's Utime, and the accuracy of each kind of cost estimate the
 * policy made (only the kinds it used). */
static void add_germ_metrics(struct gs_jsonw *b, const struct gs_metrics *m)
{
	uint32_t k;

	add_double(b, "utime", m->utime);
	for (k = 0; k < GS_ESTIMATE_KINDS; k++) {
		const struct gs_estimate_result *e = &m->estimates[k];
		g_autofree char *mean = NULL, *max = NULL, *n = NULL;

		if (!e->n)
			continue;
		mean = g_strdup_printf("estimate_error_%s",
				       gs_estimate_kind_names[k]);
		max = g_strdup_printf("estimate_error_max_%s",
				      gs_estimate_kind_names[k]);
		n = g_strdup_printf("estimates_%s", gs_estimate_kind_names[k]);
		put_uint(b, n, strlen(n), e->n);
		put_double(b, mean, strlen(mean), e->mean_error);
		put_double(b, max, strlen(max), e->max_error);
	}
}

/* DCUDA's load and QoS figures (sections 2.3, 4.3, 4.5). */
static void add_node_balance(struct gs_jsonw *b, const struct gs_metrics *m)
{
	add_double(b, "demand_utilization", m->demand_utilization);
	add_double(b, "time_imbalanced", m->time_imbalanced);
	add_double(b, "qos_degradation", m->qos_degradation);
}

static void add_metrics(struct gs_jsonw *b, const struct gs_metrics *m,
			bool node)
{
	GS_JSONW_KEY(b, "metrics");
	gs_jsonw_begin_object(b);
	add_double(b, "jain_index", m->jain_index);
	add_double(b, "concurrency_efficiency", m->concurrency_efficiency);
	add_double(b, "gpu_utilization", m->gpu_utilization);
	add_double(b, "policy_cpu_overhead", m->policy_cpu_overhead);
	add_uint(b, "ctx_switches", m->ctx_switches);
	add_double(b, "accounting_error", m->accounting_error);
	add_double(b, "energy_j", m->energy_j);
	if (node) {
		add_double(b, "overloaded_time", m->overloaded_time);
		add_double(b, "mean_normalized_time", m->mean_normalized_time);
		add_double(b, "qos", m->qos);
		add_uint(b, "migrations", m->migrations);
		add_node_balance(b, m);
		if (!isnan(m->monitor_accuracy))
			add_double(b, "monitor_accuracy", m->monitor_accuracy);
	}
	add_germ_metrics(b, m);
	gs_jsonw_end(b);
}

void gs_summary_head(struct gs_jsonw *b, const struct gs_results *r)
{
	char checksum[2 + 16 + 1];

	g_snprintf(checksum, sizeof(checksum), "0x%016" PRIx64,
		   r->event_checksum);

	gs_jsonw_begin_object(b);
	add_string(b, "config", r->config);
	add_string(b, "name", r->name);
	add_uint(b, "seed", r->seed);
	add_string(b, "policy", r->policy);
	add_uint(b, "sim_time_ns", r->sim_time_ns);
	add_uint(b, "events", r->events);
	/* stopped by max_events before `duration`: the figures cover only
	 * sim_time_ns, which a reader must know without the stderr warning */
	add_bool(b, "capped", r->event_capped);
	add_string(b, "event_checksum", checksum);
	add_string(b, "invariants", r->invariant_violation ? "violated" : "ok");
	if (r->invariant_violation)
		add_string(b, "invariant_violation", r->invariant_violation);
	/* only when a policy reported an impossible state, so the summaries
	 * of healthy runs stay as they were */
	if (r->policy_warnings) {
		add_uint(b, "policy_warnings", r->policy_warnings);
		add_string(b, "policy_warning", r->policy_warning);
	}
	GS_JSONW_KEY(b, "tasks");
	gs_jsonw_begin_array(b);
}

void gs_summary_tasks(struct gs_jsonw *b, const struct gs_results *r,
		      uint32_t from, uint32_t to)
{
	uint32_t i;

	for (i = from; i < to; i++)
		add_task(b, &r->tasks[i], r->node_report);
}

void gs_summary_tail(struct gs_jsonw *b, const struct gs_results *r)
{
	gs_jsonw_end(b);
	if (r->node_report)
		add_gpus(b, r);
	if (r->n_vms)
		add_vms(b, r);
	add_metrics(b, &r->metrics, r->node_report);
	gs_jsonw_end(b);
	gs_jsonw_finish(b);
}

gboolean gs_results_fill_summary(const struct gs_results *r, FILE *f,
				 GError **error)
{
	struct gs_jsonw w;

	(void)error;
	gs_jsonw_init(&w, f);
	gs_summary_head(&w, r);
	gs_summary_tasks(&w, r, 0, r->n_tasks);
	gs_summary_tail(&w, r);
	fputc('\n', f);
	return TRUE;
}
