/* Running one sweep point in this process and writing its folder (the
 * pool of worker processes that run many: sweep_pool.c). */
#include <string.h>

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
	g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func(g_free);
	struct gs_point_record rec = { columns, cells };
	/* without point.json (a violated invariant) the point has no row */
	const struct gs_point_record *row =
		r->invariant_violation ? NULL : &rec;
	struct gs_outdir od;

	if (!gs_outdir_begin(&od, dir, owned, true, error))
		return FALSE;
	if (row)
		gs_results_row(r, columns, cells);
	if (!gs_results_write_files(r, od.tmp, timeline, error) ||
	    (row && !gs_sweep_write_point(job, p, row, od.tmp, error))) {
		gs_outdir_fail(&od, error);
		return FALSE;
	}
	if (job->before_commit)
		job->before_commit(job->before_commit_ctx, row);
	return gs_outdir_commit(&od, error);
}

struct gs_scenario *gs_sweep_load_point(const struct gs_sweep_job *job,
					const struct gs_sweep_point *p,
					GError **error)
{
	g_autoptr(GPtrArray) sets = g_ptr_array_new();
	size_t i;

	for (i = 0; job->base_sets && job->base_sets[i]; i++)
		g_ptr_array_add(sets, job->base_sets[i]);
	for (i = 0; p->sets[i]; i++)
		g_ptr_array_add(sets, p->sets[i]);
	return gs_scenario_load_data(job->file, job->data, job->len,
				     (const char *const *)sets->pdata,
				     sets->len, error);
}

gboolean gs_sweep_run_point(const struct gs_sweep_job *job,
			    const struct gs_sweep_point *p, GError **error)
{
	g_autofree char *dir = gs_sweep_point_dir(job, p);
	struct gs_sim_options opt = {
		.standalone_runs = true,
		.standalone_known = job->standalone_known,
	};
	struct gs_scenario *sc = gs_sweep_load_point(job, p, error);
	struct gs_results r;
	gboolean ok;

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
