/* drr (GERM's deficit round robin) against the scripted mock HAL.
 *
 * The test plays the GPU: it completes the commands drr forwarded (moving
 * the fences) and advances the busy counter by what they cost, then lets
 * the timing thread's tick (timer 0, every 1 ms) probe. Most tests turn
 * the early probe off, so only ticks probe. Quantum 500 us; one task's
 * batch on the GPU at a time (exclusive, the default). */
#include "tests/support/drr_fixture.h"

/* ---- queueing ---------------------------------------------------------- */

/* Channels are shadowed from creation; a submission goes to the queue,
 * only the dispatcher publishes it, and while one task's batch is out
 * nobody else's is forwarded. */
static void test_submissions_are_queued(void **state)
{
	struct fx f;
	(void)state;

	fx_init(&f, 2, NULL);
	assert_true(mock_shadowed(f.m, f.c[0]));
	assert_true(mock_shadowed(f.m, f.c[1]));
	submit(&f, 0, 3);
	/* idle GPU: a's first visit sends one command, estimated at a
	 * quantum as its class is not measured yet */
	assert_int_equal(mock_submitted(f.m, f.c[0]), 1);
	assert_int_equal(pending(&f, 0), 2);
	submit(&f, 1, 2);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 0);
	assert_int_equal(pending(&f, 1), 2);
	/* the timing thread ticks every 1 ms; nothing completed: no change */
	assert_int_equal(mock_timer_when(f.m, TICK), 1 * MS);
	next_tick(&f);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 0);
	mock_hal_free(f.m);
}

/* ---- deficits ------------------------------------------------------- */

/* Visits go round-robin, a task that turns backlogged joining at the
 * tail; a visit adds a quantum and sends while the estimates fit; the
 * probe gives back estimated minus real; a queue that runs empty drops
 * its credit. */
static void test_round_robin_with_deficits(void **state)
{
	struct fx f;
	(void)state;

	fx_init(&f, 2, NULL);
	submit(&f, 0, 4);
	submit(&f, 1, 4); /* ring: a (just visited), then b */
	assert_int_equal(mock_submitted(f.m, f.c[0]), 1);

	/* a's command took 100us: a is charged that and learns 100us; its
	 * deficit 0 + (500 - 100) + 500 = 900us covers its 3 queued
	 * commands; its queue is then empty and its credit dropped */
	finish(&f, 0, 100 * US);
	next_tick(&f);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 100 * US);
	assert_int_equal(mock_submitted(f.m, f.c[0]), 4);
	assert_int_equal(pending(&f, 0), 0);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 0);

	/* b's turn: one command at a quantum (class unknown) */
	finish(&f, 0, 100 * US);
	next_tick(&f);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 400 * US);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 1);

	/* it took 300us: b keeps 200us and, alone, gets 200 + 500: two of
	 * its 300us commands */
	finish(&f, 1, 300 * US);
	next_tick(&f);
	assert_int_equal(mock_accounted(f.m, f.t[1]), 300 * US);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 3);
	assert_int_equal(pending(&f, 1), 1);

	/* a comes back behind b: b's 100 + 500 sends its last command */
	submit(&f, 0, 8);
	assert_int_equal(mock_submitted(f.m, f.c[0]), 4);
	finish(&f, 1, 300 * US);
	next_tick(&f);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 4);
	assert_int_equal(mock_submitted(f.m, f.c[0]), 4);
	/* then a: no banked credit, 500us = five 100us commands */
	finish(&f, 1, 300 * US);
	next_tick(&f);
	assert_int_equal(mock_submitted(f.m, f.c[0]), 4 + 5);
	assert_int_equal(mock_accounted(f.m, f.t[1]), 1200 * US);
	mock_hal_free(f.m);
}

/* A command costing more than a quantum waits while the other task's
 * visits go by, until its deficit has grown to its cost; in the long run
 * both get the same GPU time, and the policy charges exactly that. */
static void test_large_command_waits_for_deficit(void **state)
{
	struct fx f;
	const uint64_t cost[2] = { 2 * MS, 100 * US };
	unsigned round, i, b_batches = 0, a_sent_at = 0;
	uint64_t a_sent = 0;
	(void)state;

	fx_init(&f, 2, NULL);
	submit(&f, 0, 8);
	submit(&f, 1, 40);
	for (round = 0; round < 200; round++) {
		for (i = 0; i < 2; i++) {
			if (outstanding(&f, i))
				finish(&f, i, cost[i]);
			if (pending(&f, i) < 8)
				submit(&f, i, 8);
		}
		next_tick(&f);
		/* exclusive: one task out at a time */
		assert_false(outstanding(&f, 0) && outstanding(&f, 1));
		if (outstanding(&f, 1))
			b_batches++;
		if (mock_submitted(f.m, f.c[0]) != a_sent) {
			/* after the first, a goes out every 4 rounds */
			if (a_sent > 2)
				assert_int_equal(b_batches - a_sent_at, 4);
			a_sent = mock_submitted(f.m, f.c[0]);
			a_sent_at = b_batches;
		}
	}
	/* every command took its real time on the books */
	assert_int_equal(mock_accounted(f.m, f.t[0]), f.used[0]);
	assert_int_equal(mock_accounted(f.m, f.t[1]), f.used[1]);
	/* equal GPU time within one large command */
	assert_true(f.used[0] + 2 * MS >= f.used[1]);
	assert_true(f.used[1] + 2 * MS >= f.used[0]);
	mock_hal_free(f.m);
}

/* An underestimate is a debt: the task sits out visits until the quanta
 * have paid it back. */
static void test_correction_by_real_minus_estimate(void **state)
{
	struct fx f;
	unsigned k;
	(void)state;

	fx_init(&f, 2, NULL);
	submit(&f, 0, 4);
	submit(&f, 1, 40);
	/* a's first command: estimated 500us, took 1.9ms: a owes 1.4ms */
	finish(&f, 0, 1900 * US);
	next_tick(&f);
	assert_int_equal(mock_accounted(f.m, f.t[0]), 1900 * US);
	/* a is visited first each tick and sits out while b's batches go:
	 * -1400 + 500 per visit reaches its new estimate, 1.9ms, at the
	 * 7th visit */
	for (k = 0; k < 6; k++) {
		assert_int_equal(mock_submitted(f.m, f.c[0]), 1);
		assert_true(outstanding(&f, 1) > 0);
		finish(&f, 1, 100 * US);
		next_tick(&f);
	}
	assert_int_equal(mock_submitted(f.m, f.c[0]), 2);
	mock_hal_free(f.m);
}

/* ---- estimates --------------------------------------------------------- */

/* The running average per class: the first measurement sets it, later
 * ones move it by 1/2^avg_shift of the difference; a class not measured
 * yet is estimated at a quantum even when another class is known. */
static void test_running_average_per_class(void **state)
{
	static const char *const params[] = { "avg_shift=1", NULL };
	static const unsigned want[] = { 2, 2, 2, 2 };
	struct fx f;
	unsigned k;
	(void)state;

	fx_init(&f, 1, params);
	mock_set_next_class(f.m, f.c[0], 3);
	submit(&f, 0, 1);
	finish(&f, 0, 100 * US);
	next_tick(&f);
	/* class 3 known at 100us: the first submission goes at once, the
	 * others wait for it; then a lone task's visits send 5 per quantum */
	submit(&f, 0, 60);
	assert_int_equal(outstanding(&f, 0), 1);
	finish(&f, 0, 100 * US);
	next_tick(&f);
	assert_int_equal(outstanding(&f, 0), 5);
	finish(&f, 0, 100 * US);
	next_tick(&f);
	assert_int_equal(outstanding(&f, 0), 5);
	finish(&f, 0, 100 * US);
	next_tick(&f);
	assert_int_equal(outstanding(&f, 0), 5);

	/* class 3 now takes 250us: the batch of 5 put a in debt (-750us);
	 * the estimate goes 175, 212, 231, 240, ... towards 250 and the
	 * batches shrink to what a quantum holds */
	for (k = 0; k < 12; k++) {
		finish(&f, 0, 250 * US);
		next_tick(&f);
	}
	for (k = 0; k < 4; k++) {
		assert_int_equal(outstanding(&f, 0), want[k]);
		finish(&f, 0, 250 * US);
		next_tick(&f);
	}

	/* another class is not estimated from class 3 (a visit would send
	 * two or more at ~250us): one command at a quantum goes out alone */
	while (pending(&f, 0)) {
		finish(&f, 0, 250 * US);
		next_tick(&f);
	}
	assert_true(outstanding(&f, 0) > 0);
	mock_set_next_class(f.m, f.c[0], 6);
	submit(&f, 0, 4);
	assert_int_equal(pending(&f, 0), 4);
	finish(&f, 0, 250 * US);
	next_tick(&f);
	assert_int_equal(outstanding(&f, 0), 1);
	assert_int_equal(pending(&f, 0), 3);
	mock_hal_free(f.m);
}

/* ---- tasks coming and going ------------------------------------------ */

/* A task exits with commands queued and one out: the books drop them and
 * the other task's queue is served without waiting for a fence. */
static void test_task_exit_with_queued_commands(void **state)
{
	struct fx f;
	(void)state;

	fx_init(&f, 2, NULL);
	submit(&f, 0, 5);
	submit(&f, 1, 3);
	assert_int_equal(outstanding(&f, 0), 1);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 0);
	mock_task_exit(f.m, f.t[0]);
	mock_advance(f.m, mock_now(f.m)); /* the dispatch kick */
	assert_int_equal(mock_submitted(f.m, f.c[1]), 1);
	finish(&f, 1, 100 * US);
	next_tick(&f);
	assert_int_equal(mock_accounted(f.m, f.t[1]), 100 * US);
	assert_int_equal(mock_submitted(f.m, f.c[1]), 3);
	finish(&f, 1, 100 * US);
	next_tick(&f);
	/* nothing queued or out: the timing thread sleeps */
	assert_int_equal(mock_timer_when(f.m, TICK), MOCK_NEVER);
	mock_hal_free(f.m);
}

/* An idle task banks no credit: however long it was away, its first
 * visit sends one quantum's worth. */
static void test_idle_task_accumulates_no_deficit(void **state)
{
	struct fx f;
	unsigned k;
	(void)state;

	fx_init(&f, 2, NULL);
	submit(&f, 0, 1);
	finish(&f, 0, 100 * US); /* a's class: 100us */
	next_tick(&f);
	submit(&f, 1, 8);
	for (k = 0; k < 100; k++) { /* b alone for 100 visits */
		finish(&f, 1, 100 * US);
		if (pending(&f, 1) < 8)
			submit(&f, 1, 8);
		next_tick(&f);
	}
	finish(&f, 1, 100 * US);
	submit(&f, 0, 40);
	next_tick(&f); /* a joined behind b */
	assert_int_equal(outstanding(&f, 0), 0);
	finish(&f, 1, 100 * US);
	next_tick(&f);
	/* a's visit: one quantum, 5 x 100us, nothing banked */
	assert_int_equal(outstanding(&f, 0), 5);
	mock_hal_free(f.m);
}

/* The early probe comes at the batch's estimated end plus early_probe,
 * and again while the fence has not shown the batch done. */
static void test_early_probe(void **state)
{
	static const char *const params[] = { "early_probe=50us", NULL };
	struct fx f;
	(void)state;

	fx_init(&f, 2, params);
	submit(&f, 0, 1);
	submit(&f, 1, 1);
	/* a's command, estimated at a quantum */
	assert_int_equal(mock_timer_when(f.m, PROBE), 550 * US);
	mock_advance(f.m, 550 * US);
	assert_int_equal(mock_timer_when(f.m, PROBE), 600 * US);
	finish(&f, 0, 500 * US);
	mock_advance(f.m, 600 * US);
	/* seen done before the tick: b goes out at once */
	assert_int_equal(mock_submitted(f.m, f.c[1]), 1);
	assert_int_equal(mock_timer_when(f.m, PROBE), 1150 * US);
	mock_hal_free(f.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_submissions_are_queued),
		cmocka_unit_test(test_round_robin_with_deficits),
		cmocka_unit_test(test_large_command_waits_for_deficit),
		cmocka_unit_test(test_correction_by_real_minus_estimate),
		cmocka_unit_test(test_running_average_per_class),
		cmocka_unit_test(test_task_exit_with_queued_commands),
		cmocka_unit_test(test_idle_task_accumulates_no_deficit),
		cmocka_unit_test(test_early_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
