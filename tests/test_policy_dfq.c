/* dfq (NEON's Disengaged Fair Queueing) against the scripted mock HAL
 * (tests/support/dfq_fixture.h): the episode's phases (virtual time and
 * deny: test_policy_dfq_vtime.c; lagging fences and task lifetime:
 * test_policy_dfq_tasks.c). */
#include "tests/support/dfq_fixture.h"

/* ---- phases ----------------------------------------------------------- */

/* The paper's standalone case: an episode, then a 25 ms free run even when
 * the request mark ends the sample before 5 ms. */
static void test_single_task_alone(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a;
	struct hal_chan *ca;
	unsigned allowed;

	(void)state;
	assert_int_equal(mock_timer_when(m, PHASE), 25 * MS);
	a = mock_task_add(m, "a", 1);
	ca = mock_chan_add(m, a);
	assert_false(mock_trap_armed(m, ca));      /* free run: disengaged */
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);

	/* barrier at 25ms with a 19us request still in flight: a is the only
	 * task that wants the GPU, so it has it alone already and its sample
	 * starts at once (no drain, no poll), counting that request */
	mock_advance(m, 25 * MS);
	assert_true(mock_trap_armed(m, ca));
	assert_int_equal(mock_phases(m, "free-run"), 1);
	assert_int_equal(mock_phases(m, "drain"), 0);
	assert_int_equal(mock_timer_when(m, PHASE), 30 * MS);
	allowed = run_until_held(m, ca, 19 * US);
	assert_int_equal(allowed, 96);
	assert_int_equal(mock_phases(m, "sample a"), 1);
	/* the sample took 97 x 19us < 5ms; the free run is still 25ms */
	assert_int_equal(mock_now(m), 25 * MS + 97 * 19 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 25 * MS);
	assert_false(mock_trap_armed(m, ca));
	assert_int_equal(mock_releases(m, a), 1); /* the 97th went through */
	assert_int_equal(mock_timer_when(m, POLL), MOCK_NEVER);
	/* it had the whole first free run (25ms) */
	assert_int_equal(mock_vtime(m, a), 25 * MS);
	mock_hal_free(m);
}

/* A lone task that pipelines, at the end of its sample time with requests
 * out: nobody else wants the GPU, so the free run starts at once (the
 * requests run in it) rather than the GPU idling until a poll tick sees
 * them done; its estimate comes from the completions seen. */
static void test_lone_sample_end_does_not_idle(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	(void)state;
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	mock_advance(m, 25 * MS + 100 * US);
	mock_complete(m, ca, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	mock_advance(m, 30 * MS);
	assert_int_equal(mock_phases(m, "sample a"), 1);
	assert_int_equal(mock_timer_when(m, PHASE), 55 * MS);
	assert_false(mock_trap_armed(m, ca));
	assert_int_equal(outstanding(m, ca), 2);
	mock_hal_free(m);
}

/* Two tasks: barrier, drain, sample a then b, free run of 2 x 25 ms. */
static void test_phase_sequence_two_tasks(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	uint64_t t;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	assert_true(mock_trap_armed(m, ca) && mock_trap_armed(m, cb));
	/* both requests finish at 25.5, both tasks submit again: held */
	mock_advance(m, 25 * MS + 500 * US);
	mock_complete(m, ca, 1);
	mock_complete(m, cb, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	assert_int_equal(mock_phases(m, "drain"), 1);
	/* a alone for its 5ms sample; b stays held */
	assert_int_equal(mock_releases(m, a), 1);
	assert_true(mock_held(m, b));
	assert_int_equal(mock_timer_when(m, PHASE), 30 * MS + 500 * US);
	/* a runs 2ms requests: 25.5, 27.5, 29.5; at 30.5 the sample is
	 * over and the one in flight finishes at 31.5, seen when a's next
	 * submission is held */
	assert_int_equal(run_until_held(m, ca, 2 * MS), 2);
	assert_int_equal(mock_now(m), 31 * MS + 500 * US);
	assert_int_equal(mock_phases(m, "sample a"), 1);
	/* now b alone */
	assert_true(mock_held(m, a));
	assert_int_equal(mock_releases(m, b), 1);
	assert_int_equal(mock_timer_when(m, PHASE), 36 * MS + 500 * US);
	assert_int_equal(run_until_held(m, cb, 1 * MS), 4);
	t = mock_now(m);
	assert_int_equal(t, 36 * MS + 500 * US);
	assert_int_equal(mock_phases(m, "sample b"), 1);
	/* free run: 5 x 5ms x 2 sampled tasks, both released, disengaged */
	assert_int_equal(mock_timer_when(m, PHASE), t + 50 * MS);
	assert_false(mock_held(m, a) || mock_held(m, b));
	assert_false(mock_trap_armed(m, ca) || mock_trap_armed(m, cb));
	assert_int_equal(mock_phases(m, "free-run"), 1);
	mock_advance(m, t + 50 * MS);
	assert_int_equal(mock_phases(m, "free-run"), 2);
	mock_hal_free(m);
}

static void test_sample_cut_by_request_count(void **state)
{
	const char *const params[] = { "sample_requests=8", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	(void)state;
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_complete(m, ca, 1);
	mock_advance(m, 25 * MS);
	/* nothing outstanding: sampling starts at the barrier, and the
	 * empty drain leaves no span */
	assert_int_equal(mock_phases(m, "drain"), 0);
	assert_int_equal(mock_timer_when(m, PHASE), 30 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	assert_int_equal(run_until_held(m, ca, 100 * US), 7);
	/* 8 requests of 100us: the sample ended at 25.8ms, not 30ms */
	assert_int_equal(mock_now(m), 25 * MS + 800 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 25 * MS);
	mock_hal_free(m);
}

/* With a cap of one request, the held submission released at the start
 * of the sample is the whole sample. */
static void test_sample_of_one_request(void **state)
{
	const char *const params[] = { "sample_requests=1", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	free_run_work(m, ca);
	free_run_work(m, cb);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	assert_int_equal(run_until_held(m, ca, 300 * US), 0);
	/* b: its held submission is released and is its one request */
	assert_int_equal(mock_releases(m, b), 1);
	assert_int_equal(mock_timer_when(m, PHASE), MOCK_NEVER);
	assert_int_equal(run_until_held(m, cb, 100 * US), 0);
	assert_int_equal(mock_vtime(m, a), 18750 * US);
	assert_int_equal(mock_vtime(m, b), 6250 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	mock_hal_free(m);
}

/* measure_episode: free run = factor x (barrier to decision). */
static void test_measure_episode(void **state)
{
	const char *const params[] = { "measure_episode=true",
				       "sample_requests=8", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	struct hal_chan *c[1] = { ca };
	const uint64_t req[1] = { 200 * US };

	(void)state;
	cycle(m, c, req, 1);
	/* episode 25ms .. 26.6ms (8 x 200us) */
	assert_int_equal(mock_now(m), 25 * MS + 1600 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 8 * MS);
	mock_hal_free(m);
}

static void test_drain_waits_for_outstanding(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	/* a has two requests queued, b one */
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_timer_when(m, POLL), 26 * MS);
	mock_complete(m, cb, 1);
	mock_complete(m, ca, 1);
	mock_advance(m, 26 * MS);
	/* a still has one: no sampling yet, next poll at 27 */
	assert_int_equal(mock_phases(m, "drain"), 0);
	assert_int_equal(mock_timer_when(m, POLL), 27 * MS);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, 26 * MS + 500 * US);
	assert_int_equal(mock_phases(m, "drain"), 0);
	assert_int_equal(mock_releases(m, b), 0);
	mock_complete(m, ca, 1);
	/* seen at the next poll */
	mock_advance(m, 27 * MS);
	assert_int_equal(mock_phases(m, "drain"), 1);
	assert_int_equal(mock_releases(m, b), 0); /* a is sampled first */
	assert_int_equal(mock_timer_when(m, PHASE), 32 * MS);
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_task_alone),
		cmocka_unit_test(test_lone_sample_end_does_not_idle),
		cmocka_unit_test(test_phase_sequence_two_tasks),
		cmocka_unit_test(test_sample_cut_by_request_count),
		cmocka_unit_test(test_sample_of_one_request),
		cmocka_unit_test(test_measure_episode),
		cmocka_unit_test(test_drain_waits_for_outstanding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
