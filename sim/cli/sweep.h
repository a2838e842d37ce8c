/* Running a sweep (`gpusim sweep`): the points of a scenario's grid, each
 * in its own folder DIR/points/ID with the usual run outputs and a
 * point.json written last, then DIR/sweep.csv and DIR/manifest.json.
 *
 * A point is finished when its point.json exists and records the hash of
 * the configuration it was run from (the scenario file's bytes, the
 * command line's --set overrides and the point's own). A point's folder,
 * point.json included, is published whole (sim/results/results_dir.h), so an
 * interrupted sweep loses no finished point, leaves no half one, and a
 * rerun runs only the rest. */
#ifndef GS_SIM_SWEEP_H
#define GS_SIM_SWEEP_H

#include <glib.h>
#include <stdbool.h>

#include "sim/host/results.h"
#include "sim/results/results_write.h"
#include "workloads/sweep.h"

struct gs_standalone_fig;

struct gs_point_record;

/* What every point of one sweep shares. */
struct gs_sweep_job {
	const char *file;            /* the scenario file, as given */
	const char *data;            /* its bytes */
	size_t len;
	char **base_sets;            /* --set overrides, NULL-terminated */
	const char *out_dir;
	const struct gs_scenario *sc; /* the base scenario */
	GPtrArray *points;           /* struct gs_sweep_point * */
	char *config_hash;           /* hex SHA-256 of file and base_sets */
	bool no_timeline;
	enum gs_timeline_format timeline; /* when there is one */
	/* Called by a point's run when its files are written and only their
	 * durable commit is left (NULL: nothing to tell), with the record
	 * its point.json holds (NULL: none written, an invariant was
	 * violated): a pool worker then tells the pool, which starts the
	 * next point while this one waits for the disk, and hands it the
	 * record for when the point is committed. */
	void (*before_commit)(void *ctx, const struct gs_point_record *rec);
	void *before_commit_ctx;
	/* The point's standalone runs made already, one per definition
	 * (NULL: made by the point; sweep_alone.h), or NULL. */
	const struct gs_standalone_fig *const *standalone_known;
};

/* Fills job->config_hash. */
void gs_sweep_job_hash(struct gs_sweep_job *job);
/* Hex SHA-256 of the configuration of one point; g_free it. */
char *gs_sweep_point_hash(const struct gs_sweep_job *job,
			  const struct gs_sweep_point *p);
/* DIR/points/ID; g_free it. */
char *gs_sweep_point_dir(const struct gs_sweep_job *job,
			 const struct gs_sweep_point *p);

/* What a finished point's point.json says. */
struct gs_point_record {
	GPtrArray *columns;  /* char *, the run's row (gs_results_row) */
	GPtrArray *cells;
};
void gs_point_record_free(struct gs_point_record *rec);
/* rec appended to out as bytes (sweep_record.c), and back: NULL when the
 * bytes are not one whole record, or hold a string point.json could not
 * hold as it is (not valid UTF-8). */
void gs_point_record_pack(const struct gs_point_record *rec,
			  GByteArray *out);
struct gs_point_record *gs_point_record_unpack(const guint8 *data,
					       gsize len);

/* Writes point.json for p, whose row is rec's, into dir (the temporary
 * folder that becomes p's folder). */
gboolean gs_sweep_write_point(const struct gs_sweep_job *job,
			      const struct gs_sweep_point *p,
			      const struct gs_point_record *rec,
			      const char *dir, GError **error);
/* The record of p if it is finished for this configuration, else NULL. */
struct gs_point_record *gs_sweep_read_point(const struct gs_sweep_job *job,
					    const struct gs_sweep_point *p);

/* Point p's scenario: the base one with --set's and p's overrides. */
struct gs_scenario *gs_sweep_load_point(const struct gs_sweep_job *job,
					const struct gs_sweep_point *p,
					GError **error);
/* Runs one point in this process and writes its folder. */
gboolean gs_sweep_run_point(const struct gs_sweep_job *job,
			    const struct gs_sweep_point *p, GError **error);

/* Puts todo[0..n) in the order a pool starts them: the costliest first
 * (struct gs_sweep_point.cost), ties in grid order, so the last points to
 * start are the shortest and the workers finish close together. Only the
 * order of execution changes: every output is written in grid order. */
void gs_sweep_order_longest_first(const struct gs_sweep_point **todo,
				  unsigned n);

/* Whether the workers of a pool that simulates `at_once` points at a
 * time on `cores` cores start helper threads (collecting and writing a
 * point's results on two threads): only while cores are left over. With
 * every core running a point of its own a helper has no core to run on;
 * on neon_fig6_fig7 at -j2 on 2 cores, the sweep took 3% longer with
 * them (median of 10), and -j1 the same either way. */
bool gs_sweep_worker_threads(unsigned at_once, unsigned cores);

/* The standalone runs a pool made once for several points
 * (sweep_alone.h), and the points' uses of them. */
struct gs_sweep_shared {
	unsigned runs, uses;
};

/* Runs points todo[0..n) in up to `jobs` worker processes (one forked
 * process per point) that simulate at once; a worker whose point only
 * waits for its durable commit no longer counts, so up to `jobs` more
 * may be committing. The standalone runs two or more points make alike
 * are made first, once each, by workers of their own (sweep_alone.h;
 * counted in *shared if not NULL), and the points take them. Draws
 * progress on stderr when `progress`. When a worker has exited with
 * success, its point's record is read into recs[p->index] (recs: one
 * slot per point of the job), while the other workers still run, so that
 * the summary has nothing left to read after the last one. Returns the
 * number of points that failed (their errors went to stderr). */
unsigned gs_sweep_run_pool(const struct gs_sweep_job *job,
			   const struct gs_sweep_point *const *todo,
			   unsigned n, unsigned jobs, bool progress,
			   struct gs_point_record **recs,
			   struct gs_sweep_shared *shared);

/* Writes DIR/sweep.csv (one row per finished point, in grid order: point,
 * seed, the swept values, then every column of the points' rows) and
 * DIR/manifest.json. recs has one slot per point: a record already read
 * from the point's committed point.json, or NULL, and then the point's
 * point.json is read now (the record, if any, is stored in its slot;
 * the caller frees them all). *missing gets the number of unfinished
 * points. keep (--collect without --force): fail rather than replace a
 * sweep.csv that has more rows, or a manifest.json of another
 * configuration. */
gboolean gs_sweep_write_summary(const struct gs_sweep_job *job, bool keep,
				struct gs_point_record **recs,
				unsigned *missing, GError **error);
/* recs[0..n) freed, then recs itself. */
void gs_point_records_free(struct gs_point_record **recs, unsigned n);

#endif
