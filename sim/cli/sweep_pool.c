/* The worker pool of a sweep: one forked process per point. A point is a
 * pure function of its configuration, and each worker writes only its own
 * point's folder, so results cannot depend on how many run at once or in
 * which order they finish. One process per point also keeps one point's
 * crash or memory from touching another.
 *
 * Each worker has a pipe to the pool. It writes one byte when its files
 * are written and only their durable commit (fdatasync, the rename, the
 * folder's fsync: sim/results/results_dir.h) is left, and then its
 * point's record (its row for sweep.csv, as its point.json has it); the
 * pool then starts the next point, so that the disk wait overlaps a
 * simulation instead of leaving a core idle. The pipe's end of file is
 * the worker's exit. A point still counts as finished only when its
 * worker has exited with success, after its commit, and sweep.csv and
 * manifest.json are written after every worker has exited, so a crash
 * loses at most the points in flight, committing ones included. The
 * pool takes a point's record when its worker has exited with success,
 * while the others still simulate, not all of them after the last: the
 * one sent, or the committed point.json when none came whole (reading
 * 24 point.json files with json-glib was a sixth of the pool's CPU on
 * neon_fig6_fig7, which at -j2 it takes from the workers' cores).
 * When the pool simulates as many points at once as there are cores, a
 * worker starts no helper thread (gs_sweep_worker_threads): every core
 * already runs a point. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/cli/sweep.h"
#include "sim/cli/sweep_alone.h"
#include "base/thread_quiet.h"

/* --- progress --- */

struct sweep_progress {
	bool on;
	unsigned done, failed, total;
	unsigned alone_done, alone_total; /* shared standalone runs */
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
	fprintf(stderr, "\r  [%s] %u/%u points", bar, pr->done, pr->total);
	/* the runs the points share are made first */
	if (pr->alone_done < pr->alone_total)
		fprintf(stderr, " (standalone runs %u/%u)", pr->alone_done,
			pr->alone_total);
	fprintf(stderr, ", ETA %s%s ", eta, pr->failed ? ", some failed" : "");
	fflush(stderr);
}

/* --- the order points start in --- */

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
	/* a total order (indexes differ), so qsort's instability is moot;
	 * nothing to order (a finished sweep) may come with todo NULL,
	 * which qsort must not be given */
	if (n > 1)
		qsort(todo, n, sizeof(*todo), by_cost_then_index);
}

/* --- the workers --- */

struct worker {
	pid_t pid;
	int fd;          /* read end of its pipe; -1 once at end of file */
	const struct gs_sweep_point *p;
	struct gs_alone_job *aj; /* a shared standalone run's worker: p's */
	bool committing; /* said its point waits only for the disk */
	GByteArray *said; /* what it wrote: 'c', then its record's bytes */
};

/* msg written whole to fd, as far as it can be: nothing to do if a write
 * fails, the pool then learns of the worker at its exit. */
static void send_all(int fd, const GByteArray *msg)
{
	guint at = 0;

	while (at < msg->len) {
		ssize_t n = write(fd, msg->data + at, msg->len - at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		at += (guint)n;
	}
}

/* Tells the pool that the point waits only for its commit ('c'), with
 * the point's record (none: the byte alone). If the write fails the pool
 * learns of the point at its exit, as it would of one that crashed
 * before saying, and reads its point.json. */
static void tell_pool(void *ctx, const struct gs_point_record *rec)
{
	g_autoptr(GByteArray) msg = g_byte_array_new();

	g_byte_array_append(msg, (const guint8 *)"c", 1);
	if (rec)
		gs_point_record_pack(rec, msg);
	send_all(*(int *)ctx, msg);
	/* Test seam (tests/sweep_overlap_test.sh): stop here, the point
	 * written but not committed, so a test can see the pool go on. */
	if (getenv("GPUSIM_PAUSE_SWEEP_COMMIT"))
		raise(SIGSTOP);
}

/* A shared standalone run's worker: its figures to the pool ('a', then
 * gs_standalone_fig_pack's bytes); the exit status. A run that fails
 * says nothing: its points make it themselves and report as they would
 * have. */
static int alone_worker(const struct gs_sweep_job *job,
			const struct gs_alone_job *aj, int fd)
{
	g_autoptr(GByteArray) msg = g_byte_array_new();

	g_byte_array_append(msg, (const guint8 *)"a", 1);
	/* Test seam (tests/sweep_test.sh): every shared worker fails, so
	 * that a test sees its points make the runs themselves. */
	if (getenv("GPUSIM_FAIL_SHARED_RUNS") ||
	    !gs_sweep_alone_work(job, aj, msg))
		return 1;
	send_all(fd, msg);
	return 0;
}

bool gs_sweep_worker_threads(unsigned at_once, unsigned cores)
{
	return at_once < cores;
}

/* Forks a worker for p (or, with aj, for p's shared standalone run aj),
 * with helper threads or not (threads) and the standalone runs made
 * already (known, one per definition of p); false (after saying why) if
 * it cannot. */
static bool start_worker(const struct gs_sweep_job *job,
			 const struct gs_sweep_point *p,
			 struct gs_alone_job *aj,
			 const struct gs_standalone_fig *const *known,
			 bool threads, struct worker *w)
{
	pid_t parent = getpid();
	int fds[2];

	if (pipe(fds) != 0) {
		fprintf(stderr, "\ngpusim: point %s: cannot make a pipe: %s\n",
			p->id, g_strerror(errno));
		return false;
	}
	fflush(NULL); /* no buffered output duplicated into the child */
	w->pid = fork();
	if (w->pid == 0) {
		struct gs_sweep_job mine = *job;
		g_autoptr(GError) err = NULL;
		int rc = 0;

		/* A sweep stopped by a signal to its main process alone (kill
		 * PID, scancel) stops its workers too: each then removes its
		 * temporary folder (sim/results/interrupt.h). */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		signal(SIGPIPE, SIG_IGN); /* a pool gone: told by the write */
		if (!threads)
			gs_threads_off();
		close(fds[0]);
		if (aj)
			_exit(alone_worker(job, aj, fds[1]));
		mine.before_commit = tell_pool;
		mine.before_commit_ctx = &fds[1];
		mine.standalone_known = known;
		if (!gs_sweep_run_point(&mine, p, &err)) {
			fprintf(stderr, "\ngpusim: %s\n",
				err ? err->message : "failed");
			rc = 1;
		}
		fflush(NULL);
		_exit(rc);
	}
	close(fds[1]);
	if (w->pid < 0) {
		fprintf(stderr, "\ngpusim: point %s: cannot fork: %s\n", p->id,
			g_strerror(errno));
		close(fds[0]);
		return false;
	}
	w->fd = fds[0];
	w->p = p;
	w->aj = aj;
	w->committing = false;
	w->said = g_byte_array_new();
	return true;
}

/* The record of w's point, committed now that w has exited with
 * success: the one it sent, or else (none sent whole) its point.json's. */
static struct gs_point_record *record_of(const struct gs_sweep_job *job,
					 const struct worker *w)
{
	struct gs_point_record *rec = NULL;

	if (w->said->len > 1 && w->said->data[0] == 'c')
		rec = gs_point_record_unpack(w->said->data + 1,
					     w->said->len - 1);
	return rec ? rec : gs_sweep_read_point(job, w->p);
}

/* Reaps w, whose pipe is at end of file; true if its point is done. */
static bool reap(struct worker *w)
{
	int status = 0;

	while (waitpid(w->pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	if (WIFSIGNALED(status))
		fprintf(stderr, "\ngpusim: point %s: killed by signal %d\n",
			w->p->id, WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The index of the first point of order[from..n) whose shared standalone
 * runs, if any, are made (or failed); n if none. */
static unsigned first_ready(const struct gs_sweep_alone *plan,
			    const struct gs_sweep_point **order,
			    unsigned from, unsigned n)
{
	while (from < n && !gs_sweep_alone_ready(plan, order[from]))
		from++;
	return from;
}

/* The next worker to start into w, if any may start: a shared standalone
 * run waiting, else the first point of order[*next..n) that waits for
 * none (moved to *next). False when none may start now. */
static bool start_next(const struct gs_sweep_job *job,
		       struct gs_sweep_alone *plan,
		       const struct gs_sweep_point **order, unsigned n,
		       unsigned *next, bool threads, struct worker *w,
		       struct sweep_progress *pr)
{
	struct gs_alone_job *aj;
	unsigned k;

	while ((aj = gs_sweep_alone_next(plan))) {
		aj->state = GS_ALONE_RUNNING;
		if (start_worker(job, aj->p, aj, NULL, threads, w))
			return true;
		aj->state = GS_ALONE_FAILED; /* its points make it */
	}
	for (k = first_ready(plan, order, *next, n); k < n;
	     k = first_ready(plan, order, *next, n)) {
		const struct gs_sweep_point *p = order[k];

		memmove(order + *next + 1, order + *next,
			(k - *next) * sizeof(*order));
		order[(*next)++] = p;
		if (start_worker(job, p, NULL, gs_sweep_alone_known(plan, p),
				 threads, w))
			return true;
		pr->failed++;
		pr->done++;
	}
	return false;
}

/* w's pipe has said what it had to and closed: reaped, its point's record
 * or its shared run's figures taken. */
static void worker_ended(const struct gs_sweep_job *job, struct worker *w,
			 struct gs_point_record **recs,
			 struct sweep_progress *pr)
{
	bool ok = reap(w);

	if (w->aj) {
		bool said = ok && w->said->len > 1 && w->said->data[0] == 'a';

		gs_sweep_alone_ended(w->aj, said, w->said->data + 1,
				     said ? w->said->len - 1 : 0);
		pr->alone_done++;
	} else {
		if (!ok)
			pr->failed++;
		else if (!recs[w->p->index])
			recs[w->p->index] = record_of(job, w);
		pr->done++;
	}
	g_byte_array_unref(w->said);
}

unsigned gs_sweep_run_pool(const struct gs_sweep_job *job,
			   const struct gs_sweep_point *const *todo,
			   unsigned n, unsigned jobs, bool progress,
			   struct gs_point_record **recs,
			   struct gs_sweep_shared *shared)
{
	struct sweep_progress pr = {
		.on = progress, .total = n,
		.started = g_get_monotonic_time(),
	};
	struct gs_sweep_alone *plan = gs_sweep_alone_plan(todo, n);
	g_autofree const struct gs_sweep_point **order =
		g_memdup2(todo, MAX(n, 1u) * sizeof(*todo));
	unsigned next = 0, live = 0, simulating = 0, i;
	struct worker *w;
	struct pollfd *pfd;
	bool threads;

	if (!jobs)
		jobs = 1;
	threads = gs_sweep_worker_threads(MIN(jobs, n),
					  g_get_num_processors());
	pr.alone_total = gs_sweep_alone_jobs(plan);
	w = g_new0(struct worker, 2 * jobs);
	pfd = g_new0(struct pollfd, 2 * jobs);
	draw(&pr);
	for (;;) {
		while (simulating < jobs && live < 2 * jobs &&
		       start_next(job, plan, order, n, &next, threads,
				  &w[live], &pr)) {
			live++;
			simulating++;
		}
		if (!live)
			break;
		for (i = 0; i < live; i++)
			pfd[i] = (struct pollfd){ .fd = w[i].fd, .events = POLLIN };
		if (poll(pfd, live, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "\ngpusim: poll: %s\n", g_strerror(errno));
			break;
		}
		for (i = live; i-- > 0;) {
			guint8 buf[4096];
			ssize_t got;

			if (!pfd[i].revents)
				continue;
			got = read(w[i].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got > 0) {
				/* a point's first word: only its commit is
				 * left, and it no longer simulates */
				if (!w[i].aj && !w[i].committing)
					simulating--;
				w[i].committing = !w[i].aj;
				g_byte_array_append(w[i].said, buf, (guint)got);
				continue;
			}
			/* end of file (or an error): the worker is gone */
			close(w[i].fd);
			if (!w[i].committing)
				simulating--;
			worker_ended(job, &w[i], recs, &pr);
			w[i] = w[--live];
			draw(&pr);
		}
	}
	if (pr.on)
		fprintf(stderr, "\r%78s\r", "");
	if (shared)
		gs_sweep_alone_counts(plan, &shared->runs, &shared->uses);
	gs_sweep_alone_free(plan);
	g_free(pfd);
	g_free(w);
	return pr.failed;
}
