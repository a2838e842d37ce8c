/* Threads that take no asynchronous signal (base/thread_quiet.h): one
 * starts and runs its function with every signal blocked; after
 * gs_threads_off() none starts in the process, and callers see what
 * they see when none can be had (NULL), for good. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <signal.h>
#include <pthread.h>

#include "base/thread_quiet.h"

static gpointer blocked_signals(gpointer data)
{
	sigset_t mask;

	(void)data;
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	return GINT_TO_POINTER(sigismember(&mask, SIGINT) &&
			       sigismember(&mask, SIGTERM));
}

static void test_thread_blocks_signals(void **state)
{
	GThread *t;

	(void)state;
	t = gs_thread_new_quiet("test-quiet", blocked_signals, NULL);
	assert_non_null(t);
	assert_int_equal(GPOINTER_TO_INT(g_thread_join(t)), 1);
}

/* Last: it cannot be undone in this process. */
static void test_threads_off(void **state)
{
	(void)state;
	gs_threads_off();
	assert_null(gs_thread_new_quiet("test-off", blocked_signals, NULL));
	assert_null(gs_thread_new_quiet("test-off", blocked_signals, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_blocks_signals),
		cmocka_unit_test(test_threads_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
