/* See zero_table.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, mincore */
#include "base/zero_table.h"

#include <glib.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Below this a table is a few pages at most, and malloc's. */
#define ZERO_TABLE_MAPPED_BYTES (64u * 1024u)

/* The mapped tables alive (address -> bytes), for what they hold in
 * memory: tables are made and freed by any thread (a GPU per
 * simulation, and standalone runs go on beside the scenario's). */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static GHashTable *live;

void *gs_zero_table_new(size_t bytes)
{
	void *p;

	if (bytes < ZERO_TABLE_MAPPED_BYTES)
		return g_malloc0(bytes ? bytes : 1);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		g_error("%s: failed to map %zu bytes", G_STRLOC, bytes);
	pthread_mutex_lock(&live_lock);
	if (!live)
		live = g_hash_table_new(NULL, NULL);
	g_hash_table_insert(live, p, GSIZE_TO_POINTER(bytes));
	pthread_mutex_unlock(&live_lock);
	return p;
}

void gs_zero_table_free(void *table, size_t bytes)
{
	if (!table)
		return;
	if (bytes < ZERO_TABLE_MAPPED_BYTES) {
		g_free(table);
		return;
	}
	pthread_mutex_lock(&live_lock);
	g_hash_table_remove(live, table);
	pthread_mutex_unlock(&live_lock);
	munmap(table, bytes);
}

/* Pages of [p, p + bytes) in memory; p page-aligned (a mapping's). */
static size_t resident(void *p, size_t bytes, size_t page)
{
	size_t n = (bytes + page - 1) / page, i, in = 0;
	g_autofree unsigned char *vec = g_malloc(n);

	if (mincore(p, bytes, vec) != 0)
		return 0;
	for (i = 0; i < n; i++)
		in += vec[i] & 1;
	return in;
}

size_t gs_zero_table_resident_bytes(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), total = 0;
	GHashTableIter it;
	gpointer p, bytes;

	pthread_mutex_lock(&live_lock);
	if (live) {
		g_hash_table_iter_init(&it, live);
		while (g_hash_table_iter_next(&it, &p, &bytes))
			total += resident(p, GPOINTER_TO_SIZE(bytes), page) *
				 page;
	}
	pthread_mutex_unlock(&live_lock);
	return total;
}

void *gs_zeroed_written(size_t bytes)
{
	/* g_malloc, opaque to the compiler, which could otherwise fold a
	 * malloc and a memset of zeros into the calloc this avoids */
	void *p = g_malloc(bytes ? bytes : 1);

	memset(p, 0, bytes);
	return p;
}

/* Linux's value, for C libraries whose headers predate it. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

bool gs_populate_for_writing(void *p, size_t bytes)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t first = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + bytes) & ~(page - 1);

	/* the edges' pages may hold other blocks, or lie past the mapping:
	 * only whole pages of the block's own are asked for */
	if (!p || end <= first)
		return false;
	return madvise((void *)first, end - first, MADV_POPULATE_WRITE) == 0;
}
