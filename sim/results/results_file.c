/* Writing one output file into a fresh temporary folder (results_dir.h
 * publishes the folder), through the one wrapper every output byte goes
 * through.
 *
 * Test seam, read once from the environment, free when unset:
 *   GPUSIM_FAIL_WRITE_AFTER=N   the first N bytes are written, then every
 *                               write fails with ENOSPC, as on a full disk;
 *   GPUSIM_PAUSE_WRITE_AFTER=N  after N bytes the process stops itself
 *                               (SIGSTOP) once, so a test can signal it at
 *                               that exact point and then SIGCONT it.
 * Bytes are counted per process (each sweep worker counts its own). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim/results/results_priv.h"

/* Large spans of timeline.json are written a line at a time. */
#define GS_RESULTS_FILE_BUFSZ (256 * 1024)

/* The seam's state: test-only process state, like interrupt.c's. */
static struct {
	bool read;
	bool fail, pause;
	uint64_t after, written;
} seam;

static bool env_count(const char *name, uint64_t *out)
{
	const char *v = getenv(name);
	char *end;

	if (!v || !*v)
		return false;
	*out = g_ascii_strtoull(v, &end, 10);
	return *end == '\0';
}

static void seam_read(void)
{
	if (seam.read)
		return;
	seam.read = true;
	seam.fail = env_count("GPUSIM_FAIL_WRITE_AFTER", &seam.after);
	if (!seam.fail)
		seam.pause = env_count("GPUSIM_PAUSE_WRITE_AFTER", &seam.after);
}

bool gs_write_seam_set(void)
{
	seam_read();
	return seam.fail || seam.pause;
}

/* How many of len bytes the seam lets through now (len when unset). */
static size_t seam_allow(size_t len)
{
	uint64_t left;

	seam_read();
	if (!seam.fail && !seam.pause)
		return len;
	left = seam.after > seam.written ? seam.after - seam.written : 0;
	if (seam.pause && left == 0) {
		seam.pause = false;
		raise(SIGSTOP);
		return len;
	}
	return left < len ? (size_t)left : len;
}

ssize_t gs_write_fd(int fd, const void *buf, size_t len)
{
	size_t allow = seam_allow(len);
	ssize_t n;

	if (len && !allow) {
		errno = ENOSPC;
		return -1;
	}
	n = write(fd, buf, allow);
	if (n > 0)
		seam.written += (uint64_t)n;
	return n;
}

/* An output file's descriptor, and how far its writeback was started. */
struct out_file {
	int fd;
	uint64_t written, synced;
	int err; /* the errno of the first write that failed */
};

/* Starts the writeback of what was written since the last start, once
 * that is WRITEBACK_STEP or more, as the timeline's stream does
 * (pftrace_stream.c): the folder's commit fdatasync()s every file
 * (results_dir.c), and starting the writeback of the 130 MB written at
 * a 65,536-task run's end only at each file's end left most of it to
 * start and wait for there. Nothing depends on its success: it only
 * starts what fdatasync() would. */
#define WRITEBACK_STEP (8u << 20)

static void start_writeback(struct out_file *of)
{
	if (of->written - of->synced < WRITEBACK_STEP)
		return;
	sync_file_range(of->fd, (off_t)of->synced,
			(off_t)(of->written - of->synced),
			SYNC_FILE_RANGE_WRITE);
	of->synced = of->written;
}

/* stdio's side of the wrapper: fopencookie() sends a FILE's buffer here. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct out_file *of = cookie;
	int fd = of->fd;
	size_t done = 0;

	while (done < len) {
		ssize_t n = gs_write_fd(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* kept here: on a stream without a buffer the
			 * write fails inside fwrite(), and errno may be
			 * gone by the time the stream's error is seen */
			if (!of->err)
				of->err = n < 0 ? errno : EIO;
			return 0; /* fopencookie(3): 0 marks the error */
		}
		done += (size_t)n;
	}
	of->written += done;
	start_writeback(of);
	return (ssize_t)done;
}

static gboolean fail_errno(GError **error, int err, const char *what,
			   const char *path)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
		    "%s %s: %s", what, path, g_strerror(err));
	return FALSE;
}

/* dir/name filled by fn through a FILE with a buffer of bufsz bytes, or
 * none (bufsz 0): each of fn's writes then goes to write(2) whole. */
static gboolean write_stream(const char *dir, const char *name,
			     gs_stream_fill_fn fn, const void *ctx,
			     size_t bufsz, GError **error)
{
	cookie_io_functions_t io = { .write = cookie_write };
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *buf = NULL;
	GError *fill_error = NULL;
	struct out_file of = { 0 };
	FILE *f;
	int fd, err;

	/* 0666 and the umask, as fopen() would: results are shared. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return fail_errno(error, errno, "cannot create", path);
	of.fd = fd;
	f = fopencookie(&of, "w", io);
	if (!f) {
		err = errno;
		close(fd);
		return fail_errno(error, err, "cannot write", path);
	}
	if (bufsz) {
		buf = g_malloc(bufsz);
		setvbuf(f, buf, _IOFBF, bufsz);
	} else {
		setvbuf(f, NULL, _IONBF, 0);
	}
	if (!fn(ctx, f, &fill_error)) {
		fclose(f);
		close(fd);
		g_propagate_prefixed_error(error, fill_error, "%s: ", path);
		return FALSE;
	}
	errno = 0;
	if (fflush(f) != 0 || ferror(f)) {
		err = of.err ? of.err : errno ? errno : EIO;
		fclose(f);
		close(fd);
		return fail_errno(error, err, "cannot write", path);
	}
	fclose(f);
	/* Not fsync()ed here: the folder's commit (results_dir.c) waits
	 * once for all its files. The writeback of the tail starts now
	 * (start_writeback() started the rest's), so it runs while the next
	 * file is written. */
	sync_file_range(fd, (off_t)of.synced, 0, SYNC_FILE_RANGE_WRITE);
	if (close(fd) != 0)
		return fail_errno(error, errno, "cannot write", path);
	return TRUE;
}

gboolean gs_write_stream_file(const char *dir, const char *name,
			      gs_stream_fill_fn fn, const void *ctx,
			      GError **error)
{
	return write_stream(dir, name, fn, ctx, GS_RESULTS_FILE_BUFSZ, error);
}

gboolean gs_write_stream_file_chunked(const char *dir, const char *name,
				      gs_stream_fill_fn fn, const void *ctx,
				      GError **error)
{
	return write_stream(dir, name, fn, ctx, 0, error);
}

struct results_fill {
	const struct gs_results *r;
	gs_results_fill_fn fill;
};

static gboolean fill_results(const void *ctx, FILE *f, GError **error)
{
	const struct results_fill *c = ctx;

	return c->fill(c->r, f, error);
}

gboolean gs_results_write_file(const struct gs_results *r, const char *dir,
			       const char *name, gs_results_fill_fn fill,
			       GError **error)
{
	struct results_fill c = { .r = r, .fill = fill };

	return gs_write_stream_file(dir, name, fill_results, &c, error);
}

gboolean gs_results_write_file_chunked(const struct gs_results *r,
				       const char *dir, const char *name,
				       gs_results_fill_fn fill,
				       GError **error)
{
	struct results_fill c = { .r = r, .fill = fill };

	return write_stream(dir, name, fill_results, &c, 0, error);
}

static gboolean fill_text(const void *ctx, FILE *f, GError **error)
{
	(void)error;
	fputs(ctx, f);
	return TRUE;
}

gboolean gs_write_text_file(const char *dir, const char *name,
			    const char *text, GError **error)
{
	return gs_write_stream_file(dir, name, fill_text, text, error);
}
