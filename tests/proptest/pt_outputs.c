/* Relations between ways of writing the same run: what is recorded
 * beside the results and how the standalone runs are made must not change
 * the results. The streams, threads, caps and shared runs behind `gpusim
 * run` and `gpusim sweep` (issue 20) each had a test of its own on a few
 * fixed configs; here every generated scenario goes through them, and
 * summary.json, tasks.csv and series.csv must be the same bytes. */
#include "tests/proptest/proptest.h"

#include "sim/results/interrupt.h"
#include "sim/results/pftrace_run.h"
#include "sim/results/results_write.h"
#include "sim/run/sim.h"

/* The result files compared (the timeline is what differs by design). */
static const char *const compared[] = {
	"summary.json", "tasks.csv", "series.csv",
};

/* How a run is made and written. */
enum way {
	PLAIN,          /* no timeline, the series kept in the results */
	STREAMED,       /* as `gpusim run`: timeline.pftrace and series.csv
			 * written by their streams while the run goes on */
	JSON_TIMELINE,  /* the spans kept in the results, timeline.json */
};

/* sc run under opt the given way, its folder written at dir; false with
 * *why (to g_free) when the run or its writing fails. */
static bool run_into(const struct gs_scenario *sc, struct gs_sim_options opt,
		     enum way way, const char *dir, char **why)
{
	struct gs_pftrace_run out;
	struct gs_results r;
	GError *err = NULL;
	bool ok;

	opt.timeline = way != PLAIN;
	if (way == STREAMED) {
		if (!gs_pftrace_run_begin(&out, dir, GS_TIMELINE_PFTRACE,
					  &err))
			goto failed;
		opt.span_sink = gs_pftrace_run_sink(&out);
		opt.series_sink = gs_pftrace_run_series_sink(&out);
	}
	gs_results_init(&r);
	ok = gs_run_scenario(sc, &opt, &r, &err);
	if (way == STREAMED && !ok)
		gs_pftrace_run_abort(&out);
	else if (way == STREAMED)
		ok = gs_pftrace_run_commit(&out, &r, &err);
	else if (ok)
		ok = gs_results_write_dir(&r, dir,
					  way == JSON_TIMELINE ? GS_TIMELINE_JSON
							       : GS_TIMELINE_NONE,
					  &err);
	gs_results_clear(&r);
	if (ok)
		return true;
failed:
	*why = g_strdup(err->message);
	g_error_free(err);
	return false;
}

/* NULL when the compared files of folders a and b are the same bytes,
 * else which differs and where (to g_free). */
static char *differs(const char *a, const char *b)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(compared); i++) {
		g_autofree char *pa = g_build_filename(a, compared[i], NULL);
		g_autofree char *pb = g_build_filename(b, compared[i], NULL);
		g_autofree char *ta = NULL, *tb = NULL;
		gsize la = 0, lb = 0, at = 0;

		if (!g_file_get_contents(pa, &ta, &la, NULL) ||
		    !g_file_get_contents(pb, &tb, &lb, NULL))
			return g_strdup_printf("%s missing", compared[i]);
		while (at < la && at < lb && ta[at] == tb[at])
			at++;
		if (at < la || at < lb)
			return g_strdup_printf("%s differs at byte %" G_GSIZE_FORMAT
					       " (%" G_GSIZE_FORMAT " and %"
					       G_GSIZE_FORMAT " bytes)",
					       compared[i], at, la, lb);
	}
	return NULL;
}

static char *scratch_folder(const char *name)
{
	return g_build_filename(pt_scratch(), name, NULL);
}

/* The folders of dirs[0..n) that were named, removed. */
static void remove_folders(char **dirs, size_t n)
{
	size_t i;

	for (i = 0; i < n && dirs[i]; i++) {
		gs_remove_flat_dir(dirs[i]);
		g_free(dirs[i]);
	}
}

/* Runs sc[i] the way ways[i] under opts[i], for i < n, and compares
 * every folder with the first; a failure is reported under relation. */
static void compare_ways(struct pt_case *c, const char *relation,
			 const struct gs_scenario *const *sc,
			 const struct gs_sim_options *opts, const enum way *ways,
			 const char *const *labels, size_t n)
{
	char *dirs[4] = { NULL };
	size_t i;

	g_assert(n <= G_N_ELEMENTS(dirs));
	for (i = 0; i < n; i++) {
		g_autofree char *why = NULL, *diff = NULL;

		dirs[i] = scratch_folder(labels[i]);
		c->checks++;
		if (!run_into(sc[i], opts[i], ways[i], dirs[i], &why)) {
			pt_fail(c, relation, "%s: %s", labels[i], why);
			break;
		}
		if (i > 0 && (diff = differs(dirs[0], dirs[i])))
			pt_fail(c, relation, "%s against %s: %s", labels[i],
				labels[0], diff);
	}
	remove_folders(dirs, n);
}

/* The timeline recorded or not: the same results. Recording reads the
 * simulation, hands chunks to a stream's thread and caps itself; it must
 * never change what it records. Three ways: no timeline; streamed to
 * timeline.pftrace with series.csv streamed beside it (`gpusim run`);
 * kept in the results for timeline.json, under a cap of CAPPED_SPANS,
 * which most generated runs reach, so that what a run does past its cap
 * is compared too. */
#define CAPPED_SPANS "output.timeline_max_spans=20000"

void pt_check_output_independence(struct pt_case *c)
{
	static const enum way ways[] = { PLAIN, STREAMED, JSON_TIMELINE };
	static const char *const labels[] = { "plain", "pftrace-streamed",
					      "json-timeline-capped" };
	static const char *const cap[] = { CAPPED_SPANS };
	const struct gs_sim_options opts[3] = { { 0 } };
	g_autofree char *why = NULL;
	const struct gs_scenario *sc[3];
	struct gs_scenario *full = pt_load(&c->base, NULL, 0, &why);
	struct gs_scenario *capped =
		full ? pt_load(&c->base, cap, 1, &why) : NULL;

	if (!capped) {
		c->checks++;
		pt_fail(c, "output-independence", "%s", why);
		gs_scenario_free(full);
		return;
	}
	sc[0] = sc[1] = full;
	sc[2] = capped;
	compare_ways(c, "output-independence", sc, opts, ways, labels, 3);
	gs_scenario_free(full);
	gs_scenario_free(capped);
}

/* The standalone runs behind the slowdowns made on threads beside the
 * scenario's (`gpusim run`), or given as made apart, one after another,
 * by gs_run_standalone (a sweep's shared runs, sweep_alone.h, which a
 * point makes itself the same way when none is given), or some given
 * and the rest made beside (a point whose definitions' runs are shared
 * with different points, or made by it): the same results, slowdowns
 * and the metrics made of them included. */
void pt_check_standalone_beside(struct pt_case *c)
{
	static const enum way ways[] = { PLAIN, PLAIN, PLAIN };
	static const char *const labels[] = { "beside", "given",
					      "odd-given" };
	struct gs_sim_options opts[3] = {
		{ .standalone_runs = true, .standalone_beside = true },
		{ .standalone_runs = true },
		{ .standalone_runs = true, .standalone_beside = true },
	};
	g_autofree char *why = NULL;
	struct gs_scenario *sc = pt_load(&c->base, NULL, 0, &why);
	struct gs_standalone_fig *figs;
	const struct gs_standalone_fig **given, **odd;
	GError *err = NULL;
	uint32_t i;

	if (!sc) {
		c->checks++;
		pt_fail(c, "standalone-beside", "%s", why);
		return;
	}
	figs = g_new0(struct gs_standalone_fig, MAX(sc->n_tasks, 1));
	given = g_new0(const struct gs_standalone_fig *, MAX(sc->n_tasks, 1));
	odd = g_new0(const struct gs_standalone_fig *, MAX(sc->n_tasks, 1));
	for (i = 0; i < sc->n_tasks; i++) {
		if (!gs_run_standalone(sc, i, false, &figs[i], &err)) {
			c->checks++;
			pt_fail(c, "standalone-beside", "definition %u alone: "
				"%s", i, err->message);
			g_clear_error(&err);
			goto done;
		}
		given[i] = &figs[i];
		odd[i] = i % 2 ? &figs[i] : NULL;
	}
	opts[1].standalone_known = given;
	opts[2].standalone_known = odd;
	compare_ways(c, "standalone-beside",
		     (const struct gs_scenario *const[]){ sc, sc, sc }, opts,
		     ways, labels, 3);
done:
	for (i = 0; i < sc->n_tasks; i++)
		gs_standalone_fig_clear(&figs[i]);
	g_free(figs);
	g_free(given);
	g_free(odd);
	gs_scenario_free(sc);
}
