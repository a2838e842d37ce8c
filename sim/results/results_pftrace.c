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
 * Event names and categories are interned (pftrace_out.c). Perfetto
 * sorts packets by timestamp when it reads them; spans are written in the
 * order they ended. Bytes depend on nothing but the results. */
#include <inttypes.h>
#include <string.h>

#include "sim/results/pftrace_chans.h"
#include "sim/results/pftrace_out.h"
#include "sim/results/pftrace_spans.h"
#include "sim/results/pftrace_stream.h"
#include "sim/results/results_priv.h"

/* Tasks whose share and virtual time get counter tracks. */
#define GS_PFTRACE_MAX_TASK_COUNTERS 256u

/* Same order as timeline.json's tids. */
static int32_t sort_rank(uint8_t kind, uint32_t track)
{
	switch (kind) {
	case GS_TRACK_ENGINE:
		return (int32_t)(1 + track);
	case GS_TRACK_POLICY:
		return (int32_t)(100 + track);
	default:
		return (int32_t)MIN(1000 + (uint64_t)track, G_MAXINT32);
	}
}

/* A named child track of GPU gpu's process track. */
static void put_child_track(struct pf_out *o, uint64_t uuid, uint32_t gpu,
			    const char *name, int32_t rank,
			    Perfetto__Protos__CounterDescriptor *counter)
{
	pf_track t = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;

	t.has_uuid = true;
	t.uuid = uuid;
	t.has_parent_uuid = true;
	t.parent_uuid = pf_uuid(PF_GPU, gpu, 0);
	t.static_or_dynamic_name_case =
		PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
	t.name = (char *)name;
	t.has_sibling_order_rank = true;
	t.sibling_order_rank = rank;
	t.counter = counter;
	pf_put_track(o, &t);
}

static void put_gpu_track(struct pf_out *o, uint32_t gpu)
{
	Perfetto__Protos__ProcessDescriptor pd =
		PERFETTO__PROTOS__PROCESS_DESCRIPTOR__INIT;
	pf_track t = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	g_autofree char *name = g_strdup_printf("GPU %u", gpu);

	pd.has_pid = true;
	pd.pid = (int32_t)MIN((uint64_t)gpu + 1, G_MAXINT32); /* 0: none */
	pd.process_name = name;
	t.has_uuid = true;
	t.uuid = pf_uuid(PF_GPU, gpu, 0);
	t.process = &pd;
	t.has_child_ordering = true;
	t.child_ordering =
		PERFETTO__PROTOS__TRACK_DESCRIPTOR__CHILD_TRACKS_ORDERING__EXPLICIT;
	pf_put_track(o, &t);
}

/* GPUs named by n_gpus, and any GPU a track, span or mark mentions. */
static uint32_t pf_gpu_count(const struct gs_results *r,
			     uint32_t span_gpus)
{
	uint32_t n = MAX(MAX(r->n_gpus, 1), span_gpus);
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

/* A channel's label in put_tracks() once its queue track is written. */
static const char queue_written[] = "";

/* The span tracks as recorded, then, for every channel that submitted a
 * command, its span track if it has none (it never ran) and its queue
 * counter, in order of first submission. */
static void put_tracks(struct pf_out *o, const struct gs_results *r,
		       const struct pf_chans *chans, uint32_t n_gpus)
{
	Perfetto__Protos__CounterDescriptor count =
		PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	g_autofree const char **labels =
		g_new0(const char *, MAX(chans->n_slots, 1));
	uint32_t gpu;
	guint i;

	count.has_unit = true;
	count.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
	for (gpu = 0; gpu < n_gpus; gpu++)
		put_gpu_track(o, gpu);
	for (i = 0; r->tracks && i < r->tracks->len; i++) {
		const struct gs_track *t =
			&g_array_index(r->tracks, struct gs_track, i);
		g_autofree char *label = g_utf8_make_valid(
			t->label ? t->label : "", -1);

		put_child_track(o, pf_uuid(PF_SPANS + t->track_kind, t->gpu,
					   t->track),
				t->gpu, label, sort_rank(t->track_kind, t->track),
				NULL);
		if (t->track_kind == GS_TRACK_CHANNEL) /* the last one wins */
			labels[pf_chans_slot(chans, t->gpu, t->track)] =
				t->label ? t->label : "?";
	}
	for (i = 0; r->cmd_marks && i < r->cmd_marks->len; i++) {
		const struct gs_cmd_mark *m =
			&g_array_index(r->cmd_marks, struct gs_cmd_mark, i);
		size_t slot = pf_chans_slot(chans, m->gpu, m->channel);
		const char *label = labels[slot];
		g_autofree char *own = NULL, *queue = NULL, *valid = NULL;

		if (m->kind != GS_MARK_SUBMIT || label == queue_written)
			continue;
		if (!label) {
			own = g_strdup_printf("ch%u", m->channel);
			put_child_track(o, pf_uuid(PF_SPANS + GS_TRACK_CHANNEL,
						   m->gpu, m->channel),
					m->gpu, own,
					sort_rank(GS_TRACK_CHANNEL, m->channel),
					NULL);
		}
		queue = g_strdup_printf("queue %s", label ? label : own);
		valid = g_utf8_make_valid(queue, -1);
		put_child_track(o, pf_uuid(PF_QUEUE, m->gpu, m->channel),
				m->gpu, valid,
				sort_rank(GS_TRACK_CHANNEL, m->channel), &count);
		labels[slot] = queue_written;
	}
}

/* Submissions (an instant with the flow's first end) and the queue depth
 * of each channel after every mark. */
static void put_marks(struct pf_out *o, const struct gs_results *r,
		      const struct pf_chans *chans, uint64_t submit_iid)
{
	g_autofree int64_t *depth = g_new0(int64_t, MAX(chans->n_slots, 1));
	guint i;

	for (i = 0; r->cmd_marks && i < r->cmd_marks->len; i++) {
		const struct gs_cmd_mark *m =
			&g_array_index(r->cmd_marks, struct gs_cmd_mark, i);
		int64_t *d = &depth[pf_chans_slot(chans, m->gpu, m->channel)];

		if (m->kind == GS_MARK_SUBMIT) {
			pf_put_ev(o, m->t, &(struct pf_ev){
				.track_uuid = pf_uuid(PF_SPANS + GS_TRACK_CHANNEL,
						      m->gpu, m->channel),
				.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
				.name_iid = submit_iid,
				.category_iid = submit_iid,
				.has_flow = true,
				.flow = pf_flow(m->gpu, m->channel, m->serial),
				.n_args = 1,
				.args = { { .name = PF_ARG_CMD,
					    .kind = PF_VALUE_UINT,
					    .u = m->serial } },
			});
			++*d;
		} else if (*d > 0) {
			--*d; /* a command submitted before the cap */
		}
		pf_put_ev(o, m->t, &(struct pf_ev){
			.track_uuid = pf_uuid(PF_QUEUE, m->gpu, m->channel),
			.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
			.counter = PF_COUNTER_INT,
			.counter_int = *d,
		});
	}
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

		put_child_track(o, pf_uuid(PF_SHARE, 0, k), r->tasks[k].gpu, vs,
				rank, &ratio);
		put_child_track(o, pf_uuid(PF_VTIME, 0, k), r->tasks[k].gpu, vv,
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

	put_child_track(o, pf_uuid(PF_NOTE, 0, 0), 0, "gpusim", 0, NULL);
	e.has_track_uuid = true;
	e.track_uuid = pf_uuid(PF_NOTE, 0, 0);
	e.has_type = true;
	e.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
	e.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	e.name = name;
	pf_put_event(o, last, &e);
}

/* The spans a stream took (NULL: none), then those in r->spans, the tail:
 * the tail's facts join the stream's, and a span naming a string out of
 * range is an error, the first one in the order of the spans. The tail
 * gets the results' names as valid UTF-8. */
static gboolean note_spans(const struct gs_results *r,
			   const struct pf_spans *streamed,
			   struct pf_spans *tail, GError **error)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const struct pf_spans *bad;
	guint i;

	for (i = 0; r->names && i < r->names->len; i++)
		g_ptr_array_add(names, g_utf8_make_valid(
			g_ptr_array_index(r->names, i), -1));
	pf_spans_add_names(tail, names);
	tail->n = streamed ? streamed->n : 0;
	if (r->spans)
		pf_spans_note(tail, (const struct gs_span *)r->spans->data,
			      r->spans->len);
	bad = streamed && streamed->bad ? streamed : tail;
	if (bad->bad) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "span %u names string %" PRIu32 "/%" PRIu32
			    " of %u", bad->bad_i, bad->bad_name,
			    bad->bad_cat, tail->names->len);
		return FALSE;
	}
	if (!streamed)
		return TRUE;
	for (i = 0; i < MIN(streamed->cats->len, tail->cats->len); i++)
		tail->cats->data[i] |= streamed->cats->data[i];
	tail->n_gpus = MAX(tail->n_gpus, streamed->n_gpus);
	tail->last_end = MAX(tail->last_end, streamed->last_end);
	return TRUE;
}

gboolean gs_results_fill_pftrace(const struct gs_results *r, FILE *f,
				 GError **error)
{
	struct pf_out o = { .f = f };
	struct pf_chans chans;
	struct pf_spans tail;
	const struct pf_spans *streamed = NULL;
	const GPtrArray *blocks = NULL;
	g_autofree bool *used = NULL;
	uint64_t submit_iid;
	guint i;

	if (r->span_sink)
		streamed = gs_pftrace_stream_finish(r->span_sink, &blocks);
	pf_spans_init(&tail);
	if (!note_spans(r, streamed, &tail, error)) {
		pf_spans_clear(&tail);
		return FALSE;
	}
	/* the interned names: the results' names (iid = index + 1), then
	 * "submit"; only those spans use as categories are interned as
	 * categories */
	g_ptr_array_add(tail.names, g_strdup("submit"));
	submit_iid = tail.names->len;
	used = g_new0(bool, tail.names->len);
	for (i = 0; i < tail.cats->len; i++)
		used[i] = tail.cats->data[i];
	used[submit_iid - 1] = true;
	pf_put_interned(&o, tail.names, used);
	pf_chans_init(&chans, r);
	put_tracks(&o, r, &chans, pf_gpu_count(r, tail.n_gpus));
	put_task_counters(&o, r);
	put_marks(&o, r, &chans, submit_iid);
	pf_chans_clear(&chans);
	pf_put_blocks(&o, blocks);
	if (r->spans)
		pf_spans_put(&o, (const struct gs_span *)r->spans->data,
			     r->spans->len, tail.names);
	if (r->timeline_truncated)
		put_truncated(&o, tail.n, tail.last_end);
	pf_finish(&o);
	pf_spans_clear(&tail);
	return TRUE;
}
