/* struct gs_results: allocation and interning of span names (the writers
 * are in sim/results/).
 *
 * Every string a gs_results points to (config, name, policy, task names and
 * VMs, track labels) is owned by it, allocated with g_malloc/g_strdup,
 * the interned names are in one table (base/strtab.h), and all are freed
 * by gs_results_clear(). tasks is a g_new()
 * array of n_tasks entries; their names and VMs are strings of their own
 * or, with task_text, all in that block. */
#include "sim/host/results.h"

#include <math.h>
#include <string.h>


void gs_results_init(struct gs_results *r)
{
	memset(r, 0, sizeof(*r));
	r->metrics.jain_index = NAN;
	r->metrics.concurrency_efficiency = NAN;
	r->metrics.accounting_error = NAN;
	r->series = gs_series_new();
	r->spans = g_array_new(FALSE, TRUE, sizeof(struct gs_span));
	r->tracks = g_array_new(FALSE, TRUE, sizeof(struct gs_track));
	r->cmd_marks = g_array_new(FALSE, TRUE, sizeof(struct gs_cmd_mark));
	r->chunk_order = g_byte_array_new();
}

/* Frees everything r owns and leaves it zeroed, so clearing twice is safe;
 * call gs_results_init() to use it again. */
void gs_results_clear(struct gs_results *r)
{
	uint32_t i;

	g_free(r->config);
	g_free(r->name);
	g_free(r->policy);
	g_free(r->invariant_violation);
	g_free(r->policy_warning);
	for (i = 0; r->tasks && !r->task_text && i < r->n_tasks; i++) {
		g_free(r->tasks[i].name);
		g_free(r->tasks[i].vm);
	}
	g_free(r->task_text);
	g_free(r->tasks);
	for (i = 0; r->vms && i < r->n_vms; i++) {
		g_free(r->vms[i].name);
		g_free(r->vms[i].scheduler);
	}
	g_free(r->vms);
	g_free(r->gpus);
	gs_series_free(r->series);
	if (r->spans)
		g_array_unref(r->spans);
	if (r->cmd_marks)
		g_array_unref(r->cmd_marks);
	if (r->chunk_order)
		g_byte_array_unref(r->chunk_order);
	if (r->tracks) {
		for (i = 0; i < r->tracks->len; i++)
			g_free(g_array_index(r->tracks, struct gs_track, i).label);
		g_array_unref(r->tracks);
	}
	gs_strtab_clear(&r->names);
	memset(r, 0, sizeof(*r));
}

/* Indexes are handed out in order of first use, so the same run interns the
 * same names to the same indexes whatever the hash function does. */
GArray *gs_results_flat_spans(const struct gs_results *r)
{
	GArray *flat = g_array_new(FALSE, FALSE, sizeof(struct gs_span));
	guint i;

	for (i = 0; r->spans && i < r->spans->len; i++) {
		const struct gs_span *s =
			&g_array_index(r->spans, struct gs_span, i);
		struct gs_span engine = *s, channel;

		engine.on_channel = false;
		g_array_append_val(flat, engine);
		if (s->on_channel) {
			channel = gs_span_channel_copy(s);
			g_array_append_val(flat, channel);
		}
	}
	return flat;
}

uint32_t gs_results_intern(struct gs_results *r, const char *s)
{
	g_return_val_if_fail(s, 0);
	return gs_strtab_intern(&r->names, s);
}

double gs_task_migration_overhead(const struct gs_task_result *t)
{
	double run = (double)t->rounds * t->round_mean_ns;

	if (!t->migrations || !(run > 0))
		return NAN;
	return (double)t->migration_stall_ns / t->migrations / run;
}
