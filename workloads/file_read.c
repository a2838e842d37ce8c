/* See file_read.h. Plain POSIX reads into a buffer that grows up to the
 * limit, so a device or a pipe that never ends costs limit + 1 bytes of
 * memory and then an error, never the whole machine. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "workloads/file_read.h"

#define READ_CHUNK ((size_t)64 << 10)

static char *fail(const char *path, int err, char *buf, int fd,
		  GError **error)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
		    "%s: %s", path, g_strerror(err));
	g_free(buf);
	if (fd >= 0)
		close(fd);
	return NULL;
}

char *gs_read_file_bounded(const char *path, size_t limit, size_t *len,
			   GError **error)
{
	size_t used = 0, cap = 0;
	char *buf = NULL;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(path, errno, NULL, -1, error);
	for (;;) {
		ssize_t got;

		if (used == cap) {
			/* room for limit + 1 bytes (to see that there are
			 * too many) and the NUL */
			cap = used + READ_CHUNK < limit + 1 ? used + READ_CHUNK
							     : limit + 1;
			buf = g_realloc(buf, cap + 1);
		}
		got = read(fd, buf + used, cap - used);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return fail(path, errno, buf, fd, error);
		}
		if (got == 0)
			break;
		used += (size_t)got;
		if (used > limit) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
				    "%s: larger than %zu bytes", path, limit);
			g_free(buf);
			close(fd);
			return NULL;
		}
	}
	close(fd);
	if (!buf)
		buf = g_malloc(1);
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;
}
