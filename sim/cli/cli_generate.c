/* gpusim generate: write a random, valid scenario (workloads/generate.h). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli/cli.h"
#include "workloads/generate.h"

/* "out/gen-7.yaml" -> "gen-7": what trace CSVs are named after. */
static char *stem_of(const char *path)
{
	g_autofree char *base = g_path_get_basename(path);
	char *dot = strrchr(base, '.');

	if (dot && dot != base)
		*dot = '\0';
	return g_strdup(base);
}

/* Trace CSVs first, then the scenario, each written to a temporary name
 * and renamed, so a failure leaves no scenario naming a missing file. */
static bool write_all(const char *out, const char *yaml, GPtrArray *files)
{
	g_autofree char *dir = g_path_get_dirname(out ? out : ".");
	g_autoptr(GError) err = NULL;
	guint i;

	for (i = 0; i < files->len; i++) {
		const struct gs_gen_file *f = files->pdata[i];
		g_autofree char *path = g_build_filename(out ? dir : ".",
							 f->name, NULL);

		if (!g_file_set_contents(path, f->text, -1, &err)) {
			fprintf(stderr, "gpusim: %s\n", err->message);
			return false;
		}
		if (!out)
			fprintf(stderr, "gpusim: wrote %s\n", path);
	}
	if (!out) {
		fputs(yaml, stdout);
		return fflush(stdout) == 0;
	}
	if (!g_file_set_contents(out, yaml, -1, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return false;
	}
	return true;
}

int gs_cmd_generate(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new(NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(
		gs_gen_file_free);
	g_autofree char *policy = NULL, *preset = NULL, *out = NULL;
	g_autofree char *stem = NULL, *yaml = NULL;
	gint64 seed = 1;
	gboolean classic = FALSE;
	gint edition = -1; /* not given: the latest */
	struct gs_gen_options opt = { 0 };
	struct gs_gen_scenario *g;
	GOptionEntry entries[] = {
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &seed,
		  "generator seed (default 1); the same seed gives the same "
		  "file", "N" },
		{ "policy", 0, 0, G_OPTION_ARG_STRING, &policy,
		  "use this policy (default: any registered one)", "P" },
		{ "preset", 0, 0, G_OPTION_ARG_STRING, &preset,
		  "use this GPU preset (default: kepler or volta)", "X" },
		{ "edition", 0, 0, G_OPTION_ARG_INT, &edition,
		  "draw a seed's scenario as edition N of the generator did: "
		  "1 its first stream only, 2 the first two, and so on to 5, "
		  "all five (the default; README, generate)", "N" },
		{ "classic", 0, 0, G_OPTION_ARG_NONE, &classic,
		  "the same as --edition 1", NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "write the scenario to FILE (trace CSVs beside it) instead "
		  "of standard output", "FILE" },
		G_OPTION_ENTRY_NULL
	};
	bool ok;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_summary(ctx, "Write a random, valid scenario: "
				     "1-20 tasks of every behaviour, random "
				     "weights, rings,\npresets, VM trees "
				     "(hdfq) and nodes (node policies). The "
				     "property tests\n(make proptest) report "
				     "failures by this seed.");
	gs_cli_help(ctx, "generate");
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_USAGE;
	}
	if (argc > 1 || seed < 0) {
		fprintf(stderr, "gpusim: generate takes no file and a seed "
				">= 0 (see --help)\n");
		return GS_EXIT_USAGE;
	}
	opt.policy = policy;
	opt.preset = preset;
	if ((edition != -1 && (edition < 1 || edition > GS_GEN_EDITIONS)) ||
	    (classic && edition > GS_GEN_EDITION_CLASSIC)) {
		fprintf(stderr, "gpusim: --edition takes 1 to %d (--classic "
				"is 1)\n", GS_GEN_EDITIONS);
		return GS_EXIT_USAGE;
	}
	opt.edition = classic ? GS_GEN_EDITION_CLASSIC :
		      edition == -1 ? GS_GEN_EDITION_LATEST : (unsigned)edition;
	g = g_new0(struct gs_gen_scenario, 1);
	if (!gs_gen_draw(g, (uint64_t)seed, &opt, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		g_free(g);
		return GS_EXIT_USAGE;
	}
	stem = out ? stem_of(out) : g_strdup_printf("gen-%" G_GINT64_FORMAT,
						   seed);
	yaml = gs_gen_yaml(g, stem, files);
	g_free(g);
	ok = write_all(out, yaml, files);
	return ok ? GS_EXIT_OK : GS_EXIT_FAILURE;
}
