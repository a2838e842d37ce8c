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
#include "tests/support/drr_fixture.h"

static const char *const shared[] = { "exclusive=false", "window=2ms", NULL };

/* Task i's queue topped up to 40 commands (more than a round takes). */
static void top_up(struct fx *f, unsigned i)
{
	if (pending(f, i) < 40)
		submit(f, i, 40 - pending(f, i));
}

/* A guess goes out alone: b's first command waits while a's is out,
 * although the window would take it. */
static void test_guess_goes_out_alone(void **state)
{
	struct fx f;
	(void)state;

	fx_init(&f, 2, shared);
	top_up(&f, 0);
	top_up(&f, 1);
	assert_int_equal(outstanding(&f, 0), 1);
	assert_int_equal(outstanding(&f, 1), 0);
	/* a's is seen done and measured: b's guess goes out, alone too */
	finish(&f, 0, 2 * MS);
	next_tick(&f);
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
	struct fx f;
	unsigned round, i;
	(void)state;

	fx_init(&f, 2, shared);
	for (round = 0; round < 300; round++) {
		for (i = 0; i < 2; i++) {
			finish(&f, i, cost[i]);
			top_up(&f, i);
		}
		next_tick(&f);
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
