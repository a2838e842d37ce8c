/* The one way gpusim reads an input file (scenarios, traces, sweep
 * files): never more than a limit, whatever the file is. */
#ifndef GS_FILE_READ_H
#define GS_FILE_READ_H

#include <glib.h>
#include <stddef.h>

/* The most gpusim reads of any one input file (YAML, CSV or JSON). */
#define GS_MAX_INPUT_BYTES ((size_t)16 << 20)

/* Reads the whole of `path` into a new NUL-terminated buffer (its length,
 * without the NUL, in *len). A file of more than `limit` bytes is refused
 * with "PATH: larger than LIMIT bytes" after reading at most limit + 1
 * bytes: the size is found by reading, not by stat, which says 0 for
 * devices (/dev/zero) and pipes (/dev/stdin). Errors are G_FILE_ERROR,
 * their message starts with "PATH: ". */
char *gs_read_file_bounded(const char *path, size_t limit, size_t *len,
			   GError **error);

#endif
