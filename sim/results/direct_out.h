/* An output file written past the page cache (O_DIRECT) where the file
 * system allows it: for the files a run writes while it goes on
 * (timeline.pftrace and series.csv, on threads of their own).
 *
 * At 65,536 tasks those two are 165 MB. Through the page cache each byte
 * is copied into a page the kernel allocates, charges and tracks as
 * dirty, and a writeback worker later hands the pages to the disk; all of
 * that is CPU taken from the two cores the simulation and its writers
 * share, and the pages are reclaimed from other processes' memory. The
 * folder is fdatasync()ed at its commit either way (results_dir.c), and
 * nothing reads the files back, so the page cache only ever cost here.
 * Measured on the 2-core machine of docs/performance.md (dd, 240 MB in
 * 1 MiB blocks with fdatasync): 70-100 ms of CPU through the page cache,
 * 20-30 ms directly. A direct write waits for the disk, which suits a
 * writer thread; the files written at the run's end, which the user
 * waits for, go through the page cache (results_file.c).
 *
 * Only on the local disk file systems of gs_direct_fs_suits: on a network
 * file system (NFS, SMB) each direct write is a synchronous round trip,
 * where the page cache would send many at once, and on tmpfs the page
 * cache is the file.
 *
 * O_DIRECT wants the buffer, the file offset and the length aligned:
 * bytes are gathered in an aligned block of GS_DIRECT_BLOCK and written a
 * block at a time; a caller's buffer that is already aligned goes out
 * as it is. The last, partial block is written through the page cache
 * (O_DIRECT cleared), so the file is exactly its bytes. A file system
 * that refuses O_DIRECT when it is set, or with EINVAL at a write, has
 * the file written through the page cache from where it stands, the
 * same bytes. */
#ifndef GS_DIRECT_OUT_H
#define GS_DIRECT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The alignment asked of O_DIRECT's buffers, offsets and lengths: a
 * page, which the logical block of the block devices this runs on
 * divides (512 or 4,096 bytes). */
#define GS_DIRECT_ALIGN 4096u
/* A write's size: 256 KiB, so that a write's wait for the disk is small
 * against its bytes' transfer, and the two streams' blocks (held for the
 * whole run) stay small against the memory goal of a run of 65,536
 * channels (issue 20: 64 MB in all). */
#define GS_DIRECT_BLOCK (256u * 1024u)

struct gs_direct_out {
	int fd;
	bool direct;        /* O_DIRECT set and not yet refused */
	uint8_t *block;     /* GS_DIRECT_BLOCK bytes, a mapping of their own
			     * (direct_out.c); NULL unless direct was set */
	size_t held;        /* bytes gathered in block */
	uint64_t written;   /* bytes handed to write(2) */
};

/* Whether a file system (statfs's f_type) is one a direct write suits:
 * ext2/3/4, XFS, Btrfs and F2FS, local file systems on block devices. */
bool gs_direct_fs_suits(unsigned long f_type);
/* Creates path (O_EXCL, mode 0666 and the umask) for writing, with
 * O_DIRECT when direct is asked, the file system suits it and takes it,
 * and the write seam of write_seam.c is unset (it counts bytes as the
 * page cache takes them). -1 with errno set when it cannot be created. */
int gs_direct_open(struct gs_direct_out *o, const char *path, bool direct);
/* Appends len bytes: len, or -1 with errno on a write error. */
ssize_t gs_direct_write(struct gs_direct_out *o, const void *buf, size_t len);
/* Writes what is gathered (through the page cache): the file is then
 * complete. 0, or -1 with errno. */
int gs_direct_flush(struct gs_direct_out *o);
/* Frees the block (not the descriptor, which the caller closes). */
void gs_direct_clear(struct gs_direct_out *o);

#endif
