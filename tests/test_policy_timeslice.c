/* timeslice (NEON 3.1-3.2) against the scripted HAL: token rotation,
 * engaged and disengaged trapping, the end-of-slice drain and overuse
 * charge, skipped turns, kill of a stuck task (tasks coming and going, a
 * task alone, skip_idle: test_policy_timeslice_tasks.c). */
#include "tests/support/timeslice_fixture.h"

/* ---- token and traps ------------------------------------------------- */

static void test_disengaged_holder_direct_others_held(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 3);
	/* The first task to open a channel holds the token. */
	assert_int_equal(disengaged_holder(&f, 3), 0);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	assert_true(mock_held(f.m, f.t[1]));
	assert_true(mock_held(f.m, f.t[2]));
	assert_int_equal(mock_submitted(f.m, f.c[1]), 0);
	/* Nothing moves before the slice is over. */
	mock_complete(f.m, f.c[0], 2);
	mock_advance(f.m, 29 * MS);
	assert_int_equal(disengaged_holder(&f, 3), 0);
	assert_true(mock_held(f.m, f.t[1]));
	mock_hal_free(f.m);
}

static void test_engaged_holder_trapped_but_allowed(void **state)
{
	static const char *const p[] = { "engaged=true", NULL };
	struct fixture f;
	(void)state;

	setup_tasks(&f, p, 2);
	assert_true(mock_trap_armed(f.m, f.c[0]));
	assert_true(mock_trap_armed(f.m, f.c[1]));
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submitted(f.m, f.c[0]), 1);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	mock_complete(f.m, f.c[0], 1);
	mock_advance(f.m, 30 * MS);
	/* b holds the token now: its held write went through, a's trap. */
	assert_int_equal(mock_releases(f.m, f.t[1]), 1);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 1);
	assert_true(mock_trap_armed(f.m, f.c[1]));
	assert_true(mock_trap_armed(f.m, f.c[0]));
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	mock_hal_free(f.m);
}

static void test_rotation_order(void **state)
{
	static const char *const p[] = { "skip_idle=false", NULL };
	static const int expect[] = { 1, 2, 3, 0, 1, 2, 3, 0 };
	struct fixture f;
	unsigned i;
	(void)state;

	setup_tasks(&f, p, 4);
	assert_int_equal(disengaged_holder(&f, 4), 0);
	for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		mock_advance(f.m, (i + 1) * 30 * MS);
		assert_int_equal(disengaged_holder(&f, 4), expect[i]);
	}
	mock_hal_free(f.m);
}

static void test_next_holder_released_and_untrapped(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 3);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 30 * MS);
	assert_int_equal(disengaged_holder(&f, 3), 1);
	assert_int_equal(mock_releases(f.m, f.t[1]), 1);
	assert_false(mock_held(f.m, f.t[1]));
	assert_int_equal(mock_submitted(f.m, f.c[1]), 1);
	/* c waits for its own turn; a is trapped again. */
	assert_true(mock_held(f.m, f.t[2]));
	assert_int_equal(mock_releases(f.m, f.t[2]), 0);
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[1]), MOCK_SUBMIT_DIRECT);
	/* The next slice ends at 60ms, not before. */
	assert_int_equal(mock_timer_when(f.m, 0), 60 * MS);
	mock_complete(f.m, f.c[1], 2);
	mock_advance(f.m, 60 * MS);
	assert_int_equal(disengaged_holder(&f, 3), 2);
	assert_int_equal(mock_releases(f.m, f.t[2]), 1);
	mock_hal_free(f.m);
}

/* ---- the end-of-slice drain and overuse ------------------------------ */

static void test_slice_end_waits_for_outstanding_and_charges(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 2);
	mock_advance(f.m, 20 * MS);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	mock_complete(f.m, f.c[0], 1);
	mock_advance(f.m, 30 * MS);
	/* a has one request out: it is trapped again, b still waits. */
	assert_true(mock_trap_armed(f.m, f.c[0]));
	assert_true(mock_trap_armed(f.m, f.c[1]));
	assert_true(mock_held(f.m, f.t[1]));
	assert_int_equal(mock_accounted(f.m, f.t[0]), 30 * MS);
	/* a's further submissions are held during the drain. */
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 32 * MS + 500 * US);
	assert_true(mock_held(f.m, f.t[1]));
	/* Done at 32.5ms; the polling thread sees it at its 33ms tick. */
	mock_complete(f.m, f.c[0], 1);
	mock_advance(f.m, 32 * MS + 900 * US);
	assert_true(mock_held(f.m, f.t[1]));
	mock_advance(f.m, 33 * MS);
	assert_false(mock_held(f.m, f.t[1]));
	assert_int_equal(disengaged_holder(&f, 2), 1);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 33 * MS);
	assert_int_equal(mock_phases(f.m, "drain"), 1);
	assert_int_equal(mock_phases(f.m, "slice a"), 1);
	/* b's slice runs from the hand-over. */
	assert_int_equal(mock_timer_when(f.m, 0), 63 * MS);
	/* a's write held in the drain goes through at its next turn. */
	assert_true(mock_held(f.m, f.t[0]));
	mock_complete(f.m, f.c[1], 1);
	mock_advance(f.m, 63 * MS);
	assert_int_equal(mock_releases(f.m, f.t[0]), 1);
	assert_int_equal(disengaged_holder(&f, 2), 0);
	mock_hal_free(f.m);
}

static void test_overuse_below_slice_keeps_turn(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 2);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 50 * MS);       /* a overran by 20ms so far */
	mock_complete(f.m, f.c[0], 1);
	mock_advance(f.m, 51 * MS);       /* overuse 21ms < 30ms */
	assert_int_equal(disengaged_holder(&f, 2), 1);
	mock_complete(f.m, f.c[1], 1);     /* b's released request */
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 81 * MS);
	assert_int_equal(disengaged_holder(&f, 2), 0);
	mock_hal_free(f.m);
}

static void test_overuse_above_slice_skips_a_turn(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 2);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	/* a's request runs 40ms past its slice: overuse 40ms > 30ms. */
	mock_advance(f.m, 70 * MS);
	mock_complete(f.m, f.c[0], 1);
	mock_advance(f.m, 70 * MS + 1);
	mock_advance(f.m, 71 * MS);
	assert_int_equal(disengaged_holder(&f, 2), 1);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 71 * MS);
	/* a wants the GPU again, but skips its next turn... */
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[1]), MOCK_SUBMIT_DIRECT);
	mock_complete(f.m, f.c[1], 2);
	mock_advance(f.m, 101 * MS);
	assert_int_equal(disengaged_holder(&f, 2), 1);
	assert_true(mock_held(f.m, f.t[0]));
	/* ...b kept the token without being drained... */
	assert_int_equal(mock_timer_when(f.m, 0), 131 * MS);
	/* ...and with 41 - 30 = 11ms left a gets the next one. */
	mock_advance(f.m, 131 * MS);
	assert_int_equal(disengaged_holder(&f, 2), 0);
	assert_int_equal(mock_releases(f.m, f.t[0]), 1);
	mock_hal_free(f.m);
}

/* ---- kill -------------------------------------------------------------- */

static void test_kill_stuck_request_others_rotate(void **state)
{
	static const char *const p[] = { "kill_after=100ms", NULL };
	struct fixture f;
	(void)state;

	setup_tasks(&f, p, 3);
	/* a's request never completes. */
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 99 * MS);
	assert_false(mock_killed(f.m, f.t[0]));
	assert_true(mock_held(f.m, f.t[1]));
	mock_advance(f.m, 100 * MS);
	assert_true(mock_killed(f.m, f.t[0]));
	/* The token moved on at once... */
	assert_int_equal(mock_releases(f.m, f.t[1]), 1);
	assert_false(mock_trap_armed(f.m, f.c[1]));
	assert_true(mock_trap_armed(f.m, f.c[2]));
	assert_int_equal(mock_accounted(f.m, f.t[0]), 100 * MS);
	/* ...and b and c keep taking turns. */
	mock_complete(f.m, f.c[1], 1);
	assert_int_equal(mock_submit(f.m, f.c[1]), MOCK_SUBMIT_DIRECT);
	mock_complete(f.m, f.c[1], 1);
	mock_advance(f.m, 130 * MS);
	assert_false(mock_trap_armed(f.m, f.c[2]));
	assert_true(mock_trap_armed(f.m, f.c[1]));
	assert_int_equal(mock_releases(f.m, f.t[2]), 1);
	mock_complete(f.m, f.c[2], 1);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 160 * MS);
	assert_false(mock_trap_armed(f.m, f.c[1]));
	assert_false(mock_killed(f.m, f.t[1]));
	assert_false(mock_killed(f.m, f.t[2]));
	mock_hal_free(f.m);
}

static void test_kill_spares_task_queued_behind_other(void **state)
{
	static const char *const p[] = { "kill_after=100ms", NULL };
	const struct hal_engine_status idle = {
		HAL_CHAN_NONE, HAL_CHAN_NONE, HAL_CTX_INVALID, 0 };
	struct hal_engine_status run = { 0, HAL_CHAN_NONE, HAL_CTX_VALID, 1 };
	struct fixture f;
	(void)state;

	setup_tasks(&f, p, 2);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	/* a's command is the one on the engine: a is to blame. */
	run.cur_id = hal_chan_id(f.c[0]);
	mock_set_engine_status(f.m, 0, HAL_ENGINE_COMPUTE, &run);
	mock_advance(f.m, 100 * MS);
	assert_true(mock_killed(f.m, f.t[0]));
	assert_int_equal(mock_releases(f.m, f.t[1]), 1);
	/* The engine goes on running a's (closed) channel: b's request makes
	 * no progress, but b is not to blame and gets a fresh 100ms. */
	mock_advance(f.m, 200 * MS);
	assert_false(mock_killed(f.m, f.t[1]));
	assert_true(mock_mmio_reads(f.m) > 0);
	/* Then the engine is idle and b still does not progress: b it is. */
	mock_set_engine_status(f.m, 0, HAL_ENGINE_COMPUTE, &idle);
	mock_advance(f.m, 299 * MS);
	assert_false(mock_killed(f.m, f.t[1]));
	mock_advance(f.m, 300 * MS);
	assert_true(mock_killed(f.m, f.t[1]));
	mock_hal_free(f.m);
}

static void test_stall_clock_restarts_on_progress(void **state)
{
	static const char *const p[] = { "kill_after=100ms", NULL };
	struct fixture f;
	uint64_t t;
	(void)state;

	setup_tasks(&f, p, 1);
	/* Alone, a keeps many requests queued; one completes every 60ms. */
	for (t = 0; t < 10; t++)
		assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	for (t = 1; t <= 8; t++) {
		mock_advance(f.m, t * 60 * MS);
		mock_complete(f.m, f.c[0], 1);
	}
	/* The last progress is seen at the 481ms tick; then it stalls. */
	mock_advance(f.m, 580 * MS);
	assert_false(mock_killed(f.m, f.t[0]));
	mock_advance(f.m, 581 * MS);
	assert_true(mock_killed(f.m, f.t[0]));
	mock_hal_free(f.m);
}

static void test_kill_disabled_with_zero(void **state)
{
	static const char *const p[] = { "kill_after=0", NULL };
	struct fixture f;
	(void)state;

	setup_tasks(&f, p, 1);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	mock_advance(f.m, 120000 * MS);
	assert_false(mock_killed(f.m, f.t[0]));
	mock_hal_free(f.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disengaged_holder_direct_others_held),
		cmocka_unit_test(test_engaged_holder_trapped_but_allowed),
		cmocka_unit_test(test_rotation_order),
		cmocka_unit_test(test_next_holder_released_and_untrapped),
		cmocka_unit_test(test_slice_end_waits_for_outstanding_and_charges),
		cmocka_unit_test(test_overuse_below_slice_keeps_turn),
		cmocka_unit_test(test_overuse_above_slice_skips_a_turn),
		cmocka_unit_test(test_kill_stuck_request_others_rotate),
		cmocka_unit_test(test_kill_spares_task_queued_behind_other),
		cmocka_unit_test(test_stall_clock_restarts_on_progress),
		cmocka_unit_test(test_kill_disabled_with_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
