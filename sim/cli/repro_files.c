/* gpusim reproduce: where the shipped scenarios are, installed or in the
 * source tree, and which files the default run reads. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/repro.h"

static int sort_paths(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .yaml files of `dir`, sorted, appended to `files`. */
static void add_folder(GPtrArray *files, const char *dir)
{
	g_autoptr(GPtrArray) found = g_ptr_array_new();
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	guint i;

	while (d && (name = g_dir_read_name(d)))
		if (g_str_has_suffix(name, ".yaml"))
			g_ptr_array_add(found, g_build_filename(dir, name,
								NULL));
	g_ptr_array_sort(found, sort_paths);
	for (i = 0; i < found->len; i++)
		g_ptr_array_add(files, g_ptr_array_index(found, i));
}

/* Where the shipped scenarios are: installed beside the executable
 * (PREFIX/bin/gpusim -> PREFIX/share/gpusim/configs, as `make install`
 * puts them), in the source tree the executable was built in (./gpusim
 * -> ./configs), or in ./configs (a build elsewhere, run from the source
 * tree). The first candidate that has a paper/ folder; NULL if none, with
 * the places looked at in `tried`. */
static char *configs_dir(GString *tried)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *bin = exe ? g_path_get_dirname(exe) : NULL;
	char *cand[3] = {
		bin ? g_build_filename(bin, "..", "share", "gpusim", "configs",
				       NULL) : NULL,
		bin ? g_build_filename(bin, "configs", NULL) : NULL,
		g_strdup("configs"),
	};
	char *found = NULL;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(cand); i++) {
		g_autofree char *paper = cand[i] ? g_build_filename(cand[i],
							"paper", NULL) : NULL;

		if (!cand[i])
			continue;
		if (!found && g_file_test(paper, G_FILE_TEST_IS_DIR))
			found = g_strdup(cand[i]);
		g_string_append_printf(tried, "%s%s", tried->len ? ", " : "",
				       cand[i]);
		g_free(cand[i]);
	}
	return found;
}

/* The paper scenarios, then those beyond the papers; NULL if the shipped
 * scenarios are nowhere to be found (reported). */
GPtrArray *gs_repro_default_files(void)
{
	g_autoptr(GString) tried = g_string_new("");
	g_autofree char *dir = configs_dir(tried);
	g_autofree char *paper = NULL, *beyond = NULL;
	GPtrArray *files;

	if (!dir) {
		fprintf(stderr,
			"gpusim: reproduce: no scenario folder found (looked "
			"for paper/ in %s); name the files: gpusim reproduce "
			"FILE...\n", tried->str);
		return NULL;
	}
	files = g_ptr_array_new_with_free_func(g_free);
	paper = g_build_filename(dir, "paper", NULL);
	beyond = g_build_filename(dir, "beyond", NULL);
	add_folder(files, paper);
	add_folder(files, beyond);
	return files;
}
