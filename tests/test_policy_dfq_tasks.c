/* dfq against the scripted mock HAL: completions the fences do not show
 * yet (a held submission on an idle channel), and tasks that come, exit
 * or are killed mid-episode. */
#include "tests/support/dfq_fixture.h"

/* ---- completions the fences do not show yet --------------------------- */

/* The fence the host reads lags the GPU: a blocking task submits again
 * before its last request shows complete. Held at the barrier, its
 * channel's RAM status says whether anything is left to run. Task b ran
 * in the free run, so a must really be drained before its sample. */
static void run_held_on_lagging_fence(const char *const *params,
				      uint32_t chram, int ends_drain)
{
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b = mock_task_add(m, "b", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	struct hal_chan *cb = mock_chan_add(m, b);
	uint64_t reads;

	assert_int_equal(mock_submit(m, cb), MOCK_SUBMIT_DIRECT);
	mock_complete(m, cb, 1);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	mock_advance(m, 25 * MS);
	mock_set_chram(m, ca, chram);
	reads = mock_mmio_reads(m);
	mock_advance(m, 25 * MS + 100 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	if (ends_drain) {
		assert_int_equal(mock_mmio_reads(m), reads + 1);
		assert_int_equal(mock_phases(m, "drain"), 1);
		assert_int_equal(mock_releases(m, a), 1);
	} else {
		assert_int_equal(mock_phases(m, "drain"), 0);
		assert_int_equal(mock_releases(m, a), 0);
		/* the fence catches up; the next poll sees it */
		mock_complete(m, ca, 1);
		mock_advance(m, 26 * MS);
		assert_int_equal(mock_phases(m, "drain"), 1);
		assert_int_equal(mock_releases(m, a), 1);
	}
	mock_hal_free(m);
}

static void test_held_on_idle_channel_ends_drain(void **state)
{
	(void)state;
	run_held_on_lagging_fence(NULL, HAL_CHRAM_IDLE, 1);
}

static void test_held_with_work_queued_waits_for_fence(void **state)
{
	(void)state;
	/* a task that pipelines: its channel still has work */
	run_held_on_lagging_fence(NULL, HAL_CHRAM_PENDING, 0);
}

static void test_check_chram_off_waits_for_fence(void **state)
{
	const char *const params[] = { "check_chram=false", NULL };

	(void)state;
	run_held_on_lagging_fence(params, HAL_CHRAM_IDLE, 0);
}

/* The same at the end of a sample: the held submission of an idle
 * channel ends the sample at once, and the request it shows done counts;
 * otherwise the poll tick sees the completion, 800us later. */
static void run_sample_end_on_lagging_fence(uint32_t chram, uint64_t busy)
{
	const char *const params[] = { "sample_requests=2", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);

	free_run_work(m, ca);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	mock_advance(m, 25 * MS + 100 * US);
	mock_complete(m, ca, 1);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	/* done at 25.2ms; the fence does not show it yet */
	mock_set_chram(m, ca, chram);
	mock_advance(m, 25 * MS + 200 * US);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_advance(m, mock_now(m));
	if (chram != HAL_CHRAM_IDLE) {
		assert_int_equal(mock_phases(m, "sample a"), 0);
		mock_complete(m, ca, 1);
		mock_advance(m, 26 * MS);
	}
	assert_int_equal(mock_phases(m, "sample a"), 1);
	assert_int_equal(mock_accounted(m, a), 25 * MS + busy);
	mock_hal_free(m);
}

static void test_sample_ends_at_held_submission_on_idle_channel(void **state)
{
	(void)state;
	run_sample_end_on_lagging_fence(HAL_CHRAM_IDLE, 200 * US);
}

static void test_sample_end_waits_for_fence_when_busy(void **state)
{
	(void)state;
	run_sample_end_on_lagging_fence(HAL_CHRAM_BUSY, 1 * MS);
}

/* ---- task lifetime ---------------------------------------------------- */

static void test_task_exit_mid_sample(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_task *b = mock_task_add(m, "b", 1);
	struct hal_task *c = mock_task_add(m, "c", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	struct hal_chan *cb = mock_chan_add(m, b);
	struct hal_chan *cc = mock_chan_add(m, c);

	(void)state;
	free_run_work(m, ca);
	free_run_work(m, cb);
	free_run_work(m, cc);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(m, cc), GS_SUBMIT_HOLD);
	mock_advance(m, 26 * MS + 500 * US);
	mock_task_exit(m, a);                  /* with a request in flight */
	mock_advance(m, mock_now(m));
	assert_int_equal(mock_phases(m, "sample a"), 1);
	/* b's turn at once */
	assert_int_equal(mock_releases(m, b), 1);
	assert_true(mock_held(m, c));
	assert_int_equal(mock_timer_when(m, PHASE), 31 * MS + 500 * US);
	run_until_held(m, cb, 1 * MS);
	assert_int_equal(mock_releases(m, c), 1);
	run_until_held(m, cc, 1 * MS);
	/* free run for the two tasks left */
	assert_int_equal(mock_phases(m, "sample c"), 1);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	assert_false(mock_held(m, b) || mock_held(m, c));
	mock_hal_free(m);
}

static void test_task_exit_while_draining(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	free_run_work(m, cb);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, 25 * MS + 300 * US);
	mock_task_exit(m, a);                  /* a's work is gone with it */
	mock_advance(m, mock_now(m));
	assert_int_equal(mock_phases(m, "drain"), 1);
	assert_int_equal(mock_releases(m, b), 1);
	mock_hal_free(m);
}

/* A request that keeps the drain waiting past kill_after kills its task. */
static void test_kill_after_while_draining(void **state)
{
	const char *const params[] = { "kill_after=10ms", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	assert_int_equal(mock_submit(m, ca), MOCK_SUBMIT_DIRECT);
	free_run_work(m, cb);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	mock_advance(m, 34 * MS);
	assert_false(mock_killed(m, a));
	assert_int_equal(mock_releases(m, b), 0);
	mock_advance(m, 35 * MS);
	assert_true(mock_killed(m, a));
	assert_false(mock_killed(m, b));
	assert_int_equal(mock_releases(m, b), 1);   /* b sampled */
	mock_hal_free(m);
}

/* A task that appears in a free run runs disengaged; one that appears
 * during an episode is trapped and held until its turn. */
static void test_new_task_traps_follow_phase(void **state)
{
	struct mock_hal *m = dfq_new(NULL);
	struct hal_task *a = mock_task_add(m, "a", 1);
	struct hal_chan *ca = mock_chan_add(m, a);
	struct hal_task *b;
	struct hal_chan *cb;

	(void)state;
	assert_false(mock_trap_armed(m, ca));
	free_run_work(m, ca);
	mock_advance(m, 25 * MS);
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_ALLOW);
	b = mock_task_add(m, "b", 1);
	cb = mock_chan_add(m, b);
	assert_true(mock_trap_armed(m, cb));
	assert_int_equal(mock_submit(m, cb), GS_SUBMIT_HOLD);
	run_until_held(m, ca, 1 * MS);
	/* b is sampled after a, though it was not in the free run */
	assert_int_equal(mock_releases(m, b), 1);
	run_until_held(m, cb, 1 * MS);
	/* b did not take part in the free run: a alone is charged it */
	assert_int_equal(mock_vtime(m, a), 25 * MS);
	assert_int_equal(mock_vtime(m, b), 0);
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_on_idle_channel_ends_drain),
		cmocka_unit_test(test_held_with_work_queued_waits_for_fence),
		cmocka_unit_test(test_check_chram_off_waits_for_fence),
		cmocka_unit_test(test_sample_ends_at_held_submission_on_idle_channel),
		cmocka_unit_test(test_sample_end_waits_for_fence_when_busy),
		cmocka_unit_test(test_task_exit_mid_sample),
		cmocka_unit_test(test_task_exit_while_draining),
		cmocka_unit_test(test_kill_after_while_draining),
		cmocka_unit_test(test_new_task_traps_follow_phase),
	
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
