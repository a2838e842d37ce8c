/* Event engine: total order (time, class, seq), cancel and reschedule,
 * and the PRNG streams. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <math.h>
#include <string.h>

#include "base/event.h"
#include "base/event_checksum.h"
#include "base/rng.h"

struct probe {
	struct gs_event ev;
	int id;
	int *log;
	int *n;
};

static void record(void *ctx, struct gs_event *ev)
{
	struct probe *p = ctx;
	(void)ev;
	p->log[(*p->n)++] = p->id;
}

static void init_probes(struct probe *p, int n, int *log, int *count,
			enum gs_event_class cls)
{
	int i;

	for (i = 0; i < n; i++) {
		p[i].id = i;
		p[i].log = log;
		p[i].n = count;
		gs_event_init(&p[i].ev, cls, record, &p[i]);
	}
}

/* Like libuv's timer_order: events due at the same time run in the order
 * they were scheduled. */
static void test_same_time_runs_in_schedule_order(void **state)
{
	struct gs_evq q;
	struct probe p[8];
	int log[8], n = 0, i;
	const int order[8] = { 5, 2, 7, 0, 1, 6, 3, 4 };
	(void)state;

	gs_evq_init(&q);
	init_probes(p, 8, log, &n, GS_EVC_TASK);
	for (i = 0; i < 8; i++)
		gs_evq_schedule(&q, &p[order[i]].ev, 100);
	while (gs_evq_step(&q))
		;
	assert_int_equal(n, 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(log[i], order[i]);
	assert_int_equal(q.now, 100);
	gs_evq_destroy(&q);
}

static void test_class_breaks_ties_before_seq(void **state)
{
	struct gs_evq q;
	struct probe task, gpu, disp;
	int log[3], n = 0;
	(void)state;

	gs_evq_init(&q);
	init_probes(&task, 1, log, &n, GS_EVC_TASK);
	init_probes(&gpu, 1, log, &n, GS_EVC_GPU);
	init_probes(&disp, 1, log, &n, GS_EVC_DISPATCH);
	task.id = 3;
	gpu.id = 1;
	disp.id = 2;
	gs_evq_schedule(&q, &task.ev, 50);
	gs_evq_schedule(&q, &disp.ev, 50);
	gs_evq_schedule(&q, &gpu.ev, 50);
	while (gs_evq_step(&q))
		;
	assert_int_equal(log[0], 1);
	assert_int_equal(log[1], 2);
	assert_int_equal(log[2], 3);
	gs_evq_destroy(&q);
}

static void test_cancel_and_reschedule(void **state)
{
	struct gs_evq q;
	struct probe p[4];
	int log[4], n = 0;
	(void)state;

	gs_evq_init(&q);
	init_probes(p, 4, log, &n, GS_EVC_TASK);
	gs_evq_schedule(&q, &p[0].ev, 10);
	gs_evq_schedule(&q, &p[1].ev, 20);
	gs_evq_schedule(&q, &p[2].ev, 30);
	gs_evq_schedule(&q, &p[3].ev, 40);
	gs_evq_cancel(&q, &p[1].ev);
	assert_false(gs_event_queued(&p[1].ev));
	gs_evq_cancel(&q, &p[1].ev); /* cancelling twice is harmless */
	gs_evq_schedule(&q, &p[3].ev, 5);  /* earlier */
	gs_evq_schedule(&q, &p[0].ev, 35); /* later */
	/* rescheduled to the same time as p[2]: runs after it (new seq) */
	gs_evq_schedule(&q, &p[2].ev, 35);
	assert_int_equal(gs_evq_peek_time(&q), 5);
	while (gs_evq_step(&q))
		;
	assert_int_equal(n, 3);
	assert_int_equal(log[0], 3);
	assert_int_equal(log[1], 0);
	assert_int_equal(log[2], 2);
	assert_int_equal(gs_evq_peek_time(&q), GS_TIME_NEVER);
	gs_evq_destroy(&q);
}

/* Random schedule/cancel/reschedule against a reference: the popped order
 * must be sorted by (time, class, seq). */
static void test_heap_against_reference(void **state)
{
	enum { N = 2000 };
	struct gs_evq q;
	struct probe *p = g_new0(struct probe, N);
	int *log = g_new0(int, N * 4), n = 0, i, popped = 0;
	struct gs_rng rng;
	gs_time_t last_t = 0;
	uint16_t last_c = 0;
	uint64_t last_seq = 0;
	(void)state;

	gs_evq_init(&q);
	gs_rng_seed(&rng, 7, "heap");
	for (i = 0; i < N; i++) {
		p[i].id = i;
		p[i].log = log;
		p[i].n = &n;
		gs_event_init(&p[i].ev, (enum gs_event_class)(i % 4), record,
			      &p[i]);
	}
	for (i = 0; i < N * 3; i++) {
		struct probe *x = &p[gs_rng_below(&rng, N)];

		if (gs_rng_below(&rng, 5) == 0)
			gs_evq_cancel(&q, &x->ev);
		else
			gs_evq_schedule(&q, &x->ev, gs_rng_below(&rng, 50));
	}
	while (q.len) {
		struct gs_event *ev = gs_evq_pop(&q);

		if (popped++) {
			assert_true(ev->time > last_t ||
				    (ev->time == last_t &&
				     (ev->cls > last_c ||
				      (ev->cls == last_c && ev->seq > last_seq))));
		}
		last_t = ev->time;
		last_c = ev->cls;
		last_seq = ev->seq;
		assert_false(gs_event_queued(ev));
	}
	assert_true(popped > N / 2);
	gs_evq_destroy(&q);
	g_free(p);
	g_free(log);
}

/* The checksum folds events in sequence: the same events in another
 * order, or another time, give another value. */
static void test_checksum_depends_on_order(void **state)
{
	uint64_t h0 = GS_EVENT_CHECKSUM_INIT;
	uint64_t ab = gs_event_checksum_fold(
		gs_event_checksum_fold(h0, 1, GS_EVC_TASK), 2, GS_EVC_GPU);
	uint64_t ba = gs_event_checksum_fold(
		gs_event_checksum_fold(h0, 2, GS_EVC_GPU), 1, GS_EVC_TASK);
	uint64_t ac = gs_event_checksum_fold(
		gs_event_checksum_fold(h0, 1, GS_EVC_TASK), 3, GS_EVC_GPU);
	(void)state;

	assert_true(ab != ba);
	assert_true(ab != ac);
}

/* FNV-1a, one byte at a time, as results/README.md defines the checksum. */
static uint64_t fnv1a_bytes(uint64_t h, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The folded FNV-1a gives the byte loop's value, for times with zero
 * bytes inside them, at the top of the range, and for every class. */
static void test_checksum_is_fnv1a_of_time_and_class(void **state)
{
	static const gs_time_t times[] = {
		0, 1, 0xff, 0x100, 0x10000, 0x1000000ff, 20 * GS_NS_PER_S,
		0x00ff00ff00ff00ffULL, UINT64_MAX - 1,
	};
	uint64_t want = 0xcbf29ce484222325ULL, got = GS_EVENT_CHECKSUM_INIT;
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(times); i++) {
		uint8_t cls = (uint8_t)(i % (GS_EVC_STOP + 1));

		got = gs_event_checksum_fold(got, times[i], cls);
		want = fnv1a_bytes(fnv1a_bytes(want, times[i]), cls);
		assert_true(got == want);
	}
}

static void test_rng_streams_are_independent(void **state)
{
	struct gs_rng a1, a2, b, other_seed;
	int i, same_ab = 0, same_seed = 0;
	(void)state;

	gs_rng_seed(&a1, 42, "task/a/0");
	gs_rng_seed(&a2, 42, "task/a/0");
	gs_rng_seed(&b, 42, "task/b/0");
	gs_rng_seed(&other_seed, 43, "task/a/0");
	for (i = 0; i < 1000; i++) {
		uint64_t x = gs_rng_next(&a1);

		assert_true(x == gs_rng_next(&a2));
		same_ab += x == gs_rng_next(&b);
		same_seed += x == gs_rng_next(&other_seed);
	}
	assert_int_equal(same_ab, 0);
	assert_int_equal(same_seed, 0);
}

static void test_rng_below_and_unit_ranges(void **state)
{
	struct gs_rng r;
	int i, hist[10] = { 0 };
	(void)state;

	gs_rng_seed(&r, 1, "range");
	for (i = 0; i < 100000; i++) {
		double u = gs_rng_unit(&r);
		uint64_t k = gs_rng_below(&r, 10);

		assert_true(u >= 0.0 && u < 1.0);
		assert_true(k < 10);
		hist[k]++;
	}
	for (i = 0; i < 10; i++)
		assert_true(hist[i] > 9500 && hist[i] < 10500);
}

static void test_ln_matches_libm(void **state)
{
	const double xs[] = { 1e-300, 1e-9, 0.001, 0.3, 0.5, 0.7071, 1.0,
			      1.0000001, 2.0, 2.718281828459045, 10.0, 12345.678,
			      1e300 };
	size_t i;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(xs); i++) {
		double want = log(xs[i]), got = gs_ln(xs[i]);

		assert_true(fabs(got - want) <= 1e-14 * fmax(1.0, fabs(want)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_time_runs_in_schedule_order),
		cmocka_unit_test(test_class_breaks_ties_before_seq),
		cmocka_unit_test(test_cancel_and_reschedule),
		cmocka_unit_test(test_heap_against_reference),
		cmocka_unit_test(test_checksum_depends_on_order),
		cmocka_unit_test(test_checksum_is_fnv1a_of_time_and_class),
		cmocka_unit_test(test_rng_streams_are_independent),
		cmocka_unit_test(test_rng_below_and_unit_ranges),
		cmocka_unit_test(test_ln_matches_libm),
	};
	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
