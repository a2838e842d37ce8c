/* Writing Perfetto TracePackets (sim/results/perfetto_trace.proto) to a
 * stream, for results_pftrace.c: packing with protobuf-c, the packet
 * framing, interned strings and the track uuids. */
#ifndef GS_PFTRACE_OUT_H
#define GS_PFTRACE_OUT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/results/perfetto_trace.pb-c.h"

typedef Perfetto__Protos__TracePacket pf_packet;
typedef Perfetto__Protos__TrackEvent pf_event;
typedef Perfetto__Protos__TrackDescriptor pf_track;
typedef Perfetto__Protos__DebugAnnotation pf_arg;

struct pf_out {
	FILE *f;
	uint8_t *buf;  /* packets not yet handed to f */
	size_t cap;
	size_t len;
	uint64_t written; /* bytes handed to f so far */
};

/* Kinds of track: the low 4 bits of a uuid. */
enum pf_track_kind {
	PF_GPU = 1,
	PF_SPANS = 2, /* + enum gs_track_kind: 2, 3, 4 */
	PF_SHARE = 5,
	PF_VTIME = 6,
	PF_QUEUE = 7,
	PF_NOTE = 8,
};

/* A track's uuid: the id (engine kind, channel, policy track or task)
 * above the GPU (8 bits) above the kind (4 bits). Small ids give short
 * varints, and every event names its track. */
static inline uint64_t pf_uuid(enum pf_track_kind kind, uint32_t gpu,
			       uint32_t id)
{
	return ((uint64_t)id << 12) | ((uint64_t)(gpu & 0xff) << 4) |
	       (uint64_t)kind;
}

/* Debug annotation names, interned with these iids. */
enum pf_arg_name { PF_ARG_CMD = 1, PF_ARG_TASK, PF_ARG_LENGTH, PF_ARG_OPEN };

/* Interned strings (Perfetto's InternedData) in a packet of their own.
 * The first packet of the file (first) clears the sequence's incremental
 * state and also interns the argument names; later ones add to that state
 * and say they need it. */
struct pf_interned {
	uint64_t iid;
	const char *name;
};
void pf_put_interned(struct pf_out *o, bool first,
		     const struct pf_interned *names, guint n_names,
		     const struct pf_interned *cats, guint n_cats);
/* A packet of its own (descriptors), packed whole by protobuf-c. */
void pf_put_packet(struct pf_out *o, pf_packet *p);
void pf_put_track(struct pf_out *o, pf_track *t);
/* A TrackEvent at time t, which may name interned strings. */
void pf_put_event(struct pf_out *o, uint64_t t, pf_event *e);
/* The events of the hot path (spans, submissions, counters), encoded here
 * field by field without protobuf-c: the same bytes as
 * perfetto__protos__track_event__pack() of the same TrackEvent
 * (tests/test_pftrace_event.c compares them), several times faster. */
enum pf_value_kind { PF_VALUE_UINT, PF_VALUE_STRING, PF_VALUE_BOOL };
struct pf_ev_arg {
	enum pf_arg_name name;
	enum pf_value_kind kind;
	uint64_t u;     /* PF_VALUE_UINT */
	const char *s;  /* PF_VALUE_STRING: valid UTF-8 */
};
enum pf_counter_kind { PF_COUNTER_NONE, PF_COUNTER_INT, PF_COUNTER_DOUBLE };
#define PF_EV_MAX_ARGS 4
struct pf_ev {
	uint64_t track_uuid;
	uint32_t type;          /* PERFETTO__PROTOS__TRACK_EVENT__TYPE__* */
	uint64_t name_iid;      /* 0: none */
	uint64_t category_iid;  /* 0: none */
	bool has_flow;
	uint64_t flow;
	enum pf_counter_kind counter;
	int64_t counter_int;
	double counter_double;
	unsigned n_args;
	struct pf_ev_arg args[PF_EV_MAX_ARGS];
};
/* Packs e into out, which has room for pf_ev_bound(e); returns the size. */
size_t pf_ev_pack(const struct pf_ev *e, uint8_t *out);
size_t pf_ev_bound(const struct pf_ev *e);
/* pf_put_event() of the TrackEvent e describes. */
void pf_put_ev(struct pf_out *o, uint64_t t, const struct pf_ev *e);
/* The most bytes pf_bare_ev_pack() packs: three tags of up to two
 * bytes and three varints of up to ten. */
#define PF_BARE_EV_MAX 36
/* The bytes pf_ev_pack() gives a TrackEvent with only its type and
 * track, and an integer counter's value when counter is not NULL: a
 * slice's end and a channel's queue depth, over half the events of a
 * run, packed without building a struct pf_ev each. Returns the size. */
size_t pf_bare_ev_pack(uint8_t *out, uint32_t type, uint64_t track_uuid,
		       const int64_t *counter);
/* pf_put_ev() of such an event: a slice's end on track_uuid, and an
 * integer counter's value. */
void pf_put_slice_end(struct pf_out *o, uint64_t t, uint64_t track_uuid);
void pf_put_counter(struct pf_out *o, uint64_t t, uint64_t track_uuid,
		    int64_t value);
/* A child track's descriptor (a channel's, its queue counter's, a
 * task's counters: two per channel at 65,536 channels), also encoded by
 * hand: the bytes of perfetto__protos__track_descriptor__pack() of the
 * TrackDescriptor with uuid, name, parent_uuid, counter (when counter:
 * its unit when has_unit) and sibling_order_rank set, in a packet with
 * the sequence id as pf_put_track() writes it (tests/test_pftrace_event.c
 * compares them). */
struct pf_child_track {
	uint64_t uuid, parent_uuid;
	const char *name;  /* valid UTF-8 */
	int32_t rank;
	bool counter;      /* a counter track */
	bool has_unit;     /* its unit, when counter */
	uint32_t unit;     /* PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__* */
};
/* Packs t's TrackDescriptor into out, which has room for
 * pf_child_track_bound(t); returns the size. */
size_t pf_child_track_pack(const struct pf_child_track *t, uint8_t *out);
size_t pf_child_track_bound(const struct pf_child_track *t);
void pf_put_child(struct pf_out *o, const struct pf_child_track *t);
/* Hands the packets still held to the stream and frees the buffer. */
void pf_finish(struct pf_out *o);

void pf_arg_uint(pf_arg *a, enum pf_arg_name name, uint64_t v);
void pf_arg_string(pf_arg *a, enum pf_arg_name name, const char *v);
void pf_arg_bool(pf_arg *a, enum pf_arg_name name);

#endif
