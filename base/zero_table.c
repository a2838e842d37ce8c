/* See zero_table.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "base/zero_table.h"

#include <glib.h>
#include <sys/mman.h>

/* Below this a table is a few pages at most, and malloc's. */
#define ZERO_TABLE_MAPPED_BYTES (64u * 1024u)

void *gs_zero_table_new(size_t bytes)
{
	void *p;

	if (bytes < ZERO_TABLE_MAPPED_BYTES)
		return g_malloc0(bytes ? bytes : 1);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		g_error("%s: failed to map %zu bytes", G_STRLOC, bytes);
	return p;
}

void gs_zero_table_free(void *table, size_t bytes)
{
	if (!table)
		return;
	if (bytes < ZERO_TABLE_MAPPED_BYTES)
		g_free(table);
	else
		munmap(table, bytes);
}
