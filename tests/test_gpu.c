/* GPU model driven directly, with a test-owned clock: rings, dispatcher
 * round-robin and head-of-line stall, context-switch charging, status
 * registers, fences, and the round-robin unfairness the papers start
 * from (hardware timeslicing and preemption: test_gpu_timeslice.c). */
#include "tests/support/gpu_fixture.h"

static void test_ring_arithmetic(void **state)
{
	(void)state;
	assert_int_equal(gs_ring_advance(3, 4), 0);
	assert_int_equal(gs_ring_advance(1, 4), 2);
	assert_int_equal(gs_ring_distance(3, 1, 4), 2);
	assert_int_equal(gs_ring_distance(1, 1, 4), 0);
	assert_true(gs_ring_is_full(0, 3, 4));
	assert_true(gs_ring_is_full(2, 1, 4));
	assert_false(gs_ring_is_full(0, 0, 4));
	assert_int_equal(gs_ring_capacity(4), 3);
}

static void test_ring_fills_and_wraps(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *ch;
	int i;
	(void)state;

	m->gpu->cfg.ring_entries = 4;
	ch = gs_gpu_channel_open(m->gpu, 0, NULL);
	for (i = 0; i < 3; i++)
		assert_true(gs_chan_write(ch, 10 * US, GS_ENGINE_COMPUTE, 0, 0));
	assert_true(gs_chan_ring_full(ch));
	assert_int_equal(gs_chan_write(ch, 10 * US, GS_ENGINE_COMPUTE, 0, 0), 0);
	/* Nothing is visible before the doorbell. */
	run_until(m, 1 * MS);
	assert_int_equal(ch->completed, 0);
	gs_chan_doorbell(ch);
	run_until(m, 1 * MS + 5 * US);
	/* one fetched and running, one fetched and stalled: two slots free */
	assert_int_equal(gs_chan_ring_used(ch), 1);
	for (i = 0; i < 2; i++)
		assert_true(gs_chan_write(ch, 10 * US, GS_ENGINE_COMPUTE, 0, 0));
	assert_true(gs_chan_ring_full(ch));
	assert_true(ch->put < ch->get); /* wrapped */
	gs_chan_doorbell(ch);
	run_until(m, 3 * MS);
	assert_int_equal(ch->completed, 5);
	assert_int_equal(ch->get, ch->put);
	assert_int_equal(ch->gpu_time, 50 * US);
	mock_free(m);
}

static void test_dispatcher_round_robin(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *ch[3];
	GArray *order;
	const uint32_t want[6] = { 0, 1, 2, 0, 1, 2 };
	int i, k;
	(void)state;

	for (i = 0; i < 3; i++)
		ch[i] = gs_gpu_channel_open(m->gpu, (uint32_t)i, NULL);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 3; i++)
			assert_true(gs_chan_write(ch[i], 10 * US,
						  GS_ENGINE_COMPUTE, 0, 0));
	for (i = 0; i < 3; i++)
		gs_chan_doorbell(ch[i]);
	run_until(m, 1 * MS);
	order = run_order(m);
	assert_int_equal(order->len, 6);
	for (i = 0; i < 6; i++)
		assert_int_equal(g_array_index(order, uint32_t, i), want[i]);
	g_array_free(order, TRUE);
	mock_free(m);
}

/* A command for a busy engine stalls the dispatcher: a copy behind it
 * cannot start although the copy engine is idle. */
static void test_head_of_line_stall(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	struct gs_channel *c = gs_gpu_channel_open(m->gpu, 2, NULL);
	guint i;
	gs_time_t copy_start = GS_TIME_NEVER;
	(void)state;

	submit(a, 100 * US, GS_ENGINE_COMPUTE);
	submit(b, 50 * US, GS_ENGINE_COMPUTE);
	submit(c, 10 * US, GS_ENGINE_COPY);
	run_until(m, 1 * MS);
	for (i = 0; i < m->spans->len; i++) {
		struct span_rec *s = &g_array_index(m->spans, struct span_rec, i);

		if (s->engine == GS_ENGINE_COPY && s->kind == GS_SPAN_RUN)
			copy_start = s->start;
	}
	assert_int_equal(copy_start, 100 * US);
	assert_int_equal(c->completed, 1);
	mock_free(m);
}

/* Doorbells while the dispatcher is stalled on a busy engine do not wake
 * it (it could fetch nothing); the engine's completion does, and the
 * stalled command starts then. */
static void test_stalled_dispatcher_sleeps_until_the_engine_is_free(
	void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	struct gs_channel *c = gs_gpu_channel_open(m->gpu, 2, NULL);
	uint64_t before;
	int i;
	(void)state;

	submit(a, 100 * US, GS_ENGINE_COMPUTE);
	submit(b, 50 * US, GS_ENGINE_COMPUTE);
	run_until(m, 40 * US);
	assert_true(m->gpu->disp.stalled);
	before = m->q.dispatched;
	for (i = 0; i < 5; i++) {
		submit(c, 10 * US, GS_ENGINE_COPY);
		assert_false(gs_event_queued(&m->gpu->disp.ev));
		run_until(m, (50 + 10 * (uint64_t)i) * US);
	}
	assert_int_equal(m->q.dispatched, before); /* nothing ran */
	assert_int_equal(c->completed, 0);
	run_until(m, 100 * US);
	assert_int_equal(a->completed, 1);
	assert_true(m->q.dispatched > before);
	run_until(m, 1 * MS);
	assert_int_equal(b->completed, 1);
	assert_int_equal(c->completed, 5);
	mock_free(m);
}

static void test_context_switch_charged_to_nobody(void **state)
{
	struct mock *m = mock_new("kepler", 25 * US);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	struct gs_channel *a2 = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_engine *eng = &m->gpu->engines[GS_ENGINE_COMPUTE];
	(void)state;

	submit(a, 100 * US, GS_ENGINE_COMPUTE);
	submit(b, 200 * US, GS_ENGINE_COMPUTE);
	run_until(m, 1 * MS);
	/* a: load + run, b: load + run */
	assert_int_equal(eng->ctx_switches, 2);
	assert_int_equal(eng->switch_time, 50 * US);
	assert_int_equal(a->gpu_time, 100 * US);
	assert_int_equal(b->gpu_time, 200 * US);
	assert_int_equal(eng->busy_time, 300 * US);
	/* a2 shares a's group (context): b -> a2 switches, a2 -> a does not */
	submit(a2, 10 * US, GS_ENGINE_COMPUTE);
	submit(a, 10 * US, GS_ENGINE_COMPUTE);
	run_until(m, 2 * MS);
	assert_int_equal(eng->ctx_switches, 3);
	assert_int_equal(eng->busy_time, 320 * US);
	mock_free(m);
}

static void test_status_registers_follow_the_engine(void **state)
{
	struct mock *m = mock_new("kepler", 25 * US);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	struct gs_engine_status st;
	uint64_t reads;
	(void)state;

	gs_gpu_read_engine_status(m->gpu, GS_ENGINE_COMPUTE, &st);
	assert_int_equal(st.cur_id, GS_CHAN_NONE);
	assert_int_equal(st.ctx_status, GS_CTX_INVALID);
	assert_int_equal(gs_gpu_read_chram(m->gpu, a->id), GS_CHRAM_IDLE);

	submit(a, 100 * US, GS_ENGINE_COMPUTE);
	submit(b, 100 * US, GS_ENGINE_COMPUTE);
	run_until(m, 10 * US); /* a's context is loading */
	gs_gpu_read_engine_status(m->gpu, GS_ENGINE_COMPUTE, &st);
	assert_int_equal(st.ctx_status, GS_CTX_LOADING);
	assert_int_equal(st.next_id, a->id);
	assert_false(st.busy);
	assert_int_equal(gs_gpu_read_chram(m->gpu, a->id), GS_CHRAM_ON_ENGINE);
	/* b was fetched and stalls the dispatcher: pending */
	assert_int_equal(gs_gpu_read_chram(m->gpu, b->id), GS_CHRAM_PENDING);

	run_until(m, 50 * US);
	gs_gpu_read_engine_status(m->gpu, GS_ENGINE_COMPUTE, &st);
	assert_int_equal(st.ctx_status, GS_CTX_VALID);
	assert_int_equal(st.cur_id, a->id);
	assert_int_equal(st.next_id, GS_CHAN_NONE);
	assert_true(st.busy);
	assert_int_equal(gs_gpu_read_chram(m->gpu, a->id), GS_CHRAM_BUSY);

	run_until(m, 500 * US); /* both done: b's context stays loaded */
	gs_gpu_read_engine_status(m->gpu, GS_ENGINE_COMPUTE, &st);
	assert_int_equal(st.cur_id, b->id);
	assert_false(st.busy);
	assert_int_equal(gs_gpu_read_chram(m->gpu, b->id), GS_CHRAM_IDLE);
	reads = m->gpu->mmio_reads;
	assert_int_equal(reads, 9); /* 4 engine-status + 5 channel-RAM reads */
	mock_free(m);
}

static void test_fence_visible_copy_lags(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	(void)state;

	submit(a, 10 * US, GS_ENGINE_COMPUTE);
	submit(a, 10 * US, GS_ENGINE_COMPUTE);
	run_until(m, 25 * US);
	assert_int_equal(a->fence_value, 2);
	assert_int_equal(gs_chan_fence_visible(a), 0);
	run_until(m, 110 * US); /* first completion at 10us + 100us lag */
	assert_int_equal(gs_chan_fence_visible(a), 1);
	run_until(m, 120 * US);
	assert_int_equal(gs_chan_fence_visible(a), 2);
	mock_free(m);
}

/* A channel whose commands go to two engines: copies that complete before
 * an earlier, longer compute command must not move the reference counter
 * past it, nor may its completion move the counter back. Found by the
 * property tests: the timeslice policy drained such a channel forever,
 * its counter having fallen back below the last submission. */
static void test_fence_counts_in_submission_order(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	(void)state;

	submit(a, 100 * US, GS_ENGINE_COMPUTE); /* serial 1 */
	submit(a, 10 * US, GS_ENGINE_COPY);     /* serial 2 */
	submit(a, 10 * US, GS_ENGINE_COPY);     /* serial 3 */
	run_until(m, 50 * US);
	assert_int_equal(a->completed, 2); /* the copies, not the compute */
	assert_int_equal(a->fence_value, 0);
	run_until(m, 101 * US);
	assert_int_equal(a->completed, 3);
	assert_int_equal(a->fence_value, 3);
	run_until(m, 201 * US); /* 100us host-visible lag */
	assert_int_equal(gs_chan_fence_visible(a), 3);
	mock_free(m);
}

static void test_close_drops_queued_commands(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	int i;
	(void)state;

	submit(a, 100 * US, GS_ENGINE_COMPUTE);
	for (i = 0; i < 4; i++)
		submit(b, 10 * US, GS_ENGINE_COMPUTE);
	run_until(m, 50 * US); /* a runs, b's first is stalled */
	gs_gpu_channel_close(b);
	assert_int_equal(b->dropped, 4);
	run_until(m, 1 * MS);
	assert_int_equal(a->completed, 1);
	assert_int_equal(b->completed, 0);
	assert_int_equal(b->submitted, b->completed + b->dropped);
	/* the slot can be reused */
	assert_non_null(gs_gpu_channel_open(m->gpu, 2, NULL));
	mock_free(m);
}

/* The class tag rides with the command: the oldest unpublished command's
 * class and length are what a shadow queue's head shows. */
static void test_unpublished_head_class(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *ch = gs_gpu_channel_open(m->gpu, 0, NULL);
	(void)state;

	assert_null(gs_chan_unpublished_head(ch));
	assert_true(gs_chan_write(ch, 10 * US, GS_ENGINE_COMPUTE, 0, 3));
	assert_true(gs_chan_write(ch, 20 * US, GS_ENGINE_COMPUTE, 0, 5));
	assert_int_equal(gs_chan_unpublished_head(ch)->cls, 3);
	assert_int_equal(gs_chan_unpublished_head(ch)->duration, 10 * US);
	gs_chan_publish(ch, 1);
	assert_int_equal(gs_chan_unpublished_head(ch)->cls, 5);
	assert_int_equal(gs_chan_unpublished_head(ch)->duration, 20 * US);
	gs_chan_publish(ch, 1);
	assert_null(gs_chan_unpublished_head(ch));
	run_until(m, 1 * MS);
	assert_int_equal(ch->completed, 2);
	mock_free(m);
}

/* NEON Fig. 6 (direct): two saturating channels with request sizes a and
 * b get GPU shares a/(a+b) and b/(a+b) under per-command round-robin. */
static void test_round_robin_unfairness(void **state)
{
	const gs_time_t sizes[][2] = { { 100 * US, 1000 * US },
				       { 19 * US, 1700 * US },
				       { 300 * US, 300 * US } };
	size_t k;
	(void)state;

	for (k = 0; k < G_N_ELEMENTS(sizes); k++) {
		struct mock *m = mock_new("kepler", 25 * US);
		struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
		struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
		double share, want;

		m->refill[a->id] = sizes[k][0];
		m->refill[b->id] = sizes[k][1];
		submit(a, sizes[k][0], GS_ENGINE_COMPUTE);
		submit(b, sizes[k][1], GS_ENGINE_COMPUTE);
		run_until(m, 2 * GS_NS_PER_S);
		share = (double)a->gpu_time / (double)(a->gpu_time + b->gpu_time);
		want = (double)sizes[k][0] / (double)(sizes[k][0] + sizes[k][1]);
		assert_true(share > want - 0.02 && share < want + 0.02);
		mock_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_arithmetic),
		cmocka_unit_test(test_ring_fills_and_wraps),
		cmocka_unit_test(test_dispatcher_round_robin),
		cmocka_unit_test(test_head_of_line_stall),
		cmocka_unit_test(test_stalled_dispatcher_sleeps_until_the_engine_is_free),
		cmocka_unit_test(test_context_switch_charged_to_nobody),
		cmocka_unit_test(test_status_registers_follow_the_engine),
		cmocka_unit_test(test_fence_visible_copy_lags),
		cmocka_unit_test(test_fence_counts_in_submission_order),
		cmocka_unit_test(test_close_drops_queued_commands),
		cmocka_unit_test(test_unpublished_head_class),
		cmocka_unit_test(test_round_robin_unfairness),
	
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
