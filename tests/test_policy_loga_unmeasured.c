/* loga: work in channel RAM of a channel the poll has never measured,
 * left waiting while the polled (compute) engine idled, is for another
 * engine (a copy-only task, or a task's copy channel), and does not make
 * the task active. Active, its
 * vtime never charged, it held the system vtime for good and every
 * measured task was denied for ever (seed 696 on kepler: shares 0.20 vs
 * 0.65 with one idle task more, whose channel lengthened the phases). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/loga_script.h"

/* Phase [11ms,13ms): a runs 1 ms, then the engine idles; b, never
 * measured, shows work pending (its copies). b is idle: pulled up to
 * a's vtime, and a, alone in the system vtime, is not denied. */
static void test_unmeasured_pending_with_engine_idle_is_idle(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;

	(void)state;
	two_tasks_second_phase(m, &a, &b, &ca, &cb);
	mock_set_chram(m, cb, HAL_CHRAM_PENDING);
	sample(m, mock_now(m), ca, 1);
	sample(m, mock_now(m) + 1 * MS, NULL, 0);
	end_poll(m);
	assert_int_equal(mock_vtime(m, a), 12 * MS);
	assert_int_equal(mock_vtime(m, b), 12 * MS);
	assert_false(mock_trap_armed(m, ca));
	assert_int_not_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_hal_free(m);
}

/* The same idle engine, but b was measured in an earlier phase: its
 * pending work may be for the polled engine (it arrived as the engine
 * went idle), so it stays active, keeps its vtime and a, a whole epoch
 * ahead, is denied. */
static void test_measured_before_pending_stays_active(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	uint64_t t;

	(void)state;
	two_tasks_second_phase(m, &a, &b, &ca, &cb);
	t = mock_now(m);
	sample(m, t, cb, 1);            /* b measured: 1 ms of 2 */
	sample(m, t + 1 * MS, ca, 1);
	end_poll(m);
	wake(m);                        /* [23ms,25ms), a 12 ms epoch */
	mock_set_chram(m, cb, HAL_CHRAM_PENDING);
	t = mock_now(m);
	sample(m, t, ca, 1);
	sample(m, t + 1 * MS, NULL, 0);
	end_poll(m);
	assert_int_equal(mock_vtime(m, b), 6 * MS);
	assert_int_equal(mock_vtime(m, a), 6 * MS + 12 * MS);
	assert_true(mock_trap_armed(m, ca));
	assert_int_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_hal_free(m);
}

/* Measured is per channel: b's first channel was measured, then only
 * its second, never measured (its copies), shows work while the engine
 * idles. b is idle: pulled up to a's vtime, and a is not denied. Per
 * task, b stayed active with nothing charged and held the system vtime
 * (seed 733 of the generator's edition 4, hdfq over LoGA: a VM entity
 * whose compute tasks had exited and whose copy throttle was left kept
 * every other entity denied for the last 2.6 s of the run). */
static void test_measured_channel_not_the_pending_one(void **state)
{
	struct mock_hal *m = loga_new(NULL);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb, *copies;
	uint64_t t;

	(void)state;
	two_tasks(m, &a, &b, &ca, &cb);
	copies = mock_chan_add(m, b);
	end_poll(m);
	wake(m);
	t = mock_now(m);
	sample(m, t, cb, 1);            /* b measured on its first channel */
	sample(m, t + 1 * MS, ca, 1);
	end_poll(m);
	assert_true(mock_vtime(m, b) < mock_vtime(m, a));
	wake(m);
	mock_set_chram(m, copies, HAL_CHRAM_PENDING);
	t = mock_now(m);
	sample(m, t, ca, 1);
	sample(m, t + 1 * MS, NULL, 0);
	end_poll(m);
	assert_int_equal(mock_vtime(m, b), mock_vtime(m, a));
	assert_false(mock_trap_armed(m, ca));
	assert_int_not_equal(mock_submit(m, ca), GS_SUBMIT_HOLD);
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_unmeasured_pending_with_engine_idle_is_idle),
		cmocka_unit_test(test_measured_before_pending_stays_active),
		cmocka_unit_test(test_measured_channel_not_the_pending_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
