/* Threads that take no asynchronous signal (thread_quiet.h). */
#include "base/thread_quiet.h"

#include <pthread.h>
#include <stdbool.h>
#include <signal.h>

/* Set once, before any thread of the process's own is started. */
static bool threads_off;

void gs_threads_off(void)
{
	threads_off = true;
}

bool gs_threads_available(void)
{
	/* test seam (tests/no_threads_test.sh): as when no thread can be
	 * had, so that every caller's way of doing the work itself runs */
	return !threads_off && !g_getenv("GPUSIM_NO_THREADS");
}

GThread *gs_thread_new_quiet(const char *name, GThreadFunc fn, gpointer data)
{
	sigset_t all, old;
	GThread *thread;

	if (!gs_threads_available())
		return NULL;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	thread = g_thread_try_new(name, fn, data, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return thread;
}
