/* A point's record through the pool's pipe (sim/cli/sweep_record.c):
 * unpacked as packed, whatever its strings hold; and nothing (NULL, so
 * that the pool reads the point's point.json instead) from bytes that
 * are not one whole record: cut short at any length, followed by more,
 * claiming more strings than there are bytes, or with a string that
 * point.json could not hold as it is (not valid UTF-8). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "sim/cli/sweep.h"

static const char *const columns[] = { "policy", "", "tasks.dct.slowdown",
				       "name with, comma", "é\"quoted\"" };
static const char *const cells[] = { "dfq", "0", "1.0349999999999999",
				     "", "a\nb" };

static struct gs_point_record *record(void)
{
	struct gs_point_record *rec = g_new0(struct gs_point_record, 1);
	guint i;

	rec->columns = g_ptr_array_new_with_free_func(g_free);
	rec->cells = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < G_N_ELEMENTS(columns); i++) {
		g_ptr_array_add(rec->columns, g_strdup(columns[i]));
		g_ptr_array_add(rec->cells, g_strdup(cells[i]));
	}
	return rec;
}

static void assert_same(const struct gs_point_record *a,
			const struct gs_point_record *b)
{
	guint i;

	assert_int_equal(a->columns->len, b->columns->len);
	assert_int_equal(a->cells->len, b->cells->len);
	for (i = 0; i < a->columns->len; i++) {
		assert_string_equal(g_ptr_array_index(a->columns, i),
				    g_ptr_array_index(b->columns, i));
		assert_string_equal(g_ptr_array_index(a->cells, i),
				    g_ptr_array_index(b->cells, i));
	}
}

static void test_round_trip(void **state)
{
	struct gs_point_record *rec = record(), *back;
	g_autoptr(GByteArray) bytes = g_byte_array_new();

	(void)state;
	gs_point_record_pack(rec, bytes);
	back = gs_point_record_unpack(bytes->data, bytes->len);
	assert_non_null(back);
	assert_same(rec, back);
	gs_point_record_free(back);
	gs_point_record_free(rec);
}

static void test_not_whole(void **state)
{
	struct gs_point_record *rec = record();
	g_autoptr(GByteArray) bytes = g_byte_array_new();
	guint cut;

	(void)state;
	gs_point_record_pack(rec, bytes);
	for (cut = 0; cut < bytes->len; cut++)
		assert_null(gs_point_record_unpack(bytes->data, cut));
	g_byte_array_append(bytes, (const guint8 *)"x", 1);
	assert_null(gs_point_record_unpack(bytes->data, bytes->len));
	/* a count of strings the bytes cannot hold allocates nothing */
	memset(bytes->data, 0xff, 4);
	assert_null(gs_point_record_unpack(bytes->data, bytes->len));
	gs_point_record_free(rec);
}

static void test_not_utf8(void **state)
{
	struct gs_point_record *rec = record();
	g_autoptr(GByteArray) bytes = g_byte_array_new();

	(void)state;
	g_free(g_ptr_array_index(rec->cells, 3));
	g_ptr_array_index(rec->cells, 3) = g_strdup("\xff\xfe");
	gs_point_record_pack(rec, bytes);
	assert_null(gs_point_record_unpack(bytes->data, bytes->len));
	gs_point_record_free(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_not_whole),
		cmocka_unit_test(test_not_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
