/* examples/policies/wrr.c (the policy of docs/writing-a-policy.md)
 * against the scripted mock HAL: turns of weight x quantum, the others
 * held at their doorbells and released in arrival order, an idle GPU
 * never kept from a task. Quantum 10ms. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_wrr;

#define MS MOCK_MS
#define TURN 0

static const char *const params[] = { "quantum=10ms", NULL };

/* Tasks a, b, c (the first n) of the given weights, one channel each. */
struct fx {
	struct mock_hal *m;
	struct hal_task *t[3];
	struct hal_chan *c[3];
	unsigned n;
};

static void fx_init(struct fx *f, unsigned n, const uint32_t *weights)
{
	static const char *const names[] = { "a", "b", "c" };
	unsigned i;

	f->m = mock_hal_new(&gs_policy_wrr, params);
	f->n = n;
	for (i = 0; i < n; i++) {
		f->t[i] = mock_task_add(f->m, names[i], weights[i]);
		f->c[i] = mock_chan_add(f->m, f->t[i]);
	}
}

static void fx_fini(struct fx *f)
{
	unsigned i;

	for (i = 0; i < f->n; i++)
		mock_task_exit(f->m, f->t[i]);
	mock_hal_free(f->m);
}

static const uint32_t ones[] = { 1, 1, 1 };

static void test_first_submitter_takes_the_gpu(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, 2, ones);
	assert_true(mock_trap_armed(f.m, f.c[0]));
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_timer_when(f.m, TURN), 10 * MS);
	/* b waits for a's turn to end */
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_ALLOW);
	mock_advance(f.m, 10 * MS);
	assert_int_equal(mock_releases(f.m, f.t[1]), 1);
	assert_false(mock_held(f.m, f.t[1]));
	/* now a waits */
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_ALLOW);
	mock_advance(f.m, 20 * MS);
	assert_int_equal(mock_releases(f.m, f.t[0]), 1);
	fx_fini(&f);
}

/* A turn is weight x quantum long. */
static void test_turn_is_weight_times_quantum(void **state)
{
	static const uint32_t weights[] = { 3, 1 };
	struct fx f;

	(void)state;
	fx_init(&f, 2, weights);
	mock_submit(f.m, f.c[0]);
	assert_int_equal(mock_timer_when(f.m, TURN), 30 * MS);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 30 * MS);
	assert_int_equal(mock_timer_when(f.m, TURN), 40 * MS);
	fx_fini(&f);
}

/* Turns go round in arrival order, skipping tasks that do not wait. */
static void test_round_robin_order(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, 3, ones);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(f.m, f.c[2]), GS_SUBMIT_HOLD);
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 10 * MS); /* after b: c, not a */
	assert_int_equal(mock_releases(f.m, f.t[2]), 1);
	assert_int_equal(mock_releases(f.m, f.t[0]), 0);
	mock_advance(f.m, 20 * MS); /* after c: wrapping round to a */
	assert_int_equal(mock_releases(f.m, f.t[0]), 1);
	fx_fini(&f);
}

/* With nobody waiting the holder keeps the GPU past its turn, and a task
 * that submits then gets it at once. */
static void test_idle_gpu_not_kept(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, 2, ones);
	mock_submit(f.m, f.c[0]);
	mock_advance(f.m, 15 * MS);
	assert_int_equal(mock_submit(f.m, f.c[0]), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_timer_when(f.m, TURN), 25 * MS);
	fx_fini(&f);
}

/* The holder exits: the waiting task gets the GPU at once. */
static void test_holder_exit_passes_turn(void **state)
{
	struct fx f;

	(void)state;
	fx_init(&f, 2, ones);
	mock_submit(f.m, f.c[0]);
	assert_int_equal(mock_submit(f.m, f.c[1]), GS_SUBMIT_HOLD);
	mock_advance(f.m, 2 * MS);
	mock_task_exit(f.m, f.t[0]);
	assert_int_equal(mock_releases(f.m, f.t[1]), 1);
	assert_int_equal(mock_timer_when(f.m, TURN), 12 * MS);
	f.t[0] = f.t[1]; /* a is gone */
	f.n = 1;
	fx_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_submitter_takes_the_gpu),
		cmocka_unit_test(test_turn_is_weight_times_quantum),
		cmocka_unit_test(test_round_robin_order),
		cmocka_unit_test(test_idle_gpu_not_kept),
		cmocka_unit_test(test_holder_exit_passes_turn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
