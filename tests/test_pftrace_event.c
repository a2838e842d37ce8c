/* The hand encoder of timeline.pftrace's hot events (pf_ev_pack,
 * sim/results/pftrace_event.c) against protobuf-c: the same TrackEvent
 * packed both ways must give the same bytes, and pf_ev_bound() must hold
 * them. Cases cover each field, multi-byte varints and tags, negative
 * counters and strings longer than one length byte. The same for child
 * tracks' descriptors (pf_child_track_pack), whole packets compared:
 * pf_put_child() against pf_put_track() of the protobuf-c message. And
 * the slice ends and counters packed without a struct pf_ev
 * (pf_bare_ev_pack) against pf_ev_pack. */
#define _GNU_SOURCE /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* pf_bare_ev_pack() against pf_ev_pack() and protobuf-c of the same
 * slice end or integer counter, over varints of one to ten bytes. */
static void test_bare_matches_pack(void **state)
{
	const uint64_t uuids[] = { 0, 1, 127, 128, 16383, 16384,
				   pf_uuid(PF_QUEUE, 255, 1u << 20),
				   UINT64_MAX };
	const int64_t values[] = { 0, 1, 32, 127, 128, -1, INT64_MIN,
				   INT64_MAX };
	size_t u, v;

	(void)state;
	for (u = 0; u < G_N_ELEMENTS(uuids); u++) {
		struct pf_ev end = {
			.track_uuid = uuids[u],
			.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END,
		};
		uint8_t bare[64], packed[1024];
		size_t n;

		memset(bare, 0xaa, sizeof(bare));
		n = pf_bare_ev_pack(bare, end.type, end.track_uuid, NULL);
		assert_true(n <= PF_BARE_EV_MAX);
		assert_int_equal(n, pf_ev_pack(&end, packed));
		assert_memory_equal(bare, packed, n);
		assert_same_bytes("bare slice end", &end);
		for (v = 0; v < G_N_ELEMENTS(values); v++) {
			struct pf_ev count = {
				.track_uuid = uuids[u],
				.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
				.counter = PF_COUNTER_INT,
				.counter_int = values[v],
			};

			memset(bare, 0xaa, sizeof(bare));
			n = pf_bare_ev_pack(bare, count.type, count.track_uuid,
					    &values[v]);
			assert_true(n <= PF_BARE_EV_MAX);
			assert_int_equal(n, pf_ev_pack(&count, packed));
			assert_memory_equal(bare, packed, n);
			assert_same_bytes("bare counter", &count);
		}
	}
}

/* The packets pf_put_track() writes for the TrackDescriptor t
 * describes (ref) and pf_put_child() writes for t (mine). */
static void put_both(const struct pf_child_track *t, struct pf_out *ref,
		     struct pf_out *mine)
{
	Perfetto__Protos__CounterDescriptor count =
		PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;
	pf_track m = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;

	m.has_uuid = true;
	m.uuid = t->uuid;
	m.has_parent_uuid = true;
	m.parent_uuid = t->parent_uuid;
	m.static_or_dynamic_name_case =
		PERFETTO__PROTOS__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
	m.name = (char *)t->name;
	m.has_sibling_order_rank = true;
	m.sibling_order_rank = t->rank;
	count.has_unit = t->has_unit;
	count.unit = t->unit;
	m.counter = t->counter ? &count : NULL;
	pf_put_track(ref, &m);
	pf_put_child(mine, t);
}

static void test_child_track_matches_protobuf_c(void **state)
{
	static char long_name[300];
	const struct pf_child_track cases[] = {
		{ .uuid = pf_uuid(PF_SPANS + 2, 0, 3), .parent_uuid = 1,
		  .name = "ch3 dct", .rank = 1003 },
		{ .uuid = pf_uuid(PF_QUEUE, 255, 1u << 20),
		  .parent_uuid = pf_uuid(PF_GPU, 255, 0),
		  .name = "queue ch1048576 t#65535", .rank = G_MAXINT32,
		  .counter = true, .has_unit = true,
		  .unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT },
		{ .uuid = pf_uuid(PF_SHARE, 0, 7), .parent_uuid = 1,
		  .name = "share t", .rank = 17, .counter = true },
		{ .uuid = UINT64_MAX, .parent_uuid = UINT64_MAX, .name = "",
		  .rank = 0 },
		{ .uuid = 5, .parent_uuid = 1, .name = "negative rank",
		  .rank = -1, .counter = true, .has_unit = true,
		  .unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_TIME_NS },
		{ .uuid = 6, .parent_uuid = 1, .name = long_name, .rank = 100 },
	};
	char *ref_buf = NULL, *mine_buf = NULL;
	size_t ref_size = 0, mine_size = 0, i;
	struct pf_out ref = { .f = open_memstream(&ref_buf, &ref_size) };
	struct pf_out mine = { .f = open_memstream(&mine_buf, &mine_size) };
	uint8_t packed[1024];

	(void)state;
	memset(long_name, 'y', sizeof(long_name) - 1);
	assert_non_null(ref.f);
	assert_non_null(mine.f);
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		assert_true(pf_child_track_bound(&cases[i]) <= sizeof(packed));
		memset(packed, 0xaa, sizeof(packed));
		assert_true(pf_child_track_pack(&cases[i], packed) <=
			    pf_child_track_bound(&cases[i]));
		put_both(&cases[i], &ref, &mine);
		/* each packet alone, so that a difference names its case */
		pf_finish(&ref);
		pf_finish(&mine);
		fflush(ref.f);
		fflush(mine.f);
		if (ref_size != mine_size || memcmp(ref_buf, mine_buf, ref_size))
			fail_msg("case %zu: %zu bytes by protobuf-c, %zu by hand",
				 i, ref_size, mine_size);
	}
	assert_true(ref_size > sizeof(long_name));
	fclose(ref.f);
	fclose(mine.f);
	free(ref_buf);
	free(mine_buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack_matches_protobuf_c),
		cmocka_unit_test(test_bare_matches_pack),
		cmocka_unit_test(test_child_track_matches_protobuf_c),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
