/* What dfq's tests share (test_policy_dfq*.c): dfq against the scripted
 * mock HAL, the tests playing the tasks by hand. A "blocking throttle"
 * here submits one request, and when it completes (the test moves the
 * fence) submits the next. Timer 0 is dfq's phase timer (free-run end,
 * sample end), timer 1 its poll tick. Default parameters: poll 1ms,
 * sample 5ms, 96 requests, free run 5 x 5ms per sampled task. */
#ifndef GS_TESTS_DFQ_FIXTURE_H
#define GS_TESTS_DFQ_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_dfq;

#define US MOCK_US
#define MS MOCK_MS
#define PHASE 0
#define POLL 1

/* A dfq instance whose first (empty) episode has run: a free run until
 * 25ms is under way. */
static inline struct mock_hal *dfq_start(const char *const *params)
{
	struct mock_hal *m = mock_hal_new(&gs_policy_dfq, params);

	mock_advance(m, 0);
	return m;
}

/* Most tests check the paper's literal rules: the free run split by
 * average request size, and a task active if it submitted in the free
 * run. `params` (NULL-terminated, up to 6) come after those. */
static inline struct mock_hal *dfq_new(const char *const *params)
{
	const char *all[9] = { "charge_by_count=false",
			       "active_at_barrier=false" };
	size_t i;

	for (i = 0; params && params[i]; i++) {
		assert_true(i < 6);
		all[2 + i] = params[i];
	}
	return dfq_start(all);
}

/* Tasks a and b with one channel each. */
static inline void two_tasks(struct mock_hal *m, struct hal_task **a,
		      struct hal_task **b, struct hal_chan **ca,
		      struct hal_chan **cb)
{
	*a = mock_task_add(m, "a", 1);
	*b = mock_task_add(m, "b", 1);
	*ca = mock_chan_add(m, *a);
	*cb = mock_chan_add(m, *b);
}

static inline uint64_t outstanding(struct mock_hal *m, struct hal_chan *c)
{
	return mock_submitted(m, c) - hal_fence_read(mock_sched(m), c);
}

/* The sampled task runs a blocking throttle of `req`-long requests; it has
 * one request in flight on entry. Each time it completes, the task submits
 * again, until dfq holds it. Returns how many submissions were allowed. The
 * poll tick dfq arms to move on is run before returning. */
static inline unsigned run_until_held(struct mock_hal *m, struct hal_chan *c,
			       uint64_t req)
{
	unsigned n = 0;

	for (;;) {
		int v;

		mock_advance(m, mock_now(m) + req);
		mock_complete(m, c, 1);
		v = mock_submit(m, c);
		if (v != GS_SUBMIT_ALLOW) {
			assert_int_equal(v, GS_SUBMIT_HOLD);
			mock_advance(m, mock_now(m));
			return n;
		}
		n++;
	}
}

/* In the free run: finish what was released at its start, then one more
 * request straight to the GPU (so the task is active). */
static inline void free_run_work(struct mock_hal *m, struct hal_chan *c)
{
	mock_complete(m, c, outstanding(m, c));
	assert_int_equal(mock_submit(m, c), MOCK_SUBMIT_DIRECT);
	mock_complete(m, c, 1);
}

/* A whole cycle for n tasks that are all allowed: work in the free run,
 * then at the barrier (nothing outstanding: no drain) each is sampled in
 * list order as a blocking throttle of req[i]. */
static inline void cycle(struct mock_hal *m, struct hal_chan **c,
		  const uint64_t *req, unsigned n)
{
	uint64_t barrier = mock_timer_when(m, PHASE);
	unsigned i;

	for (i = 0; i < n; i++)
		free_run_work(m, c[i]);
	mock_advance(m, barrier);
	for (i = 0; i < n; i++) {
		assert_int_equal(mock_submit(m, c[i]), GS_SUBMIT_ALLOW);
		run_until_held(m, c[i], req[i]);
	}
}

#endif
