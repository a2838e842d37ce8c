/* gpusim sweep: run a scenario's `sweep:` grid locally (-j N), or print it
 * as jobs for GNU parallel or a Slurm array and collect what they wrote.
 * gpusim has no distribution layer of its own: a job is the command line
 * `gpusim sweep FILE --out DIR --point ID`, which runs one point into the
 * shared output folder, and --collect merges the finished points. */
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli.h"
#include "sim/sweep.h"
#include "workloads/config_load.h"

struct sweep_args {
	char *out;
	char *collect;
	char *point;
	char **sets;
	gint jobs;
	gboolean emit_jobs;
	gboolean emit_slurm;
	gboolean no_timeline;
	gboolean quiet;
};

static void sweep_args_clear(struct sweep_args *a)
{
	g_clear_pointer(&a->out, g_free);
	g_clear_pointer(&a->collect, g_free);
	g_clear_pointer(&a->point, g_free);
	g_clear_pointer(&a->sets, g_strfreev);
}

typedef struct sweep_args sweep_args;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(sweep_args, sweep_args_clear)

/* GOption takes "-j 2" but not make's "-j2": split it. The result is a
 * new argv that borrows argv's strings. */
static char **split_jobs_flag(int *argc, char **argv)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(NULL);
	int i;

	for (i = 0; i < *argc; i++) {
		if (!strncmp(argv[i], "-j", 2) && g_ascii_isdigit(argv[i][2])) {
			g_ptr_array_add(out, (char *)"-j");
			g_ptr_array_add(out, argv[i] + 2);
		} else {
			g_ptr_array_add(out, argv[i]);
		}
	}
	*argc = (int)out->len;
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

static bool parse(int argc, char **argv, struct sweep_args *a, char ***files)
{
	GOptionEntry entries[] = {
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs,
		  "Run N points at once (default 1; with --emit-slurm, the array's limit)", "N" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &a->out,
		  "Write into DIR (default: results/NAME)", "DIR" },
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->sets,
		  "Override a value of the base scenario (repeatable)",
		  "KEY.PATH=VALUE" },
		{ "no-timeline", 0, 0, G_OPTION_ARG_NONE, &a->no_timeline,
		  "Write no timeline.json for the points", NULL },
		{ "point", 0, 0, G_OPTION_ARG_STRING, &a->point,
		  "Run only this point (its id or index), as a job does", "ID" },
		{ "emit-jobs", 0, 0, G_OPTION_ARG_NONE, &a->emit_jobs,
		  "Print one command line per point (for GNU parallel)", NULL },
		{ "emit-slurm", 0, 0, G_OPTION_ARG_NONE, &a->emit_slurm,
		  "Print an sbatch job-array script", NULL },
		{ "collect", 0, 0, G_OPTION_ARG_FILENAME, &a->collect,
		  "Merge the finished points in DIR into DIR/sweep.csv", "DIR" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet,
		  "Print no closing line", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autofree char **args = split_jobs_flag(&argc, argv);

	if (!gs_cli_parse("sweep", argc, args, "FILE - run the sweep grid of a scenario",
		"Each point goes into DIR/points/ID; DIR/sweep.csv has one row "
		"per point\nand DIR/manifest.json describes the sweep. A rerun "
		"runs only the\nunfinished points.\n\n"
		"Exit status: 0 success, 1 a point failed or is missing, 2 bad "
		"usage or an\ninvalid scenario.", entries, files, false))
		return false;
	if (a->jobs < 0 || a->jobs > 1024) {
		fprintf(stderr, "gpusim: -j expects 1 to 1024\n");
		return false;
	}
	if ((a->emit_jobs ? 1 : 0) + (a->emit_slurm ? 1 : 0) +
	    (a->collect ? 1 : 0) + (a->point ? 1 : 0) > 1) {
		fprintf(stderr, "gpusim: --emit-jobs, --emit-slurm, --collect "
				"and --point exclude each other\n");
		return false;
	}
	if (a->collect && a->out) {
		fprintf(stderr, "gpusim: --collect names the folder; "
				"leave out --out\n");
		return false;
	}
	return true;
}

/* The base scenario, its points, all checked. Exit status or -1. */
static int load(struct gs_sweep_job *job, const char *file, char **sets)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *data = NULL;
	size_t len;
	struct gs_scenario *sc;

	data = gs_scenario_read_file(file, &len, &err);
	if (!data) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_USAGE;
	}
	sc = gs_scenario_load_data(file, data, len, (const char *const *)sets,
				   sets ? g_strv_length(sets) : 0, &err);
	if (!sc) {
		fprintf(stderr, "%s\n", err->message);
		return GS_EXIT_USAGE;
	}
	job->file = file;
	job->data = g_steal_pointer(&data);
	job->len = len;
	job->base_sets = sets;
	job->sc = sc;
	job->points = gs_sweep_expand(sc);
	if (!gs_sweep_validate(file, job->data, len,
			       (const char *const *)sets,
			       sets ? g_strv_length(sets) : 0, sc, job->points,
			       &err)) {
		fprintf(stderr, "%s\n", err->message);
		return GS_EXIT_USAGE;
	}
	gs_sweep_job_hash(job);
	return -1;
}

static void job_clear(struct gs_sweep_job *job)
{
	g_free((char *)job->data);
	if (job->points)
		g_ptr_array_unref(job->points);
	gs_scenario_free((struct gs_scenario *)job->sc);
	g_free(job->config_hash);
}

/* --- jobs for other machines --- */

static char *self_path(void)
{
	char *exe = g_file_read_link("/proc/self/exe", NULL);

	return exe ? exe : g_strdup("gpusim");
}

/* A shell word: as is when it is plainly safe, else quoted. */
static void append_quoted(GString *line, const char *before, const char *s)
{
	g_autofree char *quoted = NULL;
	const char *p;

	g_string_append(line, before);
	for (p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("/._-+=:,@%", *p))
			break;
	if (*s && !*p) {
		g_string_append(line, s);
		return;
	}
	quoted = g_shell_quote(s);
	g_string_append(line, quoted);
}

/* The command line that runs one point (or, with point_arg, the point
 * named by a shell word such as "$SLURM_ARRAY_TASK_ID"). Paths are made
 * absolute so it runs from any directory of a machine that shares them. */
static char *job_line(const struct gs_sweep_job *job, const char *point_arg)
{
	g_autofree char *exe = self_path();
	g_autofree char *file = g_canonicalize_filename(job->file, NULL);
	g_autofree char *out = g_canonicalize_filename(job->out_dir, NULL);
	GString *line = g_string_new(NULL);
	size_t i;

	append_quoted(line, "", exe);
	g_string_append(line, " sweep");
	append_quoted(line, " ", file);
	append_quoted(line, " --out ", out);
	for (i = 0; job->base_sets && job->base_sets[i]; i++)
		append_quoted(line, " --set ", job->base_sets[i]);
	if (job->no_timeline)
		g_string_append(line, " --no-timeline");
	g_string_append_printf(line, " -q --point %s", point_arg);
	return g_string_free(line, FALSE);
}

static void emit_jobs(const struct gs_sweep_job *job)
{
	guint i;

	for (i = 0; i < job->points->len; i++) {
		const struct gs_sweep_point *p = job->points->pdata[i];
		g_autofree char *line = job_line(job, p->id);

		printf("%s\n", line);
	}
}

static void emit_slurm(const struct gs_sweep_job *job, int limit)
{
	g_autofree char *line = job_line(job, "\"$SLURM_ARRAY_TASK_ID\"");
	g_autofree char *exe = self_path();
	g_autofree char *file = g_canonicalize_filename(job->file, NULL);
	g_autofree char *out = g_canonicalize_filename(job->out_dir, NULL);
	char cap[16] = "";

	if (limit > 0)
		g_snprintf(cap, sizeof(cap), "%%%d", limit);
	printf("#!/bin/sh\n"
	       "# %s: %u points of a gpusim sweep as a Slurm job array; one "
	       "task runs one\n# point (by index) into the shared folder. "
	       "Submit with `sbatch FILE`, then merge:\n#   %s sweep %s "
	       "--collect %s\n"
	       "#SBATCH --job-name=gpusim-%s\n"
	       "#SBATCH --array=0-%u%s\n"
	       "#SBATCH --ntasks=1\n"
	       "#SBATCH --cpus-per-task=1\n"
	       "exec %s\n",
	       job->sc->name, job->points->len, exe, file, out, job->sc->name,
	       job->points->len ? job->points->len - 1 : 0, cap, line);
}

/* --- local runs --- */

static int run_one(const struct gs_sweep_job *job, const char *which)
{
	const struct gs_sweep_point *p = gs_sweep_find(job->points, which);
	g_autoptr(GError) err = NULL;
	struct gs_point_record *done;

	if (!p) {
		fprintf(stderr, "gpusim: %s: no point '%s' (ids are listed by "
				"--emit-jobs; indexes run from 0 to %u)\n",
			job->file, which, job->points->len - 1);
		return GS_EXIT_USAGE;
	}
	done = gs_sweep_read_point(job, p);
	if (done) {
		gs_point_record_free(done);
		return GS_EXIT_OK;
	}
	if (!gs_sweep_run_point(job, p, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_FAILURE;
	}
	return GS_EXIT_OK;
}

static int summarize(const struct gs_sweep_job *job, bool quiet,
		     unsigned ran, unsigned failed)
{
	g_autoptr(GError) err = NULL;
	unsigned missing = 0, n = job->points->len;

	if (!gs_sweep_write_summary(job, &missing, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_FAILURE;
	}
	if (!quiet)
		printf("sweep %s: %u points, %u run now, %u already finished, "
		       "%u missing; %s/sweep.csv\n", job->sc->name, n, ran,
		       n - missing - (ran - failed), missing, job->out_dir);
	if (missing)
		fprintf(stderr, "gpusim: %u of %u points are not finished; "
				"rerun to complete them\n", missing, n);
	return failed || missing ? GS_EXIT_FAILURE : GS_EXIT_OK;
}

static int run_all(const struct gs_sweep_job *job, int jobs, bool quiet)
{
	GPtrArray *todo = g_ptr_array_new();
	unsigned failed;
	guint i;
	int status;

	for (i = 0; i < job->points->len; i++) {
		struct gs_sweep_point *p = job->points->pdata[i];
		struct gs_point_record *done = gs_sweep_read_point(job, p);

		if (done)
			gs_point_record_free(done);
		else
			g_ptr_array_add(todo, p);
	}
	failed = gs_sweep_run_pool(job,
				   (const struct gs_sweep_point *const *)
				   todo->pdata, todo->len,
				   jobs > 0 ? (unsigned)jobs : 1,
				   isatty(STDERR_FILENO));
	status = summarize(job, quiet, todo->len, failed);
	g_ptr_array_free(todo, TRUE);
	return status;
}

int gs_cmd_sweep(int argc, char **argv)
{
	g_auto(sweep_args) a = { 0 };
	g_auto(GStrv) files = NULL;
	struct gs_sweep_job job = { 0 };
	g_autofree char *out = NULL;
	int status;

	if (!parse(argc, argv, &a, &files))
		return GS_EXIT_USAGE;
	status = load(&job, files[0], a.sets);
	if (status < 0) {
		out = a.collect ? g_strdup(a.collect) :
		      a.out ? g_strdup(a.out) :
		      g_build_filename("results", job.sc->name, NULL);
		job.out_dir = out;
		job.no_timeline = a.no_timeline;
		if (a.emit_jobs) {
			emit_jobs(&job);
			status = GS_EXIT_OK;
		} else if (a.emit_slurm) {
			emit_slurm(&job, a.jobs);
			status = GS_EXIT_OK;
		} else if (a.collect) {
			status = summarize(&job, a.quiet, 0, 0);
		} else if (a.point) {
			status = run_one(&job, a.point);
		} else {
			status = run_all(&job, a.jobs, a.quiet);
		}
	}
	job.base_sets = NULL; /* owned by a */
	job_clear(&job);
	return status;
}
