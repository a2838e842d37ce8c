/* Signal-time cleanup of temporary output folders (see interrupt.h).
 * Everything the handler calls is async-signal-safe (signal-safety(7)):
 * open, getdents64 (as a raw system call), unlinkat, rmdir, close, raise. */
#define _GNU_SOURCE
#include "sim/results/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Folders being written at once: one per process (a run, a sweep point,
 * a sweep's summary), so a handful is plenty. */
#define SLOTS 8
#define SLOT_LEN 4096

static char slots[SLOTS][SLOT_LEN];
static bool installed;

static const int handled[] = { SIGINT, SIGTERM, SIGHUP };

/* The kernel's record, as getdents64(2) documents it. */
struct dirent64_rec {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static void handled_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < sizeof(handled) / sizeof(handled[0]); i++)
		sigaddset(set, handled[i]);
}

/* One pass over the folder, unlinking what it lists; the number unlinked.
 * Unlinking while listing may make the kernel skip an entry, hence the
 * caller's repeat. */
static int unlink_pass(int fd)
{
	char buf[4096] __attribute__((aligned(8)));
	int removed = 0;
	long n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return 0;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off = 0;

		while (off < n) {
			struct dirent64_rec *d = (struct dirent64_rec *)(buf + off);

			off += d->reclen;
			if (!strcmp(d->name, ".") || !strcmp(d->name, ".."))
				continue;
			if (unlinkat(fd, d->name, 0) == 0)
				removed++;
		}
	}
	return removed;
}

/* Tries of gs_remove_flat_dir: a file created while it runs (by the
 * thread that writes a timeline beside the main one, results_write.c,
 * which creates one file) makes rmdir fail with ENOTEMPTY once. */
#define REMOVE_TRIES 4

int gs_remove_flat_dir(const char *path)
{
	int tries;

	for (tries = 0; tries < REMOVE_TRIES; tries++) {
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int passes = 0;

		if (fd < 0)
			return errno == ENOENT ? 0 : -1;
		while (passes++ < 16 && unlink_pass(fd) > 0)
			;
		close(fd);
		if (rmdir(path) == 0)
			return 0;
		if (errno != ENOTEMPTY && errno != EEXIST)
			return -1;
	}
	return -1;
}

static void on_signal(int sig)
{
	int i;

	for (i = 0; i < SLOTS; i++)
		if (slots[i][0])
			gs_remove_flat_dir(slots[i]);
	/* SA_RESETHAND put the default action back: die of this signal as
	 * soon as the handler returns (or at once). */
	raise(sig);
}

void gs_interrupt_install(void)
{
	struct sigaction sa;
	size_t i;

	if (installed)
		return;
	installed = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	handled_set(&sa.sa_mask); /* one cleanup at a time */
	for (i = 0; i < sizeof(handled) / sizeof(handled[0]); i++) {
		struct sigaction old;

		/* A signal ignored by whoever started us (nohup) stays so. */
		if (sigaction(handled[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(handled[i], &sa, NULL);
	}
}

void gs_interrupt_block(void)
{
	sigset_t set;

	handled_set(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

void gs_interrupt_unblock(void)
{
	sigset_t set;

	handled_set(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

bool gs_interrupt_register(const char *path)
{
	size_t len = strlen(path);
	bool ok = false;
	int i;

	sigset_t set, old;

	if (len == 0 || len >= SLOT_LEN)
		return false;
	handled_set(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	for (i = 0; i < SLOTS && !ok; i++) {
		if (slots[i][0])
			continue;
		memcpy(slots[i], path, len + 1);
		ok = true;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ok;
}

void gs_interrupt_unregister(const char *path)
{
	sigset_t set, old;
	int i;

	handled_set(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	for (i = 0; i < SLOTS; i++)
		if (slots[i][0] && !strcmp(slots[i], path)) {
			slots[i][0] = '\0';
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}
