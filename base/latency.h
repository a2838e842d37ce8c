/* Exact latency distributions (a task's round times, its jobs' waits).
 *
 * Every sample is kept, 8 bytes each, and sorted once when the
 * statistics are taken, so the percentiles are exact order statistics of
 * what happened, not estimates: a task that completes N rounds and
 * submits M jobs costs 8 x (N + M) bytes until the run's figures are
 * collected (a million jobs: 8 MB). The statistics depend only on the
 * multiset of samples, so they are the same bytes whatever order the
 * samples came in. */
#ifndef GS_LATENCY_H
#define GS_LATENCY_H

#include <stdint.h>

struct gs_latency {
	uint64_t *v;
	uint64_t n, cap;
};

/* n = 0: every other field is 0 and mean and std are NAN. Percentiles
 * are nearest-rank: pP is the smallest sample with at least P% of the
 * samples at or below it (the ceil(P n / 100)-th smallest), so each is a
 * sample that occurred. std is the population standard deviation
 * (divided by n): the spread of the samples themselves. */
struct gs_latency_stats {
	uint64_t n;
	uint64_t min, p50, p90, p99, max;
	double mean, std;
};

void gs_latency_add(struct gs_latency *l, uint64_t ns);
/* Sorts the samples in place (adding more afterwards is allowed). */
void gs_latency_stats(struct gs_latency *l, struct gs_latency_stats *out);
/* The nearest-rank percentile of n sorted samples, 0 < pct <= 100. */
uint64_t gs_latency_percentile(const uint64_t *sorted, uint64_t n,
			       uint32_t pct);
void gs_latency_free(struct gs_latency *l);

#endif
