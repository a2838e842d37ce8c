/* Writing a set of files so that readers see either all of the old ones or
 * all of the new ones, never a mix, and so that no temporary survives an
 * error or a signal (SIGINT, SIGTERM, SIGHUP: sim/results/interrupt.h).
 *
 *   gs_outdir_begin()   makes a fresh temporary folder and registers it;
 *   write the files into gs_outdir_path() (not synced one by one);
 *   gs_outdir_commit()  makes them durable with one wait and publishes
 *                       them, or gs_outdir_abort() drops them.
 *
 * A whole folder (a run's or a sweep point's) is written into a sibling
 * ".NAME.tmp.HOST.PID.XXXXXX" and exchanged with the old folder in one
 * renameat2(RENAME_EXCHANGE); the old folder is then removed. Files in the
 * old folder that are not among `owned` (a note the user left there) are
 * hard-linked into the new one first, so they stay. Where the exchange
 * cannot be used (the filesystem refuses it, or the old folder holds a
 * subfolder, such as a sweep's points/), the new files are renamed into
 * the folder one by one with the signals blocked, and owned files the new
 * set lacks are removed in the same step.
 *
 * Only SIGKILL or a crash can leave a temporary folder; the next write of
 * the same folder on the same host removes it once its process is gone.
 *
 * An update (whole = false; a sweep's sweep.csv and manifest.json) always
 * takes the second way, from a temporary folder inside dir, and leaves
 * every other file of dir alone. */
#ifndef GS_SIM_RESULTS_DIR_H
#define GS_SIM_RESULTS_DIR_H

#include <glib.h>
#include <stdbool.h>

struct gs_outdir {
	char *dir;                 /* where the files go */
	char *tmp;                 /* where they are written first */
	const char *const *owned;  /* NULL-terminated names of the set */
	bool whole;
};

gboolean gs_outdir_begin(struct gs_outdir *od, const char *dir,
			 const char *const *owned, bool whole,
			 GError **error);
static inline const char *gs_outdir_path(const struct gs_outdir *od)
{
	return od->tmp;
}
/* Publishes the files and frees od; on failure dir is as it was. */
gboolean gs_outdir_commit(struct gs_outdir *od, GError **error);
/* Removes the temporary folder and frees od. */
void gs_outdir_abort(struct gs_outdir *od);
/* The same after a failed write: error, which may name the temporary
 * folder, names dir instead. */
void gs_outdir_fail(struct gs_outdir *od, GError **error);

#endif
