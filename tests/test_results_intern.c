/* gs_results_intern and the string table under it (base/strtab.h): a
 * name's number is that of its first interning, equal strings share it,
 * whatever the index's size, and the bytes come back as given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/strtab.h"
#include "sim/host/results.h"

/* Enough names to grow the index from 16 slots to 2^18, many times over
 * each size a single name moves slots at. */
#define MANY 100000u

static void name_of(char *buf, size_t size, uint32_t i)
{
	snprintf(buf, size, "t%u#%u", i % 7, i);
}

static void test_ids_in_order_equal_strings_shared(void **state)
{
	struct gs_results r;

	(void)state;
	gs_results_init(&r);
	assert_int_equal(gs_results_intern(&r, "run"), 0);
	assert_int_equal(gs_results_intern(&r, "ru"), 1);
	assert_int_equal(gs_results_intern(&r, "runs"), 2);
	assert_int_equal(gs_results_intern(&r, "run"), 0);
	assert_int_equal(gs_results_intern(&r, "ru"), 1);
	assert_int_equal(r.names.n, 3);
	assert_string_equal(gs_results_name(&r, 0), "run");
	assert_string_equal(gs_results_name(&r, 1), "ru");
	assert_string_equal(gs_results_name(&r, 2), "runs");
	gs_results_clear(&r);
	gs_results_clear(&r); /* clearing twice is safe */
	gs_results_init(&r); /* usable again, numbering from 0 */
	assert_int_equal(gs_results_intern(&r, "runs"), 0);
	gs_results_clear(&r);
}

/* Every name, looked up again after each growth of the index (and half
 * of the earlier ones at each step), keeps its number and its bytes. */
static void test_many_names_across_resizes(void **state)
{
	struct gs_results r;
	char buf[32];
	uint32_t i;

	(void)state;
	gs_results_init(&r);
	for (i = 0; i < MANY; i++) {
		name_of(buf, sizeof(buf), i);
		assert_int_equal(gs_results_intern(&r, buf), i);
		name_of(buf, sizeof(buf), i / 2);
		assert_int_equal(gs_results_intern(&r, buf), i / 2);
	}
	assert_int_equal(r.names.n, MANY);
	for (i = MANY; i-- > 0;) {
		name_of(buf, sizeof(buf), i);
		assert_int_equal(gs_results_intern(&r, buf), i);
		assert_string_equal(gs_results_name(&r, i), buf);
	}
	assert_int_equal(r.names.n, MANY);
	gs_results_clear(&r);
}

/* Names are bytes: one that is not UTF-8 is neither replaced nor equal to
 * its replacement, and the empty name is a name like any other. */
static void test_bytes_as_given_and_empty(void **state)
{
	static const char bad[] = "t\xff\xfe#1";
	static const char replaced[] = "t\xef\xbf\xbd\xef\xbf\xbd#1";
	static const char cut[] = "a\xc3";
	struct gs_results r;

	(void)state;
	gs_results_init(&r);
	assert_int_equal(gs_results_intern(&r, ""), 0);
	assert_int_equal(gs_results_intern(&r, bad), 1);
	assert_int_equal(gs_results_intern(&r, replaced), 2);
	assert_int_equal(gs_results_intern(&r, cut), 3);
	assert_int_equal(gs_results_intern(&r, "a"), 4);
	assert_int_equal(gs_results_intern(&r, ""), 0);
	assert_int_equal(gs_results_intern(&r, bad), 1);
	assert_int_equal(gs_results_intern(&r, cut), 3);
	assert_string_equal(gs_results_name(&r, 0), "");
	assert_memory_equal(gs_results_name(&r, 1), bad, sizeof(bad));
	assert_memory_equal(gs_results_name(&r, 3), cut, sizeof(cut));
	assert_int_equal(r.names.n, 5);
	gs_results_clear(&r);
}

/* A table only appended to keeps duplicates; interning into it later
 * finds the first of equal strings, and a reservation changes nothing. */
static void test_append_then_intern(void **state)
{
	struct gs_strtab t = GS_STRTAB_INIT;
	char buf[32];
	uint32_t i;

	(void)state;
	gs_strtab_reserve(&t, 3, 5);
	assert_int_equal(gs_strtab_append(&t, "x"), 0);
	assert_int_equal(gs_strtab_append(&t, "y"), 1);
	assert_int_equal(gs_strtab_append(&t, "x"), 2);
	assert_int_equal(gs_strtab_intern(&t, "x"), 0);
	assert_int_equal(gs_strtab_intern(&t, "z"), 3);
	assert_string_equal(gs_strtab_get(&t, 2), "x");
	for (i = 0; i < 1000; i++) {
		name_of(buf, sizeof(buf), i);
		assert_int_equal(gs_strtab_intern(&t, buf), 4 + i);
	}
	assert_int_equal(gs_strtab_intern(&t, "y"), 1);
	assert_int_equal(gs_strtab_intern(&t, "x"), 0);
	gs_strtab_clear(&t);
	assert_int_equal(t.n, 0);
	assert_int_equal(gs_strtab_intern(&t, "y"), 0);
	gs_strtab_clear(&t);
}

/* A reservation for interning sizes the index once: the names interned
 * after it find the index as it was made (no rebuild), every id is that
 * of first interning, and the strings entered before (duplicates
 * appended included) keep theirs. */
static void test_reserve_interned_index_once(void **state)
{
	struct gs_strtab t = GS_STRTAB_INIT;
	const uint32_t *slots;
	char buf[32];
	uint32_t i;

	(void)state;
	gs_strtab_append(&t, "a");
	gs_strtab_append(&t, "a");
	assert_int_equal(gs_strtab_intern(&t, "b"), 2);
	gs_strtab_reserve_interned(&t, 5000, 5000 * 8);
	slots = t.slots;
	assert_true(t.slots_mask + 1 >= 2 * (3 + 5000));
	for (i = 0; i < 5000; i++) {
		name_of(buf, sizeof(buf), i);
		assert_int_equal(gs_strtab_intern(&t, buf), 3 + i);
	}
	assert_ptr_equal(t.slots, slots);
	assert_int_equal(gs_strtab_intern(&t, "a"), 0);
	assert_int_equal(gs_strtab_intern(&t, "b"), 2);
	for (i = 0; i < 5000; i += 7) {
		name_of(buf, sizeof(buf), i);
		assert_int_equal(gs_strtab_intern(&t, buf), 3 + i);
	}
	assert_int_equal(t.n, 5003);
	gs_strtab_clear(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_in_order_equal_strings_shared),
		cmocka_unit_test(test_reserve_interned_index_once),
		cmocka_unit_test(test_many_names_across_resizes),
		cmocka_unit_test(test_bytes_as_given_and_empty),
		cmocka_unit_test(test_append_then_intern),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
