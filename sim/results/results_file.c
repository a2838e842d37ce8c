/* Writing one output file into a fresh temporary folder (results_dir.h
 * publishes the folder): every file is opened by gs_out_file_open(), and
 * every byte goes through write_seam.c's gs_write_fd(). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sim/results/direct_out.h"
#include "sim/results/results_priv.h"

/* Large spans of timeline.json are written a line at a time. */
#define GS_RESULTS_FILE_BUFSZ (256 * 1024)

/* An output file: its descriptor, written past the page cache when it
 * was opened so and the file system takes it (direct_out.h), and how far
 * its writeback was started. */
struct gs_out_file {
	struct gs_direct_out out;
	uint64_t synced;
	int err; /* the errno of the first write that failed */
	char *buf; /* stdio's buffer */
};

/* Starts the writeback of what was written since the last start, once
 * that is WRITEBACK_STEP or more, for a file in the page cache: the
 * folder's commit fdatasync()s every file (results_dir.c), and starting
 * the writeback of the 130 MB written at a 65,536-task run's end only at
 * each file's end left most of it to start and wait for there. Nothing
 * depends on its success: it only starts what fdatasync() would. 8 MiB:
 * far above the blocks written, so the calls are few, and small against
 * the dirty-page limits that would make the kernel start it anyway
 * (vm.dirty_background_ratio: 10% of memory). A file written directly
 * has nothing to start. */
#define WRITEBACK_STEP (8u << 20)

static void start_writeback(struct gs_out_file *of)
{
	if (of->out.direct || of->out.written - of->synced < WRITEBACK_STEP)
		return;
	sync_file_range(of->out.fd, (off_t)of->synced,
			(off_t)(of->out.written - of->synced),
			SYNC_FILE_RANGE_WRITE);
	of->synced = of->out.written;
}

/* stdio's side of the wrapper: fopencookie() sends a FILE's buffer here. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct gs_out_file *of = cookie;

	errno = 0;
	if (gs_direct_write(&of->out, buf, len) < 0) {
		/* kept here: on a stream without a buffer the write fails
		 * inside fwrite(), and errno may be gone by the time the
		 * stream's error is seen */
		if (!of->err)
			of->err = errno ? errno : EIO;
		return 0; /* fopencookie(3): 0 marks the error */
	}
	start_writeback(of);
	return (ssize_t)len;
}

static gboolean fail_errno(GError **error, int err, const char *what,
			   const char *path)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
		    "%s %s: %s", what, path, g_strerror(err));
	return FALSE;
}

FILE *gs_out_file_open(const char *path, size_t bufsz, bool direct,
		       struct gs_out_file **ofp)
{
	cookie_io_functions_t io = { .write = cookie_write };
	struct gs_out_file *of = g_new0(struct gs_out_file, 1);
	FILE *f;
	int err;

	if (gs_direct_open(&of->out, path, direct) < 0) {
		err = errno;
		g_free(of);
		errno = err;
		return NULL;
	}
	f = fopencookie(of, "w", io);
	if (!f) {
		err = errno;
		close(of->out.fd);
		gs_direct_clear(&of->out);
		g_free(of);
		errno = err;
		return NULL;
	}
	if (bufsz) {
		of->buf = g_malloc(bufsz);
		setvbuf(f, of->buf, _IOFBF, bufsz);
	} else {
		setvbuf(f, NULL, _IONBF, 0);
	}
	*ofp = of;
	return f;
}

int gs_out_file_close(FILE *f, struct gs_out_file *of, bool complete)
{
	int err = 0;

	errno = 0;
	if (complete && (fflush(f) != 0 || ferror(f)))
		err = of->err ? of->err : errno ? errno : EIO;
	if (complete && !err && gs_direct_flush(&of->out) != 0)
		err = errno ? errno : EIO;
	fclose(f);
	/* Not fsync()ed here: the folder's commit (results_dir.c) waits
	 * once for all its files. The writeback of the tail starts now
	 * (start_writeback() started the rest's), so it runs while the next
	 * file is written. */
	if (complete && !err)
		sync_file_range(of->out.fd, (off_t)of->synced, 0,
				SYNC_FILE_RANGE_WRITE);
	if (close(of->out.fd) != 0 && complete && !err)
		err = errno ? errno : EIO;
	gs_direct_clear(&of->out);
	g_free(of->buf);
	g_free(of);
	return err;
}

/* dir/name filled by fn through a FILE with a buffer of bufsz bytes, or
 * none (bufsz 0): each of fn's writes then goes to the file whole. */
static gboolean write_stream(const char *dir, const char *name,
			     gs_stream_fill_fn fn, const void *ctx,
			     size_t bufsz, bool direct, GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	GError *fill_error = NULL;
	struct gs_out_file *of;
	FILE *f = gs_out_file_open(path, bufsz, direct, &of);
	int err;

	if (!f)
		return fail_errno(error, errno, "cannot create", path);
	if (!fn(ctx, f, &fill_error)) {
		gs_out_file_close(f, of, false);
		g_propagate_prefixed_error(error, fill_error, "%s: ", path);
		return FALSE;
	}
	err = gs_out_file_close(f, of, true);
	return err ? fail_errno(error, err, "cannot write", path) : TRUE;
}

gboolean gs_write_stream_file(const char *dir, const char *name,
			      gs_stream_fill_fn fn, const void *ctx,
			      GError **error)
{
	return write_stream(dir, name, fn, ctx, GS_RESULTS_FILE_BUFSZ, false,
			    error);
}

gboolean gs_write_stream_file_chunked(const char *dir, const char *name,
				      gs_stream_fill_fn fn, const void *ctx,
				      GError **error)
{
	return write_stream(dir, name, fn, ctx, 0, false, error);
}

gboolean gs_write_stream_file_direct(const char *dir, const char *name,
				     gs_stream_fill_fn fn, const void *ctx,
				     GError **error)
{
	return write_stream(dir, name, fn, ctx, 0, true, error);
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

	return write_stream(dir, name, fill_results, &c, 0, false, error);
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
