/* The latency log's statistics in two parts on two threads that share
 * the counting pass (base/latency.h: gs_latency_log_stats counts each
 * part's slots over the whole log, so two parts read it four times).
 * Here each thread counts every slot over its half of the log, and then,
 * once both halves are counted, groups and sorts its own owners' samples
 * (one more read of the whole log): three reads instead of four, and
 * the figures are those of gs_latency_log_stats (the same samples of
 * each slot, in the log's order). Log mode only. */
#ifndef GS_LATENCY_HALVES_H
#define GS_LATENCY_HALVES_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/latency.h"

struct gs_latency_halves {
	const struct gs_latency_log *log;
	const struct gs_latency_mark *mark;
	uint32_t n_owners, n_kinds;
	uint32_t split;          /* part 0: owners [0, split), 1: the rest */
	uint32_t *count[2];      /* per half of the log, every slot's count */
	GMutex lock;
	GCond counted_cond;
	unsigned counted;        /* halves counted so far */
};

/* Whether the halves can count this log (its counts fit 32 bits). */
bool gs_latency_halves_fit(const struct gs_latency_log *log,
			   const struct gs_latency_mark *mark);
void gs_latency_halves_init(struct gs_latency_halves *h,
			    const struct gs_latency_log *log,
			    const struct gs_latency_mark *mark,
			    uint32_t n_owners, uint32_t n_kinds,
			    uint32_t split);
/* Part `part` (0 or 1) on one thread, the other on another: counts its
 * half of the log (as early as it can: the other part waits for it),
 * then ... */
void gs_latency_halves_count(struct gs_latency_halves *h, unsigned part);
/* ... waits for the other half's count and hands its owners' statistics
 * to put, as gs_latency_log_stats does. */
void gs_latency_halves_stats(struct gs_latency_halves *h, unsigned part,
			     gs_latency_put_fn *put, void *ctx);
/* After both parts are done. */
void gs_latency_halves_free(struct gs_latency_halves *h);

#endif
