/* TrackEvents of the hot path, and child tracks' descriptors, encoded by
 * hand (see pftrace_out.h).
 *
 * protobuf-c packs a message by walking its descriptor, field by field,
 * with a branch per label and type, and each debug annotation as a
 * message of its own: per event that cost more than the rest of the
 * writer. The events here have a fixed shape, so they are written
 * directly, in the order protobuf-c writes them (ascending field
 * number), with proto2's encodings: repeated scalars unpacked, enums and
 * integers as varints, fixed64 and double as 8 little-endian bytes. */
#include "sim/results/pftrace_out.h"

#include <string.h>

/* Tags (field number << 3 | wire type) of TrackEvent's fields. */
#define EV_TAG_CATEGORY_IID 0x18      /* 3, varint */
#define EV_TAG_DEBUG_ANNOTATION 0x22  /* 4, length-delimited */
#define EV_TAG_TYPE 0x48              /* 9, varint */
#define EV_TAG_NAME_IID 0x50          /* 10, varint */
#define EV_TAG_TRACK_UUID 0x58        /* 11, varint */
#define EV_TAG_COUNTER_VALUE 0xf0     /* 30, varint: two bytes */
#define EV_TAG_DOUBLE_COUNTER 0xe1    /* 44, fixed64: two bytes */
#define EV_TAG_FLOW_ID 0xf9           /* 47, fixed64: two bytes */
/* DebugAnnotation's. */
#define ARG_TAG_NAME_IID 0x08    /* 1, varint */
#define ARG_TAG_BOOL 0x10        /* 2, varint */
#define ARG_TAG_UINT 0x18        /* 3, varint */
#define ARG_TAG_STRING 0x32      /* 6, length-delimited */

/* TrackDescriptor's, and CounterDescriptor's unit. */
#define TRACK_TAG_UUID 0x08         /* 1, varint */
#define TRACK_TAG_NAME 0x12         /* 2, length-delimited */
#define TRACK_TAG_PARENT_UUID 0x28  /* 5, varint */
#define TRACK_TAG_COUNTER 0x42      /* 8, length-delimited */
#define TRACK_TAG_RANK 0x60         /* 12, varint */
#define COUNTER_TAG_UNIT 0x18       /* 3, varint */

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (uint8_t)(v | 0x80);
	*p++ = (uint8_t)v;
	return p;
}

static uint8_t *put_tagged_varint(uint8_t *p, uint8_t tag, uint64_t v)
{
	*p++ = tag;
	return put_varint(p, v);
}

/* A two-byte tag (fields 16 and above) and 8 little-endian bytes. */
static uint8_t *put_fixed64(uint8_t *p, uint8_t tag, uint64_t v)
{
	unsigned i;

	*p++ = tag;
	*p++ = 0x02;
	for (i = 0; i < 8; i++, v >>= 8)
		*p++ = (uint8_t)v;
	return p;
}

/* The packed size of an annotation, without its own tag and length. */
static size_t arg_len(const struct pf_ev_arg *a)
{
	size_t n = 1 + varint_len((uint64_t)a->name) + 1;

	switch (a->kind) {
	case PF_VALUE_UINT:
		return n + varint_len(a->u);
	case PF_VALUE_STRING: {
		size_t s = strlen(a->s);

		return n + varint_len(s) + s;
	}
	case PF_VALUE_BOOL:
	default:
		return n + 1;
	}
}

static uint8_t *put_arg(uint8_t *p, const struct pf_ev_arg *a)
{
	p = put_tagged_varint(p, EV_TAG_DEBUG_ANNOTATION, arg_len(a));
	p = put_tagged_varint(p, ARG_TAG_NAME_IID, (uint64_t)a->name);
	switch (a->kind) {
	case PF_VALUE_UINT:
		return put_tagged_varint(p, ARG_TAG_UINT, a->u);
	case PF_VALUE_STRING: {
		size_t s = strlen(a->s);

		p = put_tagged_varint(p, ARG_TAG_STRING, s);
		memcpy(p, a->s, s);
		return p + s;
	}
	case PF_VALUE_BOOL:
	default:
		return put_tagged_varint(p, ARG_TAG_BOOL, 1);
	}
}

size_t pf_ev_bound(const struct pf_ev *e)
{
	/* every scalar field at its widest (a tag of two bytes and ten of
	 * varint), each annotation at its widest plus its strings */
	size_t b = 8 * 12 + e->n_args * 40;
	unsigned i;

	for (i = 0; i < e->n_args; i++)
		if (e->args[i].kind == PF_VALUE_STRING)
			b += strlen(e->args[i].s);
	return b;
}

size_t pf_ev_pack(const struct pf_ev *e, uint8_t *out)
{
	uint8_t *p = out;
	unsigned i;

	if (e->category_iid)
		p = put_tagged_varint(p, EV_TAG_CATEGORY_IID, e->category_iid);
	for (i = 0; i < e->n_args; i++)
		p = put_arg(p, &e->args[i]);
	p = put_tagged_varint(p, EV_TAG_TYPE, e->type);
	if (e->name_iid)
		p = put_tagged_varint(p, EV_TAG_NAME_IID, e->name_iid);
	p = put_tagged_varint(p, EV_TAG_TRACK_UUID, e->track_uuid);
	if (e->counter == PF_COUNTER_INT) {
		*p++ = EV_TAG_COUNTER_VALUE;
		*p++ = 0x01; /* the tag's second byte */
		p = put_varint(p, (uint64_t)e->counter_int);
	} else if (e->counter == PF_COUNTER_DOUBLE) {
		uint64_t bits;

		memcpy(&bits, &e->counter_double, sizeof(bits));
		p = put_fixed64(p, EV_TAG_DOUBLE_COUNTER, bits);
	}
	if (e->has_flow)
		p = put_fixed64(p, EV_TAG_FLOW_ID, e->flow);
	return (size_t)(p - out);
}

size_t pf_bare_ev_pack(uint8_t *out, uint32_t type, uint64_t track_uuid,
		       const int64_t *counter)
{
	uint8_t *p = out;

	p = put_tagged_varint(p, EV_TAG_TYPE, type);
	p = put_tagged_varint(p, EV_TAG_TRACK_UUID, track_uuid);
	if (counter) {
		*p++ = EV_TAG_COUNTER_VALUE;
		*p++ = 0x01; /* the tag's second byte */
		p = put_varint(p, (uint64_t)*counter);
	}
	return (size_t)(p - out);
}

size_t pf_child_track_bound(const struct pf_child_track *t)
{
	/* five fields of a tag and ten varint bytes, the counter's two
	 * bytes of head and its unit, and the name */
	return 5 * 11 + 2 + 11 + strlen(t->name);
}

size_t pf_child_track_pack(const struct pf_child_track *t, uint8_t *out)
{
	size_t name = strlen(t->name);
	uint8_t *p = out;

	p = put_tagged_varint(p, TRACK_TAG_UUID, t->uuid);
	p = put_tagged_varint(p, TRACK_TAG_NAME, name);
	memcpy(p, t->name, name);
	p += name;
	p = put_tagged_varint(p, TRACK_TAG_PARENT_UUID, t->parent_uuid);
	if (t->counter) {
		/* an empty message when it has no unit */
		p = put_tagged_varint(p, TRACK_TAG_COUNTER,
				      t->has_unit ? 1 + varint_len(t->unit) : 0);
		if (t->has_unit)
			p = put_tagged_varint(p, COUNTER_TAG_UNIT, t->unit);
	}
	/* an int32's varint is its 64-bit sign extension's */
	p = put_tagged_varint(p, TRACK_TAG_RANK, (uint64_t)(int64_t)t->rank);
	return (size_t)(p - out);
}
