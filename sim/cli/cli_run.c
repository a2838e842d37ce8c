/* gpusim run / gpusim validate. */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli/cli.h"
#include "sim/host/record_hal.h"
#include "sim/results/pftrace_run.h"
#include "sim/results/results_write.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"
#include "workloads/sweep.h"

struct run_args {
	char *out;
	char *seed;
	char *policy_module;
	char **sets;
	gboolean no_timeline;
	char *timeline;         /* --timeline FORMAT */
	enum gs_timeline_format format;
	gboolean no_standalone;
	gboolean quiet;
	char *rows;             /* --rows N */
	uint32_t max_rows;      /* parsed; 0: every task */
	char *record_hal;
};

static void run_args_clear(struct run_args *a)
{
	g_clear_pointer(&a->out, g_free);
	g_clear_pointer(&a->seed, g_free);
	g_clear_pointer(&a->policy_module, g_free);
	g_clear_pointer(&a->timeline, g_free);
	g_clear_pointer(&a->sets, g_strfreev);
	g_clear_pointer(&a->record_hal, g_free);
	g_clear_pointer(&a->rows, g_free);
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
	const char *label; /* "[2/5] name " with several scenarios, else "" */
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
	fprintf(stderr, "\r  %s%5.1f%%  simulated %.3f of %.3f s, %" PRIu64
		" events ", p->label,
		end ? 100.0 * (double)now / (double)end : 100.0,
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
		"FILE:LINE:COLUMN: message).", entries, files, true);
}

static bool is_config_error(const GError *err)
{
	return err->domain == g_quark_from_static_string("gs-sim") &&
	       err->code == GS_SIM_ERROR_POLICY_INIT;
}

/* --seed N as a `seed=N` override, so what the loader draws from the seed
 * (a shuffled arrival order) follows it too. Only decimal 0..GS_SEED_MAX:
 * strtoull would take "-1" as 2^64-1 and saturate 2^64, silently. */
static bool add_seed_override(struct run_args *a)
{
	g_autoptr(GError) err = NULL;
	guint64 seed;
	guint n = a->sets ? g_strv_length(a->sets) : 0;

	if (!a->seed)
		return true;
	if (!g_ascii_string_to_unsigned(a->seed, 10, 0, GS_SEED_MAX, &seed,
					&err)) {
		fprintf(stderr, "gpusim: --seed expects an integer from 0 to %"
			G_GUINT64_FORMAT ", got '%s'\n", GS_SEED_MAX, a->seed);
		return false;
	}
	a->sets = g_renew(char *, a->sets, n + 2);
	a->sets[n] = g_strdup_printf("seed=%" G_GUINT64_FORMAT, seed);
	a->sets[n + 1] = NULL;
	return true;
}

/* --rows N: how many tasks the summary table shows, decimal, 0 for all. */
static bool parse_rows(struct run_args *a)
{
	guint64 rows = GS_TABLE_ROWS_DEFAULT;

	if (a->rows && !g_ascii_string_to_unsigned(a->rows, 10, 0, G_MAXUINT32,
						   &rows, NULL)) {
		fprintf(stderr, "gpusim: --rows expects a number of rows from "
			"0 (every task) to %u, got '%s'\n", G_MAXUINT32,
			a->rows);
		return false;
	}
	a->max_rows = (uint32_t)rows;
	return true;
}

/* Loads every file before anything runs, so that one bad file among many
 * stops the command before it writes anything; every error is shown. The
 * results of scenario i go to out_dirs[i]: DIR (--out) or results/NAME
 * for one file, DIR/NAME or results/NAME for several, never shared. */
static bool load_all(char **files, char **sets, const char *out,
		     GPtrArray *scenarios, GPtrArray *out_dirs)
{
	guint n = g_strv_length(files), i, j;
	bool ok = true;

	for (i = 0; i < n; i++) {
		struct gs_scenario *sc = load(files[i], sets);

		if (!sc) {
			ok = false;
			continue;
		}
		g_ptr_array_add(scenarios, sc);
		if (n == 1 && out)
			g_ptr_array_add(out_dirs, g_strdup(out));
		else
			g_ptr_array_add(out_dirs,
					g_build_filename(out ? out : "results",
							 sc->name, NULL));
	}
	for (i = 0; ok && i < out_dirs->len; i++)
		for (j = 0; ok && j < i; j++)
			if (!strcmp(out_dirs->pdata[i], out_dirs->pdata[j])) {
				fprintf(stderr,
					"gpusim: %s and %s would both write "
					"%s/ (both are named '%s'); rename "
					"one (name:) or run them apart\n",
					files[j], files[i],
					(char *)out_dirs->pdata[i],
					((struct gs_scenario *)
						 scenarios->pdata[i])->name);
				ok = false;
			}
	return ok;
}

/* Runs one loaded scenario into out_dir; an exit status. */
static int run_loaded(const char *file, const struct gs_scenario *sc,
		      const char *out_dir, const struct run_args *a,
		      const char *label)
{
	struct progress prog = { .started = g_get_monotonic_time(),
				 .label = label };
	struct gs_sim_options opt = { 0 };
	g_autoptr(GError) err = NULL;
	struct gs_results r;
	int status = GS_EXIT_OK;
	g_autoptr(gs_hal_record) hal_record =
		a->record_hal ? gs_hal_record_new() : NULL;
	struct gs_pftrace_run out;

	if (sc->sweep.line)
		fprintf(stderr, "gpusim: note: %s has a sweep block; running "
				"its base scenario only (gpusim sweep runs the "
				"grid)\n", file);
	opt.timeline = sc->output.timeline && !a->no_timeline;
	opt.standalone_runs = !a->no_standalone;
	opt.standalone_beside = true;
	if (isatty(STDERR_FILENO)) {
		opt.progress = draw_progress;
		opt.progress_ctx = &prog;
	}
	opt.hal_record = hal_record;
	/* the folder first: timeline.pftrace is written while the run goes
	 * on, and a folder that cannot be made fails before the run */
	if (!gs_pftrace_run_begin(&out, out_dir,
				  opt.timeline ? a->format : GS_TIMELINE_NONE,
				  &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_FAILURE;
	}
	opt.span_sink = gs_pftrace_run_sink(&out);
	opt.series_sink = gs_pftrace_run_series_sink(&out);
	gs_results_init(&r);
	if (!gs_run_scenario(sc, &opt, &r, &err)) {
		gs_pftrace_run_abort(&out);
		fprintf(stderr, "gpusim: %s\n", err->message);
		status = is_config_error(err) ? GS_EXIT_USAGE
					      : GS_EXIT_FAILURE;
	} else {
		if (prog.drawn)
			fprintf(stderr, "\r%90s\r", "");
		if (r.event_capped)
			fprintf(stderr, "gpusim: warning: %s stopped at the "
					"event cap (max_events) after %.3f of "
					"%.3f simulated seconds\n", file,
				(double)r.sim_time_ns / 1e9,
				(double)sc->duration / 1e9);
		if (hal_record &&
		    !gs_cli_write_hal_record(hal_record, sc, a->record_hal))
			status = GS_EXIT_FAILURE;
		if (!gs_pftrace_run_commit(&out, &r, &err)) {
			fprintf(stderr, "gpusim: %s\n", err->message);
			status = GS_EXIT_FAILURE;
		} else if (!a->quiet) {
			gs_results_print_table(&r, stdout, a->max_rows);
			printf("\nresults written to %s/\n", out_dir);
		}
		if (r.policy_warnings)
			fprintf(stderr, "gpusim: %s: %" PRIu64 " policy "
				"warning(s), the first: %s\n", file,
				r.policy_warnings, r.policy_warning);
		/* written all the same, marked violated in summary.json */
		if (r.invariant_violation) {
			fprintf(stderr, "gpusim: %s: %s\n", file,
				r.invariant_violation);
			status = GS_EXIT_FAILURE;
		}
	}
	gs_results_clear(&r);
	return status;
}

int gs_cmd_run(int argc, char **argv)
{
	g_auto(run_args) a = { 0 };
	g_auto(GStrv) files = NULL;
	GOptionEntry entries[] = {
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &a.out,
		  "Write results into DIR (default: results/NAME); with "
		  "several files into DIR/NAME; made before the run",
		  "DIR" },
		{ "seed", 's', 0, G_OPTION_ARG_STRING, &a.seed,
		  "Use seed N instead of the scenario's", "N" },
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.sets,
		  "Override a scenario value, e.g. "
		  "--set tasks.0.behavior.throttle.kernel=50us (repeatable)",
		  "KEY.PATH=VALUE" },
		{ "policy-module", 0, 0, G_OPTION_ARG_FILENAME,
		  &a.policy_module,
		  "Run the policy of a module built outside the tree "
		  "(./NAME.so, or NAME found in GPUSIM_POLICY_PATH) "
		  "instead of the scenario's", "FILE" },
		{ "no-timeline", 0, 0, G_OPTION_ARG_NONE, &a.no_timeline,
		  "Do not record or write a timeline", NULL },
		{ "timeline", 0, 0, G_OPTION_ARG_STRING, &a.timeline,
		  "Timeline format: pftrace (timeline.pftrace, Perfetto's "
		  "own; the default) or json (timeline.json, Chrome's)",
		  "FORMAT" },
		{ "no-standalone", 0, 0, G_OPTION_ARG_NONE, &a.no_standalone,
		  "Skip the standalone runs (no slowdown figures)", NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &a.quiet,
		  "Print no summary table", NULL },
		{ "rows", 0, 0, G_OPTION_ARG_STRING, &a.rows,
		  "Show the first N tasks in the summary table (default "
		  G_STRINGIFY(GS_TABLE_ROWS_DEFAULT) "; 0: every task; all "
		  "are in tasks.csv whatever N)", "N" },
		{ "record-hal", 0, 0, G_OPTION_ARG_FILENAME, &a.record_hal,
		  "Record every call across the policy's HAL seam into FILE "
		  "(one scenario; see gpusim replay)", "FILE" },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GPtrArray) scenarios =
		g_ptr_array_new_with_free_func((GDestroyNotify)gs_scenario_free);
	g_autoptr(GPtrArray) out_dirs = g_ptr_array_new_with_free_func(g_free);
	int status = GS_EXIT_OK;
	guint i, failed = 0;

	if (!parse_args("run", argc, argv,
			"FILE... - run scenarios (all are checked first)",
			entries, &files) ||
	    !add_seed_override(&a) || !parse_rows(&a) ||
	    !gs_cli_record_hal_single(a.record_hal, files) ||
	    !gs_cli_add_module_override(a.policy_module, &a.sets) ||
	    !gs_cli_timeline_format(a.timeline, &a.format) ||
	    !load_all(files, a.sets, a.out, scenarios, out_dirs))
		return GS_EXIT_USAGE;
	/* one after the other; a failing scenario does not stop the rest */
	for (i = 0; i < scenarios->len; i++) {
		const struct gs_scenario *sc = scenarios->pdata[i];
		g_autofree char *label =
			scenarios->len > 1
				? g_strdup_printf("[%u/%u] %s ", i + 1,
						  scenarios->len, sc->name)
				: g_strdup("");
		int st;

		if (i && !a.quiet)
			printf("\n");
		st = run_loaded(files[i], sc, out_dirs->pdata[i], &a, label);
		if (st != GS_EXIT_OK)
			failed++;
		if (st > status)
			status = st;
	}
	if (failed && scenarios->len > 1)
		fprintf(stderr, "gpusim: %u of %u scenarios failed\n", failed,
			scenarios->len);
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

/* Checks one file: loads it and starts its policies; prints what it
 * holds. */
static bool validate_one(const char *file, char **sets)
{
	struct gs_scenario *sc = load(file, sets);
	g_autoptr(GError) err = NULL;
	uint32_t i, n = 0;

	if (!sc)
		return false;
	if (!policies_start(sc, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		gs_scenario_free(sc);
		return false;
	}
	for (i = 0; i < sc->n_tasks; i++)
		n += sc->tasks[i].count;
	printf("%s: ok: %u task%s on %u GPU%s (%s), policy %s, %.3f s\n",
	       file, n, n == 1 ? "" : "s", sc->n_gpus,
	       sc->n_gpus == 1 ? "" : "s", sc->gpu.preset, sc->policy.name,
	       (double)sc->duration / 1e9);
	if (sc->sweep.line) {
		GPtrArray *points = gs_sweep_expand(sc);

		printf("%s: sweep of %u point%s\n", file, points->len,
		       points->len == 1 ? "" : "s");
		g_ptr_array_unref(points);
	}
	gs_scenario_free(sc);
	return true;
}

int gs_cmd_validate(int argc, char **argv)
{
	g_auto(GStrv) sets = NULL;
	g_auto(GStrv) files = NULL;
	g_autofree char *module = NULL;
	GOptionEntry entries[] = {
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets,
		  "Apply an override first, as with run", "KEY.PATH=VALUE" },
		{ "policy-module", 0, 0, G_OPTION_ARG_FILENAME, &module,
		  "Check with the policy of a module instead of the "
		  "scenario's, as with run", "FILE" },
		G_OPTION_ENTRY_NULL
	};
	bool ok = true;
	guint i;

	if (!parse_args("validate", argc, argv,
			"FILE... - check scenarios", entries, &files) ||
	    !gs_cli_add_module_override(module, &sets))
		return GS_EXIT_USAGE;
	for (i = 0; files[i]; i++)
		ok = validate_one(files[i], sets) && ok;
	return ok ? GS_EXIT_OK : GS_EXIT_USAGE;
}
