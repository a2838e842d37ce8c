/* gpusim new-policy NAME [DIR]: the skeleton of a policy built outside
 * the tree (docs/writing-a-policy.md). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "sim/cli/new_policy.h"
#include "policies/policy.h"

#define NAME_MAX_LEN 32

/* A C identifier in lower case: it names the ops table (gs_policy_NAME)
 * and the module file. */
static bool valid_name(const char *name)
{
	const char *p;

	if (!g_ascii_islower(name[0]) || strlen(name) > NAME_MAX_LEN)
		return false;
	for (p = name; *p; p++)
		if (!g_ascii_islower(*p) && !g_ascii_isdigit(*p) && *p != '_')
			return false;
	return true;
}

/* The folder with policies/hal.h, sim/host/hal/ and tests/support/ that
 * the skeleton builds against: installed (PREFIX/share/gpusim/dev), the
 * source tree the executable was built in (./gpusim, or a build folder
 * of it: build-asan/gpusim), or the working directory (a build elsewhere,
 * run from the source tree). NULL if none. */
static char *dev_dir(const char *bin)
{
	char *cand[] = {
		g_build_filename(bin, "..", "share", "gpusim", "dev", NULL),
		g_strdup(bin),
		g_build_filename(bin, "..", NULL),
		g_get_current_dir(),
	};
	char *found = NULL;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(cand); i++) {
		g_autofree char *hal = g_build_filename(cand[i], "policies",
							"hal.h", NULL);
		g_autofree char *mock = g_build_filename(cand[i], "tests",
							 "support",
							 "mock_hal.h", NULL);

		if (!found && g_file_test(hal, G_FILE_TEST_IS_REGULAR) &&
		    g_file_test(mock, G_FILE_TEST_IS_REGULAR))
			found = g_canonicalize_filename(cand[i], NULL);
		g_free(cand[i]);
	}
	return found;
}

static char *fill(const char *tmpl, const char *name, const char *gpusim,
		  const char *dev)
{
	const char *keys[] = { "@NAME@", "@GPUSIM@", "@DEV@" };
	const char *vals[] = { name, gpusim, dev };
	char *out = g_strdup(tmpl);
	guint i;

	for (i = 0; i < G_N_ELEMENTS(keys); i++) {
		g_auto(GStrv) parts = g_strsplit(out, keys[i], -1);

		g_free(out);
		out = g_strjoinv(vals[i], parts);
	}
	return out;
}

/* Writes every file, or none: all are checked absent first. */
static int write_skeleton(const char *name, const char *dir,
			  const char *gpusim, const char *dev)
{
	const struct gs_new_policy_file *f;
	g_autoptr(GError) err = NULL;

	for (f = gs_new_policy_files; f->name; f++) {
		g_autofree char *base = fill(f->name, name, gpusim, dev);
		g_autofree char *path = g_build_filename(dir, base, NULL);

		if (g_file_test(path, G_FILE_TEST_EXISTS)) {
			fprintf(stderr, "gpusim: new-policy: %s exists; "
					"nothing written\n", path);
			return GS_EXIT_USAGE;
		}
	}
	if (g_mkdir_with_parents(dir, 0777) < 0) {
		fprintf(stderr, "gpusim: new-policy: cannot create %s\n", dir);
		return GS_EXIT_FAILURE;
	}
	for (f = gs_new_policy_files; f->name; f++) {
		g_autofree char *base = fill(f->name, name, gpusim, dev);
		g_autofree char *path = g_build_filename(dir, base, NULL);
		g_autofree char *text = fill(f->contents, name, gpusim, dev);

		if (!g_file_set_contents(path, text, -1, &err)) {
			fprintf(stderr, "gpusim: new-policy: %s\n",
				err->message);
			return GS_EXIT_FAILURE;
		}
		printf("wrote %s\n", path);
	}
	return GS_EXIT_OK;
}

int gs_cmd_new_policy(int argc, char **argv)
{
	GOptionEntry entries[] = { G_OPTION_ENTRY_NULL };
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("NAME [DIR] - write the skeleton of a "
				     "policy built outside the tree");
	g_autoptr(GError) err = NULL;
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *bin = NULL, *dev = NULL, *dir = NULL;
	const char *name;

	g_option_context_set_summary(ctx,
		"Writes NAME.c (the policy: params table and ops), "
		"test_NAME.c (a cmocka test\nagainst the mock HAL), "
		"NAME.yaml (a scenario) and NAME.mk (builds NAME.so\nand "
		"the test) into DIR (default: ./NAME). Then:\n"
		"  make -f NAME.mk check\n"
		"  gpusim run NAME.yaml --policy-module ./NAME.so");
	g_option_context_add_main_entries(ctx, entries, NULL);
	gs_cli_help(ctx, "new-policy");
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "gpusim: new-policy: %s\n", err->message);
		return GS_EXIT_USAGE;
	}
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "gpusim: new-policy: expected NAME [DIR] "
				"(gpusim new-policy --help)\n");
		return GS_EXIT_USAGE;
	}
	name = argv[1];
	if (!valid_name(name)) {
		fprintf(stderr, "gpusim: new-policy: '%s': a policy name is a "
				"lower-case C identifier of at most %d "
				"characters\n", name, NAME_MAX_LEN);
		return GS_EXIT_USAGE;
	}
	if (gs_policy_find(name)) {
		fprintf(stderr, "gpusim: new-policy: '%s' is a built-in "
				"policy; choose another name\n", name);
		return GS_EXIT_USAGE;
	}
	bin = exe ? g_path_get_dirname(exe) : g_strdup(".");
	dev = dev_dir(bin);
	if (!dev) {
		fprintf(stderr, "gpusim: new-policy: no policy headers "
				"found beside %s (make install, or run the "
				"gpusim of a source tree)\n", bin);
		return GS_EXIT_FAILURE;
	}
	dir = g_strdup(argc == 3 ? argv[2] : name);
	return write_skeleton(name, dir, exe ? exe : "gpusim", dev);
}
