/* Option parsing shared by the subcommands that take scenario files. */
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"

/* Examples at the end of each command's --help. */
static const struct {
	const char *command;
	const char *text;
} examples[] = {
	{ "run", "  gpusim run configs/default.yaml --out results/default\n"
		 "  gpusim run configs/paper/neon_fig6_dfq.yaml --seed 2 "
		 "--set policy.name=timeslice\n"
		 "  gpusim run configs/examples/*.yaml --out results/examples" },
	{ "validate", "  gpusim validate configs/examples/vms.yaml "
		      "--set policy.name=dfq\n"
		      "  gpusim validate configs/*.yaml configs/*/*.yaml" },
	{ "list", "  gpusim list\n"
		  "  gpusim list --policy-module ./mine.so" },
	{ "reproduce", "  gpusim reproduce\n"
		       "  gpusim reproduce configs/paper/germ_drr.yaml" },
	{ "sweep", "  gpusim sweep configs/paper/sweeps/neon_fig6_fig7.yaml "
		   "-j 2 --out results/fig6\n"
		   "  gpusim sweep grid.yaml --out /shared/grid --emit-jobs "
		   "> jobs.txt\n"
		   "  gpusim sweep grid.yaml --collect /shared/grid" },
	{ "bench", "  gpusim bench\n"
		   "  gpusim bench --sim-seconds 5 --channels 16,4096 "
		   "--no-reproduce --out bench-small.json" },
	{ "generate", "  gpusim generate --seed 7 -o gen-7.yaml\n"
		      "  gpusim generate --seed 7 --policy hdfq --preset volta "
		      "-o hdfq-7.yaml\n"
		      "  gpusim generate --seed 42 | less" },
	{ "new-policy", "  gpusim new-policy mine\n"
			"  gpusim new-policy fair_share policies/fair_share" },
	{ "compare", "  gpusim compare results/base results/new\n"
		     "  gpusim compare base/ new/ --metric jain_index "
		     "--tolerance 0.01\n"
		     "  gpusim compare old/sweep.csv new/sweep.csv "
		     "--metric 'tasks.*.gpu_share' --tolerance 5%" },
};

void gs_cli_help(GOptionContext *ctx, const char *command)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(examples); i++) {
		g_autofree char *text = NULL;

		if (strcmp(examples[i].command, command))
			continue;
		text = g_strconcat("Examples:\n", examples[i].text, NULL);
		g_option_context_set_description(ctx, text);
	}
}

bool gs_cli_parse(const char *command, int argc, char **argv,
		  const char *what, const char *summary,
		  GOptionEntry *entries, char ***files, bool several)
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
	gs_cli_help(ctx, command);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return false;
	}
	if (!*files || !(*files)[0] || (!several && (*files)[1])) {
		fprintf(stderr, "gpusim: expected %s scenario file (see "
				"--help)\n", several ? "a" : "one");
		return false;
	}
	return true;
}

bool gs_cli_timeline_format(const char *word, enum gs_timeline_format *out)
{
	*out = GS_TIMELINE_PFTRACE;
	if (!word || gs_timeline_format_parse(word, out))
		return true;
	fprintf(stderr, "gpusim: --timeline expects pftrace or json, not "
			"'%s'\n", word);
	return false;
}

/* --policy-module FILE as a `policy={module: FILE}` override: the
 * module's policy replaces the scenario's, parameters and all (they were
 * another policy's). A path is taken from the working directory, not
 * from the scenario's folder as one written in the file. */
bool gs_cli_add_module_override(const char *module, char ***sets)
{
	g_autofree char *path = NULL;
	GString *q;
	const char *p;
	guint n = *sets ? g_strv_length(*sets) : 0;

	if (!module)
		return true;
	path = strchr(module, '/') &&
			       !g_path_is_absolute(module)
		       ? g_canonicalize_filename(module, NULL)
		       : g_strdup(module);
	q = g_string_new("policy={module: \"");
	for (p = path; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_c(q, '\\');
		g_string_append_c(q, *p);
	}
	g_string_append(q, "\"}");
	*sets = g_renew(char *, *sets, n + 2);
	(*sets)[n] = g_string_free(q, FALSE);
	(*sets)[n + 1] = NULL;
	return true;
}
