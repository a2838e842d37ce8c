/* GPU model driven directly, with a test-owned clock: hardware
 * timeslicing between groups, with and without compute preemption. */
#include "tests/support/gpu_fixture.h"

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
			assert_int_equal(gs_chan_saved_len(ch[i]), 0);
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
	assert_int_equal(gs_chan_saved_len(a), 0);
	run_until(m, 10 * MS);
	assert_int_equal(a->completed, 2);
	assert_false(m->out_of_order);
	mock_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeslice_preemption),
		cmocka_unit_test(test_timeslice_keeps_engine_without_competition),
		cmocka_unit_test(test_timeslice_ends_for_a_copy_only_group),
		cmocka_unit_test(test_timeslice_next_group_keeps_its_slice),
		cmocka_unit_test(test_timeslice_completes_every_queued_command),
		cmocka_unit_test(test_preemption_keeps_channel_order),
		cmocka_unit_test(test_timeslice_serves_every_group_in_turn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
