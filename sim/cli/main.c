/* gpusim: dispatch on the subcommand, in the manner of gio-tool. */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "run", gs_cmd_run, "run scenarios and write their results" },
	{ "validate", gs_cmd_validate, "check scenario files, run nothing" },
	{ "list", gs_cmd_list, "list policies, GPU presets and built-in apps" },
	{ "reproduce", gs_cmd_reproduce,
	  "check the paper targets of configs/paper/*.yaml" },
	{ "sweep", gs_cmd_sweep,
	  "run a scenario's sweep grid, or export it as jobs" },
	{ "bench", gs_cmd_bench,
	  "measure simulator speed (events/s) and memory per channel" },
	{ "generate", gs_cmd_generate,
	  "write a random, valid scenario (for property tests)" },
	{ "replay", gs_cmd_replay,
	  "replay a policy alone from a --record-hal record" },
	{ "new-policy", gs_cmd_new_policy,
	  "write the skeleton of a policy built outside the tree" },
	{ "compare", gs_cmd_compare,
	  "differences between two runs; exit 1 past a tolerance" },
	{ "import", gs_cmd_import, "turn a profiler's recording into a scenario" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage: gpusim COMMAND [OPTION...]\n\n"
		"A deterministic simulator of GPU command-submission channels "
		"and of the\nOS-level schedulers that share a GPU between "
		"applications.\n\nCommands:\n");
	for (i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\n  gpusim COMMAND --help   options and examples of a "
		     "command\n"
		     "  gpusim --version        print the version\n\n"
		     "Examples:\n"
		     "  gpusim run configs/default.yaml --out results/default\n"
		     "  gpusim run configs/paper/neon_fig6_dfq.yaml "
		     "--set policy.name=timeslice\n"
		     "  gpusim validate configs/examples/vms.yaml\n"
		     "  gpusim reproduce\n"
		     "  gpusim sweep configs/paper/sweeps/neon_fig6_fig7.yaml "
		     "-j 2\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return GS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return GS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("gpusim %s\n", GS_VERSION);
		return GS_EXIT_OK;
	}
	for (i = 0; i < G_N_ELEMENTS(commands); i++) {
		g_autofree char *prgname = NULL;

		if (strcmp(argv[1], commands[i].name))
			continue;
		/* the usage line of the command's --help: "gpusim run ..." */
		prgname = g_strdup_printf("gpusim %s", commands[i].name);
		g_set_prgname(prgname);
		return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "gpusim: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return GS_EXIT_USAGE;
}
