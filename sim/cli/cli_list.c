/* gpusim list: what can be named in a scenario. */
#include <glib.h>
#include <stdio.h>

#include "gpu_model/gpu_config.h"
#include "policies/policy.h"
#include "sim/cli/cli.h"
#include "workloads/apps.h"
#include "workloads/dcuda_apps.h"
#include "workloads/policy_module.h"

static const char *const param_types[] = { "duration", "integer", "bool" };

static void print_policy(const struct gs_policy_ops *ops)
{
	uint32_t p;

	printf("  %-12s %s\n", ops->name, ops->summary ? ops->summary : "");
	printf("      %-18s %s\n", "(priority)",
	       ops->priority ? ops->priority : "ignored");
	for (p = 0; p < ops->n_params; p++) {
		const struct gs_param_desc *d = &ops->params[p];

		printf("      %-18s %-8s default %-8s %s", d->name,
		       param_types[d->type], d->def, d->help ? d->help : "");
		if (d->type == GS_PARAM_UINT)
			printf(" (at most %llu)", (unsigned long long)d->max);
		printf("\n");
	}
}

static void list_policies(void)
{
	uint32_t i;

	printf("Policies (policy.name, with policy.params):\n");
	for (i = 0; gs_policy_registry[i]; i++)
		print_policy(gs_policy_registry[i]);
}

static void list_presets(void)
{
	uint32_t i;

	printf("\nGPU presets (gpu.preset):\n");
	for (i = 0; gs_gpu_preset_names[i]; i++)
		printf("  %-10s %s\n", gs_gpu_preset_names[i],
		       gs_gpu_preset_summary(gs_gpu_preset_names[i]));
}

static void list_apps(void)
{
	uint32_t i;

	printf("\nBuilt-in applications (behavior: {app: NAME}), NEON "
	       "Table 1, alone on Kepler:\n");
	printf("  %-22s %-20s %9s %14s\n", "name", "area", "us/round",
	       "us/request");
	for (i = 0; i < gs_n_apps; i++) {
		const struct gs_app_desc *a = &gs_apps[i];
		char req[32];

		if (a->channels > 1)
			g_snprintf(req, sizeof(req), "%" G_GUINT64_FORMAT
				   "/%" G_GUINT64_FORMAT,
				   a->request[0] / 1000, a->request[1] / 1000);
		else
			g_snprintf(req, sizeof(req), "%" G_GUINT64_FORMAT,
				   a->request[0] / 1000);
		printf("  %-22s %-20s %9" G_GUINT64_FORMAT " %14s\n", a->name,
		       a->area, a->round / 1000, req);
	}
}

static void list_jobs(void)
{
	uint32_t i;

	printf("\nJob applications (behavior: {job: {app: NAME}}), DCUDA "
	       "Table 1, our estimates:\n");
	printf("  %-28s %-12s %6s %9s %8s %8s %8s\n", "name", "suite",
	       "demand", "kernel_ms", "length_s", "mem_MiB", "start_ms");
	for (i = 0; i < gs_n_jobs; i++) {
		const struct gs_job_desc *j = &gs_jobs[i];

		printf("  %-28s %-12s %5u%% %9" G_GUINT64_FORMAT " %8"
		       G_GUINT64_FORMAT " %8u %8" G_GUINT64_FORMAT "\n",
		       j->name, j->suite, j->demand_pm / 10,
		       (guint64)(j->kernel / GS_NS_PER_MS),
		       (guint64)(j->length / GS_NS_PER_S), j->memory_mib,
		       (guint64)(j->startup / GS_NS_PER_MS));
	}
}

static void list_import_formats(void)
{
	g_autofree char *formats = gs_cli_import_formats();

	printf("\nRecordings gpusim import reads (gpusim import FORMAT "
	       "FILE):\n%s", formats);
}

int gs_cmd_list(int argc, char **argv)
{
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- list policies, presets and apps");
	g_autoptr(GError) err = NULL;
	g_autofree char *module = NULL;
	GOptionEntry entries[] = {
		{ "policy-module", 0, 0, G_OPTION_ARG_FILENAME, &module,
		  "List the policy of a module (as run --policy-module "
		  "finds it) and its parameters only", "FILE" },
		G_OPTION_ENTRY_NULL
	};

	g_option_context_add_main_entries(ctx, entries, NULL);
	gs_cli_help(ctx, "list");
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_USAGE;
	}
	if (module) {
		const struct gs_policy_ops *ops =
			gs_policy_module_load(module, NULL, &err);

		if (!ops) {
			fprintf(stderr, "gpusim: %s\n", err->message);
			return GS_EXIT_USAGE;
		}
		printf("Policy of %s (policy: {module: ...}, with "
		       "policy.params):\n", module);
		print_policy(ops);
		return GS_EXIT_OK;
	}
	list_policies();
	list_presets();
	list_apps();
	list_jobs();
	list_import_formats();
	return GS_EXIT_OK;
}
