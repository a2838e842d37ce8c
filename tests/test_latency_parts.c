/* The latency log's parts (base/latency.h): in log mode one log per
 * range of GS_LATENCY_PART_OWNERS owners, the last also taking the
 * owners past the log's. The statistics of any range of owners, taken a
 * unit at a time in any order with one room used again (as the collect's
 * two threads take them), are those of the whole range at once and
 * those of each slot's samples taken alone: only samples before the
 * mark count (entries after it in every part), out-of-range owners and
 * kinds are ignored, ranges may start and end inside a part. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "base/latency.h"
#include "tests/support/latency_table.h"
#include "tests/support/sort_check.h"

/* n samples before the mark and n / 3 after it, owners up to 40 past
 * the log's (into its last part) and kinds up to one past. */
static void fill(struct gs_latency_log *log, struct gs_latency_mark *mark,
		 struct gs_latency *want, uint32_t n_owners, uint32_t n_kinds,
		 uint64_t n, uint64_t seed)
{
	uint64_t i, rng = seed;

	gs_latency_log_init_mode(log, n_owners, n_kinds, false);
	for (i = 0; i < n + n / 3; i++) {
		uint32_t owner = (uint32_t)(next(&rng) % (n_owners + 40));
		uint32_t kind = (uint32_t)(next(&rng) % (n_kinds + 1));
		uint64_t ns = 1000 + next(&rng) % 100000;

		if (i == n)
			gs_latency_log_mark(log, mark);
		gs_latency_log_add(log, owner, kind, ns);
		if (i < n && owner < n_owners && kind < n_kinds)
			gs_latency_add(&want[(uint64_t)owner * n_kinds + kind],
				       ns);
	}
	if (!n)
		gs_latency_log_mark(log, mark);
}

/* Owners [first, end) a unit at a time from the last unit to the first,
 * one room for all, against the range at once and each slot alone. */
static void check_units(uint32_t n_owners, uint32_t n_kinds, uint64_t n,
			uint32_t first, uint32_t end, uint64_t seed)
{
	uint64_t slots = (uint64_t)n_owners * n_kinds, i;
	struct gs_latency *want = g_new0(struct gs_latency, slots);
	struct table whole = { g_new0(struct gs_latency_stats, slots),
			       n_owners, n_kinds, 0 };
	struct table units = { g_new0(struct gs_latency_stats, slots),
			       n_owners, n_kinds, 0 };
	struct gs_latency_room room = { 0 };
	struct gs_latency_log log;
	struct gs_latency_mark mark;
	uint32_t unit, u;

	fill(&log, &mark, want, n_owners, n_kinds, n, seed);
	unit = gs_latency_log_unit(&log);
	assert_int_equal(log.n_parts,
			 (n_owners + GS_LATENCY_PART_OWNERS - 1) /
				 GS_LATENCY_PART_OWNERS);
	gs_latency_log_stats(&log, &mark, n_kinds, first, end, put_stats,
			     &whole);
	for (u = (end - first + unit - 1) / unit; u-- > 0;)
		gs_latency_log_stats_in(&log, &mark, n_kinds, first + u * unit,
					MIN(end, first + (u + 1) * unit), &room,
					put_stats, &units);
	assert_int_equal(whole.puts, (uint64_t)(end - first) * n_kinds);
	assert_int_equal(units.puts, whole.puts);
	for (i = (uint64_t)first * n_kinds; i < (uint64_t)end * n_kinds; i++) {
		struct gs_latency_stats w;

		gs_latency_stats(&want[i], &w);
		/* every field the same bits (NAN included) */
		assert_memory_equal(&whole.st[i], &w, sizeof(w));
		assert_memory_equal(&units.st[i], &w, sizeof(w));
	}
	for (i = 0; i < slots; i++)
		gs_latency_free(&want[i]);
	gs_latency_room_free(&room);
	gs_latency_mark_free(&mark);
	gs_latency_log_free(&log);
	g_free(want);
	g_free(whole.st);
	g_free(units.st);
}

/* Three parts, the last short: whole, from inside the first part to
 * inside the last, and within one part. */
static void test_units_match_whole(void **state)
{
	(void)state;
	check_units(2500, 2, 60000, 0, 2500, 1);
	check_units(2500, 2, 60000, 1000, 2100, 2);
	check_units(2500, 2, 60000, 1030, 1050, 3);
	/* slots of hundreds of samples: the group's room grows */
	check_units(1100, 2, 400000, 0, 1100, 4);
	/* one part, taken in halves */
	check_units(700, 2, 30000, 0, 700, 6);
	/* nothing before the mark: every slot empty */
	check_units(3000, 2, 0, 0, 3000, 5);
}

/* The units threads take: slot mode's is one owner (each owner's slots
 * are arrays of their own, and at 16 tasks one owner is a hundred
 * thousand samples); a log of one part is taken in halves, so that two
 * threads share its sorting; from two parts on, a part. */
static uint32_t unit_of(uint32_t n_owners, bool per_slot)
{
	struct gs_latency_log log;
	uint32_t unit;

	gs_latency_log_init_mode(&log, n_owners, 2, per_slot);
	unit = gs_latency_log_unit(&log);
	gs_latency_log_free(&log);
	return unit;
}

static void test_units(void **state)
{
	(void)state;
	assert_int_equal(unit_of(16, true), 1);
	assert_int_equal(unit_of(1000, false), 500);
	assert_int_equal(unit_of(601, false), 301);
	assert_int_equal(unit_of(GS_LATENCY_PART_OWNERS, false),
			 GS_LATENCY_PART_OWNERS / 2);
	assert_int_equal(unit_of(GS_LATENCY_PART_OWNERS + 1, false),
			 GS_LATENCY_PART_OWNERS);
	assert_int_equal(unit_of(0, false), 1);
	assert_int_equal(unit_of(1, false), 1);
}

/* Entries go to their owner's part, in order; owners past the log's to
 * the last part. */
static void test_entries_in_their_part(void **state)
{
	struct gs_latency_log log;
	const struct gs_latency_entry *e;

	(void)state;
	gs_latency_log_init_mode(&log, 2 * GS_LATENCY_PART_OWNERS + 1, 1,
				 false);
	assert_int_equal(log.n_parts, 3);
	gs_latency_log_add(&log, GS_LATENCY_PART_OWNERS, 0, 7);
	gs_latency_log_add(&log, 0, 0, 5);
	gs_latency_log_add(&log, GS_LATENCY_PART_OWNERS + 3, 0, 9);
	gs_latency_log_add(&log, 100 * GS_LATENCY_PART_OWNERS, 0, 11);
	assert_int_equal(log.n, 4);
	assert_int_equal(log.part[0].n, 1);
	assert_int_equal(log.part[1].n, 2);
	assert_int_equal(log.part[2].n, 1);
	e = log.part[1].first->e;
	assert_int_equal(e[0].ns, 7);
	assert_int_equal(e[1].ns, 9);
	assert_int_equal(log.part[2].first->e[0].owner,
			 100 * GS_LATENCY_PART_OWNERS);
	gs_latency_log_free(&log);
}

/* A part's entries past one block: the blocks are read in order and the
 * mark's count stops inside the last one it covers. */
static void test_mark_inside_a_block(void **state)
{
	uint64_t n = 3 * GS_LATENCY_BLOCK_ENTRIES + 17, i;
	struct gs_latency_stats st;
	struct gs_latency_log log;
	struct gs_latency_mark mark;
	struct table t = { &st, 1, 1, 0 };

	(void)state;
	gs_latency_log_init_mode(&log, GS_LATENCY_SLOTS_MAX + 1, 1, false);
	for (i = 0; i < n + 5; i++) {
		if (i == n)
			gs_latency_log_mark(&log, &mark);
		/* 1..n before the mark, then far larger values */
		gs_latency_log_add(&log, 0, 0, i < n ? i + 1 : 1000000);
	}
	gs_latency_log_stats(&log, &mark, 1, 0, 1, put_stats, &t);
	assert_int_equal(st.n, n);
	assert_int_equal(st.min, 1);
	assert_int_equal(st.max, n);
	gs_latency_mark_free(&mark);
	gs_latency_log_free(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units_match_whole),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_entries_in_their_part),
		cmocka_unit_test(test_mark_inside_a_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
