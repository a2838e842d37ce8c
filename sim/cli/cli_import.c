/* gpusim import: a recording of a real machine (a profiler's trace) turned
 * into a scenario of `trace` tasks (sim/import/). */
#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "base/event.h"
#include "gpu_model/gpu_config.h"
#include "policies/policy.h"
#include "sim/cli/cli.h"
#include "sim/import/import.h"
#include "sim/import/import_write.h"
#include "workloads/config_duration.h"

char *gs_cli_import_formats(void)
{
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; gs_importers[i]; i++)
		g_string_append_printf(s, "  %-14s %s\n",
				       gs_importers[i]->format,
				       gs_importers[i]->summary);
	return g_string_free(s, FALSE);
}

static char *help_text(void)
{
	g_autofree char *formats = gs_cli_import_formats();

	return g_strdup_printf(
		"Formats:\n%s\nExamples:\n"
		"  gpusim import chrome-json train.json -o train.yaml\n"
		"  gpusim import nsys-sqlite report.sqlite -o report.yaml "
		"--policy timeslice\n"
		"  gpusim run train.yaml --out results/train", formats);
}

/* The policy, preset and duration of the command line, checked before the
 * recording is read; a message and false for a bad one. */
static bool check_options(const char *policy, const char *preset,
			  const char *duration, guint64 *duration_ns)
{
	struct gs_gpu_config cfg;
	gs_time_t d = 0;

	if (policy && !gs_policy_find(policy)) {
		fprintf(stderr, "gpusim: unknown policy '%s' (see gpusim "
				"list)\n", policy);
		return false;
	}
	if (preset && gs_gpu_preset(preset, &cfg) < 0) {
		fprintf(stderr, "gpusim: unknown GPU preset '%s' (see gpusim "
				"list)\n", preset);
		return false;
	}
	/* cycles of a 1 GHz clock are nanoseconds, as in a scenario */
	if (duration && (gs_parse_duration(duration, GS_NS_PER_S, &d) < 0 ||
			 !d)) {
		fprintf(stderr, "gpusim: --duration expects a positive "
				"duration such as 2s, not '%s'\n", duration);
		return false;
	}
	*duration_ns = d;
	return true;
}

static int import_file(const struct gs_importer *importer, const char *path,
		       const struct gs_import_write_options *opt)
{
	struct gs_import *imp = gs_import_new(path, importer->format);
	g_autoptr(GPtrArray) files = gs_import_files_new();
	g_autoptr(GError) err = NULL;
	struct gs_import_counts c;
	int rc = GS_EXIT_USAGE;

	if (!importer->read(path, imp, &err) ||
	    !gs_import_render(imp, opt, files, &c, &err)) {
		fprintf(stderr, "%s\n", err->message);
		goto out;
	}
	rc = GS_EXIT_FAILURE;
	if (!gs_import_files_write(files, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		goto out;
	}
	printf("%s: %u task%s, %u channel%s, %" G_GUINT64_FORMAT " job%s, "
	       "span %" G_GUINT64_FORMAT " ns -> %s (duration %"
	       G_GUINT64_FORMAT " ns)\n", path, c.tasks,
	       c.tasks == 1 ? "" : "s", c.channels, c.channels == 1 ? "" : "s",
	       c.jobs, c.jobs == 1 ? "" : "s", c.span_ns, opt->out,
	       c.duration_ns);
	for (guint i = 0; i < imp->notes->len; i++)
		printf("  note: %s\n", (const char *)imp->notes->pdata[i]);
	rc = GS_EXIT_OK;
out:
	gs_import_free(imp);
	return rc;
}

int gs_cmd_import(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("FORMAT FILE -o SCENARIO.yaml");
	g_autoptr(GError) err = NULL;
	g_autofree char *out = NULL, *policy = NULL, *preset = NULL;
	g_autofree char *duration = NULL, *help = help_text();
	g_auto(GStrv) args = NULL;
	struct gs_import_write_options opt = { 0 };
	const struct gs_importer *importer;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "the scenario to write (its trace CSVs go beside it, "
		  "named SCENARIO.TASK.csv)", "FILE" },
		{ "policy", 0, 0, G_OPTION_ARG_STRING, &policy,
		  "policy.name of the scenario (default direct)", "NAME" },
		{ "preset", 0, 0, G_OPTION_ARG_STRING, &preset,
		  "gpu.preset of the scenario (default volta)", "NAME" },
		{ "duration", 0, 0, G_OPTION_ARG_STRING, &duration,
		  "the scenario's duration (default: the last job's end "
		  "plus the recording's GPU time)", "D" },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &args,
		  NULL, NULL },
		G_OPTION_ENTRY_NULL
	};

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_summary(ctx, "Turn a recording of a real machine "
				     "into a scenario: one trace task per "
				     "process, one\nchannel per stream, each "
				     "GPU job at its submission time with its "
				     "recorded\nduration.");
	g_option_context_set_description(ctx, help);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_USAGE;
	}
	if (!args || g_strv_length(args) != 2 || !out) {
		fprintf(stderr, "gpusim: expected FORMAT FILE -o SCENARIO.yaml "
				"(see --help)\n");
		return GS_EXIT_USAGE;
	}
	importer = gs_importer_find(args[0]);
	if (!importer) {
		g_autofree char *formats = gs_cli_import_formats();

		fprintf(stderr, "gpusim: unknown format '%s'; formats:\n%s",
			args[0], formats);
		return GS_EXIT_USAGE;
	}
	if (!check_options(policy, preset, duration, &opt.duration_ns))
		return GS_EXIT_USAGE;
	opt.out = out;
	opt.policy = policy;
	opt.preset = preset;
	return import_file(importer, args[1], &opt);
}
