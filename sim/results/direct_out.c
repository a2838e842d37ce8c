/* See direct_out.h. */
#define _GNU_SOURCE /* O_DIRECT */
#include "sim/results/direct_out.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sim/results/results_priv.h"

/* The block in a mapping of its own, not from malloc's heap: with it
 * in the heap, among the simulation's own data, the simulation thread
 * ran 15-20% slower while the writer thread wrote directly (perf: stalls
 * on loads of task records in the heap, at 65,536 tasks); in a mapping
 * of its own nothing of the kind showed. Pages, so aligned for O_DIRECT. */
static uint8_t *map_block(void)
{
	void *p = mmap(NULL, GS_DIRECT_BLOCK, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

bool gs_direct_fs_suits(unsigned long f_type)
{
	switch (f_type) {
	case EXT4_SUPER_MAGIC: /* ext2, ext3 and ext4 alike */
	case XFS_SUPER_MAGIC:
	case BTRFS_SUPER_MAGIC:
	case F2FS_SUPER_MAGIC:
		return true;
	default:
		return false;
	}
}

/* Whether fd's file system is one gs_direct_fs_suits. */
static bool fd_fs_suits(int fd)
{
	struct statfs fs;

	return fstatfs(fd, &fs) == 0 &&
	       gs_direct_fs_suits((unsigned long)fs.f_type);
}

int gs_direct_open(struct gs_direct_out *o, const char *path, bool direct)
{
	int flags;

	*o = (struct gs_direct_out){ .fd = -1 };
	/* 0666 and the umask, as fopen() would: results are shared */
	o->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (o->fd < 0)
		return -1;
	/* set after the open, so that a file system refusing it refuses
	 * here (fcntl's EINVAL) and not after making the file, which the
	 * same open without O_DIRECT could then not make again (O_EXCL) */
	flags = fcntl(o->fd, F_GETFL);
	if (!direct || flags < 0 || gs_write_seam_set() ||
	    !fd_fs_suits(o->fd) || !(o->block = map_block()))
		return o->fd;
	if (fcntl(o->fd, F_SETFL, flags | O_DIRECT) == 0) {
		o->direct = true;
	} else {
		munmap(o->block, GS_DIRECT_BLOCK);
		o->block = NULL;
	}
	return o->fd;
}

/* O_DIRECT off: the rest goes through the page cache. */
static void stop_direct(struct gs_direct_out *o)
{
	int flags = fcntl(o->fd, F_GETFL);

	if (flags >= 0)
		fcntl(o->fd, F_SETFL, flags & ~O_DIRECT);
	o->direct = false;
}

/* All of buf's len bytes to the file, however many calls it takes; a
 * direct write refused as misaligned (EINVAL: the file system's blocks
 * are larger than GS_DIRECT_ALIGN, or it takes O_DIRECT only in name)
 * is done again through the page cache. */
static int put_all(struct gs_direct_out *o, const uint8_t *buf, size_t len)
{
	while (len) {
		ssize_t n = gs_write_fd(o->fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EINVAL && o->direct) {
			stop_direct(o);
			continue;
		}
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
		o->written += (uint64_t)n;
	}
	return 0;
}

/* The gathered bytes out, when they fill the block or O_DIRECT is off. */
static int put_held(struct gs_direct_out *o)
{
	size_t held = o->held;

	o->held = 0;
	return held ? put_all(o, o->block, held) : 0;
}

ssize_t gs_direct_write(struct gs_direct_out *o, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t left = len;

	while (left) {
		size_t n;

		if (!o->direct)
			return put_held(o) || put_all(o, p, left) ? -1
								  : (ssize_t)len;
		/* a caller's aligned buffer at an aligned offset: its whole
		 * blocks go out as they are, not copied */
		if (!o->held && left >= GS_DIRECT_ALIGN &&
		    (uintptr_t)p % GS_DIRECT_ALIGN == 0) {
			n = left - left % GS_DIRECT_ALIGN;
			if (put_all(o, p, n))
				return -1;
		} else {
			n = MIN(left, GS_DIRECT_BLOCK - o->held);
			memcpy(o->block + o->held, p, n);
			o->held += n;
			if (o->held == GS_DIRECT_BLOCK && put_held(o))
				return -1;
		}
		p += n;
		left -= n;
	}
	return (ssize_t)len;
}

int gs_direct_flush(struct gs_direct_out *o)
{
	/* the tail is rarely a whole block: through the page cache, so the
	 * file ends at its last byte */
	if (o->direct && o->held)
		stop_direct(o);
	return put_held(o);
}

void gs_direct_clear(struct gs_direct_out *o)
{
	if (o->block)
		munmap(o->block, GS_DIRECT_BLOCK);
	o->block = NULL;
	o->held = 0;
}
