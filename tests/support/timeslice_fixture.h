/* What timeslice's tests share (test_policy_timeslice*.c): timeslice
 * (NEON 3.1-3.2) against the scripted HAL, the test owning the clock: the
 * slice is 30ms and the polling thread ticks every 1ms unless a test says
 * otherwise. */
#ifndef GS_TESTS_TIMESLICE_FIXTURE_H
#define GS_TESTS_TIMESLICE_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_timeslice;

#define MS MOCK_MS
#define US MOCK_US

struct fixture {
	struct mock_hal *m;
	struct hal_task *t[4];
	struct hal_chan *c[4];
};

/* n tasks "a", "b", ... with one channel each, created at time 0 in that
 * order; params as for mock_hal_new. */
static inline void setup_tasks(struct fixture *f, const char *const *params, int n)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	int i;

	f->m = mock_hal_new(&gs_policy_timeslice, params);
	for (i = 0; i < n; i++) {
		f->t[i] = mock_task_add(f->m, names[i], 1);
		f->c[i] = mock_chan_add(f->m, f->t[i]);
	}
}

/* Disengaged, the holder is the one task whose doorbell is not trapped. */
static inline int disengaged_holder(struct fixture *f, int n)
{
	int i, holder = -1;

	for (i = 0; i < n; i++) {
		if (mock_trap_armed(f->m, f->c[i]))
			continue;
		assert_int_equal(holder, -1);
		holder = i;
	}
	return holder;
}

#endif
