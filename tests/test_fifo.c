/* gpu_model/fifo.h: a FIFO that starts at one element and doubles keeps
 * its order through growth, wrap-around and pushes at the front. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_model/fifo.h"

static uint32_t pop_u32(struct gs_fifo *f)
{
	uint32_t v;

	gs_fifo_pop(f, sizeof(v), &v);
	return v;
}

static void push_u32(struct gs_fifo *f, uint32_t v)
{
	gs_fifo_push(f, sizeof(v), &v);
}

/* The first push allocates room for one element only. */
static void test_first_block_holds_one(void **state)
{
	struct gs_fifo f;
	(void)state;

	gs_fifo_init(&f);
	push_u32(&f, 7);
	assert_int_equal(gs_fifo_cap(&f), 1);
	assert_int_equal(f.len, 1);
	push_u32(&f, 8);
	assert_int_equal(gs_fifo_cap(&f), 2);
	assert_int_equal(pop_u32(&f), 7);
	assert_int_equal(pop_u32(&f), 8);
	assert_int_equal(f.len, 0);
	gs_fifo_free(&f);
}

/* Elements come out in order when the buffer grows while its head is
 * not at index 0 (the oldest elements wrap around the end). */
static void test_order_kept_across_wrap_and_growth(void **state)
{
	struct gs_fifo f;
	uint32_t next_in = 0, next_out = 0, round;
	(void)state;

	gs_fifo_init(&f);
	for (round = 0; round < 50; round++) {
		uint32_t k;

		/* push three, pop two: the queue grows by one a round and its
		 * head walks around the buffer */
		for (k = 0; k < 3; k++)
			push_u32(&f, next_in++);
		for (k = 0; k < 2; k++)
			assert_int_equal(pop_u32(&f), next_out++);
	}
	while (f.len)
		assert_int_equal(pop_u32(&f), next_out++);
	assert_int_equal(next_out, next_in);
	gs_fifo_free(&f);
}

/* push_front into a full one-element FIFO (a preempted command given
 * back) grows it and is popped first. */
static void test_push_front_grows(void **state)
{
	struct gs_fifo f;
	uint32_t v = 1;
	(void)state;

	gs_fifo_init(&f);
	gs_fifo_push_front(&f, sizeof(v), &v);
	assert_int_equal(gs_fifo_cap(&f), 1);
	v = 2;
	push_u32(&f, 3);
	gs_fifo_push_front(&f, sizeof(v), &v);
	assert_int_equal(f.len, 3);
	assert_int_equal(pop_u32(&f), 2);
	assert_int_equal(pop_u32(&f), 1);
	assert_int_equal(pop_u32(&f), 3);
	gs_fifo_free(&f);
}

/* A FIFO that grew past 2^16 elements (a long fence lag: one entry per
 * completion not yet visible) keeps its capacity and order: the capacity
 * is held as a 5-bit log2 beside a 27-bit length. */
static void test_large_fifo_keeps_capacity(void **state)
{
	struct gs_fifo f;
	uint32_t i;
	(void)state;

	gs_fifo_init(&f);
	for (i = 0; i < (1u << 17) + 1; i++)
		push_u32(&f, i);
	assert_int_equal(gs_fifo_cap(&f), 1u << 18);
	assert_int_equal(f.len, (1u << 17) + 1);
	for (i = 0; i < (1u << 17) + 1; i++)
		assert_int_equal(pop_u32(&f), i);
	gs_fifo_free(&f);
}

/* Three FIFOs sit in each of 65,536 channel slots (docs/performance.md,
 * "Memory per channel and task"): 16 bytes each. */
static void test_fifo_is_16_bytes(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct gs_fifo), 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_block_holds_one),
		cmocka_unit_test(test_order_kept_across_wrap_and_growth),
		cmocka_unit_test(test_push_front_grows),
		cmocka_unit_test(test_large_fifo_keeps_capacity),
		cmocka_unit_test(test_fifo_is_16_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
