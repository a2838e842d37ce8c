/* series.csv's rows as text, a chunk of them at a time: what the writer
 * at the end (gs_results_fill_series_csv, from the compact series) and
 * the stream during the run (series_stream.h, from blocks of samples)
 * both put, so their bytes are the same.
 *
 *   struct gs_series_csv c;
 *
 *   fputs(GS_SERIES_CSV_HEADER, f);
 *   gs_series_csv_init(&c, names, n_tasks);
 *   for each row p: gs_series_csv_row(&c, &p, accounted, f);
 *   gs_series_csv_flush(&c, f);
 *   gs_series_csv_clear(&c);
 */
#ifndef GS_SERIES_CSV_H
#define GS_SERIES_CSV_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/series.h"
#include "sim/results/decimal_digits.h"

#define GS_SERIES_CSV_HEADER \
	"time_ns,task,gpu_time_ns,accounted_gpu_time_ns,vtime_ns\n"

/* A sample's time as text: every task's row of a sample has the same
 * time, so it is formatted once per sample, not once per row. */
struct gs_series_time_text {
	gs_time_t t;
	size_t len;
	char s[GS_U64_DIGITS];
};

struct gs_series_csv {
	GString *names;   /* every task's cell, one after another */
	size_t *name_at;  /* task i's from name_at[i] to name_at[i + 1] */
	uint32_t n_tasks;
	struct gs_series_time_text tt;
	char *buf;        /* rows not yet written, len of cap bytes */
	size_t cap, len;
};

/* Rows naming tasks 0 .. n_tasks - 1, whose names are names[]. */
void gs_series_csv_init(struct gs_series_csv *c, const char *const *names,
			uint32_t n_tasks);
/* Row p (p->task < n_tasks), its accounted cell empty unless accounted;
 * a full chunk is written to f first (one fwrite: f has no buffer). */
void gs_series_csv_row(struct gs_series_csv *c,
		       const struct gs_series_point *p, bool accounted,
		       FILE *f);
/* What is gathered, written to f. */
void gs_series_csv_flush(struct gs_series_csv *c, FILE *f);
void gs_series_csv_clear(struct gs_series_csv *c);

#endif
