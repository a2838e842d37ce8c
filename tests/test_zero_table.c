/* Zeroed tables mapped in as they are touched (base/zero_table.h), and a
 * GPU's channel table made of one: a run that opens a channel or two of
 * a GPU's 4,096 has the slots it touched in memory, not the table.
 * Zeroed arrays written when made, and channel slots whose first touch
 * is a write: a read first would map the shared zero page, and the write
 * after it would fault again and flush the page's translation on every
 * core the process runs on (counted here as page faults). */
#define _DEFAULT_SOURCE /* mincore */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>

#include "base/zero_table.h"
#include "gpu_model/gpu.h"
#include "sim/host/sim_internal.h"

/* Pages of [p, p + bytes) in memory now (mincore). */
static size_t resident_pages(const void *p, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)p & ~(uintptr_t)(page - 1);
	size_t len = (uintptr_t)p + bytes - start, n = (len + page - 1) / page;
	g_autofree unsigned char *vec = g_malloc(n);
	size_t i, in = 0;

	assert_int_equal(mincore((void *)start, len, vec), 0);
	for (i = 0; i < n; i++)
		in += vec[i] & 1;
	return in;
}

/* Page faults this process has taken so far (minor: no disk). */
static long minor_faults(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_minflt;
}

/* A large block malloc'd, written and freed: glibc's threshold for
 * mapping a block itself rises past it, so that later blocks below it
 * come from the heap (cleared whole by calloc), as in a process that has
 * run a simulation before. */
static void raise_malloc_threshold(void)
{
	size_t bytes = 16u << 20;
	char *big = malloc(bytes);

	assert_non_null(big);
	memset(big, 1, bytes);
	free(big);
}

static void test_table_untouched_is_not_in_memory(void **state)
{
	size_t bytes = 1u << 20;
	unsigned char *t;
	size_t i;
	(void)state;

	raise_malloc_threshold();
	t = gs_zero_table_new(bytes);
	assert_int_equal(resident_pages(t, bytes), 0);
	assert_int_equal(gs_zero_table_resident_bytes(), 0);
	t[0] = 7;
	t[bytes - 1] = 9;
	assert_int_equal(resident_pages(t, bytes), 2);
	/* what `gpusim bench` counts of it */
	assert_int_equal(gs_zero_table_resident_bytes(),
			 2 * (size_t)sysconf(_SC_PAGESIZE));
	for (i = 1; i < bytes - 1; i++)
		if (t[i])
			fail_msg("byte %zu is %u, not 0", i, t[i]);
	assert_int_equal(t[0], 7);
	assert_int_equal(t[bytes - 1], 9);
	gs_zero_table_free(t, bytes);
	assert_int_equal(gs_zero_table_resident_bytes(), 0);
}

static void test_small_table_is_zeroed(void **state)
{
	size_t sizes[] = { 0, 1, 100, 4096, 65535, 65536, 65537 }, k, i;
	(void)state;

	for (k = 0; k < G_N_ELEMENTS(sizes); k++) {
		unsigned char *t = gs_zero_table_new(sizes[k]);

		assert_non_null(t);
		for (i = 0; i < sizes[k]; i++)
			assert_int_equal(t[i], 0);
		if (sizes[k])
			t[sizes[k] - 1] = 1;
		gs_zero_table_free(t, sizes[k]);
	}
	gs_zero_table_free(NULL, 1u << 20);
}

/* A new GPU of the kepler preset in a process whose heap has large free
 * blocks: its channel table is not in memory until channels open, and
 * opening one brings in the pages of its slot only. */
static void test_gpu_channel_table_in_memory_as_used(void **state)
{
	struct gs_gpu_config cfg;
	struct gs_evq q;
	struct gs_gpu *gpu;
	struct gs_channel *ch;
	size_t bytes;
	(void)state;

	assert_int_equal(gs_gpu_preset("kepler", &cfg), 0);
	assert_true(cfg.max_channels >= 4096);
	raise_malloc_threshold();
	gs_evq_init(&q);
	gpu = gs_gpu_new(&cfg, 0, &q, NULL);
	bytes = sizeof(struct gs_channel) * cfg.max_channels;
	assert_int_equal(resident_pages(gpu->channels, bytes), 0);
	ch = gs_gpu_channel_open(gpu, 0, NULL);
	assert_non_null(ch);
	assert_int_equal(ch->id, 0);
	assert_in_range(resident_pages(gpu->channels, bytes), 1, 2);
	gs_gpu_free(gpu);
	gs_evq_destroy(&q);
}

/* The whole pages of [p, p + bytes) kept to small pages. */
static void madvise_no_huge_pages(void *p, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)(page - 1);

	assert_int_equal(madvise((void *)start, end - start, MADV_NOHUGEPAGE),
			 0);
}

/* Reads then writes a byte in each page of p, as x += y does: faults. */
static long faults_reading_then_writing(volatile unsigned char *p,
					size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;
	long before = minor_faults();

	for (i = 0; i < bytes; i += page)
		p[i] = (unsigned char)(p[i] + 1);
	return minor_faults() - before;
}

/* An array from gs_zeroed_written is zero and in memory, its pages
 * writable: reading then writing each takes no fault. Calloc's block of
 * the same size (a mapping of its own, above malloc's threshold) takes
 * one or two a page, which is what the function is for. */
static void test_zeroed_written_takes_no_fault_in_use(void **state)
{
	/* above the threshold raise_malloc_threshold() may have left */
	size_t bytes = 20u << 20, page = (size_t)sysconf(_SC_PAGESIZE), i;
	unsigned char *w = gs_zeroed_written(bytes);
	unsigned char *c = g_malloc0(bytes);
	(void)state;

	for (i = 0; i < bytes; i++)
		if (w[i])
			fail_msg("byte %zu is %u, not 0", i, w[i]);
	/* every page (the block, not page-aligned, spans one more) */
	assert_true(resident_pages(w, bytes) >= bytes / page);
	assert_true(faults_reading_then_writing(w, bytes) < 16);
	/* a page at a time, as the machine's setting may be to back such
	 * a block with huge pages (one fault for 512) */
	madvise_no_huge_pages(c, bytes);
	assert_true(faults_reading_then_writing(c, bytes) >=
		    (long)(bytes / page / 2));
	g_free(w);
	g_free(c);
	w = gs_zeroed_written(0);
	assert_non_null(w);
	g_free(w);
}

/* Opening every channel of a new GPU touches each page of its table
 * once, by a write: one fault a page, not a read fault and then a write
 * fault (with a flush) for a slot checked before it is cleared. Closed
 * and reopened, the slots are checked and used again. */
static void test_fresh_channel_slots_are_written_first(void **state)
{
	struct gs_gpu_config cfg;
	struct gs_evq q;
	struct gs_gpu *gpu;
	struct gs_channel **ch;
	size_t bytes, pages, page = (size_t)sysconf(_SC_PAGESIZE);
	long before, faults;
	uint32_t i, n;
	(void)state;

	assert_int_equal(gs_gpu_preset("kepler", &cfg), 0);
	n = cfg.max_channels;
	ch = g_new(struct gs_channel *, n);
	gs_evq_init(&q);
	gpu = gs_gpu_new(&cfg, 0, &q, NULL);
	bytes = sizeof(struct gs_channel) * n;
	pages = (bytes + page - 1) / page;
	before = minor_faults();
	for (i = 0; i < n; i++) {
		ch[i] = gs_gpu_channel_open(gpu, 0, NULL);
		assert_non_null(ch[i]);
		assert_int_equal(ch[i]->id, i);
	}
	faults = minor_faults() - before;
	assert_true(faults <= (long)(pages + pages / 8 + 2));
	assert_null(gs_gpu_channel_open(gpu, 0, NULL)); /* all in use */
	gs_gpu_channel_close(ch[7]);
	ch[7] = gs_gpu_channel_open(gpu, 1, NULL);
	assert_non_null(ch[7]);
	assert_int_equal(ch[7]->id, 7);
	assert_int_equal(ch[7]->group, 1);
	gs_gpu_free(gpu);
	gs_evq_destroy(&q);
	g_free(ch);
}

/* Whether this kernel populates a range on request (Linux 5.14 on): a
 * mapping of its own, two pages, asked for. */
static bool kernel_populates(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool ok;

	assert_true(p != MAP_FAILED);
	ok = gs_populate_for_writing(p, 2 * page);
	assert_int_equal(resident_pages(p, 2 * page), ok ? 2 : 0);
	munmap(p, 2 * page);
	return ok;
}

/* The faults writing bytes may take where the block itself takes none:
 * a sanitizer's build reads its shadow of what is written (a byte for
 * eight), whose pages fault on that first read; a few besides. Without
 * the block populated a write takes one a page, eight times as many. */
static long shadow_slack(size_t bytes)
{
	return (long)(bytes / (size_t)sysconf(_SC_PAGESIZE) / 8 + 4);
}

/* Writes a byte in each page of p: the faults that takes. */
static long faults_writing(volatile unsigned char *p, size_t bytes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;
	long before = minor_faults();

	for (i = 0; i < bytes; i += page)
		p[i] = 1;
	return minor_faults() - before;
}

/* The recorder's fresh chunk array (first in this process, so that
 * malloc maps its 512 KB itself, untouched): empty, with room for a
 * chunk, and in memory before it is written, so filling it takes no
 * page fault a page. */
static void test_fresh_chunk_array_is_in_memory(void **state)
{
	size_t bytes = (size_t)GS_SPAN_CHUNK * sizeof(struct gs_span);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	GArray *a = gs_record_chunk_array_new(sizeof(struct gs_span));
	(void)state;

	assert_int_equal(a->len, 0);
	if (kernel_populates()) {
		/* the whole pages inside it */
		assert_true(resident_pages(a->data, bytes) >= bytes / page - 1);
		assert_true(faults_writing((unsigned char *)a->data, bytes) <
			    shadow_slack(bytes));
	}
	g_array_unref(a);
}

/* A populated block keeps its bytes, and writing it then takes no page
 * fault; a block of no whole page, or none, is refused. */
static void test_populated_block_takes_no_fault(void **state)
{
	size_t bytes = 20u << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *b = g_malloc(bytes);
	(void)state;

	madvise_no_huge_pages(b, bytes);
	memset(b, 0xab, 100);
	memset(b + bytes - 100, 0xcd, 100);
	if (gs_populate_for_writing(b, bytes)) {
		assert_true(resident_pages(b, bytes) >= bytes / page);
		assert_true(faults_writing(b + page, bytes - 2 * page) <
			    shadow_slack(bytes));
	} else {
		assert_false(kernel_populates());
	}
	assert_int_equal(b[0], 0xab);
	assert_int_equal(b[99], 0xab);
	assert_int_equal(b[bytes - 100], 0xcd);
	assert_int_equal(b[bytes - 1], 0xcd);
	g_free(b);
	assert_false(gs_populate_for_writing(NULL, bytes));
	b = g_malloc(page);
	/* page - 2 bytes hold no whole page, wherever they start */
	assert_false(gs_populate_for_writing(b + 1, page - 2));
	g_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* first: before any other test frees a large block */
		cmocka_unit_test(test_fresh_chunk_array_is_in_memory),
		cmocka_unit_test(test_table_untouched_is_not_in_memory),
		cmocka_unit_test(test_small_table_is_zeroed),
		cmocka_unit_test(test_gpu_channel_table_in_memory_as_used),
		cmocka_unit_test(test_zeroed_written_takes_no_fault_in_use),
		cmocka_unit_test(test_fresh_channel_slots_are_written_first),
		cmocka_unit_test(test_populated_block_takes_no_fault),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
