/* gpu_model/fifo.h moves a FIFO's length by adding to the word that holds
 * it beside the capacity's log2 (len_word): that is right only if len is
 * the word's low bits, and a push or pop must leave the capacity alone
 * through growth, wrap-around and pushes at the front. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpu_model/fifo.h"

#define LEN_BITS 27

static void assert_word_matches(const struct gs_fifo *f)
{
	assert_int_equal(f->len_word & ((1u << LEN_BITS) - 1), f->len);
	assert_int_equal(f->len_word >> LEN_BITS, f->cap_log2);
}

/* The layout the word arithmetic relies on: setting the fields is seen
 * in the word's low bits and top bits. */
static void test_len_is_the_low_bits(void **state)
{
	struct gs_fifo f;
	(void)state;

	gs_fifo_init(&f);
	assert_int_equal(f.len_word, 0);
	f.len = 5;
	f.cap_log2 = 3;
	assert_int_equal(f.len_word, (3u << LEN_BITS) | 5u);
	f.len_word++;
	assert_int_equal(f.len, 6);
	assert_int_equal(f.cap_log2, 3);
}

/* Pushes at both ends and pops, through every growth up to 2^10 and
 * back to empty: the length counts the elements, the capacity is the one
 * grown to, and the order is kept. */
static void test_pushes_and_pops_keep_length_and_capacity(void **state)
{
	struct gs_fifo f;
	uint32_t i, v, n = 1000;
	(void)state;

	gs_fifo_init(&f);
	for (i = 0; i < n; i++) {
		v = i;
		if (i % 3 == 2)
			gs_fifo_push_front(&f, sizeof(v), &v);
		else
			gs_fifo_push(&f, sizeof(v), &v);
		assert_int_equal(f.len, i + 1);
		assert_true(gs_fifo_cap(&f) >= f.len);
		assert_word_matches(&f);
	}
	assert_int_equal(gs_fifo_cap(&f), 1024);
	for (i = 0; i < n; i++) {
		gs_fifo_pop(&f, sizeof(v), &v);
		assert_int_equal(f.len, n - 1 - i);
		assert_int_equal(gs_fifo_cap(&f), 1024);
		assert_word_matches(&f);
	}
	gs_fifo_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_len_is_the_low_bits),
		cmocka_unit_test(test_pushes_and_pops_keep_length_and_capacity),
	};

	return cmocka_run_group_tests_name("fifo_word", tests, NULL, NULL);
}
