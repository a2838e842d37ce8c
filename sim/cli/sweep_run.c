/* Running sweep points: one point in this process, or many in forked
 * worker processes. A point is a pure function of its configuration, and
 * each worker writes only its own point's folder, so results cannot depend
 * on how many run at once or in which order they finish. One process per
 * point also keeps one point's crash or memory from touching another. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/results/results_dir.h"
#include "sim/results/results_priv.h"
#include "sim/run/sim.h"
#include "sim/cli/sweep.h"
#include "workloads/config_load.h"

/* The run's files and point.json, published as one folder. */
static gboolean write_point_dir(const struct gs_sweep_job *job,
				const struct gs_sweep_point *p,
				const struct gs_results *r, const char *dir,
				enum gs_timeline_format timeline,
				GError **error)
{
	static const char *const owned[] = {
		"summary.json", "tasks.csv", "series.csv", "timeline.json",
		"timeline.pftrace", "point.json", NULL,
	};
	struct gs_outdir od;

	if (!gs_outdir_begin(&od, dir, owned, true, error))
		return FALSE;
	if (!gs_results_write_files(r, od.tmp, timeline, error) ||
	    (!r->invariant_violation &&
	     !gs_sweep_write_point(job, p, r, od.tmp, error))) {
		gs_outdir_fail(&od, error);
		return FALSE;
	}
	return gs_outdir_commit(&od, error);
}

gboolean gs_sweep_run_point(const struct gs_sweep_job *job,
			    const struct gs_sweep_point *p, GError **error)
{
	GPtrArray *sets = g_ptr_array_new();
	g_autofree char *dir = gs_sweep_point_dir(job, p);
	struct gs_sim_options opt = { .standalone_runs = true };
	struct gs_scenario *sc;
	struct gs_results r;
	gboolean ok;
	size_t i;

	for (i = 0; job->base_sets && job->base_sets[i]; i++)
		g_ptr_array_add(sets, job->base_sets[i]);
	for (i = 0; p->sets[i]; i++)
		g_ptr_array_add(sets, p->sets[i]);
	sc = gs_scenario_load_data(job->file, job->data, job->len,
				   (const char *const *)sets->pdata, sets->len,
				   error);
	g_ptr_array_free(sets, TRUE);
	if (!sc)
		return FALSE;
	opt.timeline = sc->output.timeline && !job->no_timeline;
	gs_results_init(&r);
	ok = gs_run_scenario(sc, &opt, &r, error) &&
	     write_point_dir(job, p, &r, dir,
			     opt.timeline ? job->timeline : GS_TIMELINE_NONE,
			     error);
	/* A violated invariant: the point's results are written, marked
	 * violated in its summary.json, but without point.json the point is
	 * not done, so it fails the sweep (and runs again on resume). */
	if (ok && r.invariant_violation) {
		g_set_error(error, g_quark_from_static_string("gs-sim"),
			    GS_SIM_ERROR_INVARIANT, "%s",
			    r.invariant_violation);
		ok = FALSE;
	}
	if (!ok && error && *error)
		g_prefix_error(error, "point %s: ", p->id);
	gs_results_clear(&r);
	gs_scenario_free(sc);
	return ok;
}

/* --- progress --- */

struct sweep_progress {
	bool on;
	unsigned done, failed, total;
	gint64 started;
};

static void format_eta(char *buf, size_t size, double seconds)
{
	unsigned s = (unsigned)(seconds + 0.5);

	if (s >= 3600)
		g_snprintf(buf, size, "%uh%02um", s / 3600, s / 60 % 60);
	else if (s >= 60)
		g_snprintf(buf, size, "%um%02us", s / 60, s % 60);
	else
		g_snprintf(buf, size, "%us", s);
}

static void draw(const struct sweep_progress *pr)
{
	enum { WIDTH = 30 };
	char bar[WIDTH + 1], eta[32] = "-";
	double elapsed = (double)(g_get_monotonic_time() - pr->started) / 1e6;
	unsigned fill = pr->total ? pr->done * WIDTH / pr->total : WIDTH, i;

	if (!pr->on)
		return;
	for (i = 0; i < WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[WIDTH] = '\0';
	if (pr->done)
		format_eta(eta, sizeof(eta), elapsed / pr->done *
			   (pr->total - pr->done));
	fprintf(stderr, "\r  [%s] %u/%u points, ETA %s%s ", bar, pr->done,
		pr->total, eta, pr->failed ? ", some failed" : "");
	fflush(stderr);
}

/* --- the worker pool --- */

static int by_cost_then_index(const void *pa, const void *pb)
{
	const struct gs_sweep_point *a = *(const struct gs_sweep_point *const *)pa;
	const struct gs_sweep_point *b = *(const struct gs_sweep_point *const *)pb;

	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

void gs_sweep_order_longest_first(const struct gs_sweep_point **todo,
				  unsigned n)
{
	/* a total order (indexes differ), so qsort's instability is moot */
	qsort(todo, n, sizeof(*todo), by_cost_then_index);
}

static pid_t start_worker(const struct gs_sweep_job *job,
			  const struct gs_sweep_point *p)
{
	pid_t pid;

	pid_t parent = getpid();

	fflush(NULL); /* no buffered output duplicated into the child */
	pid = fork();
	if (pid == 0) {
		g_autoptr(GError) err = NULL;
		int rc = 0;

		/* A sweep stopped by a signal to its main process alone (kill
		 * PID, scancel) stops its workers too: each then removes its
		 * temporary folder (sim/results/interrupt.h). */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);

		if (!gs_sweep_run_point(job, p, &err)) {
			fprintf(stderr, "\ngpusim: %s\n",
				err ? err->message : "failed");
			rc = 1;
		}
		fflush(NULL);
		_exit(rc);
	}
	if (pid < 0)
		fprintf(stderr, "\ngpusim: point %s: cannot fork: %s\n", p->id,
			g_strerror(errno));
	return pid;
}

unsigned gs_sweep_run_pool(const struct gs_sweep_job *job,
			   const struct gs_sweep_point *const *todo,
			   unsigned n, unsigned jobs, bool progress)
{
	struct sweep_progress pr = {
		.on = progress, .total = n,
		.started = g_get_monotonic_time(),
	};
	g_autoptr(GHashTable) by_pid = g_hash_table_new(NULL, NULL);
	unsigned next = 0, running = 0;

	if (!jobs)
		jobs = 1;
	draw(&pr);
	while (next < n || running) {
		int status;
		pid_t pid;

		while (running < jobs && next < n) {
			const struct gs_sweep_point *p = todo[next++];

			pid = start_worker(job, p);
			if (pid < 0) {
				pr.failed++;
				pr.done++;
				continue;
			}
			g_hash_table_insert(by_pid, GINT_TO_POINTER(pid),
					    (gpointer)p);
			running++;
		}
		if (!running)
			break;
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		running--;
		pr.done++;
		if (WIFSIGNALED(status)) {
			const struct gs_sweep_point *p = g_hash_table_lookup(
				by_pid, GINT_TO_POINTER(pid));

			fprintf(stderr, "\ngpusim: point %s: killed by signal "
					"%d\n", p ? p->id : "?",
				WTERMSIG(status));
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			pr.failed++;
		draw(&pr);
	}
	if (pr.on)
		fprintf(stderr, "\r%78s\r", "");
	return pr.failed;
}
