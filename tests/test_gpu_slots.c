/* The channel table's high-water mark (gs_gpu.slots_touched): walks over
 * every slot (invariant checks, gs_gpu_free) stop at it, so it must
 * cover every slot ever opened, including those reused after the free
 * hint wraps, and nothing above them. */
#include "tests/support/gpu_fixture.h"

static void test_mark_follows_the_highest_slot_opened(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *ch[3];
	int i;
	(void)state;

	assert_int_equal(m->gpu->slots_touched, 0);
	for (i = 0; i < 3; i++)
		ch[i] = gs_gpu_channel_open(m->gpu, 0, NULL);
	assert_int_equal(ch[2]->id, 2);
	assert_int_equal(m->gpu->slots_touched, 3);
	/* Closing does not lower it: the slot's FIFOs may still hold
	 * buffers that gs_gpu_free must release. */
	gs_gpu_channel_close(ch[2]);
	assert_int_equal(m->gpu->slots_touched, 3);
	/* The hint moves on: the next channel takes slot 3. */
	ch[2] = gs_gpu_channel_open(m->gpu, 0, NULL);
	assert_int_equal(ch[2]->id, 3);
	assert_int_equal(m->gpu->slots_touched, 4);
	mock_free(m);
}

static void test_mark_stays_at_the_top_after_the_hint_wraps(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	uint32_t n = m->gpu->cfg.max_channels, i;
	struct gs_channel *ch;
	(void)state;

	for (i = 0; i < n; i++)
		assert_non_null(gs_gpu_channel_open(m->gpu, 0, NULL));
	assert_int_equal(m->gpu->slots_touched, n);
	assert_null(gs_gpu_channel_open(m->gpu, 0, NULL));
	gs_gpu_channel_close(&m->gpu->channels[1]);
	ch = gs_gpu_channel_open(m->gpu, 0, NULL);
	assert_int_equal(ch->id, 1);
	assert_int_equal(m->gpu->slots_touched, n);
	mock_free(m);
}

/* A command queued in the top slot when the GPU is freed: its FIFO's
 * buffer is released (a leak checker flags it otherwise), and the slot
 * is inside the mark. */
static void test_top_slot_with_queued_work_is_inside_the_mark(void **state)
{
	struct mock *m = mock_new("kepler", 0);
	struct gs_channel *ch = NULL;
	uint32_t i;
	(void)state;

	for (i = 0; i < 5; i++)
		ch = gs_gpu_channel_open(m->gpu, 0, NULL);
	assert_true(gs_chan_write(ch, 10 * US, GS_ENGINE_COMPUTE, 0, 0));
	gs_chan_doorbell(ch);
	run_until(m, 1 * US);
	assert_true(ch->id < m->gpu->slots_touched);
	mock_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mark_follows_the_highest_slot_opened),
		cmocka_unit_test(test_mark_stays_at_the_top_after_the_hint_wraps),
		cmocka_unit_test(test_top_slot_with_queued_work_is_inside_the_mark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
