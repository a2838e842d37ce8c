/* TracePackets out (see pftrace_out.h). A trace file is a Trace message
 * whose only field is the repeated packet (field 1): each packet is that
 * field's tag, its length and the packed TracePacket, so the file is
 * streamed, never built whole.
 *
 * All packets are on one sequence (trusted_packet_sequence_id 1). The
 * first clears its incremental state and interns the fixed strings;
 * later packets intern names as they are first used, and the events say
 * they need that state, as Perfetto's own writers do. An event's
 * packet is framed here around a TrackEvent that protobuf-c or
 * pftrace_event.c packs: the frame is three scalar fields, and packing
 * it through protobuf-c as well measured a third of the writer's time.
 * A short event, as nearly all are, is packed straight behind its frame
 * (pf_put_ev); a longer one, and a child track's descriptor, behind room
 * for the widest frame, then moved down to follow its own. Packets are
 * gathered in a buffer and written in blocks of 64 KiB. */
#include "sim/results/pftrace_out.h"

#include <string.h>

#define PF_SEQUENCE_ID 1u

/* Field tags of TracePacket: field number << 3 | wire type. */
#define PF_TAG_PACKET 0x0a      /* Trace.packet = 1, length-delimited */
#define PF_TAG_TIMESTAMP 0x40   /* timestamp = 8, varint */
#define PF_TAG_SEQUENCE_ID 0x50 /* trusted_packet_sequence_id = 10 */
#define PF_TAG_TRACK_EVENT 0x5a /* track_event = 11, length-delimited */
#define PF_TAG_FLAGS 0x68       /* sequence_flags = 13, varint */
/* track_descriptor = 60, length-delimited: a tag of two bytes */
#define PF_TAG_TRACK_DESCRIPTOR_0 0xe2
#define PF_TAG_TRACK_DESCRIPTOR_1 0x03
/* Every event's sequence_flags: it reads the interned strings. */
#define PF_EVENT_FLAGS \
	PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	for (; v >= 0x80; v >>= 7)
		p[n++] = (uint8_t)(v | 0x80);
	p[n++] = (uint8_t)v;
	return n;
}

/* Packets are gathered in o->buf and handed to the stream in blocks. */
#define PF_FLUSH_AT (64 * 1024)
/* The most a packet's framing takes: Trace's tag and length, then the
 * timestamp, sequence id, flags and track_event's tag and length. */
#define PF_HEAD_MAX 40

static void flush(struct pf_out *o)
{
	if (o->len)
		fwrite(o->buf, 1, o->len, o->f);
	o->written += o->len;
	o->len = 0;
}

/* Room for n more bytes at o->buf + o->len. */
static void reserve(struct pf_out *o, size_t n)
{
	if (o->cap - o->len >= n)
		return;
	flush(o);
	if (o->cap < n) {
		o->cap = MAX(n, PF_FLUSH_AT + 16 * 1024);
		o->buf = g_realloc(o->buf, o->cap);
	}
}

void pf_finish(struct pf_out *o)
{
	flush(o);
	g_clear_pointer(&o->buf, g_free);
	o->cap = 0;
}

void pf_put_packet(struct pf_out *o, pf_packet *p)
{
	size_t n, h = 0;
	uint8_t *at;

	p->optional_trusted_packet_sequence_id_case =
		PERFETTO__PROTOS__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
	p->trusted_packet_sequence_id = PF_SEQUENCE_ID;
	n = perfetto__protos__trace_packet__get_packed_size(p);
	reserve(o, 1 + 10 + n);
	at = o->buf + o->len;
	at[h++] = PF_TAG_PACKET;
	h += put_varint(at + h, n);
	perfetto__protos__trace_packet__pack(p, at + h);
	o->len += h + n;
	if (o->len >= PF_FLUSH_AT)
		flush(o);
}

/* At least the packed size of e, from its fields' widest encodings, so
 * that it can be packed without a sizing pass over it first (which took
 * as long as the packing). */
static size_t event_bound(const pf_event *e)
{
	size_t b = 96 + 12 * (e->n_flow_ids + e->n_terminating_flow_ids +
			      e->n_category_iids);
	size_t i;

	if (e->name_field_case == PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME)
		b += strlen(e->name) + 12;
	for (i = 0; i < e->n_categories; i++)
		b += strlen(e->categories[i]) + 12;
	for (i = 0; i < e->n_debug_annotations; i++) {
		const pf_arg *a = e->debug_annotations[i];

		b += 48;
		if (a->name_field_case ==
		    PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME)
			b += strlen(a->name) + 12;
		if (a->value_case ==
		    PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE)
			b += strlen(a->string_value) + 12;
	}
	return b;
}

void pf_put_track(struct pf_out *o, pf_track *t)
{
	pf_packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;

	p.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	p.track_descriptor = t;
	pf_put_packet(o, &p);
}

/* The message of n bytes packed at o->buf + o->len + PF_HEAD_MAX gets
 * its packet's framing, written once its length is known: the packet's
 * tag and length, then head (body bytes: the packet's fields before the
 * message, and the message's own tag and length); the message then
 * moves down to follow it. */
static void frame_packet(struct pf_out *o, const uint8_t *head, size_t body,
			 size_t n)
{
	uint8_t *at = o->buf + o->len + PF_HEAD_MAX;
	size_t h = 0;

	o->buf[o->len + h++] = PF_TAG_PACKET;
	h += put_varint(o->buf + o->len + h, body + n);
	memcpy(o->buf + o->len + h, head, body);
	h += body;
	g_assert(h <= PF_HEAD_MAX);
	memmove(o->buf + o->len + h, at, n);
	o->len += h + n;
	if (o->len >= PF_FLUSH_AT)
		flush(o);
}

/* Below this a length, or a varint, is one byte. */
#define PF_ONE_BYTE 0x80

/* An event packet's fields before its TrackEvent's length, at p: the
 * timestamp, the sequence and its flags (one varint byte each), the
 * TrackEvent's tag. Returns their size. */
static size_t put_event_fields(uint8_t *p, uint64_t t)
{
	static const uint8_t sequence_and_flags[] = {
		PF_TAG_SEQUENCE_ID, PF_SEQUENCE_ID, PF_TAG_FLAGS, PF_EVENT_FLAGS,
	};
	size_t n;

	G_STATIC_ASSERT(PF_SEQUENCE_ID < PF_ONE_BYTE &&
			PF_EVENT_FLAGS < PF_ONE_BYTE);
	p[0] = PF_TAG_TIMESTAMP;
	n = 1 + put_varint(p + 1, t);
	memcpy(p + n, sequence_and_flags, sizeof(sequence_and_flags));
	n += sizeof(sequence_and_flags);
	p[n++] = PF_TAG_TRACK_EVENT;
	return n;
}

/* An event's packet: its timestamp, the sequence and its flags, then
 * the TrackEvent. */
static void frame_event(struct pf_out *o, uint64_t t, size_t n)
{
	uint8_t head[PF_HEAD_MAX];
	size_t body = put_event_fields(head, t);

	body += put_varint(head + body, n);
	frame_packet(o, head, body, n);
}

void pf_put_event(struct pf_out *o, uint64_t t, pf_event *e)
{
	size_t bound = event_bound(e), n;

	reserve(o, PF_HEAD_MAX + bound);
	n = perfetto__protos__track_event__pack(
		e, o->buf + o->len + PF_HEAD_MAX);
	g_assert(n <= bound);
	frame_event(o, t, n);
}

/* As pf_put_packet() packs a TracePacket holding t and the sequence id:
 * the id (field 10), then the descriptor (field 60). */
void pf_put_child(struct pf_out *o, const struct pf_child_track *t)
{
	uint8_t head[PF_HEAD_MAX];
	size_t n, body = 0;

	reserve(o, PF_HEAD_MAX + pf_child_track_bound(t));
	n = pf_child_track_pack(t, o->buf + o->len + PF_HEAD_MAX);
	head[body++] = PF_TAG_SEQUENCE_ID;
	body += put_varint(head + body, PF_SEQUENCE_ID);
	head[body++] = PF_TAG_TRACK_DESCRIPTOR_0;
	head[body++] = PF_TAG_TRACK_DESCRIPTOR_1;
	body += put_varint(head + body, n);
	frame_packet(o, head, body, n);
}

/* An event's frame at at, in front of its TrackEvent, for a TrackEvent
 * and packet each under 128 bytes (one byte of length each, filled in
 * by short_frame_end()): the packet's tag, then put_event_fields().
 * Returns the frame's size. */
static size_t short_frame_begin(uint8_t *at, uint64_t t)
{
	at[0] = PF_TAG_PACKET; /* at[1]: the packet's length */
	/* and after the fields, the event's length */
	return 2 + put_event_fields(at + 2, t) + 1;
}

/* The lengths of the short frame of h bytes at o->buf + o->len, around
 * the TrackEvent of n bytes behind it, and the packet taken. */
static void short_frame_end(struct pf_out *o, size_t h, size_t n)
{
	uint8_t *at = o->buf + o->len;

	at[1] = (uint8_t)(h - 2 + n);
	at[h - 1] = (uint8_t)n;
	o->len += h + n;
	if (o->len >= PF_FLUSH_AT)
		flush(o);
}

/* Packed behind its frame, which is written in place around it while
 * the TrackEvent and the packet are each under 128 bytes: every span,
 * submission and queue depth of a run (a span with its command's
 * arguments is some 40 bytes and its task's name). A longer one is
 * moved to where frame_event() frames it. Moving every event behind a
 * frame built apart, field by field, was a third of the encoder's
 * instructions at 65,536 channels. */
void pf_put_ev(struct pf_out *o, uint64_t t, const struct pf_ev *e)
{
	size_t bound = pf_ev_bound(e), h, n;
	uint8_t *at;

	reserve(o, PF_HEAD_MAX + bound);
	at = o->buf + o->len;
	h = short_frame_begin(at, t);
	n = pf_ev_pack(e, at + h);
	g_assert(n <= bound);
	if (n >= PF_ONE_BYTE || h - 2 + n >= PF_ONE_BYTE) {
		memmove(at + PF_HEAD_MAX, at + h, n);
		frame_event(o, t, n);
		return;
	}
	short_frame_end(o, h, n);
}

/* A bare event is always short: a frame of at most 19 bytes (a
 * timestamp of ten varint bytes) and a TrackEvent of PF_BARE_EV_MAX. */
static void put_bare_ev(struct pf_out *o, uint64_t t, uint32_t type,
			uint64_t track_uuid, const int64_t *counter)
{
	size_t h;

	G_STATIC_ASSERT(PF_BARE_EV_MAX < PF_ONE_BYTE - 20);
	reserve(o, PF_HEAD_MAX + PF_BARE_EV_MAX);
	h = short_frame_begin(o->buf + o->len, t);
	short_frame_end(o, h,
			pf_bare_ev_pack(o->buf + o->len + h, type, track_uuid,
					counter));
}

void pf_put_slice_end(struct pf_out *o, uint64_t t, uint64_t track_uuid)
{
	put_bare_ev(o, t, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END,
		    track_uuid, NULL);
}

void pf_put_counter(struct pf_out *o, uint64_t t, uint64_t track_uuid,
		    int64_t value)
{
	put_bare_ev(o, t, PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
		    track_uuid, &value);
}

static const char *const arg_names[] = {
	[PF_ARG_CMD] = "cmd",
	[PF_ARG_TASK] = "task",
	[PF_ARG_LENGTH] = "length_ns",
	[PF_ARG_OPEN] = "open",
};

void pf_put_interned(struct pf_out *o, bool first,
		     const struct pf_interned *names, guint n_names,
		     const struct pf_interned *cats, guint n_cats)
{
	pf_packet p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__InternedData in = PERFETTO__PROTOS__INTERNED_DATA__INIT;
	g_autofree Perfetto__Protos__EventName *ev =
		g_new0(Perfetto__Protos__EventName, MAX(n_names, 1));
	g_autofree Perfetto__Protos__EventName **evp =
		g_new0(Perfetto__Protos__EventName *, MAX(n_names, 1));
	g_autofree Perfetto__Protos__EventCategory *cat =
		g_new0(Perfetto__Protos__EventCategory, MAX(n_cats, 1));
	g_autofree Perfetto__Protos__EventCategory **catp =
		g_new0(Perfetto__Protos__EventCategory *, MAX(n_cats, 1));
	Perfetto__Protos__DebugAnnotationName an[G_N_ELEMENTS(arg_names)];
	Perfetto__Protos__DebugAnnotationName *anp[G_N_ELEMENTS(arg_names)];
	guint i;

	for (i = 0; i < n_names; i++) {
		perfetto__protos__event_name__init(&ev[i]);
		ev[i].has_iid = true;
		ev[i].iid = names[i].iid;
		ev[i].name = (char *)names[i].name;
		evp[i] = &ev[i];
	}
	for (i = 0; i < n_cats; i++) {
		perfetto__protos__event_category__init(&cat[i]);
		cat[i].has_iid = true;
		cat[i].iid = cats[i].iid;
		cat[i].name = (char *)cats[i].name;
		catp[i] = &cat[i];
	}
	for (i = 1; first && i < G_N_ELEMENTS(arg_names); i++) {
		perfetto__protos__debug_annotation_name__init(&an[i]);
		an[i].has_iid = true;
		an[i].iid = i;
		an[i].name = (char *)arg_names[i];
		anp[i - 1] = &an[i];
	}
	in.n_event_names = n_names;
	in.event_names = evp;
	in.n_event_categories = n_cats;
	in.event_categories = catp;
	if (first) {
		in.n_debug_annotation_names = G_N_ELEMENTS(arg_names) - 1;
		in.debug_annotation_names = anp;
	}
	p.interned_data = &in;
	p.has_sequence_flags = true;
	p.sequence_flags =
		first ? PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED
		      : PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	pf_put_packet(o, &p);
}

static void arg_init(pf_arg *a, enum pf_arg_name name)
{
	perfetto__protos__debug_annotation__init(a);
	a->name_field_case =
		PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
	a->name_iid = name;
}

void pf_arg_uint(pf_arg *a, enum pf_arg_name name, uint64_t v)
{
	arg_init(a, name);
	a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
	a->uint_value = v;
}

void pf_arg_string(pf_arg *a, enum pf_arg_name name, const char *v)
{
	arg_init(a, name);
	a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	a->string_value = (char *)v;
}

void pf_arg_bool(pf_arg *a, enum pf_arg_name name)
{
	arg_init(a, name);
	a->value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_BOOL_VALUE;
	a->bool_value = true;
}
