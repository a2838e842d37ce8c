/* Exact latency distributions (a task's round times, its jobs' waits).
 *
 * Every sample is kept and sorted once when the statistics are taken, so
 * the percentiles are exact order statistics of what happened, not
 * estimates. During a run the samples of all owners (tasks) and kinds go
 * into a log, 16 bytes each, written in sequence (one log per range of
 * 1,024 owners): one array per task would touch a cache line of its own
 * for every sample, which with thousands of tasks misses on nearly every
 * write. A run whose tasks complete N rounds and start M jobs keeps
 * 16 x (N + M) bytes (a million jobs: 16 MB), plus, while the figures
 * are collected, 8 bytes a sample of the largest range's. With
 * few owners (struct gs_latency_log: slot mode) an array per (owner,
 * kind) does not miss, and keeps 8 x (N + M) with nothing to group. The
 * statistics depend only on the multiset of samples, so they are the
 * same bytes whatever order the samples came in. */
#ifndef GS_LATENCY_H
#define GS_LATENCY_H

#include <stdbool.h>
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

/* The radix sort's second buffer, kept between the statistics of many
 * distributions (one allocation, not one per distribution). */
struct gs_latency_scratch {
	uint64_t *tmp;
	uint64_t cap;
};

void gs_latency_add(struct gs_latency *l, uint64_t ns);
/* Sorts the samples in place (adding more afterwards is allowed). */
void gs_latency_stats(struct gs_latency *l, struct gs_latency_stats *out);
/* The same, with the sort's buffer from and left in *scratch. */
void gs_latency_stats_scratch(struct gs_latency *l,
			      struct gs_latency_scratch *scratch,
			      struct gs_latency_stats *out);
void gs_latency_scratch_free(struct gs_latency_scratch *s);
/* Sorts n values in ascending order (a radix sort: O(n)). */
void gs_sort_u64(uint64_t *v, uint64_t n);
/* The nearest-rank percentile of n sorted samples, 0 < pct <= 100. */
uint64_t gs_latency_percentile(const uint64_t *sorted, uint64_t n,
			       uint32_t pct);
void gs_latency_free(struct gs_latency *l);

/* The run's log: (owner, kind, ns) in the order they happened. With few
 * (owner, kind) slots (at most GS_LATENCY_SLOTS_MAX) each slot's samples
 * go straight into an array of the slot's own instead, 8 bytes a sample
 * appended at its tail: the tails of that many slots stay in cache, and
 * the statistics then sort each slot in place with no grouping pass over
 * a log (at 16 tasks x 60 s: 3.4 M entries, 55 MB, read twice on each of
 * two threads and grouped into a fresh 27 MB array). */
struct gs_latency_entry {
	uint32_t owner, kind;
	uint64_t ns;
};

/* The most slots kept one array each: 512 owners of two kinds. Their
 * tails are 1,024 cache lines (64 KiB) and their headers 24 KiB, well
 * inside a core's L2 (512 KiB to 2 MiB on the machines this runs on),
 * where the log's one tail is one line; past a few thousand slots the
 * tails would leave L2 and every sample would miss, as the log's header
 * comment above says. */
#define GS_LATENCY_SLOTS_MAX 1024

/* Log mode keeps one log per range of GS_LATENCY_PART_OWNERS owners (a
 * part), each a list of blocks of GS_LATENCY_BLOCK_ENTRIES entries, in
 * the order its entries came. The statistics then take a part at a
 * time: its slots' counts (2,048 of them, 16 KiB) and its samples
 * grouped (at 65,536 tasks x 60 s about 55,000, 440 KiB) stay in cache,
 * and the group's buffer is used again for the next part, where one log
 * of the whole run had each of two threads read all of it (56 MB) and
 * scatter half of it over 14 MB of fresh pages. A run has at most 98
 * parts (the loader's 100,000 tasks), so the simulation's appends go to
 * as many tails, all in L1. Blocks, not arrays that double: a part's
 * entries are never copied, and its last block holds at most 16 KiB
 * unused. The last part also takes every owner past n_owners (ignored
 * by the statistics, as out of range). */
#define GS_LATENCY_PART_SHIFT 10
#define GS_LATENCY_PART_OWNERS (1u << GS_LATENCY_PART_SHIFT)
#define GS_LATENCY_BLOCK_ENTRIES 1024u

struct gs_latency_block {
	struct gs_latency_block *next;
	struct gs_latency_entry e[GS_LATENCY_BLOCK_ENTRIES];
};

struct gs_latency_part {
	struct gs_latency_block *first, *last;
	struct gs_latency_entry *next, *end; /* room left in last */
	uint64_t n;                          /* entries */
};

struct gs_latency_log {
	struct gs_latency_part *part; /* log mode: n_parts of them */
	uint32_t n_parts;
	uint64_t n;                   /* log mode: entries of every part */
	struct gs_latency *slot;      /* slot mode: n_owners x n_kinds */
	uint32_t n_owners, n_kinds;
	bool per_slot;                /* slot mode */
};

/* A log's length, and each part's or slot's, at one moment (the run's
 * end): the statistics count only the samples added before it. */
struct gs_latency_mark {
	uint64_t n;                   /* samples (log mode: entries) */
	uint64_t *slot_n;             /* slot mode: one per slot, else NULL */
	uint64_t *part_n;             /* log mode: one per part, else NULL */
	uint32_t n_parts;
};

/* An empty log for owners [0, n_owners) and kinds [0, n_kinds): slot
 * mode if there are at most GS_LATENCY_SLOTS_MAX slots, else log mode.
 * A log zeroed and never initialised is in log mode. */
void gs_latency_log_init(struct gs_latency_log *log, uint32_t n_owners,
			 uint32_t n_kinds);
/* The same with the mode given (tests compare the two). */
void gs_latency_log_init_mode(struct gs_latency_log *log, uint32_t n_owners,
			      uint32_t n_kinds, bool per_slot);
void gs_latency_log_add(struct gs_latency_log *log, uint32_t owner,
			uint32_t kind, uint64_t ns);
void gs_latency_log_mark(const struct gs_latency_log *log,
			 struct gs_latency_mark *mark);
void gs_latency_mark_free(struct gs_latency_mark *mark);
/* The statistics of each slot of owners [first, end) and kinds
 * [0, n_kinds), over the samples added before *mark, handed to put (owner
 * by owner, kinds in order). Entries of an owner or kind out of range are
 * ignored. Sorts slot mode's samples in place (adding more afterwards is
 * allowed); the log is kept. Parts of distinct owners may run at once on
 * distinct threads: in log mode each reads only the parts of its owners
 * (and shares one with the other where their owners meet). */
typedef void gs_latency_put_fn(void *ctx, uint32_t owner, uint32_t kind,
			       const struct gs_latency_stats *st);
void gs_latency_log_stats(const struct gs_latency_log *log,
			  const struct gs_latency_mark *mark, uint32_t n_kinds,
			  uint32_t first, uint32_t end, gs_latency_put_fn *put,
			  void *ctx);
/* What the statistics use again from one call to the next on a thread:
 * the sort's buffer and, in log mode, a part's grouped samples and its
 * slots' offsets (440 KiB a part at 65,536 tasks x 60 s, which a fresh
 * allocation per call would map and fault in again). Zeroed to begin. */
struct gs_latency_room {
	uint64_t *at, at_cap;
	uint64_t *v, v_cap;
	struct gs_latency_scratch scratch;
};
/* gs_latency_log_stats with the room given. */
void gs_latency_log_stats_in(const struct gs_latency_log *log,
			     const struct gs_latency_mark *mark,
			     uint32_t n_kinds, uint32_t first, uint32_t end,
			     struct gs_latency_room *room,
			     gs_latency_put_fn *put, void *ctx);
void gs_latency_room_free(struct gs_latency_room *room);
/* The owners of a unit of the statistics' work that threads can take in
 * turn: a part's in log mode (a part read by one thread only), or half
 * of them when there is one part (each half reads it, and the two
 * threads share its sorting); one in slot mode (at 16 tasks each has a
 * hundred thousand samples to sort). */
uint32_t gs_latency_log_unit(const struct gs_latency_log *log);
/* Each owner's samples of each kind into out[owner * n_kinds + kind]
 * (n_owners x n_kinds of them, empty on entry); the log is kept. Entries
 * of an owner or kind out of range are ignored. Log mode only. */
void gs_latency_log_split(const struct gs_latency_log *log,
			  uint32_t n_owners, uint32_t n_kinds,
			  struct gs_latency *out);
void gs_latency_log_free(struct gs_latency_log *log);

#endif
