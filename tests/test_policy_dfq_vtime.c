/* dfq against the scripted mock HAL: virtual time (charge by count or
 * by share, idle tasks, sleeping tasks) and the deny rule. */
#include "tests/support/dfq_fixture.h"

/* ---- virtual time ----------------------------------------------------- */

/* a runs 300us requests, b 100us: the 25ms of the first free run are split
 * 3:1; b sets the system vtime; an idle task c is pulled up to it; a task
 * that appears later starts there. */
static void test_vtime_two_tasks_and_idle(void **state)
{
	const char *const params[] = { "sample_requests=4", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b = mock_task_add(m, "b", 1);
	struct hal_task *c = mock_task_add(m, "c", 1);
	struct hal_chan *ch[2] = { mock_chan_add(m, a), mock_chan_add(m, b) };
	const uint64_t req[2] = { 300 * US, 100 * US };
	struct hal_task *d;

	(void)state;
	mock_chan_add(m, c);
	cycle(m, ch, req, 2);
	assert_int_equal(mock_phases(m, "sample c"), 0); /* idle: no sample */
	assert_int_equal(mock_vtime(m, a), 18750 * US);
	assert_int_equal(mock_vtime(m, b), 6250 * US);
	assert_int_equal(mock_vtime(m, c), 6250 * US);
	/* accounted: the free-run share plus the sampled busy time */
	assert_int_equal(mock_accounted(m, a), 18750 * US + 4 * 300 * US);
	assert_int_equal(mock_accounted(m, b), 6250 * US + 4 * 100 * US);
	assert_int_equal(mock_accounted(m, c), 0);
	/* free run for two sampled tasks */
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);

	d = mock_task_add(m, "d", 1);
	assert_int_equal(mock_vtime(m, d), 6250 * US);

	/* next cycle: the 50ms free run is split 3:1 */
	cycle(m, ch, req, 2);
	assert_int_equal(mock_vtime(m, a), 18750 * US + 37500 * US);
	assert_int_equal(mock_vtime(m, b), 6250 * US + 12500 * US);
	/* c and d idle and behind: pulled forward to b */
	assert_int_equal(mock_vtime(m, c), 18750 * US);
	assert_int_equal(mock_vtime(m, d), 18750 * US);
	mock_hal_free(m);
}

/* Default rules. A task is charged the requests it ran in the free run
 * times its sampled size; a task idle at the barrier is not sampled, keeps
 * its estimate, is not charged and is pulled forward, but keeps its slot
 * in the free-run length. */
static void test_default_charge_by_count_and_status_at_barrier(void **state)
{
	const char *const params[] = { "sample_requests=4", NULL };
	struct mock_hal *m = dfq_start(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b = mock_task_add(m, "b", 1);
	struct hal_chan *ca = mock_chan_add(m, a), *cb = mock_chan_add(m, b);

	(void)state;
	/* first free run: one request each, in flight at the barrier */
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	mock_complete(m, ca, 1);
	mock_complete(m, cb, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));            /* drained: sample a */
	run_until_held(m, ca, 300 * US);
	run_until_held(m, cb, 100 * US);          /* then b, then decide */
	assert_int_equal(mock_phases(m, "sample a"), 1);
	assert_int_equal(mock_phases(m, "sample b"), 1);
	/* one request each in the free run: 1 x 300us and 1 x 100us, not the
	 * 25ms free run split 3:1 */
	assert_int_equal(mock_vtime(m, a), 300 * US);
	assert_int_equal(mock_vtime(m, b), 100 * US);
	assert_int_equal(mock_accounted(m, a), 300 * US + 4 * 300 * US);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);

	/* second free run: a ends it with a request in flight, b idle */
	mock_complete(m, ca, outstanding(m, ca));
	mock_complete(m, cb, outstanding(m, cb));
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_advance(m, mock_timer_when(m, PHASE));
	mock_complete(m, ca, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	/* drained at the barrier instant with b, which ran in the free run,
	 * idle: one poll's look at b before the sample (seed 1325) */
	mock_advance(m, mock_now(m) + 1 * MS);
	run_until_held(m, ca, 300 * US);
	assert_int_equal(mock_phases(m, "sample b"), 1); /* not sampled */
	/* a ran 2 requests (its released one and one more): +600us; b is
	 * idle and pulled forward to a, the only active task */
	assert_int_equal(mock_vtime(m, a), 900 * US);
	assert_int_equal(mock_vtime(m, b), 900 * US);
	/* b still wants the GPU: its slot keeps the free run at 50ms */
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	mock_hal_free(m);
}

/* By count, tasks cannot together be charged more than the free run. */
static void test_charge_by_count_capped_at_free_run(void **state)
{
	const char *const params[] = { "sample_requests=4", NULL };
	struct mock_hal *m = dfq_start(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	int i;

	(void)state;
	/* 200 requests of 300us would be 60ms in a 25ms free run */
	for (i = 0; i < 200; i++) {
		assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
		mock_complete(m, ca, 1);
	}
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	/* alone, its sample starts at the barrier with that request out */
	mock_advance(m, 25 * MS);
	run_until_held(m, ca, 300 * US);
	assert_int_equal(mock_vtime(m, a), 25 * MS);
	mock_hal_free(m);
}

/* The measured request size includes time a sleeping task's request is
 * seen outstanding only up to the next observation (a poll tick). */
static void test_estimate_of_sleeping_task(void **state)
{
	const char *const params[] = { "sample_requests=2", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	(void)state;
	free_run_work(m, ca);
	mock_advance(m, 25 * MS);
	/* 100us request at 25.2ms, done at 25.3, seen by the 26ms poll;
	 * next at 27.5, done at 27.6, the task submits again at 27.6 */
	mock_advance(m, 25 * MS + 200 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	mock_advance(m, 25 * MS + 300 * US);
	mock_complete(m, ca, 1);
	mock_advance(m, 27 * MS + 500 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	mock_advance(m, 27 * MS + 600 * US);
	mock_complete(m, ca, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	/* busy 800us (25.2 -> 26.0) + 100us, 2 requests: 450us average;
	 * alone, it gets the whole free run in vtime whatever its size */
	assert_int_equal(mock_accounted(m, a), 25 * MS + 900 * US);
	mock_hal_free(m);
}

/* ---- deny ------------------------------------------------------------- */

/* a (300us) pulls ahead of b (100us) by 12.5, 37.5, 62.5 ms after three
 * cycles; at 62.5 >= the 50 ms free run it is denied: its channel stays
 * trapped and its submissions are held. While denied it is not sampled
 * nor charged; b alone is charged the next free run, and a is let go. */
static void run_deny(void **state, int account_only)
{
	const char *const deny[] = { "sample_requests=4", NULL };
	const char *const acct[] = { "sample_requests=4", "account_only=true",
				     NULL };
	struct mock_hal *m = dfq_new(account_only ? acct : deny);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	struct hal_chan *ch[2];
	const uint64_t req[2] = { 300 * US, 100 * US };
	uint64_t barrier;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	ch[0] = ca;
	ch[1] = cb;
	cycle(m, ch, req, 2);
	cycle(m, ch, req, 2);
	assert_false(mock_trap_armed(m, ca));
	cycle(m, ch, req, 2);
	assert_int_equal(mock_vtime(m, a), 93750 * US);
	assert_int_equal(mock_vtime(m, b), 31250 * US);
	if (account_only) {
		assert_false(mock_trap_armed(m, ca));
		assert_false(mock_held(m, a));
		mock_hal_free(m);
		return;
	}
	assert_true(mock_trap_armed(m, ca));
	assert_false(mock_trap_armed(m, cb));
	assert_true(mock_held(m, a));            /* its held submit stays */
	assert_false(mock_held(m, b));
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);

	/* the denied free run: b runs, a waits */
	barrier = mock_timer_when(m, PHASE);
	free_run_work(m, cb);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_HELD);
	mock_advance(m, barrier);
	/* only b is sampled */
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_ALLOW);
	run_until_held(m, cb, 100 * US);
	assert_int_equal(mock_phases(m, "sample a"), 3);
	assert_int_equal(mock_phases(m, "sample b"), 4);
	/* b charged all 50 ms: 81.25 vs a's 93.75, lead 12.5: a released;
	 * the denied task still counts a slot: free run 50 ms */
	assert_int_equal(mock_vtime(m, a), 93750 * US);
	assert_int_equal(mock_vtime(m, b), 81250 * US);
	assert_false(mock_held(m, a));
	assert_false(mock_trap_armed(m, ca));
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	mock_hal_free(m);
}

static void test_deny_ahead_and_release_later(void **state)
{
	run_deny(state, 0);
}

static void test_account_only_never_denies(void **state)
{
	run_deny(state, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vtime_two_tasks_and_idle),
		cmocka_unit_test(test_default_charge_by_count_and_status_at_barrier),
		cmocka_unit_test(test_charge_by_count_capped_at_free_run),
		cmocka_unit_test(test_estimate_of_sleeping_task),
		cmocka_unit_test(test_deny_ahead_and_release_later),
		cmocka_unit_test(test_account_only_never_denies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
