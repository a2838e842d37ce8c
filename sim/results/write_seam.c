/* write(2) for every output byte, with a test seam read once from the
 * environment, free when unset:
 *   GPUSIM_FAIL_WRITE_AFTER=N   the first N bytes are written, then every
 *                               write fails with ENOSPC, as on a full disk;
 *   GPUSIM_PAUSE_WRITE_AFTER=N  after N bytes the process stops itself
 *                               (SIGSTOP) once, so a test can signal it at
 *                               that exact point and then SIGCONT it.
 * Bytes are counted per process (each sweep worker counts its own). */
#include <errno.h>
#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "sim/results/results_priv.h"

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
