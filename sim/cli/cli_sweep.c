/* gpusim sweep: run a scenario's `sweep:` grid locally (-j N), or print it
 * as jobs for GNU parallel or a Slurm array and collect what they wrote.
 * gpusim has no distribution layer of its own: a job is the command line
 * `gpusim sweep FILE --out DIR --point ID`, which runs one point into the
 * shared output folder, and --collect merges the finished points. */
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli/cli.h"
#include "sim/cli/sweep.h"
#include "workloads/config_load.h"

struct sweep_args {
	char *out;
	char *collect;
	char *point;
	char **sets;
	char *jobs_arg;
	int jobs;             /* 0: not given */
	gboolean force;
	gboolean emit_jobs;
	gboolean emit_slurm;
	gboolean no_timeline;
	char *timeline;       /* --timeline FORMAT */
	char *policy_module;  /* --policy-module FILE */
	gboolean quiet;
};

static void sweep_args_clear(struct sweep_args *a)
{
	g_clear_pointer(&a->out, g_free);
	g_clear_pointer(&a->collect, g_free);
	g_clear_pointer(&a->point, g_free);
	g_clear_pointer(&a->timeline, g_free);
	g_clear_pointer(&a->policy_module, g_free);
	g_clear_pointer(&a->sets, g_strfreev);
	g_clear_pointer(&a->jobs_arg, g_free);
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
		{ "jobs", 'j', 0, G_OPTION_ARG_STRING, &a->jobs_arg,
		  "Run N points at once (default 1; with --emit-slurm, the array's limit)", "N" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &a->out,
		  "Write into DIR (default: results/NAME)", "DIR" },
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->sets,
		  "Override a value of the base scenario (repeatable)",
		  "KEY.PATH=VALUE" },
		{ "policy-module", 0, 0, G_OPTION_ARG_FILENAME,
		  &a->policy_module,
		  "Run every point with the policy of a module built outside "
		  "the tree (its bytes are part of the manifest's hash)",
		  "FILE" },
		{ "no-timeline", 0, 0, G_OPTION_ARG_NONE, &a->no_timeline,
		  "Write no timeline for the points", NULL },
		{ "timeline", 0, 0, G_OPTION_ARG_STRING, &a->timeline,
		  "The points' timeline format: pftrace (default) or json",
		  "FORMAT" },
		{ "point", 0, 0, G_OPTION_ARG_STRING, &a->point,
		  "Run only this point (its id or index), as a job does", "ID" },
		{ "emit-jobs", 0, 0, G_OPTION_ARG_NONE, &a->emit_jobs,
		  "Print one command line per point (for GNU parallel)", NULL },
		{ "emit-slurm", 0, 0, G_OPTION_ARG_NONE, &a->emit_slurm,
		  "Print an sbatch job-array script", NULL },
		{ "collect", 0, 0, G_OPTION_ARG_FILENAME, &a->collect,
		  "Merge the finished points in DIR into DIR/sweep.csv", "DIR" },
		{ "force", 0, 0, G_OPTION_ARG_NONE, &a->force,
		  "Let --collect replace a sweep.csv with more rows, or another "
		  "configuration's manifest", NULL },
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
		"usage or an\ninvalid scenario.", entries, files, false) ||
	    !gs_cli_add_module_override(a->policy_module, &a->sets))
		return false;
	if (a->jobs_arg) {
		guint64 n = 0;

		if (!g_ascii_string_to_unsigned(a->jobs_arg, 10, 1, 1024, &n,
						NULL)) {
			fprintf(stderr, "gpusim: -j expects a number from 1 to "
					"1024, not '%s'\n", a->jobs_arg);
			return false;
		}
		a->jobs = (int)n;
	}
	if ((a->emit_jobs ? 1 : 0) + (a->emit_slurm ? 1 : 0) +
	    (a->collect ? 1 : 0) + (a->point ? 1 : 0) > 1) {
		fprintf(stderr, "gpusim: --emit-jobs, --emit-slurm, --collect "
				"and --point exclude each other\n");
		return false;
	}
	if (a->force && !a->collect) {
		fprintf(stderr, "gpusim: --force goes with --collect\n");
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

/* "gpusim sweep FILE" and how a job names the output folder (option
 * "--out" or "--collect"), then the options that make the sweep's
 * configuration: every job and the collecting command must repeat them,
 * or they would not find the same points. Paths are made absolute so the
 * line runs from any directory of a machine that shares them. */
static GString *sweep_line(const struct gs_sweep_job *job, const char *option)
{
	g_autofree char *exe = self_path();
	g_autofree char *file = g_canonicalize_filename(job->file, NULL);
	g_autofree char *out = g_canonicalize_filename(job->out_dir, NULL);
	g_autofree char *before = g_strdup_printf(" %s ", option);
	GString *line = g_string_new(NULL);
	size_t i;

	append_quoted(line, "", exe);
	g_string_append(line, " sweep");
	append_quoted(line, " ", file);
	append_quoted(line, before, out);
	for (i = 0; job->base_sets && job->base_sets[i]; i++)
		append_quoted(line, " --set ", job->base_sets[i]);
	if (job->no_timeline)
		g_string_append(line, " --no-timeline");
	if (job->timeline == GS_TIMELINE_JSON)
		g_string_append(line, " --timeline json");
	return line;
}

/* The command line that runs one point (or, with point_arg, the point
 * named by a shell word such as "$SLURM_ARRAY_TASK_ID"). */
static char *job_line(const struct gs_sweep_job *job, const char *point_arg)
{
	GString *line = sweep_line(job, "--out");

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

/* The indexes of the unfinished points as a Slurm --array list
 * ("0-3,7,9-11"), *count of them; empty when every point is finished. */
static GString *unfinished_indexes(const struct gs_sweep_job *job,
				   unsigned *count)
{
	GString *list = g_string_new(NULL);
	guint i, n = job->points->len, first = 0;
	bool open = false;

	for (i = 0; i <= n; i++) {
		struct gs_point_record *done = i < n ?
			gs_sweep_read_point(job, job->points->pdata[i]) : NULL;
		bool todo = i < n && !done;

		gs_point_record_free(done);
		*count += todo;
		if (todo && !open) {
			first = i;
			open = true;
		} else if (!todo && open) {
			if (list->len)
				g_string_append_c(list, ',');
			if (i - 1 > first)
				g_string_append_printf(list, "%u-%u", first,
						       i - 1);
			else
				g_string_append_printf(list, "%u", first);
			open = false;
		}
	}
	return list;
}

/* A job array of the points that are not finished yet, so that the same
 * command after a partial run submits only the rest. Each task's log goes
 * to DIR/logs/JOB_TASK.out (Slurm does not create the folder: we do). */
static int emit_slurm(const struct gs_sweep_job *job, int limit)
{
	g_autofree char *line = job_line(job, "\"$SLURM_ARRAY_TASK_ID\"");
	GString *collect = sweep_line(job, "--collect");
	unsigned n_todo = 0;
	GString *todo = unfinished_indexes(job, &n_todo);
	g_autofree char *out = g_canonicalize_filename(job->out_dir, NULL);
	g_autofree char *logs = g_build_filename(out, "logs", NULL);
	g_autofree char *log_file = g_build_filename(logs, "%A_%a.out", NULL);
	GString *output = g_string_new(NULL);
	char cap[16] = "";
	int status = GS_EXIT_OK;

	if (limit > 0)
		g_snprintf(cap, sizeof(cap), "%%%d", limit);
	/* sbatch reads quoted #SBATCH values as a shell would */
	append_quoted(output, "", log_file);
	if (!todo->len) {
		fprintf(stderr, "gpusim: all %u points in %s are finished; "
				"nothing to submit. Merge them with:\n  %s\n",
			job->points->len, out, collect->str);
	} else if (g_mkdir_with_parents(logs, 0777) != 0) {
		fprintf(stderr, "gpusim: cannot create %s: %s\n", logs,
			g_strerror(errno));
		status = GS_EXIT_FAILURE;
	} else {
		printf("#!/bin/sh\n"
		       "# %s: %u of the %u points of a gpusim sweep (those not "
		       "finished) as a Slurm\n# job array; one task runs one "
		       "point (by index) into the shared folder.\n# Submit "
		       "with `sbatch FILE`, then merge:\n#   %s\n"
		       "#SBATCH --job-name=gpusim-%s\n"
		       "#SBATCH --array=%s%s\n"
		       "#SBATCH --output=%s\n"
		       "#SBATCH --ntasks=1\n"
		       "#SBATCH --cpus-per-task=1\n"
		       "exec %s\n",
		       job->sc->name, n_todo, job->points->len, collect->str,
		       job->sc->name, todo->str, cap, output->str, line);
	}
	g_string_free(output, TRUE);
	g_string_free(collect, TRUE);
	g_string_free(todo, TRUE);
	return status;
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

/* recs: one slot per point, the records read so far (taken and freed). */
static int summarize(const struct gs_sweep_job *job, bool quiet, bool keep,
		     unsigned ran, unsigned failed,
		     const struct gs_sweep_shared *shared,
		     struct gs_point_record **recs)
{
	g_autoptr(GError) err = NULL;
	unsigned missing = 0, n = job->points->len;
	gboolean ok = gs_sweep_write_summary(job, keep, recs, &missing, &err);

	gs_point_records_free(recs, n);
	if (!ok) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_FAILURE;
	}
	if (!quiet) {
		printf("sweep %s: %u points, %u run now, %u already finished, "
		       "%u missing; %s/sweep.csv", job->sc->name, n, ran,
		       n - missing - (ran - failed), missing, job->out_dir);
		if (shared && shared->runs)
			printf(" (%u standalone runs made once for %u points' "
			       "tasks)", shared->runs, shared->uses);
		printf("\n");
	}
	if (missing)
		fprintf(stderr, "gpusim: %u of %u points are not finished; "
				"rerun to complete them\n", missing, n);
	return failed || missing ? GS_EXIT_FAILURE : GS_EXIT_OK;
}

/* The records of finished points are kept from the check that finds
 * them, and the pool reads the others' as their workers end, so that
 * after the last worker only the summary's files are left to write. */
static int run_all(const struct gs_sweep_job *job, int jobs, bool quiet)
{
	GPtrArray *todo = g_ptr_array_new();
	struct gs_point_record **recs =
		g_new0(struct gs_point_record *, job->points->len);
	struct gs_sweep_shared shared = { 0 };
	unsigned failed;
	guint i;
	int status;

	for (i = 0; i < job->points->len; i++) {
		struct gs_sweep_point *p = job->points->pdata[i];

		recs[i] = gs_sweep_read_point(job, p);
		if (!recs[i])
			g_ptr_array_add(todo, p);
	}
	gs_sweep_order_longest_first((const struct gs_sweep_point **)
				     todo->pdata, todo->len);
	failed = gs_sweep_run_pool(job,
				   (const struct gs_sweep_point *const *)
				   todo->pdata, todo->len,
				   jobs > 0 ? (unsigned)jobs : 1,
				   isatty(STDERR_FILENO), recs, &shared);
	status = summarize(job, quiet, false, todo->len, failed, &shared,
			   recs);
	g_ptr_array_free(todo, TRUE);
	return status;
}

/* --collect merges what jobs wrote: into a folder that exists. */
static int collect(const struct gs_sweep_job *job, const struct sweep_args *a)
{
	if (!g_file_test(a->collect, G_FILE_TEST_IS_DIR)) {
		fprintf(stderr, "gpusim: --collect %s: no such folder (the "
				"jobs' --out)\n", a->collect);
		return GS_EXIT_USAGE;
	}
	return summarize(job, a->quiet, !a->force, 0, 0, NULL,
			 g_new0(struct gs_point_record *, job->points->len));
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
		if (!gs_cli_timeline_format(a.timeline, &job.timeline))
			return GS_EXIT_USAGE;
		if (a.emit_jobs) {
			emit_jobs(&job);
			status = GS_EXIT_OK;
		} else if (a.emit_slurm) {
			status = emit_slurm(&job, a.jobs);
		} else if (a.collect) {
			status = collect(&job, &a);
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
