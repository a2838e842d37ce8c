/* The framing of timeline.pftrace's events (pf_put_ev, pf_put_event,
 * sim/results/pftrace_out.c): each event is packed behind room for the
 * widest frame and moved down behind its own. Events whose TrackEvent
 * or packet crosses 128 bytes (a length of two varint bytes), at
 * timestamps of one to ten varint bytes, are written through both calls
 * and read back with protobuf-c: each packet's timestamp, sequence and
 * flags, and its TrackEvent's bytes as pf_ev_pack gave them. The slice
 * ends and counters written without a struct pf_ev are framed alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/results/pftrace_out.h"

static const uint64_t times[] = { 0, 127, 128, 1ull << 35, UINT64_MAX };

/* A span's begin with its command's arguments, the task name of len
 * bytes: about 40 bytes more than len. */
static struct pf_ev span_event(const char *task)
{
	return (struct pf_ev){
		.track_uuid = 0x3f2a2,
		.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
		.name_iid = 5,
		.category_iid = 7,
		.has_flow = true,
		.flow = 0x0100003000000042ull,
		.n_args = 2,
		.args = { { .name = PF_ARG_CMD, .kind = PF_VALUE_UINT,
			    .u = 123456 },
			  { .name = PF_ARG_TASK, .kind = PF_VALUE_STRING,
			    .s = task } },
	};
}

static void test_frames_read_back(void **state)
{
	char *buf = NULL, task[301];
	size_t size = 0, len, ti, off = 0, want_packets = 0;
	uint8_t packed[1024];
	FILE *f = open_memstream(&buf, &size);
	struct pf_out o = { .f = f };
	Perfetto__Protos__Trace *trace;

	(void)state;
	assert_non_null(f);
	for (len = 0; len <= 300; len++)
		for (ti = 0; ti < G_N_ELEMENTS(times); ti++) {
			struct pf_ev e;

			memset(task, 'a' + (int)(len % 26), len);
			task[len] = '\0';
			e = span_event(task);
			pf_put_ev(&o, times[ti], &e);
			want_packets++;
		}
	pf_finish(&o);
	assert_int_equal(fclose(f), 0);
	trace = perfetto__protos__trace__unpack(NULL, size, (uint8_t *)buf);
	assert_non_null(trace);
	assert_int_equal(trace->n_packet, want_packets);
	for (len = 0; len <= 300; len++)
		for (ti = 0; ti < G_N_ELEMENTS(times); ti++, off++) {
			const pf_packet *p = trace->packet[off];
			uint8_t back[1024];
			struct pf_ev e;
			size_t n, m;

			memset(task, 'a' + (int)(len % 26), len);
			task[len] = '\0';
			e = span_event(task);
			n = pf_ev_pack(&e, packed);
			assert_true(p->has_timestamp);
			assert_true(p->timestamp == times[ti]);
			assert_int_equal(p->trusted_packet_sequence_id, 1);
			assert_int_equal(
				p->sequence_flags,
				PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE);
			assert_non_null(p->track_event);
			m = perfetto__protos__track_event__pack(p->track_event,
								back);
			assert_int_equal(m, n);
			assert_memory_equal(back, packed, n);
		}
	perfetto__protos__trace__free_unpacked(trace, NULL);
	free(buf);
}

/* pf_put_event (protobuf-c packs the TrackEvent) frames alike. */
static void test_protobuf_c_events_framed(void **state)
{
	char *buf = NULL, name[301];
	size_t size = 0, len, off = 0;
	FILE *f = open_memstream(&buf, &size);
	struct pf_out o = { .f = f };
	Perfetto__Protos__Trace *trace;

	(void)state;
	assert_non_null(f);
	for (len = 0; len <= 300; len += 7) {
		pf_event e = PERFETTO__PROTOS__TRACK_EVENT__INIT;

		memset(name, 'n', len);
		name[len] = '\0';
		e.name_field_case =
			PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
		e.name = name;
		pf_put_event(&o, times[len % G_N_ELEMENTS(times)], &e);
	}
	pf_finish(&o);
	assert_int_equal(fclose(f), 0);
	trace = perfetto__protos__trace__unpack(NULL, size, (uint8_t *)buf);
	assert_non_null(trace);
	for (len = 0; len <= 300; len += 7, off++) {
		const pf_packet *p = trace->packet[off];

		assert_true(off < trace->n_packet);
		assert_true(p->timestamp == times[len % G_N_ELEMENTS(times)]);
		assert_non_null(p->track_event);
		assert_int_equal(strlen(p->track_event->name), len);
	}
	assert_int_equal(trace->n_packet, off);
	perfetto__protos__trace__free_unpacked(trace, NULL);
	free(buf);
}

/* pf_put_slice_end() and pf_put_counter() write the packets pf_put_ev()
 * writes for the same events, at timestamps of one to ten varint bytes. */
static void test_bare_events_framed_alike(void **state)
{
	const uint64_t uuids[] = { 0, 200, UINT64_MAX };
	const int64_t values[] = { 0, 300, -1 };
	char *ref_buf = NULL, *mine_buf = NULL;
	size_t ref_size = 0, mine_size = 0, ti, u;
	struct pf_out ref = { .f = open_memstream(&ref_buf, &ref_size) };
	struct pf_out mine = { .f = open_memstream(&mine_buf, &mine_size) };

	(void)state;
	assert_non_null(ref.f);
	assert_non_null(mine.f);
	for (ti = 0; ti < G_N_ELEMENTS(times); ti++)
		for (u = 0; u < G_N_ELEMENTS(uuids); u++) {
			pf_put_ev(&ref, times[ti], &(struct pf_ev){
				.track_uuid = uuids[u],
				.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END });
			pf_put_ev(&ref, times[ti], &(struct pf_ev){
				.track_uuid = uuids[u],
				.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
				.counter = PF_COUNTER_INT,
				.counter_int = values[u] });
			pf_put_slice_end(&mine, times[ti], uuids[u]);
			pf_put_counter(&mine, times[ti], uuids[u], values[u]);
		}
	pf_finish(&ref);
	pf_finish(&mine);
	assert_int_equal(fclose(ref.f), 0);
	assert_int_equal(fclose(mine.f), 0);
	assert_true(mine_size > 0);
	assert_int_equal(mine_size, ref_size);
	assert_memory_equal(mine_buf, ref_buf, ref_size);
	free(ref_buf);
	free(mine_buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_read_back),
		cmocka_unit_test(test_protobuf_c_events_framed),
		cmocka_unit_test(test_bare_events_framed_alike),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
