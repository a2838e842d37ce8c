/* Driving loga through the scripted mock HAL (test_policy_loga*.c): the
 * test plays the hardware and calls ops->poll_change with each sample
 * that differs from the one before, and ops->poll_end when the loop
 * reaches its `until`. Timer 0 is the end of the sleep
 * phase. Include after cmocka.h. */
#ifndef GS_TESTS_LOGA_SCRIPT_H
#define GS_TESTS_LOGA_SCRIPT_H

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_loga;

#define US MOCK_US
#define MS MOCK_MS
#define WAKE 0

static inline struct mock_hal *loga_new(const char *const *params)
{
	struct mock_hal *m = mock_hal_new(&gs_policy_loga, params);

	mock_advance(m, 0);
	return m;
}

/* What the loop reads at `t` (absolute): channel c loaded, running a
 * command or not; c NULL: nothing loaded. */
static inline void sample(struct mock_hal *m, uint64_t t,
			  struct hal_chan *c, int busy)
{
	struct hal_engine_status st = {
		c ? hal_chan_id(c) : HAL_CHAN_NONE, HAL_CHAN_NONE,
		c ? HAL_CTX_VALID : HAL_CTX_INVALID, (hal_u8)busy,
	};

	mock_advance(m, t);
	mock_set_engine_status(m, 0, HAL_ENGINE_COMPUTE, &st);
	gs_policy_loga.poll_change(mock_sched(m), &st, t);
}

/* The running poll loop's end. */
static inline uint64_t poll_until(struct mock_hal *m)
{
	uint64_t until = 0;

	assert_true(mock_poll_active(m, &until));
	return until;
}

/* The loop reaches its end: ops->poll_end at `until`. */
static inline void end_poll(struct mock_hal *m)
{
	mock_advance(m, poll_until(m));
	gs_policy_loga.poll_end(mock_sched(m));
}

/* Sleep through the non-poll phase; the next poll phase starts. */
static inline void wake(struct mock_hal *m)
{
	uint64_t t = mock_timer_when(m, WAKE);

	assert_true(t != MOCK_NEVER);
	mock_advance(m, t);
}

/* Two tasks, one channel each, created at 0 (the first poll phase, 1ms,
 * starts with the first channel; the second adds to the next one). */
static inline void two_tasks(struct mock_hal *m, struct hal_task **a,
			     struct hal_task **b, struct hal_chan **ca,
			     struct hal_chan **cb)
{
	*a = mock_task_add(m, "a", 1);
	*b = mock_task_add(m, "b", 1);
	*ca = mock_chan_add(m, *a);
	*cb = mock_chan_add(m, *b);
}

/* two_tasks, then on to the first poll phase that sees both channels:
 * [11ms,13ms), closing a 12ms epoch. */
static inline void two_tasks_second_phase(struct mock_hal *m,
					  struct hal_task **a,
					  struct hal_task **b,
					  struct hal_chan **ca,
					  struct hal_chan **cb)
{
	two_tasks(m, a, b, ca, cb);
	end_poll(m);
	wake(m);
	assert_int_equal(mock_now(m), 11 * MS);
}

#endif
