/* What the tests of the latency log's statistics (test_latency_slots.c,
 * test_latency_parts.c) share: a table of every slot's figures that
 * gs_latency_log_stats's put hook fills, checking the slot is in range.
 * Include after <cmocka.h>. */
#ifndef GS_TESTS_LATENCY_TABLE_H
#define GS_TESTS_LATENCY_TABLE_H

#include <stdint.h>

#include "base/latency.h"

/* n_owners x n_kinds figures, and how many the hook put. */
struct table {
	struct gs_latency_stats *st;
	uint32_t n_owners, n_kinds;
	uint64_t puts;
};

static inline void put_stats(void *ctx, uint32_t owner, uint32_t kind,
			     const struct gs_latency_stats *st)
{
	struct table *t = ctx;

	assert_true(owner < t->n_owners && kind < t->n_kinds);
	t->st[(uint64_t)owner * t->n_kinds + kind] = *st;
	t->puts++;
}

#endif
