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
#include <string.h>

#include "sim/results/pftrace_chans.h"
#include "sim/results/pftrace_out.h"
#include "sim/results/results_priv.h"

/* Tasks whose share and virtual time get counter tracks. */
#define GS_PFTRACE_MAX_TASK_COUNTERS 256u

/* A command's flow id, unique for up to 256 GPUs, 2^20 channels a GPU and
 * 2^36 commands a channel. */
static uint64_t pf_flow(uint32_t gpu, uint32_t channel, uint64_t serial)
{
	return ((uint64_t)(gpu & 0xff) << 56) |
	       ((uint64_t)(channel & 0xfffff) << 36) |
	       (serial & 0xfffffffffULL);
}

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

/* The interned event names: the results' names as valid UTF-8
 * (protobuf strings must be), iid = index + 1, then "submit". */
static GPtrArray *interned_names(const struct gs_results *r,
				 uint64_t *submit_iid)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	guint i;

	for (i = 0; r->names && i < r->names->len; i++) {
		const char *s = g_ptr_array_index(r->names, i);

		g_ptr_array_add(out, g_utf8_make_valid(s, -1));
	}
	g_ptr_array_add(out, g_strdup("submit"));
	*submit_iid = out->len;
	return out;
}

/* A span as a slice. The arguments of a command go on its engine slice
 * only (its channel slice is the same command at the same time), and so
 * does the arrow from its submission. */
static void put_span(struct pf_out *o, const struct gs_span *s,
		     GPtrArray *names)
{
	struct pf_ev e = {
		.track_uuid = pf_uuid(PF_SPANS + s->track_kind, s->gpu,
				      s->track),
		.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
		.name_iid = (uint64_t)s->name + 1,
		.category_iid = (uint64_t)s->category + 1,
	};

	if (s->cmd && s->track_kind == GS_TRACK_ENGINE) {
		e.args[e.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_CMD, .kind = PF_VALUE_UINT, .u = s->cmd };
		e.args[e.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_TASK, .kind = PF_VALUE_STRING,
			.s = g_ptr_array_index(names, s->name) };
		e.args[e.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_LENGTH, .kind = PF_VALUE_UINT,
			.u = s->cmd_len };
		e.has_flow = true;
		e.flow = pf_flow(s->gpu, s->channel, s->cmd);
	}
	if (s->open) /* cut at the run's end */
		e.args[e.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_OPEN, .kind = PF_VALUE_BOOL };
	pf_put_ev(o, s->start, &e);
	pf_put_ev(o, s->end, &(struct pf_ev){
		.track_uuid = e.track_uuid,
		.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END });
}

/* GPUs named by n_gpus, and any GPU a track, span or mark mentions. */
static uint32_t pf_gpu_count(const struct gs_results *r)
{
	uint32_t n = MAX(r->n_gpus, 1);
	guint i;

	for (i = 0; r->tracks && i < r->tracks->len; i++)
		n = MAX(n, g_array_index(r->tracks, struct gs_track, i).gpu + 1);
	for (i = 0; r->spans && i < r->spans->len; i++)
		n = MAX(n, g_array_index(r->spans, struct gs_span, i).gpu + 1);
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
		       const struct pf_chans *chans)
{
	Perfetto__Protos__CounterDescriptor count =
		PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	g_autofree const char **labels =
		g_new0(const char *, MAX(chans->n_slots, 1));
	uint32_t gpu, n_gpus = pf_gpu_count(r);
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

/* As timeline.json does: an instant saying where the record stops. */
static void put_truncated(struct pf_out *o, const struct gs_results *r)
{
	pf_event e = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	guint n = r->spans ? r->spans->len : 0, i;
	g_autofree char *name = g_strdup_printf("timeline truncated at %u "
						"spans", n);
	gs_time_t last = 0;

	for (i = 0; i < n; i++)
		last = MAX(last, g_array_index(r->spans, struct gs_span, i).end);
	put_child_track(o, pf_uuid(PF_NOTE, 0, 0), 0, "gpusim", 0, NULL);
	e.has_track_uuid = true;
	e.track_uuid = pf_uuid(PF_NOTE, 0, 0);
	e.has_type = true;
	e.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
	e.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
	e.name = name;
	pf_put_event(o, last, &e);
}

gboolean gs_results_fill_pftrace(const struct gs_results *r, FILE *f,
				 GError **error)
{
	struct pf_out o = { .f = f };
	struct pf_chans chans;
	g_autoptr(GPtrArray) names = NULL;
	g_autofree bool *used = NULL;
	uint64_t submit_iid;
	guint i;

	if (!gs_results_check_spans(r, error))
		return FALSE;
	names = interned_names(r, &submit_iid);
	/* only the names spans use as categories are interned as such */
	used = g_new0(bool, names->len);
	for (i = 0; r->spans && i < r->spans->len; i++)
		used[g_array_index(r->spans, struct gs_span, i).category] = true;
	used[submit_iid - 1] = true;
	pf_put_interned(&o, names, used);
	pf_chans_init(&chans, r);
	put_tracks(&o, r, &chans);
	put_task_counters(&o, r);
	put_marks(&o, r, &chans, submit_iid);
	pf_chans_clear(&chans);
	for (i = 0; r->spans && i < r->spans->len; i++)
		put_span(&o, &g_array_index(r->spans, struct gs_span, i), names);
	if (r->timeline_truncated)
		put_truncated(&o, r);
	pf_finish(&o);
	return TRUE;
}
