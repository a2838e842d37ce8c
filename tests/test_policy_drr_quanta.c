/* drr's quanta (GERM 4.4, priority as a larger quantum): which tasks'
 * weights set them, against the scripted mock HAL.
 *
 * A task's quantum is the policy's (500 us) x its weight / the lowest
 * weight among the tasks that have submitted. The test reads a quantum
 * off the batch a visit sends: once the task's commands are measured at
 * 100 us and it has no credit left, a visit sends quantum / 100 us of
 * them. The early probe is off. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_drr;

#define US MOCK_US
#define TICK 0

struct quanta_fx {
	struct mock_hal *m;
	uint64_t busy; /* the GPU's busy counter */
};

/* Everything c has out completes, each command 100 us, and the next
 * tick measures it. */
static void finish_and_tick(struct quanta_fx *f, struct hal_chan *c)
{
	uint64_t out = mock_submitted(f->m, c) -
		       hal_fence_read(mock_sched(f->m), c);

	mock_complete(f->m, c, out);
	f->busy += out * 100 * US;
	mock_set_gpu_busy(f->m, 0, f->busy);
	mock_advance(f->m, mock_timer_when(f->m, TICK));
}

/* Tasks of weights w[0..n-1], one channel each. Task `first` submits one
 * command, which is measured; then task `visited` does the same (its
 * class learns 100 us) and queues 40 more. Returns how many of them its
 * next visit sends. The tasks neither names never submit. */
static uint64_t visit_batch(const uint32_t *w, unsigned n, unsigned first,
			    unsigned visited)
{
	static const char *const params[] = { "early_probe=0", NULL };
	static const char *const names[] = { "a", "b", "c" };
	struct quanta_fx f = { mock_hal_new(&gs_policy_drr, params), 0 };
	struct hal_chan *c[3];
	uint64_t before, sent;
	unsigned i, k;

	assert_true(n <= 3);
	for (i = 0; i < n; i++)
		c[i] = mock_chan_add(f.m, mock_task_add(f.m, names[i], w[i]));
	assert_int_equal(mock_submit(f.m, c[first]), MOCK_SUBMIT_SHADOWED);
	finish_and_tick(&f, c[first]);
	assert_int_equal(mock_submit(f.m, c[visited]), MOCK_SUBMIT_SHADOWED);
	finish_and_tick(&f, c[visited]);
	/* one more goes out alone; 40 queue behind it, and the tick that
	 * sees it done visits the task with no credit left */
	assert_int_equal(mock_submit(f.m, c[visited]), MOCK_SUBMIT_SHADOWED);
	for (k = 0; k < 40; k++)
		assert_int_equal(mock_submit(f.m, c[visited]),
				 MOCK_SUBMIT_SHADOWED);
	before = mock_submitted(f.m, c[visited]);
	finish_and_tick(&f, c[visited]);
	sent = mock_submitted(f.m, c[visited]) - before;
	mock_hal_free(f.m);
	return sent;
}

/* A task that never submits changes nobody's quantum: beside a sleeper
 * of weight 1, tasks of weight 2 and 4 still get one and two quanta (5
 * and 10 commands), as without it. Counting the sleeper in the lowest
 * weight doubled both (10 and 20), and with them every batch against
 * blocking tasks (proptest idle-task, seeds 364 and 483). */
static void test_sleeper_changes_no_quantum(void **state)
{
	static const uint32_t with_sleeper[] = { 2, 4, 1 };
	static const uint32_t without[] = { 2, 4 };
	(void)state;

	assert_int_equal(visit_batch(without, 2, 1, 0), 5);
	assert_int_equal(visit_batch(without, 2, 0, 1), 10);
	assert_int_equal(visit_batch(with_sleeper, 3, 1, 0), 5);
	assert_int_equal(visit_batch(with_sleeper, 3, 0, 1), 10);
}

/* Once a task has submitted, its weight counts, and keeps counting while
 * it sleeps: beside a task of weight 1 that submitted once, one of
 * weight 2 gets two quanta. */
static void test_submitter_counts_while_it_sleeps(void **state)
{
	static const uint32_t w[] = { 2, 1 };
	(void)state;

	assert_int_equal(visit_batch(w, 2, 1, 0), 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sleeper_changes_no_quantum),
		cmocka_unit_test(test_submitter_counts_while_it_sleeps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
