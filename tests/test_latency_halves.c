/* base/latency_halves.c: the two parts, each counting half of the log
 * and then grouping its own owners, on two threads, against
 * gs_latency_log_stats of the same log (one part, counting its own
 * slots over the whole log): every field of every slot the same. Logs
 * with owners and kinds out of range (ignored by both), empty slots,
 * odd lengths (the halves differ by one), a split with no owners on one
 * side, a mark short of the log's end (later entries not counted),
 * and parts of more than 4 MiB of samples (mapped with huge pages). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "base/latency_halves.h"
#include "tests/support/sort_check.h"

struct table {
	uint32_t n_owners, n_kinds;
	struct gs_latency_stats *st;
	uint64_t puts;
};

static void put_stats(void *ctx, uint32_t owner, uint32_t kind,
		      const struct gs_latency_stats *st)
{
	struct table *t = ctx;

	t->st[(uint64_t)owner * t->n_kinds + kind] = *st;
	__atomic_fetch_add(&t->puts, 1, __ATOMIC_RELAXED);
}

struct second {
	struct gs_latency_halves *h;
	struct table *t;
};

static gpointer second_part(gpointer data)
{
	struct second *s = data;

	gs_latency_halves_count(s->h, 1);
	gs_latency_halves_stats(s->h, 1, put_stats, s->t);
	return NULL;
}

static void assert_halves_match(uint32_t n_owners, uint32_t n_kinds,
				uint64_t n_entries, uint32_t split,
				uint64_t unmarked)
{
	uint64_t seed = n_owners * 7919 + n_entries + split, i;
	uint64_t slots = (uint64_t)n_owners * n_kinds;
	struct table want = { n_owners, n_kinds,
			      g_new0(struct gs_latency_stats, slots), 0 };
	struct table got = { n_owners, n_kinds,
			     g_new0(struct gs_latency_stats, slots), 0 };
	struct gs_latency_log log;
	struct gs_latency_mark mark;
	struct gs_latency_halves h;
	struct second s = { &h, &got };
	GThread *thread;

	gs_latency_log_init_mode(&log, n_owners, n_kinds, false);
	for (i = 0; i < n_entries + unmarked; i++) {
		/* a few out of range, the rest spread over 3/4 of the owners
		 * so that some slots stay empty */
		uint64_t r = next(&seed);
		uint32_t owner = (uint32_t)(r % (n_owners + 2)) * 3 / 4;
		uint32_t kind = (uint32_t)((r >> 32) % (n_kinds + 1));

		if (i == n_entries)
			gs_latency_log_mark(&log, &mark);
		gs_latency_log_add(&log, owner, kind, 1000 + (next(&seed) & 0xffff));
	}
	if (!unmarked)
		gs_latency_log_mark(&log, &mark);
	assert_true(gs_latency_halves_fit(&log, &mark));
	gs_latency_log_stats(&log, &mark, n_kinds, 0, n_owners, put_stats,
			     &want);
	gs_latency_halves_init(&h, &log, &mark, n_owners, n_kinds, split);
	thread = g_thread_new("second", second_part, &s);
	gs_latency_halves_count(&h, 0);
	gs_latency_halves_stats(&h, 0, put_stats, &got);
	g_thread_join(thread);
	gs_latency_halves_free(&h);
	assert_int_equal(got.puts, slots);
	for (i = 0; i < slots; i++)
		assert_memory_equal(&got.st[i], &want.st[i],
				    sizeof(got.st[i]));
	gs_latency_mark_free(&mark);
	gs_latency_log_free(&log);
	g_free(want.st);
	g_free(got.st);
}

static void test_halves_match_one_part(void **state)
{
	(void)state;
	assert_halves_match(1000, 2, 30001, 500, 0);
	assert_halves_match(1000, 2, 30000, 333, 0);
	assert_halves_match(7, 3, 101, 0, 0);      /* part 0 has no owners */
	assert_halves_match(7, 3, 101, 7, 0);      /* part 1 has none */
	assert_halves_match(64, 2, 1, 32, 0);      /* halves of 0 and 1 */
	assert_halves_match(64, 2, 0, 32, 0);      /* nothing logged */
	assert_halves_match(2000, 2, 50000, 1000, 777); /* mark before end */
	/* each part's grouped samples past 4 MiB: mapped, not malloc'd */
	assert_halves_match(1000, 2, 2000000, 500, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_halves_match_one_part),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
