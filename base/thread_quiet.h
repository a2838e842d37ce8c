/* Threads that take no asynchronous signal. */
#ifndef GS_THREAD_QUIET_H
#define GS_THREAD_QUIET_H

#include <glib.h>
#include <stdbool.h>

/* A thread that blocks every asynchronous signal, so that a SIGINT's
 * handler (sim/results/interrupt.c) runs on the main thread, which then
 * creates no more files while the handler removes the temporary folder;
 * NULL if none could be started, or with GPUSIM_NO_THREADS set in the
 * environment (a test seam: every caller then does the work itself). */
GThread *gs_thread_new_quiet(const char *name, GThreadFunc fn, gpointer data);
/* From now on gs_thread_new_quiet starts no thread in this process, as
 * with GPUSIM_NO_THREADS: for a process that shares the machine's cores
 * with as many other busy ones (a sweep's worker when the pool runs at
 * least as many points at once as there are cores), where a helper
 * thread has no core of its own and costs its start and its hand-overs
 * for nothing. */
void gs_threads_off(void);
/* Whether gs_thread_new_quiet may start a thread (not off, no
 * GPUSIM_NO_THREADS); it can still fail, rarely, for want of resources. */
bool gs_threads_available(void);

#endif
