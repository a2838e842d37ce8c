/* Folder functions shared by the tests that write results (header-only:
 * each test binary links nothing but itself and the library). Include it
 * after cmocka.h. */
#ifndef GS_TESTS_TEST_DIRS_H
#define GS_TESTS_TEST_DIRS_H

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

/* Removes path and everything under it; a symlink is removed, not
 * followed. */
static inline void remove_tree(const char *path)
{
	GDir *d;
	const char *entry;

	if (!g_file_test(path, G_FILE_TEST_IS_DIR) ||
	    g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
		g_unlink(path);
		return;
	}
	d = g_dir_open(path, 0, NULL);
	while (d && (entry = g_dir_read_name(d))) {
		g_autofree char *child = g_build_filename(path, entry, NULL);

		remove_tree(child);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(path);
}

/* g_ptr_array_sort() hands over pointers to the elements. */
static inline gint by_strcmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir, sorted, joined with spaces. */
static inline char *sorted_listing(const char *dir)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *entry;

	assert_non_null(d);
	while ((entry = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(entry));
	g_dir_close(d);
	g_ptr_array_sort(names, by_strcmp);
	g_ptr_array_add(names, NULL);
	return g_strjoinv(" ", (char **)names->pdata);
}

#endif
