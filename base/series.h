/* The rows of series.csv, kept compact during a run.
 *
 * A run samples every task at every sample time (up to two million rows,
 * sim/run/sim.c). Held as 40-byte structs they were the largest item of
 * a run's peak memory at 65,536 tasks (issue 20). Here a row is told from
 * the previous row and its task's previous row: the time from the
 * previous row's (0 within a sample), the task from the previous row's
 * (1 within a sample), and each cumulative figure from the same task's
 * previous row (what it gained since the last sample; 0 for an idle
 * task). Differences wrap modulo 2^64 and are zigzag-coded LEB128
 * varints, so any sequence of rows, in any order, reads back exactly.
 *
 * A row whose differences are all the usual ones (same time, next task,
 * nothing gained: an idle task within a sample) is "plain"; consecutive
 * plain rows are stored as one count, since in a run of many tasks on
 * one GPU most tasks are idle in most samples (at 65,536 throttles 99%
 * of the rows). Every other row is a header byte, saying which of its
 * five differences are not the usual one, and those differences. A run
 * of plain rows still being appended to is held as a count in the
 * struct, so appending never rewrites bytes.
 *
 *   struct gs_series_iter it;
 *   struct gs_series_point p;
 *
 *   gs_series_iter_init(&it, s);
 *   while (gs_series_next(&it, &p))
 *           use(&p);
 *   gs_series_iter_clear(&it);
 */
#ifndef GS_SERIES_H
#define GS_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/event.h"

/* One row of series.csv: cumulative figures of one task at time t. */
struct gs_series_point {
	gs_time_t t;
	uint32_t task;
	uint64_t gpu_time_ns;
	uint64_t accounted_gpu_time_ns;
	uint64_t vtime_ns;
};

/* A task's figures of its previous row: what the next differs from. */
struct gs_series_base {
	uint64_t gpu_time_ns, accounted_gpu_time_ns, vtime_ns;
};

/* What the next row is told from: the same on writing and reading. */
struct gs_series_state {
	struct gs_series_point last; /* the previous row */
	struct gs_series_base *base; /* per task, n_base of them */
	uint32_t n_base;
	struct gs_series_base whole; /* zeros, for tasks beyond the table */
};

struct gs_series {
	uint8_t *bytes;
	size_t len, cap;
	uint64_t rows;
	uint64_t plain_tail; /* plain rows after the last byte */
	bool w_dropped;      /* w's table freed (gs_series_end_appending) */
	struct gs_series_state w;
};

/* Tasks at or above this index are stored whole, not as differences, so
 * a stray index costs no table of that size (the loader takes at most
 * 100,000 tasks). */
#define GS_SERIES_BASE_TASKS (1u << 20)

struct gs_series *gs_series_new(void);
void gs_series_free(struct gs_series *s);

void gs_series_append(struct gs_series *s, const struct gs_series_point *p);
/* Rows appended so far. */
uint64_t gs_series_rows(const struct gs_series *s);
/* The row appended last; false when there is none. */
bool gs_series_last(const struct gs_series *s, struct gs_series_point *out);
/* Bytes the rows take (a bench and test figure). */
size_t gs_series_bytes(const struct gs_series *s);

/* The rows are complete for now: the per-task table appending needs (24
 * bytes a task, 1.5 MB at 65,536 tasks, at the run's peak) is freed. An
 * append after it rebuilds the table by reading the rows once. */
void gs_series_end_appending(struct gs_series *s);

/* Rows of series.csv in order, as a recorder takes them: row r is of
 * task (first + r) mod n_tasks, in the sample taken at t[r]; a sample's
 * rows may go on in the next block. A block is one allocation (g_free()
 * frees it), so that whoever ends up holding it can free it; blocks
 * carry the rows from the simulation to a thread that appends them and
 * writes series.csv (sim/results/series_stream.h). */
struct gs_series_block {
	uint32_t n_tasks;        /* tasks in a sample */
	uint32_t first;          /* the task of row 0 */
	uint32_t n_rows, cap;    /* rows held, and room for */
	bool accounts;           /* accounted_gpu_time_ns is a column */
	const char *const *names; /* the tasks', for whoever writes them */
	gs_time_t *t;
	struct gs_series_base *rows;
};
/* Row r of b, of task `task` (the caller counts the tasks from b->first,
 * back to 0 after the last), as a series point. */
static inline struct gs_series_point
gs_series_block_point(const struct gs_series_block *b, uint32_t r,
		      uint32_t task)
{
	const struct gs_series_base *row = &b->rows[r];

	return (struct gs_series_point){
		.t = b->t[r],
		.task = task,
		.gpu_time_ns = row->gpu_time_ns,
		.accounted_gpu_time_ns = row->accounted_gpu_time_ns,
		.vtime_ns = row->vtime_ns,
	};
}
/* An empty block for samples of n_tasks tasks with room for cap rows
 * (at least 1), its first row of task 0. */
struct gs_series_block *gs_series_block_new(uint32_t n_tasks, uint32_t cap);
/* The block's rows appended to s, in order. */
void gs_series_append_block(struct gs_series *s,
			    const struct gs_series_block *b);
/* Appends the rows of *from to *to and leaves *from empty (by swapping
 * the two when *to has none). */
void gs_series_move(struct gs_series **to, struct gs_series **from);

/* Reads the rows in the order they were appended; s must not change
 * while an iterator reads it. */
struct gs_series_iter {
	const struct gs_series *s;
	size_t pos;
	uint64_t plain_left; /* plain rows left of the run being read */
	bool tail_read;      /* the series' plain_tail was taken */
	struct gs_series_state r;
};

void gs_series_iter_init(struct gs_series_iter *it,
			 const struct gs_series *s);
bool gs_series_next(struct gs_series_iter *it, struct gs_series_point *out);
void gs_series_iter_clear(struct gs_series_iter *it);

#endif
