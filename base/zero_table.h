/* Zeroed memory and the page faults it costs. Tables of zeroed slots of
 * which a run may touch only a few (a GPU's channel slots, 4,096 on the
 * presets, about 900 KB, of which a task alone opens one or two) are
 * mapped in as they are touched; arrays a run uses whole but reads
 * before it writes are written once when made. */
#ifndef GS_ZERO_TABLE_H
#define GS_ZERO_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/* bytes of zeros. From a large size on, a mapping of its own, whose
 * pages the kernel provides (zeroed) as they are first touched: calloc
 * would give the same only while glibc maps such a block itself, and it
 * stops doing so once a larger block has been freed (its mapping
 * threshold follows the largest freed block, up to 32 MB), after which
 * the block comes from the heap and is cleared whole, every page of it
 * touched. On a thread other than the main one the heap's freed top is
 * also handed back to the kernel, so the next table's clearing faults it
 * in again: the standalone runs of a four-GPU node spent more time in
 * the kernel than in the simulation. Aborts when out of memory, as
 * g_malloc does. */
void *gs_zero_table_new(size_t bytes);
/* Frees a table of gs_zero_table_new(bytes); NULL is ignored. */
void gs_zero_table_free(void *table, size_t bytes);
/* Bytes of the mapped tables alive that are in memory now (whole pages;
 * the smaller tables are in the C heap, where mallinfo2 counts them):
 * `gpusim bench`'s bytes per idle channel count both. */
size_t gs_zero_table_resident_bytes(void);

/* bytes of zeros, every page of them written now; freed with g_free.
 * For an array the run uses whole and reads before it writes (a task's
 * figures, x += y; a check of a field before the store): a fresh block
 * from calloc is a mapping nothing has touched, so such a read maps the
 * kernel's shared zero page and the write that follows replaces it,
 * which flushes the page's translation on every core the process runs
 * on. While the output writers' threads run on the other core that is
 * an interrupt to it which the simulation waits for, and on a virtual
 * machine an exit to the hypervisor: a run of 65,536 tasks with its
 * default outputs had about 700 (/proc/interrupts, TLB shootdowns; 15
 * without the writers), about 100 with this and a channel slot's first
 * touch a write (gpu_model/channel.c). Written first, each page is one
 * fault and no flush. */
void *gs_zeroed_written(size_t bytes);

/* Maps in, in one call, the pages wholly inside [p, p + bytes) of a block
 * the caller is about to fill from end to end, each as its own writable
 * page: a fresh block's first writes otherwise take a page fault every
 * 4 KiB, each an entry into the kernel (on a virtual machine an exit to
 * the hypervisor too), and the timeline's item arrays of a 65,536-task
 * run (about 47 MB filled in the run's first tenth, while the encoder
 * lags behind) took 11,600 of them on the simulation's thread: 47 MB
 * faulted a page at a time took 20-30 ms here, populated 15 ms. The
 * contents are not changed, and pages already in memory stay as they
 * are. Returns false where the kernel cannot (MADV_POPULATE_WRITE came
 * with Linux 5.14), which leaves the faults to the writes as before. */
bool gs_populate_for_writing(void *p, size_t bytes);

#endif
