/* The hand encoder of timeline.pftrace's hot events (pf_ev_pack,
 * sim/results/pftrace_event.c) against protobuf-c: the same TrackEvent
 * packed both ways must give the same bytes, and pf_ev_bound() must hold
 * them. Cases cover each field, multi-byte varints and tags, negative
 * counters and strings longer than one length byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/results/pftrace_out.h"

/* The protobuf-c message pf_ev_pack claims to encode. */
static size_t pack_reference(const struct pf_ev *e, uint8_t *out)
{
	pf_event m = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	pf_arg args[PF_EV_MAX_ARGS], *argp[PF_EV_MAX_ARGS];
	uint64_t cat = e->category_iid, flow = e->flow;
	unsigned i;

	if (cat) {
		m.n_category_iids = 1;
		m.category_iids = &cat;
	}
	m.has_type = true;
	m.type = e->type;
	if (e->name_iid) {
		m.name_field_case =
			PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
		m.name_iid = e->name_iid;
	}
	m.has_track_uuid = true;
	m.track_uuid = e->track_uuid;
	if (e->counter == PF_COUNTER_INT) {
		m.counter_value_field_case =
			PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
		m.counter_value = e->counter_int;
	} else if (e->counter == PF_COUNTER_DOUBLE) {
		m.counter_value_field_case =
			PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
		m.double_counter_value = e->counter_double;
	}
	if (e->has_flow) {
		m.n_flow_ids = 1;
		m.flow_ids = &flow;
	}
	for (i = 0; i < e->n_args; i++) {
		const struct pf_ev_arg *a = &e->args[i];

		if (a->kind == PF_VALUE_UINT)
			pf_arg_uint(&args[i], a->name, a->u);
		else if (a->kind == PF_VALUE_STRING)
			pf_arg_string(&args[i], a->name, a->s);
		else
			pf_arg_bool(&args[i], a->name);
		argp[i] = &args[i];
	}
	m.n_debug_annotations = e->n_args;
	m.debug_annotations = argp;
	return perfetto__protos__track_event__pack(&m, out);
}

static void assert_same_bytes(const char *what, const struct pf_ev *e)
{
	uint8_t mine[1024], ref[1024];
	size_t n, r;

	assert_true(pf_ev_bound(e) <= sizeof(mine));
	memset(mine, 0xaa, sizeof(mine));
	n = pf_ev_pack(e, mine);
	r = pack_reference(e, ref);
	if (n != r || memcmp(mine, ref, n)) {
		fail_msg("%s: %zu bytes by hand, %zu by protobuf-c", what, n, r);
	}
	assert_true(n <= pf_ev_bound(e));
}

static void test_pack_matches_protobuf_c(void **state)
{
	static char long_name[300];
	struct {
		const char *what;
		struct pf_ev e;
	} cases[] = {
		{ "slice end, one-byte uuid",
		  { .track_uuid = 0x12,
		    .type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END } },
		{ "engine slice begin with args and a flow",
		  { .track_uuid = pf_uuid(PF_SPANS, 3, 70000),
		    .type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
		    .name_iid = 200, .category_iid = 129, .has_flow = true,
		    .flow = 0xff00000000000001ULL, .n_args = 4,
		    .args = { { PF_ARG_CMD, PF_VALUE_UINT, 1ULL << 40, NULL },
			      { PF_ARG_TASK, PF_VALUE_STRING, 0, "t0#1" },
			      { PF_ARG_LENGTH, PF_VALUE_UINT, 15000, NULL },
			      { PF_ARG_OPEN, PF_VALUE_BOOL, 0, NULL } } } },
		{ "instant with a zero argument",
		  { .track_uuid = UINT64_MAX,
		    .type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
		    .name_iid = 1, .category_iid = 1, .has_flow = true,
		    .n_args = 1,
		    .args = { { PF_ARG_CMD, PF_VALUE_UINT, 0, NULL } } } },
		{ "counter, negative integer (ten-byte varint)",
		  { .track_uuid = 7,
		    .type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
		    .counter = PF_COUNTER_INT, .counter_int = -3 } },
		{ "counter, integer zero",
		  { .track_uuid = 7,
		    .type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
		    .counter = PF_COUNTER_INT } },
		{ "counter, double",
		  { .track_uuid = 5,
		    .type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
		    .counter = PF_COUNTER_DOUBLE, .counter_double = 0.0625 } },
		{ "a string of 299 bytes (two-byte lengths)",
		  { .track_uuid = 9,
		    .type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
		    .name_iid = 3, .n_args = 1,
		    .args = { { PF_ARG_TASK, PF_VALUE_STRING, 0, long_name } } } },
	};
	size_t i;

	(void)state;
	memset(long_name, 'x', sizeof(long_name) - 1);
	for (i = 0; i < G_N_ELEMENTS(cases); i++)
		assert_same_bytes(cases[i].what, &cases[i].e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack_matches_protobuf_c),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
