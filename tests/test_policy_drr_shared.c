/* drr with `exclusive: false` (several tasks' work on the GPU at once,
 * up to `window` of estimated work), against the scripted mock HAL.
 *
 * There a probe may see several tasks' completions; it splits the
 * measured time in proportion to their estimates, and only probes that
 * see one task's train its coefficients. A command whose kind was never
 * measured is estimated at a quantum (a guess): it goes out on a GPU
 * with nothing of ours and alone, so that it is measured. The test plays
 * the GPU: each round it completes what was forwarded, at each task's
 * cost, and lets the timing thread's tick (every 1 ms) probe. The early
 * probe is off; the quantum is 500 us. */
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

struct shared_fx {
	struct mock_hal *m;
	struct hal_task *t[2];
	struct hal_chan *c[2];
	uint64_t busy;    /* the GPU's busy counter */
	uint64_t used[2]; /* GPU time each task's commands took */
};

static void shared_init(struct shared_fx *f)
{
	static const char *const params[] = {
		"early_probe=0", "exclusive=false", "window=2ms", NULL
	};
	static const char *const names[] = { "a", "b" };
	unsigned i;

	f->m = mock_hal_new(&gs_policy_drr, params);
	f->busy = 0;
	for (i = 0; i < 2; i++) {
		f->t[i] = mock_task_add(f->m, names[i], 1);
		f->c[i] = mock_chan_add(f->m, f->t[i]);
		f->used[i] = 0;
	}
}

static uint64_t outstanding(struct shared_fx *f, unsigned i)
{
	return mock_submitted(f->m, f->c[i]) -
	       hal_fence_read(mock_sched(f->m), f->c[i]);
}

/* Task i's queue topped up to 40 commands (more than a round takes). */
static void top_up(struct shared_fx *f, unsigned i)
{
	while (hal_shadow_pending(mock_sched(f->m), f->c[i]) < 40)
		assert_int_equal(mock_submit(f->m, f->c[i]),
				 MOCK_SUBMIT_SHADOWED);
}

/* Everything task i has out completes, each command `cost` long. */
static void finish(struct shared_fx *f, unsigned i, uint64_t cost)
{
	uint64_t k = outstanding(f, i);

	mock_complete(f->m, f->c[i], k);
	f->busy += k * cost;
	f->used[i] += k * cost;
	mock_set_gpu_busy(f->m, 0, f->busy);
}

/* A guess goes out alone: b's first command waits while a's is out,
 * although the window would take it. */
static void test_guess_goes_out_alone(void **state)
{
	struct shared_fx f;
	(void)state;

	shared_init(&f);
	top_up(&f, 0);
	top_up(&f, 1);
	assert_int_equal(outstanding(&f, 0), 1);
	assert_int_equal(outstanding(&f, 1), 0);
	/* a's is seen done and measured: b's guess goes out, alone too */
	finish(&f, 0, 2 * MS);
	mock_advance(f.m, mock_timer_when(f.m, TICK));
	assert_int_equal(mock_accounted(f.m, f.t[0]), 2 * MS);
	assert_int_equal(outstanding(&f, 0), 0);
	assert_int_equal(outstanding(&f, 1), 1);
	mock_hal_free(f.m);
}

/* Both tasks backlogged, a's commands 200 us, b's 100 us, their work
 * out together: once each kind is measured (alone), the probes' splits
 * by estimate are exact, every task is charged what it used, and DRR
 * gives both the same GPU time. Before, both guesses went out together
 * and every probe saw both tasks, so neither was ever measured: each
 * command, estimated at a quantum, was charged half of what a pair cost
 * (150 us), and a took twice b's GPU time (proptest reorder, seed 176 on
 * volta: a task of 1.9 ms commands charged 6 ms for 74 ms used). */
static void test_shared_probes_charge_measured_costs(void **state)
{
	const uint64_t cost[2] = { 200 * US, 100 * US };
	struct shared_fx f;
	unsigned round, i;
	(void)state;

	shared_init(&f);
	for (round = 0; round < 300; round++) {
		for (i = 0; i < 2; i++) {
			finish(&f, i, cost[i]);
			top_up(&f, i);
		}
		mock_advance(f.m, mock_timer_when(f.m, TICK));
	}
	for (i = 0; i < 2; i++)
		assert_int_equal(mock_accounted(f.m, f.t[i]), f.used[i]);
	/* equal GPU time within a quantum */
	assert_true(f.used[0] <= f.used[1] + 500 * US);
	assert_true(f.used[1] <= f.used[0] + 500 * US);
	mock_hal_free(f.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guess_goes_out_alone),
		cmocka_unit_test(test_shared_probes_charge_measured_costs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
