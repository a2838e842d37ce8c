/* The import model (sim/import/import_model.c): what every importer builds
 * on. Task names must be usable in a scenario and unique; streams map to
 * channel indexes in order of first use; limits are positioned errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "sim/import/import.h"

static void test_tasks_by_key_with_clean_unique_names(void **state)
{
	struct gs_import *imp = gs_import_new("rec.json", "test");
	struct gs_import_task *a, *b, *c;

	(void)state;
	a = gs_import_task(imp, "pid 10", "python3 train.py", 1, NULL);
	b = gs_import_task(imp, "pid 11", "python3 train.py", 2, NULL);
	c = gs_import_task(imp, "pid 12", "", 3, NULL);
	assert_ptr_equal(gs_import_task(imp, "pid 10", "other", 4, NULL), a);
	assert_string_equal(a->name, "python3_train.py");
	assert_string_equal(b->name, "python3_train.py-2");
	assert_string_equal(c->name, "task");
	assert_int_equal(imp->tasks->len, 3);
	gs_import_free(imp);
}

static void test_streams_become_channels_in_first_use_order(void **state)
{
	struct gs_import *imp = gs_import_new("rec.json", "test");
	struct gs_import_task *t = gs_import_task(imp, "1", "p", 1, NULL);

	(void)state;
	assert_int_equal(gs_import_channel(imp, t, "stream 7", 1, NULL), 0);
	assert_int_equal(gs_import_channel(imp, t, "stream 3", 2, NULL), 1);
	assert_int_equal(gs_import_channel(imp, t, "stream 7", 3, NULL), 0);
	assert_true(gs_import_job_add(imp, t, 1, true, 100, 20, 9, NULL));
	assert_int_equal(t->jobs->len, 1);
	assert_int_equal(g_array_index(t->jobs, struct gs_import_job, 0).origin,
			 9);
	assert_int_equal(imp->jobs, 1);
	gs_import_free(imp);
}

static void test_channel_limit_is_a_positioned_error(void **state)
{
	struct gs_import *imp = gs_import_new("trace.txt", "test");
	struct gs_import_task *t = gs_import_task(imp, "1", "p", 1, NULL);
	GError *error = NULL;
	char key[16];
	int i;

	(void)state;
	for (i = 0; i < GS_IMPORT_MAX_CHANNELS; i++) {
		g_snprintf(key, sizeof(key), "s%d", i);
		assert_int_equal(gs_import_channel(imp, t, key, 5, NULL), i);
	}
	assert_int_equal(gs_import_channel(imp, t, "one more", 42, &error), -1);
	assert_non_null(error);
	assert_true(g_str_has_prefix(error->message, "trace.txt:42: "));
	assert_int_equal(error->code, GS_IMPORT_ERROR_LIMIT);
	g_error_free(error);
	gs_import_free(imp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tasks_by_key_with_clean_unique_names),
		cmocka_unit_test(test_streams_become_channels_in_first_use_order),
		cmocka_unit_test(test_channel_limit_is_a_positioned_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
