/* GPU model driven directly, with a test-owned clock: rings, dispatcher
 * round-robin and head-of-line stall, context-switch charging, status
 * registers, fences, hardware timeslicing with preemption, and the
 * round-robin unfairness the papers start from. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>

#include "gpu_model/gpu.h"
#include "gpu_model/ring.h"

#define US GS_NS_PER_US
#define MS GS_NS_PER_MS

struct span_rec {
	uint8_t engine, kind;
	uint32_t chan;
	gs_time_t start, end;
};

struct mock {
	struct gs_evq q;
	struct gs_gpu *gpu;
	GArray *spans;
	/* refill: on completion, write one more command of this length */
	gs_time_t refill[8];
	uint64_t completions[8];
	uint64_t last_serial[8];
	bool out_of_order;    /* a channel completed commands out of order */
};

static void on_complete(void *ctx, struct gs_channel *ch,
			const struct gs_cmd *cmd)
{
	struct mock *m = ctx;

	m->completions[ch->id]++;
	if (ch->id < 8) {
		m->out_of_order |= cmd->serial <= m->last_serial[ch->id];
		m->last_serial[ch->id] = cmd->serial;
	}
	if (ch->id < 8 && m->refill[ch->id]) {
		gs_chan_write(ch, m->refill[ch->id], GS_ENGINE_COMPUTE, 0, 0);
		gs_chan_doorbell(ch);
	}
}

static void on_span(void *ctx, const struct gs_gpu *gpu, uint8_t engine,
		    enum gs_span_kind kind, const struct gs_channel *ch,
		    gs_time_t start, gs_time_t end)
{
	struct mock *m = ctx;
	struct span_rec s = { engine, (uint8_t)kind,
			      ch ? ch->id : GS_CHAN_NONE, start, end };
	(void)gpu;
	g_array_append_val(m->spans, s);
}

static struct mock *mock_new(const char *preset, gs_time_t ctx_switch)
{
	struct mock *m = g_new0(struct mock, 1);
	struct gs_gpu_config cfg;
	struct gs_gpu_hooks hooks = { .ctx = m, .cmd_complete = on_complete,
				      .span = on_span };

	assert_int_equal(gs_gpu_preset(preset, &cfg), 0);
	cfg.ctx_switch = ctx_switch;
	cfg.max_channels = 16;
	gs_evq_init(&m->q);
	m->gpu = gs_gpu_new(&cfg, 0, &m->q, &hooks);
	m->spans = g_array_new(FALSE, FALSE, sizeof(struct span_rec));
	return m;
}

static void mock_free(struct mock *m)
{
	gs_gpu_free(m->gpu);
	gs_evq_destroy(&m->q);
	g_array_free(m->spans, TRUE);
	g_free(m);
}

static void run_until(struct mock *m, gs_time_t t)
{
	while (gs_evq_peek_time(&m->q) <= t)
		gs_evq_step(&m->q);
	if (m->q.now < t)
		m->q.now = t;
}

static void submit(struct gs_channel *ch, gs_time_t len, uint8_t engine)
{
	assert_true(gs_chan_write(ch, len, engine, GS_CMD_FENCE, 0) > 0);
	gs_chan_doorbell(ch);
}

/* Runs (not switches) in order, as channel ids. */
static GArray *run_order(struct mock *m)
{
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	guint i;

	for (i = 0; i < m->spans->len; i++) {
		struct span_rec *s = &g_array_index(m->spans, struct span_rec, i);

		if (s->kind == GS_SPAN_RUN)
			g_array_append_val(ids, s->chan);
	}
	return ids;
}

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

/* Modern preset: a long command is preempted when its slice ends and
 * another group waits; the context-load time is not charged to the slice. */
static void test_timeslice_preemption(void **state)
{
	struct mock *m = mock_new("volta", 25 * US);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	struct gs_engine *eng = &m->gpu->engines[GS_ENGINE_COMPUTE];
	gs_time_t a_end = 0, b_end = 0;
	guint i;
	(void)state;

	assert_int_equal(m->gpu->cfg.timeslice, 1024 * US);
	assert_int_equal(m->gpu->cfg.preempt_save, 50 * US);
	submit(a, 5 * MS, GS_ENGINE_COMPUTE);
	submit(b, 100 * US, GS_ENGINE_COMPUTE);
	run_until(m, 10 * MS);
	for (i = 0; i < m->spans->len; i++) {
		struct span_rec *s = &g_array_index(m->spans, struct span_rec, i);

		if (s->kind == GS_SPAN_RUN && s->chan == a->id)
			a_end = s->end;
		if (s->kind == GS_SPAN_RUN && s->chan == b->id)
			b_end = s->end;
	}
	/* a: load 25, run 1024, save 50; b: load 25, run 100; a: load 25,
	 * run the remaining 3976 */
	assert_int_equal(b_end, (25 + 1024 + 50 + 25 + 100) * US);
	assert_int_equal(a_end, (1224 + 25 + 3976) * US);
	assert_int_equal(a->gpu_time, 5 * MS);
	assert_int_equal(eng->preemptions, 1);
	assert_int_equal(a->completed, 1);
	mock_free(m);
}

/* A group that only copies has its timeslice too: once it has used a
 * slice of copy time with another group waiting, the dispatcher moves on
 * at the next command boundary (copies are not preempted). And a group
 * that comes back gets a fresh slice on every engine, not the remains of
 * the one it used up before. Found by the property tests: on volta a
 * saturating copy task starved every compute task (only the compute
 * engine counted slices), then, that fixed, the compute task was
 * preempted at once on every return (its used-up compute slice was never
 * renewed, since no other group ran on that engine). */
static void test_timeslice_ends_for_a_copy_only_group(void **state)
{
	struct mock *m = mock_new("volta", 25 * US);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	int i;
	(void)state;

	for (i = 0; i < 20; i++)
		submit(a, 1 * MS, GS_ENGINE_COPY);
	for (i = 0; i < 4; i++)
		submit(b, 600 * US, GS_ENGINE_COMPUTE);
	run_until(m, 12 * MS);
	/* b runs 2400 us of compute in slices of 1024 us, a copy of a
	 * (1 ms, not preempted) between them */
	assert_int_equal(b->completed, 4);
	assert_int_equal(m->gpu->engines[GS_ENGINE_COPY].preemptions, 0);
	run_until(m, 40 * MS);
	assert_int_equal(a->completed, 20);
	mock_free(m);
}

/* The end of one group's slice does not end the next group's: while a's
 * long command runs, the dispatcher (a having nothing else queued) has
 * moved on to b and fetched b's first command; when a is preempted, b
 * gets its whole slice, not one command. And the groups take turns in
 * order: a, whose preempted command rejoined the round while b had the
 * engine, comes after c. Found by the property tests (direct on volta,
 * shares changed with the task order): b ran one command per turn, and a
 * blocking group with long commands had every other turn. */
static void test_timeslice_next_group_keeps_its_slice(void **state)
{
	struct mock *m = mock_new("volta", 25 * US);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	struct gs_channel *c = gs_gpu_channel_open(m->gpu, 2, NULL);
	GArray *order;
	int i;
	(void)state;

	submit(a, 5 * MS, GS_ENGINE_COMPUTE);
	for (i = 0; i < 4; i++) {
		submit(b, 400 * US, GS_ENGINE_COMPUTE);
		submit(c, 300 * US, GS_ENGINE_COMPUTE);
	}
	run_until(m, 4 * MS);
	order = run_order(m);
	assert_true(order->len >= 3);
	assert_int_equal(g_array_index(order, uint32_t, 0), a->id);
	assert_int_equal(g_array_index(order, uint32_t, 1), b->id);
	assert_int_equal(g_array_index(order, uint32_t, 2), b->id);
	g_array_free(order, TRUE);
	run_until(m, 8 * MS);
	order = run_order(m);
	for (i = 1; g_array_index(order, uint32_t, i) != a->id; i++)
		assert_true((guint)i + 1 < order->len);
	/* every run between a's two turns is b's or c's, c's among them */
	assert_int_equal(g_array_index(order, uint32_t, i - 1), c->id);
	g_array_free(order, TRUE);
	mock_free(m);
}

static void test_timeslice_keeps_engine_without_competition(void **state)
{
	struct mock *m = mock_new("volta", 25 * US);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	(void)state;

	submit(a, 5 * MS, GS_ENGINE_COMPUTE);
	run_until(m, 10 * MS);
	assert_int_equal(m->gpu->engines[GS_ENGINE_COMPUTE].preemptions, 0);
	assert_int_equal(m->gpu->engines[GS_ENGINE_COMPUTE].ctx_switches, 1);
	assert_int_equal(a->gpu_time, 5 * MS);
	mock_free(m);
}

/* Several commands queued on each of several channels (two of them in
 * one group), each command longer than a slice: every channel is
 * preempted again and again, with its next command already fetched by
 * the dispatcher, fetching one or three commands per visit. Every command
 * must complete, whole, in its channel's order (a single saved command
 * per channel lost one at the second preemption). */
static void test_timeslice_completes_every_queued_command(void **state)
{
	static const uint32_t group[4] = { 0, 1, 2, 0 };
	uint32_t batch, i, k;
	(void)state;

	for (batch = 1; batch <= 3; batch += 2) {
		struct mock *m = mock_new("volta", 25 * US);
		struct gs_channel *ch[4];

		m->gpu->cfg.dispatch_batch = batch;
		for (i = 0; i < 4; i++) {
			ch[i] = gs_gpu_channel_open(m->gpu, group[i], NULL);
			for (k = 0; k < 3; k++)
				submit(ch[i], 3 * MS, GS_ENGINE_COMPUTE);
		}
		run_until(m, 100 * MS);
		assert_true(m->gpu->engines[GS_ENGINE_COMPUTE].preemptions >=
			    9);
		for (i = 0; i < 4; i++) {
			assert_int_equal(ch[i]->completed, 3);
			assert_int_equal(ch[i]->in_flight, 0);
			assert_int_equal(ch[i]->saved.len, 0);
			assert_int_equal(ch[i]->gpu_time, 9 * MS);
			assert_int_equal(ch[i]->fence_value, 3);
		}
		assert_false(m->out_of_order);
		mock_free(m);
	}
}

/* A task that submits rounds of commands through a one-slot ring: each
 * next command is written a launch (5 us) after the dispatcher frees the
 * slot, and a new round starts `think` after the last one completes. */
struct rounds {
	struct gs_evq *q;
	struct gs_channel *ch;
	struct gs_event restart, write;
	uint32_t per_round, left, done;
	gs_time_t len, think;
};

static void rounds_write(struct rounds *r)
{
	if (r->left && !gs_chan_ring_full(r->ch)) {
		r->left--;
		submit(r->ch, r->len, GS_ENGINE_COMPUTE);
	}
}

static void rounds_write_ev(void *ctx, struct gs_event *ev)
{
	(void)ev;
	rounds_write(ctx);
}

static void rounds_restart(void *ctx, struct gs_event *ev)
{
	struct rounds *r = ctx;
	(void)ev;

	r->left = r->per_round;
	rounds_write(r);
}

static void rounds_space(void *ctx, struct gs_channel *ch)
{
	struct rounds *r = ctx;
	uint32_t i;

	for (i = 0; i < 2; i++)
		if (r[i].ch == ch && !gs_event_queued(&r[i].write))
			gs_evq_schedule(r[i].q, &r[i].write,
					r[i].q->now + 5 * US);
}

static void rounds_complete(void *ctx, struct gs_channel *ch,
			    const struct gs_cmd *cmd)
{
	struct rounds *r = ctx;
	uint32_t i;
	(void)cmd;

	for (i = 0; i < 2; i++)
		if (r[i].ch == ch && ++r[i].done % r[i].per_round == 0)
			gs_evq_schedule(r[i].q, &r[i].restart,
					r[i].q->now + r[i].think);
}

/* Two groups that run rounds of commands with a short pause between
 * rounds, beside two that each queued one command: every group gets a
 * turn within a round of the runlist. Serving the current group's channel
 * where it had rejoined (at the end of the round) moved the round's front
 * there, so the other group, which had joined after it, came next, and the
 * two took turns for ever while the queued commands waited (generated
 * scenario 159). */
static bool every_group_served(gs_time_t think0, gs_time_t think1)
{
	struct rounds r[2] = {
		{ .per_round = 5, .len = 200 * US, .think = think0 },
		{ .per_round = 3, .len = 45 * US, .think = think1 },
	};
	struct gs_gpu_config cfg;
	struct gs_gpu_hooks hooks = { .ctx = r, .cmd_complete = rounds_complete,
				      .ring_space = rounds_space };
	struct gs_channel *late[2];
	struct gs_evq q;
	struct gs_gpu *gpu;
	bool ok = true;
	uint32_t i;

	assert_int_equal(gs_gpu_preset("volta", &cfg), 0);
	cfg.ring_entries = 2;
	cfg.dispatch_batch = 2;
	cfg.max_channels = 8;
	gs_evq_init(&q);
	gpu = gs_gpu_new(&cfg, 0, &q, &hooks);
	for (i = 0; i < 2; i++) {
		r[i].q = &q;
		r[i].ch = gs_gpu_channel_open(gpu, i, NULL);
		gs_event_init(&r[i].restart, GS_EVC_TASK, rounds_restart, &r[i]);
		gs_event_init(&r[i].write, GS_EVC_TASK, rounds_write_ev, &r[i]);
		rounds_restart(&r[i], NULL);
	}
	for (i = 0; i < 2; i++)
		late[i] = gs_gpu_channel_open(gpu, 2 + i, NULL);
	while (gs_evq_peek_time(&q) <= 30 * MS) {
		gs_evq_step(&q);
		/* the queued commands arrive while the rounds run */
		if (q.now >= 1 * MS && !late[0]->submitted)
			for (i = 0; i < 2; i++)
				submit(late[i], 100 * US, GS_ENGINE_COMPUTE);
	}
	for (i = 0; i < 2; i++)
		ok &= late[i]->completed == 1 && r[i].done > 10;
	for (i = 0; i < 2; i++) {
		gs_evq_cancel(&q, &r[i].restart);
		gs_evq_cancel(&q, &r[i].write);
	}
	gs_gpu_free(gpu);
	gs_evq_destroy(&q);
	return ok;
}

/* Pauses between rounds of the two tasks (the seed's were 10-40 us):
 * under the defect the queued commands waited for ever in most pairs. */
static void test_timeslice_serves_every_group_in_turn(void **state)
{
	static const gs_time_t pause[] = { 10 * US, 40 * US, 70 * US };
	uint32_t a, b;
	(void)state;

	for (a = 0; a < G_N_ELEMENTS(pause); a++)
		for (b = 0; b < G_N_ELEMENTS(pause); b++)
			assert_true(every_group_served(pause[a], pause[b]));
}

/* A preemption takes back the command the dispatcher holds for the
 * engine: it runs after the preempted one resumes, not in its place. */
static void test_preemption_keeps_channel_order(void **state)
{
	struct mock *m = mock_new("volta", 0);
	struct gs_channel *a = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *b = gs_gpu_channel_open(m->gpu, 1, NULL);
	(void)state;

	submit(a, 2 * MS, GS_ENGINE_COMPUTE);
	submit(a, 2 * MS, GS_ENGINE_COMPUTE);
	submit(b, 100 * US, GS_ENGINE_COMPUTE);
	/* a's first is preempted at 1024 us with its second held by the
	 * dispatcher; b runs; a resumes its first */
	run_until(m, 1500 * US);
	assert_int_equal(b->completed, 1);
	assert_int_equal(a->completed, 0);
	assert_int_equal(a->saved.len, 0);
	run_until(m, 10 * MS);
	assert_int_equal(a->completed, 2);
	assert_false(m->out_of_order);
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
		cmocka_unit_test(test_timeslice_preemption),
		cmocka_unit_test(test_timeslice_keeps_engine_without_competition),
		cmocka_unit_test(test_timeslice_ends_for_a_copy_only_group),
		cmocka_unit_test(test_timeslice_next_group_keeps_its_slice),
		cmocka_unit_test(test_timeslice_completes_every_queued_command),
		cmocka_unit_test(test_preemption_keeps_channel_order),
		cmocka_unit_test(test_timeslice_serves_every_group_in_turn),
		cmocka_unit_test(test_round_robin_unfairness),
	};
	return cmocka_run_group_tests_name("gpu", tests, NULL, NULL);
}
