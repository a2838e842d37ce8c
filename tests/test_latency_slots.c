/* The latency log's two modes (base/latency.h): with few (owner, kind)
 * slots each slot keeps its samples in an array of its own, with many
 * they go into a log (in parts of 1,024 owners: test_latency_parts.c)
 * grouped when the statistics are taken. For the
 * same samples both must give the same bits, and the same as each slot's
 * samples taken alone: only those added before the mark (the run's end,
 * not the teardown's) and only owners and kinds in range. The mode
 * chosen at GS_LATENCY_SLOTS_MAX and either side of it. */
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

/* The statistics of both halves of the owners, as the run collects them. */
static void take_stats(struct gs_latency_log *log,
		       const struct gs_latency_mark *mark, struct table *t)
{
	uint32_t half = t->n_owners / 2;

	gs_latency_log_stats(log, mark, t->n_kinds, 0, half, put_stats, t);
	gs_latency_log_stats(log, mark, t->n_kinds, half, t->n_owners,
			     put_stats, t);
	assert_int_equal(t->puts, (uint64_t)t->n_owners * t->n_kinds);
}

/* A sample's value: round-time-like, or any 64 bits now and then. */
static uint64_t sample_value(uint64_t *rng)
{
	uint64_t r = next(rng);

	return r % 16 ? 25000 + (r >> 44) : next(rng);
}

static void mark_both(const struct gs_latency_log *a,
		      struct gs_latency_mark *mark_a,
		      const struct gs_latency_log *b,
		      struct gs_latency_mark *mark_b)
{
	gs_latency_log_mark(a, mark_a);
	gs_latency_log_mark(b, mark_b);
}

/* n samples before the mark and n / 4 after it, with owners and kinds
 * up to two past their ranges, into both modes and, those that count,
 * into a plain distribution per slot. */
static void check_modes_agree(uint32_t n_owners, uint32_t n_kinds,
			      uint64_t n, uint64_t seed)
{
	uint64_t slots = (uint64_t)n_owners * n_kinds, i, rng = seed;
	struct gs_latency_log by_slot, by_log;
	struct gs_latency_mark slot_mark, log_mark;
	struct gs_latency *want = g_new0(struct gs_latency, slots);
	struct table a = { g_new(struct gs_latency_stats, slots), n_owners,
			   n_kinds, 0 };
	struct table b = { g_new(struct gs_latency_stats, slots), n_owners,
			   n_kinds, 0 };

	gs_latency_log_init_mode(&by_slot, n_owners, n_kinds, true);
	gs_latency_log_init_mode(&by_log, n_owners, n_kinds, false);
	for (i = 0; i < n + n / 4; i++) {
		uint32_t owner = (uint32_t)(next(&rng) % (n_owners + 2));
		uint32_t kind = (uint32_t)(next(&rng) % (n_kinds + 2));
		uint64_t ns = sample_value(&rng);

		if (i == n)
			mark_both(&by_slot, &slot_mark, &by_log, &log_mark);
		gs_latency_log_add(&by_slot, owner, kind, ns);
		gs_latency_log_add(&by_log, owner, kind, ns);
		if (i < n && owner < n_owners && kind < n_kinds)
			gs_latency_add(&want[(uint64_t)owner * n_kinds + kind],
				       ns);
	}
	if (!n)
		mark_both(&by_slot, &slot_mark, &by_log, &log_mark);
	take_stats(&by_slot, &slot_mark, &a);
	take_stats(&by_log, &log_mark, &b);
	for (i = 0; i < slots; i++) {
		struct gs_latency_stats w;

		gs_latency_stats(&want[i], &w);
		/* every field the same bits (NAN means included) */
		assert_memory_equal(&a.st[i], &w, sizeof(w));
		assert_memory_equal(&b.st[i], &w, sizeof(w));
		gs_latency_free(&want[i]);
	}
	/* a second collection (the samples now sorted in place) the same */
	a.puts = 0;
	take_stats(&by_slot, &slot_mark, &a);
	assert_memory_equal(a.st, b.st, slots * sizeof(*a.st));
	gs_latency_mark_free(&slot_mark);
	gs_latency_mark_free(&log_mark);
	gs_latency_log_free(&by_slot);
	gs_latency_log_free(&by_log);
	g_free(want);
	g_free(a.st);
	g_free(b.st);
}

/* A run's shape (16 tasks, two kinds) with slots past the radix sort's
 * threshold (thousands of samples each), and slots of a few samples. */
static void test_modes_agree_few_slots(void **state)
{
	(void)state;
	check_modes_agree(16, 2, 200000, 1);
	check_modes_agree(3, 5, 40, 2);
	check_modes_agree(1, 1, 5000, 3);
}

/* Many owners, most slots short or empty (the quicksort path). */
static void test_modes_agree_many_slots(void **state)
{
	(void)state;
	check_modes_agree(GS_LATENCY_SLOTS_MAX / 2, 2, 30000, 4);
	check_modes_agree(5000, 2, 20000, 5);
}

/* No sample at all before the mark: every slot empty in both modes. */
static void test_modes_agree_empty(void **state)
{
	(void)state;
	check_modes_agree(4, 2, 0, 6);
}

static bool chooses_slots(uint32_t n_owners, uint32_t n_kinds)
{
	struct gs_latency_log log;
	bool per_slot;

	gs_latency_log_init(&log, n_owners, n_kinds);
	per_slot = log.per_slot;
	assert_true(per_slot == (log.slot != NULL));
	gs_latency_log_free(&log);
	return per_slot;
}

static void test_mode_at_bound(void **state)
{
	(void)state;
	assert_true(chooses_slots(GS_LATENCY_SLOTS_MAX - 1, 1));
	assert_true(chooses_slots(GS_LATENCY_SLOTS_MAX, 1));
	assert_false(chooses_slots(GS_LATENCY_SLOTS_MAX + 1, 1));
	/* two kinds, as a run's: 512 tasks are the last in slot mode */
	assert_true(chooses_slots(GS_LATENCY_SLOTS_MAX / 2 - 1, 2));
	assert_true(chooses_slots(GS_LATENCY_SLOTS_MAX / 2, 2));
	assert_false(chooses_slots(GS_LATENCY_SLOTS_MAX / 2 + 1, 2));
	/* slots counted in 64 bits: a product past 2^32 is not small */
	assert_false(chooses_slots(UINT32_MAX, 2));
	assert_true(chooses_slots(0, 2));
}

/* A log zeroed and never initialised is in log mode, as before the
 * slot mode existed (tests/test_latency.c's split relies on it). */
static void test_zeroed_log_is_log_mode(void **state)
{
	struct gs_latency_log log = { 0 };

	(void)state;
	gs_latency_log_add(&log, 7, 1, 42);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.n_parts, 1);
	assert_int_equal(log.part[0].first->e[0].owner, 7);
	assert_int_equal(log.part[0].first->e[0].ns, 42);
	gs_latency_log_free(&log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes_agree_few_slots),
		cmocka_unit_test(test_modes_agree_many_slots),
		cmocka_unit_test(test_modes_agree_empty),
		cmocka_unit_test(test_mode_at_bound),
		cmocka_unit_test(test_zeroed_log_is_log_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
