/* Standalone runs shared among a sweep's points (DESIGN section 8: the
 * slowdowns' reference runs are "cached per config"); gpusim reproduce
 * shares those of a file's rows by the same key (cli_reproduce.c).
 *
 * A point's standalone runs are each task definition alone under
 * `direct` (gs_run_standalone): its policy is replaced, so two points
 * whose overrides differ only in `policy` make the same runs, byte for
 * byte. Most paper sweeps cross a policy axis with others (neon_fig6_fig7:
 * 24 points, 48 standalone runs of which 7 differ), and the runs were
 * half of such a sweep's simulation. The pool makes the runs that two or
 * more points share once, before the points (the costliest first), by
 * workers of their own, and a point forked after them inherits their
 * figures (gs_sim_options.standalone_known); a point whose runs are
 * still being made waits while another is ready.
 * Runs one point alone needs are left to it. If a shared worker fails
 * (an error, a crash), its points make the runs themselves, and fail or
 * report exactly as they would have.
 *
 * A point's run of definition d is shared with the points whose
 * overrides are the same but those of `policy`, of another definition
 * ("tasks.K..." for K other than d) and of d's count: the base scenario
 * and --set overrides are every point's, and d alone, one replica
 * (gs_scenario_alone), is out of reach of the rest. So neon_fig6_fig7
 * makes DCT's run once for all 24 points, not once per throttle kernel
 * (7 runs instead of 12), and loga_fig8 the throttle's once for its 7
 * counts.
 * A worker per point that is first to need a shared run, not per run:
 * it makes every shared run that point is first to need, as a process
 * costs about what a short point's runs do (dcuda_fig11_14: 20 keys of
 * 20 definitions each).
 */
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

/* The key of definition def's standalone run in a scenario given these
 * overrides ("key=value", NULL-terminated, or NULL): def, and the
 * overrides but the policy's, another definition's and def's count,
 * each as its length and bytes; g_free it. */
char *gs_alone_def_key(char *const *sets, uint32_t def);

/* A worker of shared standalone runs: those of point p's definitions
 * defs[0..n_defs) (ascending) that p is the first in the pool's order to
 * need and another point needs too. */
struct gs_alone_job {
	const struct gs_sweep_point *p;
	uint32_t *defs;
	uint32_t n_defs;
	uint64_t cost;              /* their alone_cost, summed */
	unsigned uses;              /* points that need one of them */
	unsigned stood_for;         /* points' runs they stand for */
	enum gs_alone_state state;
	/* GS_ALONE_DONE: one per definition of p, fig[d] made for d in defs */
	struct gs_standalone_fig *fig;
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
/* p's figures made already, one per definition, pointing into plan (a
 * NULL entry: p makes that run itself), or NULL: p makes them all. Valid
 * until the next call for p. */
const struct gs_standalone_fig *const *gs_sweep_alone_known(
	const struct gs_sweep_alone *plan, const struct gs_sweep_point *p);
/* job's worker has ended: with success and its message (msg[0..len):
 * the figures of job->defs in order, gs_standalone_fig_pack's bytes
 * each) the runs are done, else failed. */
void gs_sweep_alone_ended(struct gs_alone_job *job, bool ok,
			  const guint8 *msg, gsize len);
/* The runs made once for several points, and the points' runs they
 * stood for. */
void gs_sweep_alone_counts(const struct gs_sweep_alone *plan,
			   unsigned *runs, unsigned *uses);


/* In a worker: job's runs made from its point's scenario, their figures
 * appended to msg in the order of job->defs (gs_standalone_fig_pack);
 * FALSE if one failed. */
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
