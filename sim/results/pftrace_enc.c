/* See pftrace_enc.h. */
#include "sim/results/pftrace_enc.h"

#include <string.h>

#include "sim/results/decimal_digits.h"

/* Bits of pf_enc.interned. */
#define PF_INTERNED_NAME 1u
#define PF_INTERNED_CAT 2u

/* A track's state: its descriptor written, and for a channel its queue
 * counter's and its queue depth. */
#define PF_SLOT_TRACK 1u
#define PF_SLOT_QUEUE 2u
struct pf_slot {
	int32_t depth; /* at most a ring's entries */
	uint8_t flags;
};

/* The tracks of one GPU by kind (enum gs_track_kind) and id, in arrays
 * indexed by id: a span or a mark looks its track up, millions of times,
 * and the ids are dense (engine kinds, channel ids, policy instances). */
#define PF_SPAN_KINDS 3
struct pf_enc_gpu {
	GArray *slots[PF_SPAN_KINDS];
};

/* Unique for up to 256 GPUs, 2^20 channels a GPU and 2^36 commands a
 * channel. */
uint64_t pf_flow(uint32_t gpu, uint32_t channel, uint64_t serial)
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

void pf_put_child_track(struct pf_out *o, uint64_t uuid, uint32_t gpu,
			const char *name, int32_t rank,
			const Perfetto__Protos__CounterDescriptor *counter)
{
	g_assert(!counter || !counter->unit_name);
	pf_put_child(o, &(struct pf_child_track){
		.uuid = uuid,
		.parent_uuid = pf_uuid(PF_GPU, gpu, 0),
		.name = name,
		.rank = rank,
		.counter = counter != NULL,
		.has_unit = counter && counter->has_unit,
		.unit = counter ? (uint32_t)counter->unit : 0,
	});
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

static void free_gpu(gpointer p)
{
	struct pf_enc_gpu *g = p;
	unsigned k;

	for (k = 0; k < PF_SPAN_KINDS; k++)
		g_array_unref(g->slots[k]);
	g_free(g);
}

void pf_enc_init(struct pf_enc *e, FILE *f)
{
	static const struct pf_interned submit = { PF_SUBMIT_IID, "submit" };

	*e = (struct pf_enc){
		.out = { .f = f },
		.interned = g_byte_array_new(),
		.labels = g_hash_table_new_full(g_int64_hash, g_int64_equal,
						g_free, g_free),
		.gpus = g_ptr_array_new_with_free_func(free_gpu),
		.label = g_string_sized_new(64),
	};
	pf_put_interned(&e->out, true, &submit, 1, &submit, 1);
}

void pf_enc_clear(struct pf_enc *e)
{
	pf_finish(&e->out);
	gs_strtab_clear(&e->names);
	g_byte_array_unref(e->interned);
	g_hash_table_unref(e->labels);
	g_ptr_array_unref(e->gpus);
	g_string_free(e->label, TRUE);
	*e = (struct pf_enc){ 0 };
}

void pf_enc_add_name(struct pf_enc *e, const char *name)
{
	if (g_utf8_validate(name, -1, NULL)) {
		gs_strtab_append(&e->names, name);
	} else {
		g_autofree char *valid = g_utf8_make_valid(name, -1);

		gs_strtab_append(&e->names, valid);
	}
	g_byte_array_append(e->interned, (const guint8[]){ 0 }, 1);
}

void pf_enc_add_track(struct pf_enc *e, const struct gs_track *t,
		      char *label)
{
	uint64_t *key;

	if (t->track_kind == GS_TRACK_CHANNEL) { /* see pftrace_enc.h */
		g_free(label);
		return;
	}
	key = g_new(uint64_t, 1);
	*key = pf_uuid(PF_SPANS + t->track_kind, t->gpu, t->track);
	g_hash_table_replace(e->labels, key, label); /* the last one wins */
}

uint32_t pf_enc_n_gpus(const struct pf_enc *e)
{
	return e->gpus->len;
}

static struct pf_enc_gpu *gpu_state(struct pf_enc *e, uint32_t gpu)
{
	struct pf_enc_gpu *g;
	unsigned k;

	if (gpu < e->gpus->len && e->gpus->pdata[gpu])
		return e->gpus->pdata[gpu];
	if (gpu >= e->gpus->len)
		g_ptr_array_set_size(e->gpus, (gint)gpu + 1);
	g = g_new(struct pf_enc_gpu, 1);
	for (k = 0; k < PF_SPAN_KINDS; k++)
		g->slots[k] = g_array_new(FALSE, TRUE, sizeof(struct pf_slot));
	e->gpus->pdata[gpu] = g;
	put_gpu_track(&e->out, gpu);
	return g;
}

void pf_enc_gpu(struct pf_enc *e, uint32_t gpu)
{
	gpu_state(e, gpu);
}

static struct pf_slot *slot(struct pf_enc *e, uint32_t gpu, uint8_t kind,
			    uint32_t id)
{
	GArray *a = gpu_state(e, gpu)->slots[MIN(kind, PF_SPAN_KINDS - 1)];

	if (id >= a->len)
		g_array_set_size(a, id + 1); /* zeroed */
	return &g_array_index(a, struct pf_slot, id);
}

/* prefix, then channel id's label as the recorder's (gs_track_label):
 * "ch<id> <task>", in e->label. Two per channel (its track and its
 * queue's), where a printf each was a tenth of the encoder's time at
 * 65,536 channels, and GString's appends, each measuring its string and
 * checking its room, still a twentieth: the pieces are copied into room
 * made once. */
static const char *channel_label(struct pf_enc *e, const char *prefix,
				 uint32_t id, const char *task)
{
	size_t n_prefix = strlen(prefix), n_task = strlen(task);
	char *p;

	g_string_set_size(e->label,
			  n_prefix + 2 + GS_U64_DIGITS + 1 + n_task);
	p = e->label->str;
	memcpy(p, prefix, n_prefix);
	p += n_prefix;
	memcpy(p, "ch", 2);
	p = gs_put_u64(p + 2, id);
	*p++ = ' ';
	memcpy(p, task, n_task);
	p += n_task;
	g_string_set_size(e->label, (gsize)(p - e->label->str));
	return e->label->str;
}

static void describe(struct pf_enc *e, struct pf_slot *s, uint32_t gpu,
		     uint8_t kind, uint32_t id, const char *label)
{
	s->flags |= PF_SLOT_TRACK;
	pf_put_child_track(&e->out, pf_uuid(PF_SPANS + kind, gpu, id), gpu,
			   label, sort_rank(kind, id), NULL);
}

bool pf_enc_track_described(struct pf_enc *e, uint32_t gpu, uint8_t kind,
			    uint32_t id)
{
	return slot(e, gpu, kind, id)->flags & PF_SLOT_TRACK;
}

void pf_enc_span_track(struct pf_enc *e, uint32_t gpu, uint8_t kind,
		       uint32_t id, const char *fallback)
{
	struct pf_slot *s = slot(e, gpu, kind, id);
	uint64_t uuid = pf_uuid(PF_SPANS + kind, gpu, id);
	const char *label;

	if (s->flags & PF_SLOT_TRACK)
		return;
	label = g_hash_table_lookup(e->labels, &uuid);
	describe(e, s, gpu, kind, id, label ? label : fallback);
}

/* Interns what the chunk's spans name that is not yet interned (in
 * order of first use), and notes their facts; false at a span naming a
 * string out of range (kept in bad_*). */
static bool intern_spans(struct pf_enc *e, const struct gs_span *sp, guint n)
{
	g_autoptr(GArray) names =
		g_array_new(FALSE, FALSE, sizeof(struct pf_interned));
	g_autoptr(GArray) cats =
		g_array_new(FALSE, FALSE, sizeof(struct pf_interned));
	guint i, spans = 0;

	for (i = 0; i < n && !e->bad; spans += gs_span_count(&sp[i]), i++) {
		uint8_t *name_bits, *cat_bits;

		if (sp[i].name >= e->names.n ||
		    sp[i].category >= e->names.n) {
			e->bad = true;
			e->bad_i = e->n_spans + spans;
			e->bad_name = sp[i].name;
			e->bad_cat = sp[i].category;
			break;
		}
		name_bits = &e->interned->data[sp[i].name];
		if (!(*name_bits & PF_INTERNED_NAME)) {
			*name_bits |= PF_INTERNED_NAME;
			g_array_append_val(names, ((struct pf_interned){
				(uint64_t)sp[i].name + 2,
				gs_strtab_get(&e->names, sp[i].name) }));
		}
		cat_bits = &e->interned->data[sp[i].category];
		if (!(*cat_bits & PF_INTERNED_CAT)) {
			*cat_bits |= PF_INTERNED_CAT;
			g_array_append_val(cats, ((struct pf_interned){
				(uint64_t)sp[i].category + 2,
				gs_strtab_get(&e->names, sp[i].category) }));
		}
		e->last_end = MAX(e->last_end, sp[i].end);
	}
	for (; i < n; i++) /* past a bad one: counted all the same */
		spans += gs_span_count(&sp[i]);
	e->n_spans += spans;
	if (names->len || cats->len)
		pf_put_interned(&e->out, false,
				(const struct pf_interned *)names->data,
				names->len,
				(const struct pf_interned *)cats->data,
				cats->len);
	return !e->bad;
}

/* A span as a slice. The arguments of a command go on its engine slice
 * only (its channel slice is the same command at the same time), and so
 * does the arrow from its submission. */
static void put_span(struct pf_enc *e, const struct gs_span *s)
{
	struct pf_ev ev = {
		.track_uuid = pf_uuid(PF_SPANS + s->track_kind, s->gpu,
				      s->track),
		.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
		.name_iid = (uint64_t)s->name + 2,
		.category_iid = (uint64_t)s->category + 2,
	};

	if (s->track_kind == GS_TRACK_CHANNEL) {
		struct pf_slot *sl = slot(e, s->gpu, s->track_kind, s->track);

		if (!(sl->flags & PF_SLOT_TRACK))
			describe(e, sl, s->gpu, s->track_kind, s->track,
				 channel_label(e, "", s->track,
					       gs_strtab_get(&e->names,
							     s->name)));
	} else {
		pf_enc_span_track(e, s->gpu, s->track_kind, s->track, "");
	}
	if (s->cmd && s->track_kind == GS_TRACK_ENGINE) {
		ev.args[ev.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_CMD, .kind = PF_VALUE_UINT, .u = s->cmd };
		ev.args[ev.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_TASK, .kind = PF_VALUE_STRING,
			.s = gs_strtab_get(&e->names, s->name) };
		ev.args[ev.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_LENGTH, .kind = PF_VALUE_UINT,
			.u = s->cmd_len };
		ev.has_flow = true;
		ev.flow = pf_flow(s->gpu, s->channel, s->cmd);
	}
	if (s->open) /* cut at the run's end */
		ev.args[ev.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_OPEN, .kind = PF_VALUE_BOOL };
	pf_put_ev(&e->out, s->start, &ev);
	pf_put_slice_end(&e->out, s->end, ev.track_uuid);
	if (s->on_channel) {
		struct gs_span c = gs_span_channel_copy(s);

		put_span(e, &c);
	}
}

void pf_enc_spans(struct pf_enc *e, const struct gs_span *sp, guint n)
{
	guint i;

	if (!intern_spans(e, sp, n))
		return;
	for (i = 0; i < n; i++)
		put_span(e, &sp[i]);
}

/* A channel's tracks at its first mark: its span track (if no span
 * described it yet) and its queue counter, labelled from the mark's task
 * as the recorder labels the channel's track ("ch3 dct"), whether or not
 * that track is registered yet, so that the label does not depend on
 * when the chunk was encoded. */
static void describe_channel(struct pf_enc *e, struct pf_slot *s,
			     const struct gs_cmd_mark *m)
{
	Perfetto__Protos__CounterDescriptor count =
		PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	const char *task = m->task_name < e->names.n
				   ? gs_strtab_get(&e->names, m->task_name)
				   : "?";

	if (!(s->flags & PF_SLOT_TRACK))
		describe(e, s, m->gpu, GS_TRACK_CHANNEL, m->channel,
			 channel_label(e, "", m->channel, task));
	count.has_unit = true;
	count.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
	pf_put_child_track(&e->out, pf_uuid(PF_QUEUE, m->gpu, m->channel),
			   m->gpu, channel_label(e, "queue ", m->channel, task),
			   sort_rank(GS_TRACK_CHANNEL, m->channel), &count);
	s->flags |= PF_SLOT_QUEUE;
}

/* Submissions (an instant with the flow's first end) and the queue depth
 * of each channel after every mark. */
void pf_enc_marks(struct pf_enc *e, const struct gs_cmd_mark *marks,
		  guint n)
{
	guint i;

	for (i = 0; i < n; i++) {
		const struct gs_cmd_mark *m = &marks[i];
		struct pf_slot *s = slot(e, m->gpu, GS_TRACK_CHANNEL,
					 m->channel);

		if (!(s->flags & PF_SLOT_QUEUE))
			describe_channel(e, s, m);
		if (m->kind == GS_MARK_SUBMIT) {
			pf_put_ev(&e->out, m->t, &(struct pf_ev){
				.track_uuid = pf_uuid(PF_SPANS + GS_TRACK_CHANNEL,
						      m->gpu, m->channel),
				.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
				.name_iid = PF_SUBMIT_IID,
				.category_iid = PF_SUBMIT_IID,
				.has_flow = true,
				.flow = pf_flow(m->gpu, m->channel, m->serial),
				.n_args = 1,
				.args = { { .name = PF_ARG_CMD,
					    .kind = PF_VALUE_UINT,
					    .u = m->serial } },
			});
			s->depth++;
		} else if (s->depth > 0) {
			s->depth--; /* a command submitted before the cap */
		}
		pf_put_counter(&e->out, m->t,
			       pf_uuid(PF_QUEUE, m->gpu, m->channel), s->depth);
	}
}
