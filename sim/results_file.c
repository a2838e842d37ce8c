/* Atomic file writes: an interrupted or failed run leaves either the old
 * file or the complete new one, never half of one and never a stray
 * temporary. */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "sim/results_priv.h"

/* Large spans of timeline.json are written a line at a time. */
#define GS_RESULTS_FILE_BUFSZ (256 * 1024)

static void set_errno_error(GError **error, int err, const char *what,
			    const char *path)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
		    "%s %s: %s", what, path, g_strerror(err));
}

gboolean gs_results_write_file(const struct gs_results *r, const char *dir,
			       const char *name, gs_results_fill_fn fill,
			       GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autofree char *tmp_name = g_strdup_printf(".%s.tmp.XXXXXX", name);
	g_autofree char *tmp = g_build_filename(dir, tmp_name, NULL);
	g_autofree char *buf = NULL;
	GError *fill_error = NULL;
	FILE *f;
	int fd, err;

	/* 0666 and the umask, as fopen() would, rather than mkstemp's 0600:
	 * results are meant to be shared. */
	fd = g_mkstemp_full(tmp, O_RDWR, 0666);
	if (fd < 0) {
		set_errno_error(error, errno, "cannot create a temporary file for",
				path);
		return FALSE;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		g_unlink(tmp);
		set_errno_error(error, err, "cannot write", path);
		return FALSE;
	}
	buf = g_malloc(GS_RESULTS_FILE_BUFSZ);
	setvbuf(f, buf, _IOFBF, GS_RESULTS_FILE_BUFSZ);

	if (!fill(r, f, &fill_error)) {
		fclose(f);
		g_unlink(tmp);
		g_propagate_prefixed_error(error, fill_error, "%s: ", path);
		return FALSE;
	}
	errno = 0;
	if (fflush(f) != 0 || ferror(f) || g_fsync(fileno(f)) != 0) {
		err = errno ? errno : EIO;
		fclose(f);
		g_unlink(tmp);
		set_errno_error(error, err, "cannot write", path);
		return FALSE;
	}
	if (fclose(f) != 0) {
		err = errno;
		g_unlink(tmp);
		set_errno_error(error, err, "cannot write", path);
		return FALSE;
	}
	if (g_rename(tmp, path) != 0) {
		err = errno;
		g_unlink(tmp);
		set_errno_error(error, err, "cannot rename a temporary file to",
				path);
		return FALSE;
	}
	return TRUE;
}
