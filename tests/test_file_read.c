/* The bounded reader every input file goes through: the limit is exact,
 * found by reading (devices and pipes report size 0 to stat), and errors
 * name the file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "workloads/file_read.h"

static char *write_file(const char *dir, const char *name, size_t n)
{
	char *path = g_build_filename(dir, name, NULL);
	char *text = g_malloc(n + 1);

	memset(text, 'x', n);
	assert_true(g_file_set_contents(path, text, (gssize)n, NULL));
	g_free(text);
	return path;
}

static void test_limit_is_exact(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("gs_read_XXXXXX", NULL);
	g_autofree char *at = NULL, *over = NULL, *empty = NULL;
	g_autofree char *data = NULL;
	g_autoptr(GError) err = NULL;
	g_autofree char *want = NULL;
	size_t len = 1;

	(void)state;
	at = write_file(dir, "at", 100000);
	over = write_file(dir, "over", 100001);
	empty = write_file(dir, "empty", 0);
	data = gs_read_file_bounded(at, 100000, &len, &err);
	assert_non_null(data);
	assert_int_equal(len, 100000);
	assert_int_equal(data[len], '\0');
	g_clear_pointer(&data, g_free);
	assert_null(gs_read_file_bounded(over, 100000, &len, &err));
	want = g_strdup_printf("%s: larger than 100000 bytes", over);
	assert_string_equal(err->message, want);
	g_clear_error(&err);
	data = gs_read_file_bounded(empty, 10, &len, &err);
	assert_non_null(data);
	assert_int_equal(len, 0);
	assert_string_equal(data, "");
	g_unlink(at);
	g_unlink(over);
	g_unlink(empty);
	g_rmdir(dir);
}

/* stat says 0 bytes for both; the reader must stop at the limit. */
static void test_device_and_pipe_are_bounded(void **state)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *path = NULL;
	int fds[2];
	char block[4096];
	size_t len;

	(void)state;
	assert_null(gs_read_file_bounded("/dev/zero", 5000, &len, &err));
	assert_string_equal(err->message, "/dev/zero: larger than 5000 bytes");
	g_clear_error(&err);

	/* a pipe holding more than the limit (pipes buffer 64 KiB) */
	assert_int_equal(pipe(fds), 0);
	memset(block, 'y', sizeof(block));
	assert_int_equal(write(fds[1], block, sizeof(block)),
			 (ssize_t)sizeof(block));
	path = g_strdup_printf("/dev/fd/%d", fds[0]);
	assert_null(gs_read_file_bounded(path, 1000, &len, &err));
	assert_true(g_str_has_suffix(err->message,
				     ": larger than 1000 bytes"));
	close(fds[0]);
	close(fds[1]);
}

static void test_missing_file_names_it(void **state)
{
	g_autoptr(GError) err = NULL;
	size_t len;

	(void)state;
	assert_null(gs_read_file_bounded("/nonexistent/f.csv", 10, &len,
					 &err));
	assert_true(g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT));
	assert_true(g_str_has_prefix(err->message, "/nonexistent/f.csv: "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit_is_exact),
		cmocka_unit_test(test_device_and_pipe_are_bounded),
		cmocka_unit_test(test_missing_file_names_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
