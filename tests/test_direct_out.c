/* Output files written past the page cache (sim/results/direct_out.h):
 * whatever the sizes and alignment of the writes, the file holds exactly
 * the bytes given, in order, written directly where the file system
 * takes O_DIRECT and through the page cache where it does not or stops
 * taking it. */
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/thread_quiet.h"
#include "sim/results/direct_out.h"
#include "sim/results/pftrace_stream.h"
#include "sim/results/results_priv.h"

struct fixture {
	char *dir;
	bool fs_direct; /* the folder's file system takes O_DIRECT */
};

/* Whether gs_direct_open should write directly in dir: its file system
 * is one gs_direct_fs_suits and takes O_DIRECT, asked as gs_direct_open
 * asks, with a file of the test's own. */
static bool probe_direct(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "probe", NULL);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	struct statfs fs;
	bool ok = fd >= 0 && fstatfs(fd, &fs) == 0 &&
		  gs_direct_fs_suits((unsigned long)fs.f_type) &&
		  fcntl(fd, F_SETFL, O_WRONLY | O_DIRECT) == 0;

	if (fd >= 0)
		close(fd);
	g_unlink(path);
	return ok;
}

static int setup(void **state)
{
	struct fixture *fx = g_new0(struct fixture, 1);

	fx->dir = g_dir_make_tmp("gpusim-direct-XXXXXX", NULL);
	if (!fx->dir)
		return -1;
	fx->fs_direct = probe_direct(fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	g_autoptr(GDir) d = g_dir_open(fx->dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(fx->dir, name, NULL);

		g_unlink(p);
	}
	g_rmdir(fx->dir);
	g_free(fx->dir);
	g_free(fx);
	return 0;
}

/* n bytes that differ from their neighbours and from a copy shifted by
 * any small offset: a block written twice, skipped or out of order
 * shows. */
static uint8_t *pattern(size_t n)
{
	uint8_t *p = g_malloc(n);
	uint32_t x = 2463534242u;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
	return p;
}

static void assert_file_is(const char *path, const uint8_t *want, size_t n)
{
	g_autofree char *got = NULL;
	gsize len = 0;

	assert_true(g_file_get_contents(path, &got, &len, NULL));
	assert_int_equal(len, n);
	assert_memory_equal(got, want, n);
}

/* Writes the pattern in pieces of the given sizes (cycled), each from
 * src + offset, so that pieces come from aligned and unaligned memory. */
static void write_pieces(struct gs_direct_out *o, const uint8_t *src,
			 size_t total, const size_t *sizes, size_t n_sizes)
{
	size_t at = 0, k = 0;

	while (at < total) {
		size_t n = MIN(sizes[k++ % n_sizes], total - at);

		assert_int_equal(gs_direct_write(o, src + at, n), (ssize_t)n);
		at += n;
	}
}

/* Sizes around the alignment and the block, and a zero-length write. */
static const size_t awkward[] = {
	1, 4095, 4096, 4097, 0, GS_DIRECT_BLOCK - 1, GS_DIRECT_BLOCK,
	GS_DIRECT_BLOCK + 1, 3 * GS_DIRECT_BLOCK + 17, 100, 8192,
};

static void check_pieces(struct fixture *fx, bool ask_direct,
			 const char *name)
{
	g_autofree char *path = g_build_filename(fx->dir, name, NULL);
	size_t total = 9 * GS_DIRECT_BLOCK + 12345;
	/* an aligned copy: pieces starting at an aligned offset of it come
	 * from aligned memory */
	uint8_t *src = g_aligned_alloc(1, total, GS_DIRECT_ALIGN);
	g_autofree uint8_t *want = pattern(total);
	struct gs_direct_out o;

	memcpy(src, want, total);
	assert_true(gs_direct_open(&o, path, ask_direct) >= 0);
	assert_int_equal(o.direct, ask_direct && fx->fs_direct);
	write_pieces(&o, src, total, awkward, G_N_ELEMENTS(awkward));
	/* still direct: no write was refused */
	assert_int_equal(o.direct, ask_direct && fx->fs_direct);
	assert_int_equal(gs_direct_flush(&o), 0);
	assert_int_equal(o.written, total);
	assert_int_equal(o.held, 0);
	close(o.fd);
	gs_direct_clear(&o);
	assert_file_is(path, want, total);
	g_aligned_free(src);
}

static void test_pieces_direct(void **state)
{
	check_pieces(*state, true, "direct");
}

static void test_pieces_page_cache(void **state)
{
	check_pieces(*state, false, "cached");
}

/* An aligned buffer at an aligned offset goes out as it is: only its
 * last, partial page is gathered. */
static void test_aligned_buffer_not_gathered(void **state)
{
	struct fixture *fx = *state;
	size_t n = 2 * GS_DIRECT_ALIGN + 100;
	struct gs_direct_out o;

	/* first: skip() leaves by longjmp, past any cleanup */
	if (!fx->fs_direct)
		skip();
	g_autofree char *path = g_build_filename(fx->dir, "aligned", NULL);
	uint8_t *buf = g_aligned_alloc(1, n, GS_DIRECT_ALIGN);
	g_autofree uint8_t *want = pattern(n);

	memcpy(buf, want, n);
	assert_true(gs_direct_open(&o, path, true) >= 0);
	assert_int_equal(gs_direct_write(&o, buf, n), (ssize_t)n);
	assert_int_equal(o.written, 2 * GS_DIRECT_ALIGN);
	assert_int_equal(o.held, 100);
	/* unaligned memory is gathered whole */
	assert_int_equal(gs_direct_write(&o, want + 1, 10), 10);
	assert_int_equal(o.held, 110);
	assert_int_equal(gs_direct_flush(&o), 0);
	close(o.fd);
	gs_direct_clear(&o);
	{
		g_autofree uint8_t *all = g_malloc(n + 10);

		memcpy(all, want, n);
		memcpy(all + n, want + 1, 10);
		assert_file_is(path, all, n + 10);
	}
	g_aligned_free(buf);
}

/* A file system that stops taking a direct write (EINVAL: here a block
 * at an offset that is not aligned, as after bytes written through the
 * page cache) gets the rest through the page cache, nothing lost. */
static void test_refused_write_falls_back(void **state)
{
	struct fixture *fx = *state;
	size_t total = 2 * GS_DIRECT_BLOCK + 777;
	struct gs_direct_out o;
	int flags;

	if (!fx->fs_direct)
		skip(); /* first, as above */
	g_autofree char *path = g_build_filename(fx->dir, "refused", NULL);
	g_autofree uint8_t *want = pattern(total);
	assert_true(gs_direct_open(&o, path, true) >= 0);
	assert_true(o.direct);
	/* 100 bytes through the page cache, then O_DIRECT on again: the
	 * next block lands at offset 100, which O_DIRECT refuses */
	flags = fcntl(o.fd, F_GETFL);
	assert_int_equal(fcntl(o.fd, F_SETFL, flags & ~O_DIRECT), 0);
	assert_int_equal(write(o.fd, want, 100), 100);
	o.written = 100;
	assert_int_equal(fcntl(o.fd, F_SETFL, flags), 0);
	assert_int_equal(gs_direct_write(&o, want + 100, total - 100),
			 (ssize_t)(total - 100));
	assert_false(o.direct);
	assert_int_equal(fcntl(o.fd, F_GETFL) & O_DIRECT, 0);
	assert_int_equal(gs_direct_flush(&o), 0);
	close(o.fd);
	gs_direct_clear(&o);
	assert_file_is(path, want, total);
}

/* A write that fails is reported with its errno, not lost. */
static void test_write_error_reported(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *path = g_build_filename(fx->dir, "error", NULL);
	g_autofree uint8_t *buf = pattern(GS_DIRECT_BLOCK);
	struct gs_direct_out o;

	assert_true(gs_direct_open(&o, path, true) >= 0);
	close(o.fd); /* every write now fails with EBADF */
	errno = 0;
	assert_int_equal(gs_direct_write(&o, buf, GS_DIRECT_BLOCK), -1);
	assert_int_equal(errno, EBADF);
	/* bytes gathered but not written fail at the flush */
	if (o.block) {
		o.held = 10;
		errno = 0;
		assert_int_equal(gs_direct_flush(&o), -1);
		assert_int_equal(errno, EBADF);
	}
	gs_direct_clear(&o);
}

/* Created exclusively, as every output file of a fresh folder is. */
static void test_existing_file_refused(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *path = g_build_filename(fx->dir, "there", NULL);
	struct gs_direct_out o;

	assert_true(g_file_set_contents(path, "x", 1, NULL));
	errno = 0;
	assert_int_equal(gs_direct_open(&o, path, true), -1);
	assert_int_equal(errno, EEXIST);
	assert_null(o.block);
}

/* Through the FILE every output file is written with: formatted text in
 * small pieces, with and without a stdio buffer, complete. */
static void test_out_file_text(void **state)
{
	struct fixture *fx = *state;
	const size_t bufs[] = { 0, 256 * 1024 };
	size_t b;

	for (b = 0; b < G_N_ELEMENTS(bufs); b++) {
		g_autofree char *path =
			g_strdup_printf("%s/text%zu", fx->dir, b);
		g_autoptr(GString) want = g_string_new(NULL);
		struct gs_out_file *of;
		FILE *f = gs_out_file_open(path, bufs[b], true, &of);
		unsigned i;

		assert_non_null(f);
		for (i = 0; i < 200000; i++) {
			fprintf(f, "%u,row %u\n", i, i * 7919u);
			g_string_append_printf(want, "%u,row %u\n", i,
					       i * 7919u);
		}
		assert_int_equal(gs_out_file_close(f, of, true), 0);
		assert_file_is(path, (const uint8_t *)want->str, want->len);
	}
}

/* Direct writes only where they pay: local disk file systems, not a
 * network's (a synchronous round trip each) nor tmpfs (the page cache is
 * the file), nor one unknown. */
static void test_file_systems_suited(void **state)
{
	(void)state;
	assert_true(gs_direct_fs_suits(EXT4_SUPER_MAGIC));
	assert_true(gs_direct_fs_suits(XFS_SUPER_MAGIC));
	assert_true(gs_direct_fs_suits(BTRFS_SUPER_MAGIC));
	assert_true(gs_direct_fs_suits(F2FS_SUPER_MAGIC));
	assert_false(gs_direct_fs_suits(NFS_SUPER_MAGIC));
	assert_false(gs_direct_fs_suits(SMB2_SUPER_MAGIC));
	assert_false(gs_direct_fs_suits(TMPFS_MAGIC));
	assert_false(gs_direct_fs_suits(OVERLAYFS_SUPER_MAGIC));
	assert_false(gs_direct_fs_suits(0));
}

/* On tmpfs (which takes O_DIRECT from Linux 6.6, to no gain) the file is
 * written through the page cache, the same bytes. */
static void test_tmpfs_page_cache(void **state)
{
	char dir[] = "/dev/shm/gpusim-direct-XXXXXX";
	size_t total = GS_DIRECT_BLOCK + 5;
	struct gs_direct_out o;
	struct statfs fs;

	(void)state;
	if (!g_mkdtemp(dir))
		skip(); /* no /dev/shm here */
	if (statfs(dir, &fs) != 0 || fs.f_type != TMPFS_MAGIC) {
		g_rmdir(dir);
		skip(); /* not a tmpfs */
	}
	g_autofree char *path = g_build_filename(dir, "f", NULL);
	g_autofree uint8_t *want = pattern(total);

	assert_true(gs_direct_open(&o, path, true) >= 0);
	assert_false(o.direct);
	assert_null(o.block);
	assert_int_equal(gs_direct_write(&o, want, total), (ssize_t)total);
	assert_int_equal(gs_direct_flush(&o), 0);
	close(o.fd);
	gs_direct_clear(&o);
	assert_file_is(path, want, total);
	g_unlink(path);
	g_rmdir(dir);
}

/* Whether this process holds path open with O_DIRECT, read from
 * /proc/self/fdinfo (its "flags:" line, octal); false if not open. */
static bool open_direct(const char *path)
{
	g_autoptr(GDir) d = g_dir_open("/proc/self/fd", 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *link = g_strdup_printf("/proc/self/fd/%s",
							name);
		g_autofree char *to = g_file_read_link(link, NULL);
		g_autofree char *info = NULL;
		g_autofree char *at = g_strdup_printf("/proc/self/fdinfo/%s",
						      name);
		const char *flags;

		if (!to || strcmp(to, path) != 0 ||
		    !g_file_get_contents(at, &info, NULL, NULL))
			continue;
		flags = strstr(info, "flags:");
		return flags &&
		       (g_ascii_strtoull(flags + 6, NULL, 8) & O_DIRECT);
	}
	return false;
}

/* The timeline's stream writes past the page cache only from a thread
 * of its own: encoding on the simulation's thread (no thread to be had,
 * as in a sweep's worker at -j as many as the cores), a direct write
 * would have the simulation wait for the disk. */
static void test_stream_direct_only_threaded(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *sub = g_build_filename(fx->dir, "threaded", NULL);
	g_autofree char *sub2 = g_build_filename(fx->dir, "none", NULL);
	g_autofree char *path = g_build_filename(sub, "timeline.pftrace",
						 NULL);
	g_autofree char *path2 = g_build_filename(sub2, "timeline.pftrace",
						  NULL);
	struct gs_pftrace_stream *st;

	assert_int_equal(g_mkdir(sub, 0700), 0);
	assert_int_equal(g_mkdir(sub2, 0700), 0);
	assert_true(gs_threads_available());
	st = gs_pftrace_stream_new(sub, NULL);
	assert_non_null(st);
	assert_int_equal(open_direct(path), fx->fs_direct);
	gs_pftrace_stream_free(st);

	g_setenv("GPUSIM_NO_THREADS", "1", TRUE);
	assert_false(gs_threads_available());
	st = gs_pftrace_stream_new(sub2, NULL);
	g_unsetenv("GPUSIM_NO_THREADS");
	assert_non_null(st);
	assert_true(g_file_test(path2, G_FILE_TEST_EXISTS));
	assert_false(open_direct(path2));
	gs_pftrace_stream_free(st);
	g_unlink(path);
	g_unlink(path2);
	g_rmdir(sub);
	g_rmdir(sub2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pieces_direct, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pieces_page_cache, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_aligned_buffer_not_gathered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_write_falls_back,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_error_reported,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_existing_file_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_file_text, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stream_direct_only_threaded,
						setup, teardown),
		cmocka_unit_test(test_file_systems_suited),
		cmocka_unit_test(test_tmpfs_page_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
