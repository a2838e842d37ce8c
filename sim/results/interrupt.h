/* What an interrupted process leaves behind: nothing. SIGINT, SIGTERM and
 * SIGHUP remove the temporary folders that are registered here, then kill
 * the process with the signal's default action, so its exit status still
 * says "killed by signal". Output folders are written into such a
 * temporary folder and swapped into place whole (sim/results/results_dir.c).
 *
 * This is the one piece of process-wide mutable state in gpusim: a signal
 * handler can reach nothing else. It is changed only with the signals
 * blocked, and each forked sweep worker has its own copy. */
#ifndef GS_SIM_INTERRUPT_H
#define GS_SIM_INTERRUPT_H

#include <stdbool.h>

/* Installs the handlers (once; later calls do nothing). */
void gs_interrupt_install(void);

/* Registers path (an absolute or working-directory-relative folder that
 * holds only files) for removal on a signal. false when the table is full
 * or the path too long: then the caller must not start. */
bool gs_interrupt_register(const char *path);
void gs_interrupt_unregister(const char *path);

/* Blocks the handled signals until gs_interrupt_unblock(): the few
 * renames that publish a set of files are not cut in the middle. */
void gs_interrupt_block(void);
void gs_interrupt_unblock(void);

/* Removes path's entries (not subfolders) and then path itself, with
 * async-signal-safe calls only. Returns 0, or -1 with errno set. */
int gs_remove_flat_dir(const char *path);

#endif
