/* What the result writers' tests share (test_results*.c): a result set
 * with every kind of row, a temporary output folder per test, and
 * readers of what was written. */
#ifndef GS_TESTS_RESULTS_FIXTURE_H
#define GS_TESTS_RESULTS_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "sim/host/results.h"
#include "sim/results/results_priv.h"
#include "tests/support/test_dirs.h"

struct fixture {
	char *dir;
	struct gs_results r;
};

static inline void add_task(struct gs_results *r, const struct gs_task_result *t)
{
	r->tasks = g_renew(struct gs_task_result, r->tasks, r->n_tasks + 1);
	r->tasks[r->n_tasks] = *t;
	r->tasks[r->n_tasks].name = g_strdup(t->name);
	r->tasks[r->n_tasks].vm = g_strdup(t->vm);
	r->n_tasks++;
}

static inline void add_track(struct gs_results *r, uint32_t gpu,
		      enum gs_track_kind kind, uint32_t track,
		      const char *label)
{
	struct gs_track t = {
		.gpu = gpu, .track_kind = kind, .track = track,
		.label = g_strdup(label),
	};

	g_array_append_val(r->tracks, t);
}

static inline void add_span(struct gs_results *r, gs_time_t start, gs_time_t end,
		     uint32_t gpu, enum gs_track_kind kind, uint32_t track,
		     const char *name, const char *category)
{
	struct gs_span s = {
		.start = start, .end = end, .gpu = gpu, .track_kind = kind,
		.track = track, .name = gs_results_intern(r, name),
		.category = gs_results_intern(r, category),
	};

	g_array_append_val(r->spans, s);
}

static inline void add_point(struct gs_results *r, gs_time_t t, uint32_t task,
		      uint64_t gpu, uint64_t acc, uint64_t vtime)
{
	struct gs_series_point p = {
		.t = t, .task = task, .gpu_time_ns = gpu,
		.accounted_gpu_time_ns = acc, .vtime_ns = vtime,
	};

	gs_series_append(r->series, &p);
}

/* Three tasks: one on the host with no estimate, one whose name needs CSV
 * quoting with a NAN round time and slowdown, one that did nothing. */
static inline void build_results(struct gs_results *r)
{
	gs_results_init(r);
	r->config = g_strdup("configs/test.yaml");
	r->name = g_strdup("two-vms");
	r->seed = 42;
	r->policy = g_strdup("dfq");
	r->sim_time_ns = 2 * GS_NS_PER_S;
	r->events = 123456;
	r->event_checksum = 0xdeadbeefULL;
	r->n_gpus = 2;

	add_task(r, &(struct gs_task_result){
		.name = "alpha", .vm = NULL, .weight = 1, .gpu = 0,
		.rounds = 10, .round_mean_ns = 1500000.0,
		.gpu_time_ns = 600000000, .has_accounted = false,
		.accounted_gpu_time_ns = 12345, .gpu_share = 0.6,
		.slowdown = 1.5, .killed = false,
		.round = { .n = 10, .min = 1000000, .p50 = 1500000,
			   .p90 = 1900000, .p99 = 2000000, .max = 2000000,
			   .mean = 1500000.0, .std = 250000.5 },
		.wait = { .n = 20, .min = 0, .p50 = 1000, .p90 = 5000,
			  .p99 = 9000, .max = 9000, .mean = 2000.0,
			  .std = 2500.0 } });
	add_task(r, &(struct gs_task_result){
		.name = "b,\"q\"", .vm = "vm1", .weight = 2, .gpu = 1,
		.rounds = 0, .round_mean_ns = NAN,
		.gpu_time_ns = 400000000, .has_accounted = true,
		.accounted_gpu_time_ns = 390000000, .gpu_share = 0.4,
		.slowdown = NAN, .killed = true, .migrations = 3,
		.migration_stall_ns = 52500000 });
	add_task(r, &(struct gs_task_result){
		.name = "gamma", .vm = "vm1", .weight = 1, .gpu = 0,
		.rounds = 5, .round_mean_ns = 2000.0, .gpu_time_ns = 0,
		.has_accounted = true, .accounted_gpu_time_ns = 0,
		.gpu_share = 0.0, .slowdown = 1.0, .killed = false });

	r->metrics = (struct gs_metrics){
		.jain_index = 0.9, .concurrency_efficiency = 1.75,
		.gpu_utilization = 0.5, .policy_cpu_overhead = 0.17,
		.ctx_switches = 1234, .accounting_error = NAN,
		.energy_j = INFINITY,
	};

	add_point(r, 1000000, 0, 500000, 0, 700);
	add_point(r, 1000000, 1, 400000, 390000, 800);
	add_point(r, 2000000, 0, 900000, 0, 1500);

	add_track(r, 0, GS_TRACK_ENGINE, 0, "compute");
	add_track(r, 0, GS_TRACK_CHANNEL, 3, "ch3 b,\"q\"");
	add_track(r, 1, GS_TRACK_POLICY, 0, "policy");
	add_span(r, 1234567, 1334567, 0, GS_TRACK_ENGINE, 0, "k\"1\n", "run");
	add_span(r, 5, 1005, 0, GS_TRACK_CHANNEL, 3, "submit", "run");
	add_span(r, 2000000, 3000001, 1, GS_TRACK_POLICY, 0, "drain",
		 "policy");
	r->timeline_truncated = true;
}


static inline int setup(void **state)
{
	struct fixture *fx = g_new0(struct fixture, 1);

	fx->dir = g_dir_make_tmp("gs_results_XXXXXX", NULL);
	if (!fx->dir)
		return -1;
	build_results(&fx->r);
	*state = fx;
	return 0;
}

static inline int teardown(void **state)
{
	struct fixture *fx = *state;

	gs_results_clear(&fx->r);
	remove_tree(fx->dir);
	g_free(fx->dir);
	g_free(fx);
	return 0;
}

static inline char *read_output(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}


/* with_timeline: timeline.json, the text format these tests read (the
 * default timeline.pftrace has tests of its own, test_results_pftrace.c) */
static inline void write_ok(const struct gs_results *r, const char *dir,
		     gboolean with_timeline)
{
	GError *error = NULL;
	gboolean ok = gs_results_write_dir(r, dir,
					   with_timeline ? GS_TIMELINE_JSON
							 : GS_TIMELINE_NONE,
					   &error);

	if (!ok)
		fail_msg("write failed: %s", error->message);
	assert_true(ok);
}

static inline JsonNode *parse_json(const char *text)
{
	g_autoptr(JsonParser) p = json_parser_new();
	GError *error = NULL;

	if (!json_parser_load_from_data(p, text, -1, &error))
		fail_msg("invalid JSON: %s", error->message);
	return json_node_copy(json_parser_get_root(p));
}

static inline void assert_members(JsonObject *o, const char *const *want)
{
	GList *members = json_object_get_members(o);
	GList *l = members;
	size_t i;

	for (i = 0; want[i]; i++, l = l->next) {
		assert_non_null(l);
		assert_string_equal(l->data, want[i]);
	}
	assert_null(l);
	g_list_free(members);
}

static inline void assert_null_member(JsonObject *o, const char *key)
{
	assert_true(json_object_has_member(o, key));
	assert_true(JSON_NODE_HOLDS_NULL(json_object_get_member(o, key)));
}

/* The table as printed, with at most max_rows task rows (0: all). */
static inline char *print_table_rows(const struct gs_results *r,
				     uint32_t max_rows)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	gs_results_print_table(r, f, max_rows);
	fclose(f);
	return buf;
}

/* The table as `gpusim run` prints it by default. */
static inline char *print_table(const struct gs_results *r)
{
	return print_table_rows(r, GS_TABLE_ROWS_DEFAULT);
}

#endif
