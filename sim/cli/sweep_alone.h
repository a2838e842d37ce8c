/* Standalone runs shared among a sweep's points (DESIGN section 8: the
 * slowdowns' reference runs are "cached per config"); gpusim reproduce
 * shares those of a file's rows by the same key (cli_reproduce.c).
 *
 * A point's standalone runs are each task definition alone under
 * `direct` (gs_run_standalone): its policy is replaced, so two points
 * whose overrides differ only in `policy` make the same runs, byte for
 * byte. Most paper sweeps cross a policy axis with others (neon_fig6_fig7:
 * 24 points, 48 standalone runs of which 12 differ), and the runs were
 * half of such a sweep's simulation. The pool makes the runs that two or
 * more points share once, before the points (the costliest first), by a
 * worker of their own that makes all of one point's, and a point forked
 * after it inherits their figures (gs_sim_options.standalone_known); a
 * point whose runs are still being made waits while another is ready.
 * Runs one point alone needs are left to it. If a shared worker fails
 * (an error, a crash), its points make the runs themselves, and fail or
 * report exactly as they would have.
 *
 * Points share their runs when their overrides but those of `policy` are
 * the same (the base scenario and --set overrides are every point's): a
 * conservative key. Runs that would be the same under a looser one (a
 * definition no axis touches, across the values of another definition's
 * axis) are still made once per key. A worker per key, not per run: a
 * process costs about what a short point's runs do (dcuda_fig11_14: 20
 * keys of 20 definitions each). */
#ifndef GS_SIM_SWEEP_ALONE_H
#define GS_SIM_SWEEP_ALONE_H

#include <glib.h>
#include <stdbool.h>

#include "sim/cli/sweep.h"
#include "sim/run/sim.h"

enum gs_alone_state {
	GS_ALONE_WAITING,
	GS_ALONE_RUNNING,
	GS_ALONE_DONE,
	GS_ALONE_FAILED,
};

/* The figures of every definition's standalone run of one scenario, and
 * the array gs_sim_options.standalone_known takes (&fig[d] each). */
struct gs_alone_figs {
	uint32_t n;
	struct gs_standalone_fig *fig;
	const struct gs_standalone_fig **known;
};

/* figs for fig[0..n), which it takes; free with gs_alone_figs_free. */
struct gs_alone_figs *gs_alone_figs_new(struct gs_standalone_fig *fig,
					uint32_t n);
void gs_alone_figs_free(gpointer figs);

/* The key of the standalone runs of a scenario given these overrides
 * ("key=value", NULL-terminated, or NULL): the overrides but the
 * policy's, each as its length and bytes; g_free it. */
char *gs_alone_key(char *const *sets);

/* The standalone runs of every definition of point p, which other
 * points share (p: the first of them in the pool's order). */
struct gs_alone_job {
	char *key;
	const struct gs_sweep_point *p;
	uint64_t cost;
	unsigned uses;              /* points that need them */
	enum gs_alone_state state;
	struct gs_alone_figs *figs; /* GS_ALONE_DONE */
};

struct gs_sweep_alone;

/* The runs the points todo[0..n) share, in the order to start them. */
struct gs_sweep_alone *gs_sweep_alone_plan(
	const struct gs_sweep_point *const *todo, unsigned n);
void gs_sweep_alone_free(struct gs_sweep_alone *plan);

/* How many workers of shared runs there are to start. */
unsigned gs_sweep_alone_jobs(const struct gs_sweep_alone *plan);
/* The next shared runs waiting to start, or NULL. */
struct gs_alone_job *gs_sweep_alone_next(struct gs_sweep_alone *plan);
/* Whether p can start: its shared runs, if any, are not waiting or being
 * made. */
bool gs_sweep_alone_ready(const struct gs_sweep_alone *plan,
			  const struct gs_sweep_point *p);
/* p's figures made already, one per definition, pointing into plan, or
 * NULL: p makes its runs itself. */
const struct gs_standalone_fig *const *gs_sweep_alone_known(
	const struct gs_sweep_alone *plan, const struct gs_sweep_point *p);
/* job's worker has ended: with success and its message (msg[0..len):
 * its point's definitions' figures, gs_standalone_fig_pack's bytes each)
 * the runs are done, else failed. */
void gs_sweep_alone_ended(struct gs_alone_job *job, bool ok,
			  const guint8 *msg, gsize len);
/* The runs made once for several points, and the points' runs they
 * stood for. */
void gs_sweep_alone_counts(const struct gs_sweep_alone *plan,
			   unsigned *runs, unsigned *uses);


/* In a worker: job's runs made from its point's scenario, their figures
 * appended to msg in definition order (gs_standalone_fig_pack); FALSE if
 * one failed. */
gboolean gs_sweep_alone_work(const struct gs_sweep_job *sweep,
			     const struct gs_alone_job *job, GByteArray *msg);

/* f as bytes, appended to out, and back: the fig at data + *at, *at
 * moved past it (FALSE: the bytes end first or are not a fig;
 * sweep_record.c). */
void gs_standalone_fig_pack(const struct gs_standalone_fig *f,
			    GByteArray *out);
gboolean gs_standalone_fig_unpack(const guint8 *data, gsize len, gsize *at,
				  struct gs_standalone_fig *out);

#endif
