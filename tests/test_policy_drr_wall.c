/* drr timing its batches by the wall clock (`busy_clock: false`, GERM's
 * rule, or a HAL whose busy counter never moves), against the scripted
 * mock HAL: the time charged is the wall time from the forward that found
 * nothing outstanding to the probe that sees the batch done, so only the
 * timing thread's tick (every 1 ms) may probe. The early probe, timed
 * from the batch's estimate, would measure that estimate plus its delay
 * whatever the batch cost. Quantum 500 us, early_probe 50 us. */
#include "tests/support/drr_fixture.h"

static const char *const wall[] = { "busy_clock=false", "early_probe=50us",
				    NULL };

/* A 20 us command sent at 0, done at once: charged the wall time to the
 * tick that sees it, 1 ms. With the early probe it was charged 550 us
 * (its estimate, a quantum, plus the delay), and every batch after it
 * its estimate plus 50 us: the estimate crept up by 50 us / 2^avg_shift
 * a batch until a tick came first, so the tick's phase, and with it the
 * tasks' order, set every charge (proptest reorder and time-scale, seed
 * 124: t0 0.14 vs 0.26). */
static void test_wall_clock_probes_only_at_ticks(void **state)
{
	struct fx f;
	(void)state;

	fx_init(&f, 1, wall);
	submit(&f, 0, 1);
	assert_int_equal(outstanding(&f, 0), 1);
	assert_int_equal(mock_timer_when(f.m, PROBE), MOCK_NEVER);
	finish(&f, 0, 20 * US);
	next_tick(&f);
	assert_int_equal(mock_now(f.m), 1 * MS);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 1 * MS);
	mock_hal_free(f.m);
}

/* A HAL without a busy counter (it never moves): the first batch may be
 * probed early (nothing says yet that the counter is missing), none after
 * the first probe that measured. */
static void test_no_busy_counter_stops_early_probes(void **state)
{
	static const char *const early[] = { "early_probe=50us", NULL };
	struct fx f;
	(void)state;

	fx_init(&f, 1, early);
	submit(&f, 0, 1);
	assert_int_equal(mock_timer_when(f.m, PROBE), 550 * US);
	mock_complete(f.m, f.c[0], 1);
	mock_advance(f.m, 550 * US);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 550 * US);
	submit(&f, 0, 1);
	assert_int_equal(outstanding(&f, 0), 1);
	assert_int_equal(mock_timer_when(f.m, PROBE), MOCK_NEVER);
	mock_hal_free(f.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wall_clock_probes_only_at_ticks),
		cmocka_unit_test(test_no_busy_counter_stops_early_probes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
