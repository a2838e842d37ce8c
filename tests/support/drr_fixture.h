/* What drr's tests against the scripted HAL share (test_policy_drr*.c):
 * up to three tasks "a", "b", "c" with one channel each; the test plays
 * the GPU, completing the commands drr forwarded (moving the fences) and
 * advancing the busy counter by what they cost, then lets the timing
 * thread's tick (timer 0, every 1 ms) probe. The early probe is off
 * unless a test's parameters turn it on. */
#ifndef GS_TESTS_DRR_FIXTURE_H
#define GS_TESTS_DRR_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_drr;

#define US MOCK_US
#define MS MOCK_MS
#define TICK 0
#define PROBE 2

struct fx {
	struct mock_hal *m;
	struct hal_task *t[3];
	struct hal_chan *c[3];
	uint64_t busy;       /* the GPU's busy counter */
	uint64_t used[3];    /* GPU time each task's commands took */
};

static inline void fx_init(struct fx *f, unsigned n,
			   const char *const *params)
{
	static const char *const names[] = { "a", "b", "c" };
	const char *all[8] = { "early_probe=0" };
	unsigned i;

	for (i = 0; params && params[i]; i++) {
		assert_true(i < 6);
		all[1 + i] = params[i];
	}
	f->m = mock_hal_new(&gs_policy_drr, all);
	f->busy = 0;
	for (i = 0; i < n; i++) {
		f->t[i] = mock_task_add(f->m, names[i], 1);
		f->c[i] = mock_chan_add(f->m, f->t[i]);
		f->used[i] = 0;
	}
}

static inline uint64_t outstanding(struct fx *f, unsigned i)
{
	return mock_submitted(f->m, f->c[i]) -
	       hal_fence_read(mock_sched(f->m), f->c[i]);
}

static inline uint32_t pending(struct fx *f, unsigned i)
{
	return hal_shadow_pending(mock_sched(f->m), f->c[i]);
}

static inline void submit(struct fx *f, unsigned i, unsigned n)
{
	while (n--)
		assert_int_equal(mock_submit(f->m, f->c[i]),
				 MOCK_SUBMIT_SHADOWED);
}

/* The GPU runs everything task i has out, each command `cost` long. */
static inline void finish(struct fx *f, unsigned i, uint64_t cost)
{
	uint64_t k = outstanding(f, i);

	mock_complete(f->m, f->c[i], k);
	f->busy += k * cost;
	f->used[i] += k * cost;
	mock_set_gpu_busy(f->m, 0, f->busy);
}

static inline void next_tick(struct fx *f)
{
	uint64_t t = mock_timer_when(f->m, TICK);

	assert_true(t != MOCK_NEVER);
	mock_advance(f->m, t);
}

#endif
