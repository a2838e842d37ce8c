/* The cores' integral (gs_gpu_cores_used_now) and the shared kernels'
 * completion event as the compute engine loads and frees the cores, on
 * a GPU without shared kernels (where gs_shared_engine_load takes its
 * short path) and after one has come and gone. */
#include "tests/support/gpu_fixture.h"

/* Two 10 us commands back to back, then idle: the cores count 20 us of
 * use, at full occupancy, and no shared completion is ever pending. */
static void test_cores_count_compute_commands(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *ch = gs_gpu_channel_open(m->gpu, 0, NULL);
	(void)state;

	assert_true(gs_chan_write(ch, 10 * US, GS_ENGINE_COMPUTE, 0, 0));
	assert_true(gs_chan_write(ch, 10 * US, GS_ENGINE_COMPUTE, 0, 0));
	gs_chan_doorbell(ch);
	run_until(m, 15 * US);
	assert_int_equal(gs_gpu_cores_used_now(m->gpu), 15 * US);
	assert_false(gs_event_queued(&m->gpu->shared.done_ev));
	run_until(m, 1 * MS);
	assert_int_equal(ch->completed, 2);
	assert_int_equal(gs_gpu_cores_used_now(m->gpu), 20 * US);
	assert_false(gs_event_queued(&m->gpu->shared.done_ev));
	mock_free(m);
}

/* A shared kernel at half occupancy for 10 us, then a compute command
 * of 10 us alone: 5 us + 10 us of the cores. The kernel's completion was
 * pending while it ran and is not once it left. */
static void test_cores_after_a_shared_kernel(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *sh = gs_gpu_channel_open(m->gpu, 0, NULL);
	struct gs_channel *ch = gs_gpu_channel_open(m->gpu, 1, NULL);
	(void)state;

	sh->occupancy_pm = 500;
	assert_true(gs_chan_write(sh, 10 * US, GS_ENGINE_COMPUTE, 0, 0));
	gs_chan_doorbell(sh);
	run_until(m, 5 * US);
	assert_true(gs_event_queued(&m->gpu->shared.done_ev));
	run_until(m, 20 * US);
	assert_int_equal(sh->completed, 1);
	assert_false(gs_event_queued(&m->gpu->shared.done_ev));
	assert_int_equal(gs_gpu_cores_used_now(m->gpu), 5 * US);
	assert_true(gs_chan_write(ch, 10 * US, GS_ENGINE_COMPUTE, 0, 0));
	gs_chan_doorbell(ch);
	run_until(m, 1 * MS);
	assert_int_equal(ch->completed, 1);
	assert_int_equal(ch->gpu_time, 10 * US);
	assert_int_equal(gs_gpu_cores_used_now(m->gpu), 15 * US);
	assert_false(gs_event_queued(&m->gpu->shared.done_ev));
	mock_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cores_count_compute_commands),
		cmocka_unit_test(test_cores_after_a_shared_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
