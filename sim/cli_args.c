/* Option parsing shared by the subcommands that take one scenario file. */
#include <stdio.h>

#include "sim/cli.h"

bool gs_cli_parse(int argc, char **argv, const char *what,
		  const char *summary, GOptionEntry *entries, char ***files)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(what);
	g_autoptr(GError) err = NULL;
	GOptionEntry rest[] = {
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, files,
		  NULL, NULL },
		G_OPTION_ENTRY_NULL
	};

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_add_main_entries(ctx, rest, NULL);
	g_option_context_set_summary(ctx, summary);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return false;
	}
	if (!*files || !(*files)[0] || (*files)[1]) {
		fprintf(stderr, "gpusim: expected one scenario file (see "
				"--help)\n");
		return false;
	}
	return true;
}
