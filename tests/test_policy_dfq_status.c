/* dfq with `active_at_barrier` (the default): a task that ran in the free
 * run but is between two requests at the barrier instant is not idle.
 * Seed 1325 (hdfq, volta, reorder: t6 0.78 vs 0.36): a blocking host
 * task alone in a free run (its co-runners denied) ran 2646 requests,
 * and the fixed free run ended in the same 24 us gap between its
 * completion and its next submission every time; the drain was empty, so
 * the decision came at that instant, counted it idle and pulled it
 * forward to the denied tasks' vtime, a free run's worth of credit lost
 * every second episode. The engagement now watches such a task for one
 * poll (the scheduler's own resolution of status, NEON 4: the polling
 * thread) before deciding. */
#include "tests/support/dfq_fixture.h"

/* a and b each run a request in the first free run and are idle at the
 * barrier; a submits again 10 us later, b stays idle. */
static struct mock_hal *idle_at_barrier(struct hal_task **a,
					struct hal_task **b,
					struct hal_chan **ca,
					struct hal_chan **cb)
{
	const char *const params[] = { "sample_requests=4", NULL };
	struct mock_hal *m = dfq_start(params);

	two_tasks(m, a, b, ca, cb);
	assert_int_equal(mock_submit(m, *ca), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(m, *cb), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 20 * MS);
	mock_complete(m, *ca, 1);
	mock_complete(m, *cb, 1);
	mock_advance(m, 25 * MS);               /* the barrier: nothing out */
	mock_advance(m, 25 * MS + 10 * US);
	return m;
}

/* a's next submission, 10 us after the barrier, is caught at its trapped
 * doorbell; at the poll a is active and sampled, b is not. */
static void test_submit_within_a_poll_of_an_empty_drain_is_active(
	void **state)
{
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	struct mock_hal *m = idle_at_barrier(&a, &b, &ca, &cb);

	(void)state;
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_advance(m, 26 * MS);               /* the poll: sample a */
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	run_until_held(m, ca, 300 * US);
	assert_int_equal(mock_phases(m, "sample a"), 1);
	assert_int_equal(mock_phases(m, "sample b"), 0);
	/* a is the only active task: b, idle through the look, is pulled
	 * forward to it */
	assert_int_equal(mock_vtime(m, b), mock_vtime(m, a));
	mock_hal_free(m);
}

/* Nobody submits within the poll: both idle, nobody sampled, and the
 * free run starts one poll after the barrier. */
static void test_idle_through_the_poll_is_idle(void **state)
{
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	struct mock_hal *m = idle_at_barrier(&a, &b, &ca, &cb);

	(void)state;
	mock_advance(m, 26 * MS);
	assert_int_equal(mock_phases(m, "sample a"), 0);
	assert_int_equal(mock_phases(m, "sample b"), 0);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_submit_within_a_poll_of_an_empty_drain_is_active),
		cmocka_unit_test(test_idle_through_the_poll_is_idle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
