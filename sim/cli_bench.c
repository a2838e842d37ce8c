/* gpusim bench: simulated events and commands per wall-clock second on
 * saturating throttle workloads of growing channel counts, under `direct`.
 * Wall time decides nothing in the simulation; it is only measured. */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>

#include "sim/cli.h"
#include "sim/sim.h"
#include "workloads/config_load.h"

struct bench_point {
	uint32_t channels;
	double wall_s;
	uint64_t events;
	uint64_t commands;
	gs_time_t sim_ns;
};

/* One channel per task; kernels of 10us keep the dispatcher busy. */
static char *bench_yaml(uint32_t channels, gs_time_t duration)
{
	return g_strdup_printf(
		"name: bench-%u\nseed: 1\nduration: %" G_GUINT64_FORMAT "\n"
		"gpu: {preset: kepler, max_channels: %u}\n"
		"output: {timeline: false}\n"
		"tasks:\n"
		"  - name: t\n    count: %u\n"
		"    behavior: {throttle: {kernel: {uniform: [5us, 15us]}}}\n",
		channels, duration, channels < 16 ? 16 : channels, channels);
}

static bool bench_one(uint32_t channels, gs_time_t duration,
		      struct bench_point *p)
{
	g_autofree char *yaml = bench_yaml(channels, duration);
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data("bench.yaml", yaml,
						       strlen(yaml), NULL, 0,
						       &err);
	struct gs_sim_options opt = { 0 };
	struct gs_results r;
	gint64 t0;
	uint32_t i;

	if (!sc) {
		fprintf(stderr, "gpusim bench: %s\n", err->message);
		return false;
	}
	gs_results_init(&r);
	t0 = g_get_monotonic_time();
	if (!gs_run_scenario(sc, &opt, &r, &err)) {
		fprintf(stderr, "gpusim bench: %s\n", err->message);
		gs_results_clear(&r);
		gs_scenario_free(sc);
		return false;
	}
	p->wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
	p->channels = channels;
	p->events = r.events;
	p->sim_ns = r.sim_time_ns;
	p->commands = 0;
	for (i = 0; i < r.n_tasks; i++)
		p->commands += r.tasks[i].rounds;
	gs_results_clear(&r);
	gs_scenario_free(sc);
	return true;
}

int gs_cmd_bench(int argc, char **argv)
{
	static const uint32_t sizes[] = { 16, 256, 4096 };
	gint64 seconds = 20;
	GOptionEntry entries[] = {
		{ "sim-seconds", 0, 0, G_OPTION_ARG_INT64, &seconds,
		  "Simulated seconds per point (default 20)", "S" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- measure simulator speed");
	g_autoptr(GError) err = NULL;
	size_t i;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err) || seconds < 1) {
		fprintf(stderr, "gpusim: %s\n",
			err ? err->message : "--sim-seconds must be >= 1");
		return GS_EXIT_USAGE;
	}
	printf("%-9s %-7s %12s %12s %14s %14s %10s\n", "scenario", "policy",
	       "channels", "events", "events/s", "commands/s", "ns/event");
	for (i = 0; i < G_N_ELEMENTS(sizes); i++) {
		struct bench_point p;

		if (!bench_one(sizes[i], (gs_time_t)seconds * GS_NS_PER_S, &p))
			return GS_EXIT_FAILURE;
		printf("%-9s %-7s %12u %12" PRIu64 " %14.0f %14.0f %10.1f\n",
		       "throttle", "direct", p.channels, p.events,
		       (double)p.events / p.wall_s,
		       (double)p.commands / p.wall_s,
		       p.wall_s * 1e9 / (double)p.events);
		fflush(stdout);
	}
	return GS_EXIT_OK;
}
