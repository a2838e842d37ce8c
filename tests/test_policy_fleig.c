/* Fleig's evaluation settings and VM mechanisms on dfq's engine, against
 * the scripted mock HAL (tests/support/dfq_fixture.h). */
#include "tests/support/dfq_fixture.h"

/* Fleig 5.1: 10 ms samples and a fixed 50 ms free run, whatever the
 * number of tasks sampled (free_run_factor x the engagement would give
 * 5 x 2 x 10ms = 100ms). */
static void test_fixed_free_run(void **state)
{
	const char *const params[] = { "sample=10ms", "free_run=50ms", NULL };
	struct mock_hal *m = dfq_new(params);
	struct hal_task *a, *b;
	struct hal_chan *ca, *cb;
	struct hal_chan *c[2];
	const uint64_t req[2] = { 300 * US, 300 * US };

	(void)state;
	/* the first (empty) episode's free run is fixed too */
	assert_int_equal(mock_timer_when(m, PHASE), 50 * MS);
	two_tasks(m, &a, &b, &ca, &cb);
	c[0] = ca;
	c[1] = cb;
	cycle(m, c, req, 2);
	assert_int_equal(mock_phases(m, "sample a"), 1);
	assert_int_equal(mock_phases(m, "sample b"), 1);
	assert_int_equal(mock_timer_when(m, PHASE), mock_now(m) + 50 * MS);
	mock_hal_free(m);
}

/* Fleig 4.4: a guest scheduler's 1 ms samples and 1 ms free runs. */
static void test_guest_free_run_of_one_ms(void **state)
{
	const char *const params[] = { "sample=1ms", "free_run=1ms", NULL };
	struct mock_hal *m = dfq_new(params);

	(void)state;
	assert_int_equal(mock_timer_when(m, PHASE), 1 * MS);
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_free_run),
		cmocka_unit_test(test_guest_free_run_of_one_ms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
