/* gpusim run / gpusim validate. */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim/cli.h"
#include "sim/sim.h"
#include "workloads/config_load.h"
#include "workloads/sweep.h"

struct run_args {
	char *out;
	char *seed;
	char **sets;
	gboolean no_timeline;
	gboolean no_standalone;
	gboolean quiet;
};

static void run_args_clear(struct run_args *a)
{
	g_clear_pointer(&a->out, g_free);
	g_clear_pointer(&a->seed, g_free);
	g_clear_pointer(&a->sets, g_strfreev);
}

typedef struct run_args run_args;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(run_args, run_args_clear)

/* Progress on stderr when it is a terminal and the run has taken more than
 * a second. Wall-clock time only decides what is drawn, never what is
 * simulated. */
struct progress {
	gint64 started;
	gint64 last_draw;
	bool drawn;
};

static void draw_progress(void *ctx, gs_time_t now, gs_time_t end,
			  uint64_t events)
{
	struct progress *p = ctx;
	gint64 wall = g_get_monotonic_time();

	if (wall - p->started < G_USEC_PER_SEC ||
	    wall - p->last_draw < G_USEC_PER_SEC / 5)
		return;
	p->last_draw = wall;
	p->drawn = true;
	fprintf(stderr, "\r  %5.1f%%  simulated %.3f of %.3f s, %" PRIu64
		" events ", end ? 100.0 * (double)now / (double)end : 100.0,
		(double)now / 1e9, (double)end / 1e9, events);
	fflush(stderr);
}

static struct gs_scenario *load(const char *file, char **sets)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc;

	sc = gs_scenario_load_file(file, (const char *const *)sets,
				   sets ? g_strv_length(sets) : 0, &err);
	if (!sc)
		fprintf(stderr, "%s\n", err->message);
	return sc;
}

static bool parse_args(const char *command, int argc, char **argv,
		       const char *what, GOptionEntry *entries, char ***files)
{
	return gs_cli_parse(command, argc, argv, what,
		"Exit status: 0 success, 1 failure while running or writing, "
		"2 bad\nusage or an invalid scenario (reported as "
		"FILE:LINE:COLUMN: message).", entries, files);
}

static char *default_out_dir(const struct gs_scenario *sc)
{
	return g_build_filename("results", sc->name, NULL);
}

static bool is_config_error(const GError *err)
{
	return err->domain == g_quark_from_static_string("gs-sim") &&
	       err->code == GS_SIM_ERROR_POLICY_INIT;
}

int gs_cmd_run(int argc, char **argv)
{
	g_auto(run_args) a = { 0 };
	g_auto(GStrv) files = NULL;
	GOptionEntry entries[] = {
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &a.out,
		  "Write results into DIR (default: results/NAME)", "DIR" },
		{ "seed", 's', 0, G_OPTION_ARG_STRING, &a.seed,
		  "Use seed N instead of the scenario's", "N" },
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.sets,
		  "Override a scenario value, e.g. "
		  "--set tasks.0.behavior.throttle.kernel=50us (repeatable)",
		  "KEY.PATH=VALUE" },
		{ "no-timeline", 0, 0, G_OPTION_ARG_NONE, &a.no_timeline,
		  "Do not record or write timeline.json", NULL },
		{ "no-standalone", 0, 0, G_OPTION_ARG_NONE, &a.no_standalone,
		  "Skip the standalone runs (no slowdown figures)", NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &a.quiet,
		  "Print no summary table", NULL },
		G_OPTION_ENTRY_NULL
	};
	struct gs_scenario *sc;
	struct gs_results r;
	struct progress prog = { .started = g_get_monotonic_time() };
	struct gs_sim_options opt = { 0 };
	g_autoptr(GError) err = NULL;
	g_autofree char *out_dir = NULL;
	int status = GS_EXIT_OK;

	if (!parse_args("run", argc, argv, "FILE - run a scenario", entries, &files))
		return GS_EXIT_USAGE;
	if (a.seed) {
		char *end = NULL;
		guint64 seed = g_ascii_strtoull(a.seed, &end, 0);
		guint n = a.sets ? g_strv_length(a.sets) : 0;

		if (!*a.seed || *end) {
			fprintf(stderr, "gpusim: --seed expects an integer, "
					"got '%s'\n", a.seed);
			return GS_EXIT_USAGE;
		}
		/* an override, so what the loader draws from the seed (a
		 * shuffled arrival order) follows it too */
		a.sets = g_renew(char *, a.sets, n + 2);
		a.sets[n] = g_strdup_printf("seed=%" G_GUINT64_FORMAT, seed);
		a.sets[n + 1] = NULL;
	}
	sc = load(files[0], a.sets);
	if (!sc)
		return GS_EXIT_USAGE;
	if (sc->sweep.line)
		fprintf(stderr, "gpusim: note: %s has a sweep block; running "
				"its base scenario only (gpusim sweep runs the "
				"grid)\n", files[0]);
	opt.timeline = sc->output.timeline && !a.no_timeline;
	opt.standalone_runs = !a.no_standalone;
	if (isatty(STDERR_FILENO)) {
		opt.progress = draw_progress;
		opt.progress_ctx = &prog;
	}
	out_dir = a.out ? g_strdup(a.out) : default_out_dir(sc);

	gs_results_init(&r);
	if (!gs_run_scenario(sc, &opt, &r, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		status = is_config_error(err) ? GS_EXIT_USAGE
					      : GS_EXIT_FAILURE;
	} else {
		if (prog.drawn)
			fprintf(stderr, "\r%70s\r", "");
		if (r.event_capped)
			fprintf(stderr, "gpusim: warning: stopped at the event "
					"cap (max_events) after %.3f of %.3f "
					"simulated seconds\n",
				(double)r.sim_time_ns / 1e9,
				(double)sc->duration / 1e9);
		if (!gs_results_write_dir(&r, out_dir, opt.timeline, &err)) {
			fprintf(stderr, "gpusim: %s\n", err->message);
			status = GS_EXIT_FAILURE;
		} else if (!a.quiet) {
			gs_results_print_table(&r, stdout);
			printf("\nresults written to %s/\n", out_dir);
		}
	}
	gs_results_clear(&r);
	gs_scenario_free(sc);
	return status;
}

/* A scenario the loader accepted whose policies do not all initialise is
 * a config error: validate finds it by building the simulation once. */
static bool policies_start(const struct gs_scenario *sc, GError **error)
{
	struct gs_sim *sim = gs_sim_new(sc, NULL, error);

	gs_sim_free(sim);
	return sim != NULL;
}

int gs_cmd_validate(int argc, char **argv)
{
	g_auto(GStrv) sets = NULL;
	g_auto(GStrv) files = NULL;
	GOptionEntry entries[] = {
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
		  "Apply an override first, as with run", "KEY.PATH=VALUE" },
		G_OPTION_ENTRY_NULL
	};
	struct gs_scenario *sc;
	g_autoptr(GError) err = NULL;
	uint32_t i, n = 0;

	if (!parse_args("validate", argc, argv,
			"FILE - check a scenario", entries, &files))
		return GS_EXIT_USAGE;
	sc = load(files[0], sets);
	if (!sc)
		return GS_EXIT_USAGE;
	if (!policies_start(sc, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		gs_scenario_free(sc);
		return GS_EXIT_USAGE;
	}
	for (i = 0; i < sc->n_tasks; i++)
		n += sc->tasks[i].count;
	printf("%s: ok: %u task%s on %u GPU%s (%s), policy %s, %.3f s\n",
	       files[0], n, n == 1 ? "" : "s", sc->n_gpus,
	       sc->n_gpus == 1 ? "" : "s", sc->gpu.preset, sc->policy.name,
	       (double)sc->duration / 1e9);
	if (sc->sweep.line) {
		GPtrArray *points = gs_sweep_expand(sc);

		printf("%s: sweep of %u point%s\n", files[0], points->len,
		       points->len == 1 ? "" : "s");
		g_ptr_array_unref(points);
	}
	gs_scenario_free(sc);
	return GS_EXIT_OK;
}
