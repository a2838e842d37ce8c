/* series.csv written during the run by a stream (sim/results/
 * series_stream.c) against the writer at the end over the compact series
 * (gs_results_fill_series_csv): the same bytes, with and without the
 * accounted column, over blocks of a row, of a sample and of many, with
 * samples split between blocks; rewritten when blocks were written
 * before the policy first reported accounted time; the series handed
 * back is the rows taken; the blocks in use stay at most
 * gs_series_stream_max_blocks() however far the recorder runs ahead,
 * and a whole sample's blocks and one more are had without waiting;
 * and a file that cannot be created is an error at the end, with the
 * series made all the same. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/results/series_stream.h"
#include "tests/support/fill_text.h"

#define N_TASKS 3
/* blocks_off of a run whose policy never reports accounted time */
#define NEVER UINT32_MAX

static const char *const names[N_TASKS] = { "a", "b,\"quoted\"", "c#1" };

/* Row of task i in sample k: figures that differ from task to task and
 * grow unevenly, with idle stretches (the series' plain rows). */
static void put_row(struct gs_series_block *b, uint32_t k, uint32_t i)
{
	uint64_t busy = k % 4 == 3 ? k - 1 : k;
	uint32_t r = b->n_rows++;

	b->t[r] = (gs_time_t)k * 250000;
	b->rows[r] = (struct gs_series_base){
		.gpu_time_ns = busy * (1000 + 17 * i),
		.accounted_gpu_time_ns = busy * (900 + i),
		.vtime_ns = (uint64_t)k * k * (i + 1),
	};
}

/* A recorder's run: n_samples samples in blocks of per_block rows (a
 * sample split between blocks when per_block is not a multiple of
 * N_TASKS), the accounted column off for the first blocks_off blocks. */
static struct gs_series *record(struct gs_series_sink *sink,
				uint32_t n_samples, uint32_t per_block,
				uint32_t blocks_off, GHashTable *seen)
{
	struct gs_series_block *b = NULL;
	uint32_t k, i, handed = 0;

	for (k = 0; k < n_samples; k++)
		for (i = 0; i < N_TASKS; i++) {
			if (!b || b->n_rows == b->cap) {
				if (b) {
					b->accounts = handed++ >= blocks_off;
					sink->take(sink, b);
				}
				b = sink->block(sink, N_TASKS, per_block);
				b->first = i;
				b->names = names;
				if (seen)
					g_hash_table_add(seen, b);
			}
			put_row(b, k, i);
		}
	b->accounts = handed >= blocks_off;
	sink->take(sink, b);
	return sink->finish(sink);
}

/* Results of N_TASKS tasks over series, has_accounted as given. */
static void results_of(struct gs_results *r, struct gs_series *series,
		       bool accounted)
{
	uint32_t i;

	gs_results_init(r);
	gs_series_free(r->series);
	r->series = series;
	r->n_tasks = N_TASKS;
	r->tasks = g_new0(struct gs_task_result, N_TASKS);
	for (i = 0; i < N_TASKS; i++) {
		r->tasks[i].name = g_strdup(names[i]);
		r->tasks[i].has_accounted = accounted;
	}
}

/* dir and its series.csv removed */
static void remove_dir(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "series.csv", NULL);

	g_unlink(path);
	assert_int_equal(g_rmdir(dir), 0);
}

static char *file_text(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "series.csv", NULL);
	char *text = NULL;

	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	return text;
}

/* The stream's file after a run as record() makes it, against the
 * writer at the end over the same rows. */
static void check_streamed(uint32_t n_samples, uint32_t per_block,
			   uint32_t blocks_off, bool accounted)
{
	g_autofree char *dir = g_dir_make_tmp("series-XXXXXX", NULL);
	struct gs_series_stream *st = gs_series_stream_new(dir);
	struct gs_series_sink *sink = gs_series_stream_sink(st);
	g_autoptr(GError) err = NULL;
	g_autofree char *got = NULL, *want = NULL;
	struct gs_results r;

	assert_non_null(st);
	results_of(&r, record(sink, n_samples, per_block, blocks_off, NULL),
		   accounted);
	assert_int_equal(gs_series_rows(r.series),
			 (uint64_t)n_samples * N_TASKS);
	r.series_sink = sink;
	assert_true(sink->end(&r, &err));
	got = file_text(dir);
	want = fill_text(gs_results_fill_series_csv, &r);
	assert_string_equal(got, want);
	gs_series_stream_free(st);
	gs_results_clear(&r);
	remove_dir(dir);
}

static void test_same_bytes(void **state)
{
	(void)state;
	check_streamed(1, 1, NEVER, false);  /* a block per row */
	check_streamed(40, 3, NEVER, false); /* a block per sample */
	check_streamed(40, 7, NEVER, false); /* samples split, the last
					      * block partial */
	check_streamed(40, 200, 0, true);    /* one block */
	check_streamed(40, 7, 0, true);
}

/* The policy reported accounted time only after two blocks were
 * written: their rows had the column empty, the results have it. */
static void test_accounted_late(void **state)
{
	(void)state;
	check_streamed(40, 7, 2, true);
	check_streamed(40, 1, 100, true);
}

/* A recorder far ahead of the thread waits for a block rather than
 * making more: 1,500 blocks through at most the bound's three. */
static void test_blocks_bounded(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("series-XXXXXX", NULL);
	struct gs_series_stream *st = gs_series_stream_new(dir);
	g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);
	struct gs_series *s;

	(void)state;
	s = record(gs_series_stream_sink(st), 1000, 2, 0, seen);
	assert_true(g_hash_table_size(seen) <=
		    gs_series_stream_max_blocks(N_TASKS, 2));
	assert_int_equal(gs_series_rows(s), 1000 * N_TASKS);
	gs_series_free(s);
	gs_series_stream_free(st);
	remove_dir(dir);
}

/* The bound: a whole sample's blocks and one more, at least three. */
static void test_max_blocks(void **state)
{
	(void)state;
	assert_int_equal(gs_series_stream_max_blocks(3, 2), 3);
	assert_int_equal(gs_series_stream_max_blocks(1, 16384), 3);
	assert_int_equal(gs_series_stream_max_blocks(16384, 16384), 3);
	assert_int_equal(gs_series_stream_max_blocks(16385, 16384), 3);
	assert_int_equal(gs_series_stream_max_blocks(65536, 16384), 5);
	assert_int_equal(gs_series_stream_max_blocks(65537, 16384), 6);
	assert_int_equal(gs_series_stream_max_blocks(40, 1), 41);
}

/* A sample of many blocks (40 tasks in blocks of 4 rows: ten) is taken
 * whole, and the next block had, without the thread handing a block
 * back: none is handed to it here. With fewer blocks than that, the
 * recorder waited for the thread to write the sample before each sample
 * (at 65,536 tasks every sample of the run); here block() would never
 * return, which the alarm turns into a failure. */
static void test_sample_without_waiting(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("series-XXXXXX", NULL);
	struct gs_series_stream *st = gs_series_stream_new(dir);
	struct gs_series_sink *sink = gs_series_stream_sink(st);
	uint32_t n = gs_series_stream_max_blocks(40, 4), k;
	struct gs_series_block **b = g_new0(struct gs_series_block *, n);
	g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);
	const char *many[40];

	(void)state;
	for (k = 0; k < 40; k++)
		many[k] = names[k % N_TASKS];
	assert_int_equal(n, 11);
	alarm(20);
	for (k = 0; k < n; k++) {
		b[k] = sink->block(sink, 40, 4);
		g_hash_table_add(seen, b[k]);
	}
	alarm(0);
	assert_int_equal(g_hash_table_size(seen), n);
	for (k = 0; k < n; k++) {
		b[k]->names = many;
		b[k]->first = 0;
		b[k]->n_rows = 0;
		sink->take(sink, b[k]);
	}
	gs_series_free(sink->finish(sink));
	gs_series_stream_free(st);
	g_free(b);
	remove_dir(dir);
}

/* The folder gone before the thread creates its file: end() says so,
 * naming the file, and the series is whole. */
static void test_cannot_create(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("series-XXXXXX", NULL);
	g_autofree char *gone = g_build_filename(dir, "gone", NULL);
	struct gs_series_stream *st = gs_series_stream_new(gone);
	struct gs_series_sink *sink = gs_series_stream_sink(st);
	g_autoptr(GError) err = NULL;
	struct gs_results r;

	(void)state;
	results_of(&r, record(sink, 10, 3, NEVER, NULL), false);
	assert_int_equal(gs_series_rows(r.series), 10 * N_TASKS);
	r.series_sink = sink;
	assert_false(sink->end(&r, &err));
	assert_non_null(err);
	assert_non_null(strstr(err->message, "series.csv"));
	gs_series_stream_free(st);
	gs_results_clear(&r);
	remove_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_bytes),
		cmocka_unit_test(test_accounted_late),
		cmocka_unit_test(test_blocks_bounded),
		cmocka_unit_test(test_max_blocks),
		cmocka_unit_test(test_sample_without_waiting),
		cmocka_unit_test(test_cannot_create),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
