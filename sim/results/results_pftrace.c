/* timeline.pftrace: the timeline in Perfetto's own format, a stream of
 * TracePacket messages (sim/results/perfetto_trace.proto, the subset of
 * Perfetto's schema gpusim uses) packed by protobuf-c. Perfetto's UI and
 * trace_processor open it directly; it is several times smaller and
 * faster to write than timeline.json, and it carries what the Chrome JSON
 * format has no compact form for: counter tracks and flow arrows.
 *
 * What it holds:
 *  - a process track per GPU ("GPU n"), and under it a track per engine,
 *    policy (on GPU 0) and channel, labelled and ordered as in
 *    timeline.json (engines, then the policy, then channels by id);
 *  - each span as a slice (begin and end events) with its command
 *    number, task and command length as arguments on commands' slices;
 *  - for each command, an instant "submit" on its channel's track when
 *    it entered the ring, with a flow arrow to every slice of the engine
 *    that ran it;
 *  - counter tracks: each task's GPU share (of all tasks' GPU time so
 *    far) and virtual time at the series samples where they changed, for
 *    runs of at most GS_PFTRACE_MAX_TASK_COUNTERS tasks (beyond that a
 *    viewer cannot show them and they would outweigh the rest of the
 *    file; series.csv has them all), and each channel's queue depth
 *    (commands submitted and not completed).
 *
 * The spans and marks are encoded a chunk at a time (pftrace_enc.h), here
 * from the whole results or during the run by pftrace_stream.c; this file
 * cuts the results into those chunks and writes the tail. Event names and
 * categories are interned as they are first used. Perfetto sorts packets
 * by timestamp when it reads them; spans are written in the order they
 * ended. Bytes depend on nothing but the results. */
#include <inttypes.h>
#include <string.h>

#include "sim/results/pftrace_enc.h"
#include "sim/results/results_priv.h"

/* Tasks whose share and virtual time get counter tracks. */
#define GS_PFTRACE_MAX_TASK_COUNTERS 256u

/* GPUs named by n_gpus, and any GPU a track, mark or task mentions, or
 * a span the encoder saw. */
static uint32_t gpu_count(const struct gs_results *r, uint32_t seen)
{
	uint32_t n = MAX(MAX(r->n_gpus, 1), seen);
	guint i;

	for (i = 0; r->tracks && i < r->tracks->len; i++)
		n = MAX(n, g_array_index(r->tracks, struct gs_track, i).gpu + 1);
	for (i = 0; r->cmd_marks && i < r->cmd_marks->len; i++)
		n = MAX(n, g_array_index(r->cmd_marks, struct gs_cmd_mark,
					 i).gpu + 1);
	for (i = 0; i < r->n_tasks; i++)
		n = MAX(n, r->tasks[i].gpu + 1);
	return n;
}

static void put_counter(struct pf_out *o, gs_time_t t, uint64_t uuid,
			double v)
{
	pf_put_ev(o, t, &(struct pf_ev){
		.track_uuid = uuid,
		.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
		.counter = PF_COUNTER_DOUBLE,
		.counter_double = v,
	});
}

/* One sample's counters: each task's share of the GPU time of all tasks
 * at that sample, and its virtual time, a value only when it changed (a
 * counter holds its value until the next one). */
static void put_sample_counters(struct pf_out *o, const struct gs_results *r,
				const GArray *sample, double *last_share,
				uint64_t *last_vtime)
{
	uint64_t total = 0;
	guint i;

	for (i = 0; i < sample->len; i++)
		total += g_array_index(sample, struct gs_series_point, i)
				 .gpu_time_ns;
	for (i = 0; i < sample->len; i++) {
		const struct gs_series_point *p =
			&g_array_index(sample, struct gs_series_point, i);
		double share = total ? (double)p->gpu_time_ns / (double)total
				     : 0;

		if (p->task >= r->n_tasks)
			continue;
		if (share != last_share[p->task])
			put_counter(o, p->t, pf_uuid(PF_SHARE, 0, p->task),
				    share);
		if (p->vtime_ns != last_vtime[p->task])
			put_counter(o, p->t, pf_uuid(PF_VTIME, 0, p->task),
				    (double)p->vtime_ns);
		last_share[p->task] = share;
		last_vtime[p->task] = p->vtime_ns;
	}
}

/* Each task's GPU share (of the GPU time all tasks had so far: the
 * summary's gpu_share as it grew) and virtual time, at every sample of
 * series.csv. The points of one sample are consecutive: they are read
 * from the compact series one sample at a time. */
static void put_task_counters(struct pf_out *o, const struct gs_results *r)
{
	Perfetto__Protos__CounterDescriptor ns =
		PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor ratio =
		PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	g_autoptr(GArray) sample = NULL;
	g_autofree double *last_share = NULL;
	g_autofree uint64_t *last_vtime = NULL;
	struct gs_series_iter it;
	struct gs_series_point p;
	uint32_t k;

	if (r->n_tasks > GS_PFTRACE_MAX_TASK_COUNTERS)
		return; /* series.csv has them (see the header) */
	last_share = g_new(double, MAX(r->n_tasks, 1));
	last_vtime = g_new(uint64_t, MAX(r->n_tasks, 1));
	ns.has_unit = true;
	ns.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_TIME_NS;
	for (k = 0; k < r->n_tasks; k++) {
		g_autofree char *share = g_strdup_printf(
			"share %s", r->tasks[k].name ? r->tasks[k].name : "");
		g_autofree char *vtime = g_strdup_printf(
			"vtime %s", r->tasks[k].name ? r->tasks[k].name : "");
		g_autofree char *vs = g_utf8_make_valid(share, -1);
		g_autofree char *vv = g_utf8_make_valid(vtime, -1);
		int32_t rank = (int32_t)MIN(10 + (uint64_t)k, 99);

		pf_put_child_track(o, pf_uuid(PF_SHARE, 0, k), r->tasks[k].gpu, vs,
				rank, &ratio);
		pf_put_child_track(o, pf_uuid(PF_VTIME, 0, k), r->tasks[k].gpu, vv,
				rank, &ns);
		last_share[k] = -1;
		last_vtime[k] = UINT64_MAX;
	}
	if (!r->series)
		return;
	sample = g_array_new(FALSE, FALSE, sizeof(struct gs_series_point));
	gs_series_iter_init(&it, r->series);
	while (gs_series_next(&it, &p)) {
		if (sample->len &&
		    g_array_index(sample, struct gs_series_point, 0).t != p.t) {
			put_sample_counters(o, r, sample, last_share,
					    last_vtime);
			g_array_set_size(sample, 0);
		}
		g_array_append_val(sample, p);
	}
	if (sample->len)
		put_sample_counters(o, r, sample, last_share, last_vtime);
	gs_series_iter_clear(&it);
}

/* As timeline.json does: an instant saying where the record stops, at
 * the last end of the n spans kept. */
static void put_truncated(struct pf_out *o, guint n, gs_time_t last)
{
	pf_event e = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	g_autofree char *name = g_strdup_printf("timeline truncated at %u "
						"spans", n);

	pf_put_child_track(o, pf_uuid(PF_NOTE, 0, 0), 0, "gpusim", 0, NULL);
	e.has_track_uuid = true;
	e.track_uuid = pf_uuid(PF_NOTE, 0, 0);
	e.has_type = true;
	e.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
	e.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	e.name = name;
	pf_put_event(o, last, &e);
}

gboolean pf_put_tail(struct pf_enc *e, const struct gs_results *r,
		     GError **error)
{
	uint32_t gpu, n_gpus;
	guint i;

	if (e->bad) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "span %u names string %" PRIu32 "/%" PRIu32
			    " of %u", e->bad_i, e->bad_name, e->bad_cat,
			    e->names.n);
		return FALSE;
	}
	n_gpus = gpu_count(r, pf_enc_n_gpus(e));
	for (gpu = 0; gpu < n_gpus; gpu++)
		pf_enc_gpu(e, gpu);
	/* tracks the cap left without an event, labelled here: formatting
	 * every track's label to find these few took a printf and two
	 * copies per channel, 10 ms of the write at 65,536 channels */
	for (i = 0; r->tracks && i < r->tracks->len; i++) {
		const struct gs_track *t =
			&g_array_index(r->tracks, struct gs_track, i);
		g_autofree char *raw = NULL;
		g_autofree char *label = NULL;

		if (pf_enc_track_described(e, t->gpu, t->track_kind, t->track))
			continue;
		raw = gs_track_label(r, t);
		label = g_utf8_make_valid(raw, -1);
		pf_enc_span_track(e, t->gpu, t->track_kind, t->track, label);
	}
	put_task_counters(&e->out, r);
	if (r->timeline_truncated)
		put_truncated(&e->out, e->n_spans, e->last_end);
	return TRUE;
}

/* The chunks the recorder handed out or would have (chunk_order), then
 * what is left of each array: as a stream takes them. */
static void put_chunks(struct pf_enc *e, const struct gs_results *r)
{
	const struct gs_span *sp = (const struct gs_span *)r->spans->data;
	const struct gs_cmd_mark *m =
		(const struct gs_cmd_mark *)r->cmd_marks->data;
	guint i, n[2] = { 0, 0 };

	for (i = 0; r->chunk_order && i < r->chunk_order->len; i++) {
		enum gs_chunk_kind kind = r->chunk_order->data[i];
		guint len = kind == GS_CHUNK_SPANS ? r->spans->len
						   : r->cmd_marks->len;

		if (n[kind] + GS_SPAN_CHUNK > len)
			break; /* not the recorder's: results made by hand */
		if (kind == GS_CHUNK_SPANS)
			pf_enc_spans(e, sp + n[kind], GS_SPAN_CHUNK);
		else
			pf_enc_marks(e, m + n[kind], GS_SPAN_CHUNK);
		n[kind] += GS_SPAN_CHUNK;
	}
	pf_enc_spans(e, sp + n[GS_CHUNK_SPANS],
		     r->spans->len - n[GS_CHUNK_SPANS]);
	pf_enc_marks(e, m + n[GS_CHUNK_MARKS],
		     r->cmd_marks->len - n[GS_CHUNK_MARKS]);
}

gboolean gs_results_fill_pftrace(const struct gs_results *r, FILE *f,
				 GError **error)
{
	struct pf_enc e;
	gboolean ok;
	guint i;

	if (r->span_sink) { /* its spans went to a stream's own file */
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "the timeline went to a stream");
		return FALSE;
	}
	pf_enc_init(&e, f);
	for (i = 0; i < r->names.n; i++)
		pf_enc_add_name(&e, gs_results_name(r, i));
	for (i = 0; r->tracks && i < r->tracks->len; i++) {
		const struct gs_track *t =
			&g_array_index(r->tracks, struct gs_track, i);

		if (t->track_kind != GS_TRACK_CHANNEL)
			pf_enc_add_track(&e, t, g_utf8_make_valid(
				t->label ? t->label : "", -1));
	}
	put_chunks(&e, r);
	ok = pf_put_tail(&e, r, error);
	pf_enc_clear(&e);
	return ok;
}
