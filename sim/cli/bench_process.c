/* `gpusim bench`'s whole-process figure (see bench.h): what a user waits
 * for (simulation, recording and writing the default outputs) against the
 * simulation alone, timed in the same process one after the other, so
 * that a busy machine slows both alike and the ratio stays meaningful. */
#include <glib.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <time.h>

#include "sim/cli/bench.h"
#include "sim/results/interrupt.h"
#include "sim/results/pftrace_run.h"
#include "sim/results/results_write.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

static double seconds_since(gint64 t0)
{
	return (double)(g_get_monotonic_time() - t0) / 1e6;
}

/* CPU seconds (user and system) this process has used: on a shared
 * machine the wall time of each run also holds the time other processes
 * had the core, so the ratio is also given on CPU time, which that does
 * not move. It leaves out waits on the disk, which the wall time has. */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU seconds this thread has used. */
static double thread_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The wall seconds of one run's phases (gs_bench_point's), and the CPU
 * seconds of this thread, the simulation's, in the first. */
struct phases {
	double run, collect, write;
	double run_cpu;
};

/* The table `gpusim run` prints after its folder's commit. */
static void print_table(const struct gs_results *r, FILE *table)
{
	gs_results_print_table(r, table, GS_TABLE_ROWS_DEFAULT);
	fflush(table);
}

/* Build, run and free; with outputs also collect, write into dir and
 * print the summary table to table (as `gpusim run` does to its standard
 * output), timing the phases. */
static bool timed_run(const struct gs_scenario *sc, const char *dir,
		      FILE *table, double *wall, double *cpu,
		      struct phases *ph, GError **error)
{
	struct gs_sim_options opt = { .timeline = dir != NULL };
	double c0 = cpu_seconds(), tc0 = thread_cpu_seconds();
	gint64 t0 = g_get_monotonic_time();
	struct gs_pftrace_run out;
	struct gs_sim *sim;
	struct gs_results r;
	bool ok = true;

	/* as `gpusim run` writes its folder: begun before the run, with
	 * timeline.pftrace written while it goes on */
	if (dir && !gs_pftrace_run_begin(&out, dir, GS_TIMELINE_PFTRACE, error))
		return false;
	opt.span_sink = dir ? gs_pftrace_run_sink(&out) : NULL;
	opt.series_sink = dir ? gs_pftrace_run_series_sink(&out) : NULL;
	sim = gs_sim_new(sc, &opt, error);
	if (!sim) {
		if (dir)
			gs_pftrace_run_abort(&out);
		return false;
	}
	gs_sim_run(sim, NULL);
	ph->run = seconds_since(t0);
	ph->run_cpu = thread_cpu_seconds() - tc0;
	if (dir) {
		gs_results_init(&r);
		gs_sim_collect(sim, &r);
		ph->collect = seconds_since(t0) - ph->run;
		ok = gs_pftrace_run_commit(&out, &r, error);
		if (ok)
			print_table(&r, table);
		ph->write = seconds_since(t0) - ph->run - ph->collect;
		gs_results_clear(&r);
	}
	gs_sim_free(sim);
	*wall = seconds_since(t0);
	*cpu = cpu_seconds() - c0;
	return ok;
}

/* `gpusim run` of sc into dir with its table to `table`, as cli_run.c
 * runs it: the folder begun first, the standalone runs beside the
 * scenario's, the table printed after the commit. */
static bool timed_as_run(const struct gs_scenario *sc, const char *dir,
			 FILE *table, double *wall, GError **error)
{
	struct gs_sim_options opt = { .timeline = true,
				      .standalone_runs = true,
				      .standalone_beside = true };
	gint64 t0 = g_get_monotonic_time();
	struct gs_pftrace_run out;
	struct gs_results r;
	bool ok;

	if (!gs_pftrace_run_begin(&out, dir, GS_TIMELINE_PFTRACE, error))
		return false;
	opt.span_sink = gs_pftrace_run_sink(&out);
	opt.series_sink = gs_pftrace_run_series_sink(&out);
	gs_results_init(&r);
	ok = gs_run_scenario(sc, &opt, &r, error);
	if (!ok)
		gs_pftrace_run_abort(&out);
	else if ((ok = gs_pftrace_run_commit(&out, &r, error)))
		print_table(&r, table);
	gs_results_clear(&r);
	*wall = seconds_since(t0);
	return ok;
}

/* Where the summary table goes: nowhere, as a terminal takes it at once. */
static FILE *open_null(GError **error)
{
	FILE *f = fopen("/dev/null", "w");

	if (!f)
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "/dev/null: %s", g_strerror(errno));
	return f;
}

bool gs_bench_process(uint32_t channels, gs_time_t duration, unsigned repeat,
		      struct gs_bench_point *p, GError **error)
{
	struct gs_scenario *with = gs_bench_scenario(
		channels, 1, duration, GS_BENCH_THROTTLE, true, error);
	struct gs_scenario *alone = with ? gs_bench_scenario(
		channels, 1, duration, GS_BENCH_THROTTLE, false, error) : NULL;
	g_autofree char *tmp = g_dir_make_tmp("gpusim-bench-XXXXXX", error);
	g_autofree char *dir = tmp ? g_build_filename(tmp, "out", NULL) : NULL;
	FILE *table = tmp ? open_null(error) : NULL;
	bool ok = with && alone && tmp && table;
	unsigned i;

	memset(p, 0, sizeof(*p));
	p->scenario = "process";
	p->policy = "direct";
	p->channels = channels;
	p->cpu_s = p->bytes_per_idle_channel = p->invariant_share = -1;
	p->goal = 1.3;
	for (i = 0; ok && i < MAX(repeat, 1u); i++) {
		double whole, sim, whole_cpu, sim_cpu;
		struct phases ph = { 0 }, alone_ph = { 0 };

		/* alternated, so a slow spell of the machine hits both; each
		 * run writes a folder that is not there yet, as the first did:
		 * replacing the last run's would also time the deletion of its
		 * files (30 ms for 96 MB of timeline on this machine's disk),
		 * which is the old results' cost, not the new ones' */
		gs_remove_flat_dir(dir);
		ok = timed_run(alone, NULL, NULL, &sim, &sim_cpu, &alone_ph,
			       error) &&
		     timed_run(with, dir, table, &whole, &whole_cpu, &ph,
			       error);
		if (ok && (i == 0 || sim < p->sim_s))
			p->sim_s = sim;
		/* the phases of one run, so that they add up to its whole */
		if (ok && (i == 0 || whole < p->wall_s)) {
			p->wall_s = whole;
			p->run_s = ph.run;
			p->collect_s = ph.collect;
			p->write_s = ph.write;
		}
		if (ok && (i == 0 || ph.run_cpu < p->run_cpu_s))
			p->run_cpu_s = ph.run_cpu;
		if (ok && (i == 0 || alone_ph.run_cpu < p->sim_run_cpu_s))
			p->sim_run_cpu_s = alone_ph.run_cpu;
		if (ok && (i == 0 || sim_cpu < p->sim_cpu_s))
			p->sim_cpu_s = sim_cpu;
		if (ok && (i == 0 || whole_cpu < p->cpu_s))
			p->cpu_s = whole_cpu;
	}
	if (ok)
		p->ratio = p->wall_s / p->sim_s;
	/* twice at most: each also runs a task alone for the whole run */
	for (i = 0; ok && i < MIN(MAX(repeat, 1u), 2u); i++) {
		double as_run;

		gs_remove_flat_dir(dir);
		ok = timed_as_run(with, dir, table, &as_run, error);
		if (ok && (i == 0 || as_run < p->as_run_s))
			p->as_run_s = as_run;
	}
	if (table)
		fclose(table);
	if (dir)
		gs_remove_flat_dir(dir);
	if (tmp)
		g_rmdir(tmp);
	gs_scenario_free(with);
	gs_scenario_free(alone);
	return ok;
}
