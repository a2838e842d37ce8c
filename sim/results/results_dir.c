/* Output folders published whole (see results_dir.h). */
#define _GNU_SOURCE
#include "sim/results/results_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sim/results/interrupt.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1) /* linux/fs.h; older glibc lacks it */
#endif

static gboolean fail_errno(GError **error, int err, const char *what,
			   const char *path)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
		    "%s %s: %s", what, path, g_strerror(err));
	return FALSE;
}

static bool is_owned(const struct gs_outdir *od, const char *name)
{
	size_t i;

	for (i = 0; od->owned[i]; i++)
		if (!strcmp(od->owned[i], name))
			return true;
	return false;
}

/* A temporary some earlier writer left behind (".timeline.json.tmp.X"). */
static bool is_stale_temp(const char *name)
{
	return name[0] == '.' && strstr(name, ".tmp.") != NULL;
}

static void fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd); /* best effort: some filesystems refuse it */
		close(fd);
	}
}

/* The folder's real path when it exists (a symlink to a folder is
 * followed: the folder, not the link, is replaced), else an absolute
 * one without "." or "..". */
static char *resolve(const char *dir)
{
	char *real = realpath(dir, NULL);
	char *out;

	if (!real)
		return g_canonicalize_filename(dir, NULL);
	out = g_strdup(real);
	free(real);
	return out;
}

/* "HOST.PID" of this process, for temporary folder names. */
static char *owner_tag(void)
{
	return g_strdup_printf("%s.%ld", g_get_host_name(), (long)getpid());
}

/* Whether the temporary folder name (after ".BASE.tmp.") says it was made
 * by a process of this host that no longer exists: SIGKILL or a crash
 * left it. A folder of a live process, or of another machine sharing the
 * filesystem, is not ours to judge. */
static bool is_orphan(const char *tail)
{
	const char *host = g_get_host_name();
	size_t n = strlen(host);
	char *end;
	long pid;

	if (strncmp(tail, host, n) || tail[n] != '.')
		return false;
	pid = strtol(tail + n + 1, &end, 10);
	if (end == tail + n + 1 || *end != '.' || pid <= 0)
		return false;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the orphaned temporary folders ".BASE.tmp.*" in parent. */
static void remove_orphans(const char *parent, const char *base)
{
	g_autofree char *prefix = g_strdup_printf(".%s.tmp.", base);
	size_t n = strlen(prefix);
	GDir *d = g_dir_open(parent, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = NULL;

		if (strncmp(name, prefix, n) || !is_orphan(name + n))
			continue;
		path = g_build_filename(parent, name, NULL);
		gs_remove_flat_dir(path);
	}
	if (d)
		g_dir_close(d);
}

/* A long folder name is cut (not inside a UTF-8 character) so that the
 * temporary name, with host, pid and random part, fits NAME_MAX. */
static void shorten(char *base)
{
	size_t n = strlen(base);

	if (n <= 64)
		return;
	n = 64;
	while (n > 0 && ((unsigned char)base[n] & 0xC0) == 0x80)
		n--;
	base[n] = '\0';
}

gboolean gs_outdir_begin(struct gs_outdir *od, const char *dir,
			 const char *const *owned, bool whole,
			 GError **error)
{
	g_autofree char *parent = NULL;
	g_autofree char *base = NULL;
	g_autofree char *tmpl = NULL;
	g_autofree char *tag = NULL;

	memset(od, 0, sizeof(*od));
	od->dir = resolve(dir);
	od->owned = owned;
	od->whole = whole;
	parent = whole ? g_path_get_dirname(od->dir) : g_strdup(od->dir);
	base = g_path_get_basename(od->dir);
	if (whole && !strcmp(parent, od->dir)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "cannot write results into %s: it is the root "
			    "folder", dir);
		goto fail;
	}
	if (g_mkdir_with_parents(parent, 0777) != 0) {
		fail_errno(error, errno, "cannot create directory", dir);
		goto fail;
	}
	if (!whole) {
		g_free(base);
		base = g_strdup("files");
	}
	shorten(base);
	remove_orphans(parent, base);
	tag = owner_tag();
	tmpl = g_strdup_printf(".%s.tmp.%s.XXXXXX", base, tag);
	od->tmp = g_build_filename(parent, tmpl, NULL);
	gs_interrupt_install();
	/* The handled signals wait while the folder is made and registered:
	 * one that came in between found it unregistered and left it
	 * behind (seen once, a SIGINT 10 ms into a run under ASan); now it
	 * comes before the folder exists or finds it registered. */
	gs_interrupt_block();
	if (!g_mkdtemp_full(od->tmp, 0777)) {
		gs_interrupt_unblock();
		fail_errno(error, errno, "cannot create a temporary folder for",
			   dir);
		goto fail;
	}
	/* test seam (tests/interrupt_test.sh): a signal in that window */
	if (g_getenv("GPUSIM_SIGNAL_AT_MKDTEMP"))
		raise(SIGINT);
	if (!gs_interrupt_register(od->tmp)) {
		g_rmdir(od->tmp);
		gs_interrupt_unblock();
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NAMETOOLONG,
			    "cannot write %s: path too long", dir);
		goto fail;
	}
	gs_interrupt_unblock();
	return TRUE;
fail:
	g_clear_pointer(&od->dir, g_free);
	g_clear_pointer(&od->tmp, g_free);
	return FALSE;
}

static void outdir_free(struct gs_outdir *od)
{
	g_clear_pointer(&od->dir, g_free);
	g_clear_pointer(&od->tmp, g_free);
}

void gs_outdir_fail(struct gs_outdir *od, GError **error)
{
	if (error && *error && od->tmp) {
		GString *msg = g_string_new((*error)->message);

		g_string_replace(msg, od->tmp, od->dir, 0);
		g_free((*error)->message);
		(*error)->message = g_string_free(msg, FALSE);
	}
	gs_outdir_abort(od);
}

void gs_outdir_abort(struct gs_outdir *od)
{
	if (!od->tmp)
		return;
	gs_remove_flat_dir(od->tmp);
	gs_interrupt_unregister(od->tmp);
	outdir_free(od);
}

/* Links the old folder's foreign files into the new one. false when the
 * exchange cannot keep the old folder whole: it holds a subfolder, or a
 * link fails (a filesystem without hard links). */
static bool carry_foreign(const struct gs_outdir *od, DIR *old, int tmp_fd)
{
	struct dirent *d;

	while ((d = readdir(old))) {
		struct stat st;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (fstatat(dirfd(old), d->d_name, &st, AT_SYMLINK_NOFOLLOW))
			return false;
		if (S_ISDIR(st.st_mode))
			return false;
		if (is_owned(od, d->d_name) || is_stale_temp(d->d_name))
			continue;
		if (linkat(dirfd(old), d->d_name, tmp_fd, d->d_name, 0))
			return false;
	}
	return true;
}

/* The durable commit of a folder's files, before it is published: the
 * writers only started each file's writeback (results_file.c), or wrote
 * it past the page cache (direct_out.h), so all are on their way to the
 * disk at once; the first fdatasync() waits for
 * its file and for the journal commit that records every file's blocks
 * and the folder's entries, and those after it find their data written
 * and their metadata committed. One wait per folder instead of one per
 * file, with the same guarantee: nothing is published before it is on
 * the disk. */
static gboolean sync_files(const struct gs_outdir *od, GError **error)
{
	DIR *d = opendir(od->tmp);
	struct dirent *e;
	gboolean ok = TRUE;

	if (!d)
		return fail_errno(error, errno, "cannot open", od->dir);
	while (ok && (e = readdir(d))) {
		int fd;

		if (e->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fdatasync(fd) != 0) {
			g_autofree char *path =
				g_build_filename(od->dir, e->d_name, NULL);

			ok = fail_errno(error, errno, "cannot write", path);
		}
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
	return ok;
}

/* The working directory (a shell's too) must not end up in the removed
 * old folder: `--out .` is updated in place. */
static bool is_cwd(const struct stat *st)
{
	struct stat cwd;

	return stat(".", &cwd) == 0 && cwd.st_dev == st->st_dev &&
	       cwd.st_ino == st->st_ino;
}

/* One renameat2(RENAME_EXCHANGE) swaps the folders; the old one, now at
 * the temporary name, is removed. false (and nothing changed) when the
 * exchange is not possible here. The new folder takes the old one's
 * permissions. */
static bool try_exchange(struct gs_outdir *od)
{
	DIR *old = opendir(od->dir);
	int tmp_fd = open(od->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	bool ok = old && tmp_fd >= 0 && fstat(dirfd(old), &st) == 0 &&
		  !is_cwd(&st) && fchmod(tmp_fd, st.st_mode & 07777) == 0 &&
		  carry_foreign(od, old, tmp_fd);

	if (old)
		closedir(old);
	if (tmp_fd >= 0)
		close(tmp_fd);
	if (!ok)
		return false;
#ifdef SYS_renameat2
	return syscall(SYS_renameat2, AT_FDCWD, od->tmp, AT_FDCWD, od->dir,
		       RENAME_EXCHANGE) == 0;
#else
	return false; /* headers older than Linux 3.15: rename one by one */
#endif
}

/* Temporary files an earlier gpusim wrote one by one and left behind
 * (".timeline.json.tmp.X"): the folder they belong to is being replaced. */
static void remove_stale_files(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (is_stale_temp(name) &&
		    g_file_test(path, G_FILE_TEST_IS_REGULAR))
			g_unlink(path);
	}
	if (d)
		g_dir_close(d);
}

/* The new files renamed into dir one by one, and (whole) the owned files
 * they do not replace removed, with the signals held until all is done.
 * Every obstacle is looked for first, so a failure changes nothing. */
static gboolean rename_each(struct gs_outdir *od, GError **error)
{
	gboolean ok = TRUE;
	size_t i;

	if (g_mkdir_with_parents(od->dir, 0777) != 0)
		return fail_errno(error, errno, "cannot create directory",
				  od->dir);
	for (i = 0; od->owned[i]; i++) {
		g_autofree char *to = g_build_filename(od->dir, od->owned[i],
						       NULL);
		struct stat st;

		if (lstat(to, &st) == 0 && S_ISDIR(st.st_mode))
			return fail_errno(error, EISDIR, "cannot replace", to);
	}
	gs_interrupt_block();
	for (i = 0; ok && od->owned[i]; i++) {
		g_autofree char *from = g_build_filename(od->tmp, od->owned[i],
							 NULL);
		g_autofree char *to = g_build_filename(od->dir, od->owned[i],
						       NULL);

		if (g_rename(from, to) == 0)
			continue;
		if (errno != ENOENT)
			ok = fail_errno(error, errno, "cannot rename a file to",
					to);
		else if (od->whole && g_unlink(to) != 0 && errno != ENOENT)
			ok = fail_errno(error, errno, "cannot remove stale",
					to);
	}
	if (ok && od->whole)
		remove_stale_files(od->dir);
	fsync_dir(od->dir);
	gs_interrupt_unblock();
	return ok;
}

gboolean gs_outdir_commit(struct gs_outdir *od, GError **error)
{
	g_autofree char *parent = g_path_get_dirname(od->dir);
	gboolean ok = TRUE;

	if (!sync_files(od, error)) {
		gs_outdir_abort(od);
		return FALSE;
	}
	fsync_dir(od->tmp);
	if (od->whole && g_rename(od->tmp, od->dir) == 0) {
		/* There was no folder yet: the rename is the whole commit. */
		gs_interrupt_unregister(od->tmp);
		fsync_dir(parent);
		outdir_free(od);
		return TRUE;
	}
	if (od->whole && try_exchange(od))
		fsync_dir(parent);
	else
		ok = rename_each(od, error);
	gs_outdir_abort(od); /* the old folder, or what rename_each left */
	return ok;
}
