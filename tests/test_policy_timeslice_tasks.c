/* timeslice against the scripted HAL: the holder exiting, late tasks, a
 * task alone, skip_idle, parameters and an unknown timer. */
#include "tests/support/timeslice_fixture.h"

/* ---- tasks coming and going ----------------------------------------- */

static void test_holder_exit_passes_token(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 3);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 10 * MS);
	mock_task_exit(f.m, f.t[0]);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 10 * MS);
	assert_int_equal(mock_releases(f.m, f.t[1]), 1);
	assert_false(mock_trap_armed(f.m, f.c[1]));
	assert_true(mock_held(f.m, f.t[2]));
	/* A full slice for b from the hand-over, then c. */
	assert_int_equal(mock_timer_when(f.m, 0), 40 * MS);
	mock_complete(f.m, f.c[1], 1);
	mock_advance(f.m, 40 * MS);
	assert_int_equal(mock_releases(f.m, f.t[2]), 1);
	assert_false(mock_trap_armed(f.m, f.c[2]));
	mock_hal_free(f.m);
}

static void test_holder_exit_during_drain(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 2);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 35 * MS);
	assert_true(mock_held(f.m, f.t[1]));
	mock_task_exit(f.m, f.t[0]);
	assert_int_equal(mock_releases(f.m, f.t[1]), 1);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 35 * MS);
	/* b is alone: no drain at its slice end, it keeps the token. */
	assert_int_equal(mock_submit(f.m, f.c[1]), MOCK_SUBMIT_DIRECT);
	mock_advance(f.m, 70 * MS);
	assert_false(mock_trap_armed(f.m, f.c[1]));
	mock_hal_free(f.m);
}

static void test_late_task_joins_trapped(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 1);
	mock_advance(f.m, 5 * MS);
	f.t[1] = mock_task_add(f.m, "b", 1);
	f.c[1] = mock_chan_add(f.m, f.t[1]);
	f.c[2] = mock_chan_add(f.m, f.t[1]);
	assert_true(mock_trap_armed(f.m, f.c[1]));
	assert_true(mock_trap_armed(f.m, f.c[2]));
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 30 * MS);
	/* Both of b's channels open up when it takes the token. */
	assert_false(mock_trap_armed(f.m, f.c[1]));
	assert_false(mock_trap_armed(f.m, f.c[2]));
	assert_int_equal(mock_submitted(f.m, f.c[2]), 1);
	mock_hal_free(f.m);
}

static void test_alone_keeps_token(void **state)
{
	struct fixture f;
	int i;
	(void)state;

	setup_tasks(&f, NULL, 1);
	/* Work outstanding across several slice ends: never trapped, never
	 * drained, the slice simply renews. */
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	for (i = 1; i <= 3; i++) {
		mock_advance(f.m, (uint64_t)i * 30 * MS);
		assert_false(mock_trap_armed(f.m, f.c[0]));
		assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
		assert_int_equal(mock_timer_when(f.m, 0),
				 (uint64_t)(i + 1) * 30 * MS);
	}
	assert_int_equal(mock_phases(f.m, "drain"), 0);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 90 * MS);
	mock_hal_free(f.m);
}

static void test_alone_forgives_overuse(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 2);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	/* a overruns its slice by 100ms: overuse 100ms. */
	mock_advance(f.m, 130 * MS);
	mock_complete(f.m, f.c[0], 1);
	mock_advance(f.m, 131 * MS);
	assert_int_equal(disengaged_holder(&f, 2), 1);
	/* b leaves; a is alone (and pays one slice off on the way). */
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 140 * MS);
	mock_task_exit(f.m, f.t[1]);
	assert_int_equal(mock_releases(f.m, f.t[0]), 1);
	mock_complete(f.m, f.c[0], 1);
	/* A slice alone forgives the rest (NEON's "going solo"). */
	mock_advance(f.m, 170 * MS);
	f.t[2] = mock_task_add(f.m, "c", 1);
	f.c[2] = mock_chan_add(f.m, f.t[2]);
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 200 * MS);
	assert_false(mock_trap_armed(f.m, f.c[2]));
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	mock_complete(f.m, f.c[2], 1);
	/* a is not penalised any more: its turn comes right after c's. */
	mock_advance(f.m, 230 * MS);
	assert_false(mock_trap_armed(f.m, f.c[0]));
	assert_int_equal(mock_releases(f.m, f.t[0]), 2);
	mock_hal_free(f.m);
}

static void test_alone_engaged_traps_every_submission(void **state)
{
	static const char *const p[] = { "engaged=true", NULL };
	struct fixture f;
	(void)state;

	setup_tasks(&f, p, 1);
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_ALLOW);
	mock_advance(f.m, 30 * MS);
	/* still outstanding, but alone: no drain, still allowed */
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_ALLOW);
	assert_true(mock_trap_armed(f.m, f.c[0]));
	assert_int_equal(mock_submitted(f.m, f.c[0]), 2);
	mock_hal_free(f.m);
}

/* ---- skip_idle ---------------------------------------------------------- */

static void test_skip_idle_on_passes_over_idle_task(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 3);
	/* b has nothing to do; c is waiting. */
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 30 * MS);
	assert_int_equal(disengaged_holder(&f, 3), 2);
	assert_int_equal(mock_releases(f.m, f.t[2]), 1);
	mock_hal_free(f.m);
}

static void test_skip_idle_off_gives_idle_task_its_slice(void **state)
{
	static const char *const p[] = { "skip_idle=false", NULL };
	struct fixture f;
	(void)state;

	setup_tasks(&f, p, 3);
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 30 * MS);
	/* NEON's code: b holds the token (and the GPU idles) for 30ms. */
	assert_int_equal(disengaged_holder(&f, 3), 1);
	mock_advance(f.m, 59 * MS);
	assert_true(mock_held(f.m, f.t[2]));
	mock_advance(f.m, 60 * MS);
	assert_int_equal(disengaged_holder(&f, 3), 2);
	mock_hal_free(f.m);
}

static void test_skip_idle_holder_keeps_token_undrained(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 2);
	/* a is busy past its slice end but b does not want the GPU: a keeps
	 * the token, stays untrapped, and is not charged any overuse. */
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	mock_advance(f.m, 30 * MS);
	assert_false(mock_trap_armed(f.m, f.c[0]));
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_phases(f.m, "drain"), 0);
	/* Once b wants it, a is drained at the next slice end. */
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 60 * MS);
	assert_true(mock_trap_armed(f.m, f.c[0]));
	assert_true(mock_held(f.m, f.t[1]));
	mock_complete(f.m, f.c[0], 2);
	mock_advance(f.m, 61 * MS);
	assert_int_equal(disengaged_holder(&f, 2), 1);
	mock_hal_free(f.m);
}

static void test_slice_and_poll_params(void **state)
{
	static const char *const p[] = { "slice=10ms", "poll=5ms", NULL };
	struct fixture f;
	(void)state;

	setup_tasks(&f, p, 2);
	assert_int_equal(mock_submit(f.m, f.c[0]), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_timer_when(f.m, 0), 10 * MS);
	mock_advance(f.m, 11 * MS);
	mock_complete(f.m, f.c[0], 1);
	/* seen at the 15ms tick of the 5ms polling thread */
	mock_advance(f.m, 14 * MS);
	assert_true(mock_held(f.m, f.t[1]));
	mock_advance(f.m, 15 * MS);
	assert_false(mock_held(f.m, f.t[1]));
	assert_int_equal(mock_timer_when(f.m, 0), 25 * MS);
	mock_hal_free(f.m);
}

/* A timer id the policy never arms is an impossible state: reported
 * through HAL_WARN_ON (the mock fails a test that does not expect it),
 * once per expiry, and nothing else happens. */
static void test_unknown_timer_warns(void **state)
{
	struct fixture f;
	(void)state;

	setup_tasks(&f, NULL, 2);
	mock_expect_warnings(f.m);
	gs_policy_timeslice.timer(mock_sched(f.m), 7);
	assert_int_equal(mock_warnings(f.m), 1);
	assert_int_equal(disengaged_holder(&f, 2), 0);
	assert_true(mock_held(f.m, f.t[1]) == false);
	gs_policy_timeslice.timer(mock_sched(f.m), HAL_MAX_TIMERS - 1);
	assert_int_equal(mock_warnings(f.m), 2);
	mock_hal_free(f.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holder_exit_passes_token),
		cmocka_unit_test(test_holder_exit_during_drain),
		cmocka_unit_test(test_late_task_joins_trapped),
		cmocka_unit_test(test_alone_keeps_token),
		cmocka_unit_test(test_alone_forgives_overuse),
		cmocka_unit_test(test_alone_engaged_traps_every_submission),
		cmocka_unit_test(test_skip_idle_on_passes_over_idle_task),
		cmocka_unit_test(test_skip_idle_off_gives_idle_task_its_slice),
		cmocka_unit_test(test_skip_idle_holder_keeps_token_undrained),
		cmocka_unit_test(test_slice_and_poll_params),
		cmocka_unit_test(test_unknown_timer_warns),
	
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
