/* Result folders published whole (sim/results/results_dir.h): after a failed
 * write the old files are all there and unchanged, after a good one only
 * the new ones are, and no temporary folder is left either way. Signals
 * are tested on the real binary (tests/interrupt_test.sh). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/host/results.h"
#include "sim/results/results_dir.h"
#include "sim/results/results_priv.h"
#include "tests/support/test_dirs.h"

struct fixture {
	char *root;  /* the parent: temporaries would show up here */
	char *dir;   /* root/out, the results folder */
};

static int setup(void **state)
{
	struct fixture *fx = g_new0(struct fixture, 1);

	fx->root = g_dir_make_tmp("gs_outdir_XXXXXX", NULL);
	if (!fx->root)
		return -1;
	fx->dir = g_build_filename(fx->root, "out", NULL);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	remove_tree(fx->root);
	g_free(fx->root);
	g_free(fx->dir);
	g_free(fx);
	return 0;
}

static char *read_file(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

static void write_run(const char *dir, uint64_t seed, gboolean timeline)
{
	g_autoptr(GError) error = NULL;
	struct gs_results r;

	gs_results_init(&r);
	r.seed = seed;
	r.name = g_strdup("run");
	if (!gs_results_write_dir(&r, dir, timeline, &error))
		fail_msg("write failed: %s", error->message);
	gs_results_clear(&r);
}

static void assert_seed(const char *dir, const char *seed)
{
	g_autofree char *summary = read_file(dir, "summary.json");
	g_autofree char *want = g_strdup_printf("\"seed\" : %s,", seed);

	assert_non_null(summary);
	assert_non_null(strstr(summary, want));
}

/* A failing write (a span naming no interned string) leaves the old set:
 * same names, same bytes, and nothing beside the folder. */
static void test_failed_write_keeps_old_set(void **state)
{
	struct fixture *fx = *state;
	g_autoptr(GError) error = NULL;
	g_autofree char *before = NULL, *after = NULL, *old_tasks = NULL;
	g_autofree char *new_tasks = NULL, *around = NULL;
	struct gs_span bad = { .end = 1, .name = 99 };
	struct gs_results r;

	write_run(fx->dir, 1, TRUE);
	before = sorted_listing(fx->dir);
	old_tasks = read_file(fx->dir, "tasks.csv");
	gs_results_init(&r);
	r.seed = 2;
	g_array_append_val(r.spans, bad);
	assert_false(gs_results_write_dir(&r, fx->dir, TRUE, &error));
	gs_results_clear(&r);
	assert_non_null(strstr(error->message, fx->dir));
	after = sorted_listing(fx->dir);
	assert_string_equal(before, after);
	assert_string_equal(after,
			    "series.csv summary.json tasks.csv timeline.pftrace");
	new_tasks = read_file(fx->dir, "tasks.csv");
	assert_string_equal(old_tasks, new_tasks);
	assert_seed(fx->dir, "1");
	around = sorted_listing(fx->root);
	assert_string_equal(around, "out");
}

/* A run without a timeline replaces one with: the old timeline.pftrace goes
 * with the rest of the old set; a note the user left stays; an old
 * writer's stray temporary is cleared. */
static void test_new_set_replaces_old_whole(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *note = NULL, *names = NULL, *around = NULL;
	g_autofree char *stray = NULL, *kept = NULL;

	write_run(fx->dir, 1, TRUE);
	note = g_build_filename(fx->dir, "notes.txt", NULL);
	stray = g_build_filename(fx->dir, ".timeline.json.tmp.AbC123", NULL);
	assert_true(g_file_set_contents(note, "mine", -1, NULL));
	assert_true(g_file_set_contents(stray, "half", -1, NULL));
	write_run(fx->dir, 2, FALSE);
	names = sorted_listing(fx->dir);
	assert_string_equal(names, "notes.txt series.csv summary.json tasks.csv");
	assert_seed(fx->dir, "2");
	kept = read_file(fx->dir, "notes.txt");
	assert_string_equal(kept, "mine");
	around = sorted_listing(fx->root);
	assert_string_equal(around, "out");
}

/* A folder with a subfolder (a sweep's points/) cannot be exchanged whole:
 * the files are renamed in, the subfolder and its files stay, an old
 * writer's stray temporary goes. */
static void test_folder_with_subfolder(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *sub = g_build_filename(fx->dir, "points", NULL);
	g_autofree char *inside = g_build_filename(sub, "keep", NULL);
	g_autofree char *stray = g_build_filename(fx->dir, ".tasks.csv.tmp.Xy12Z3",
						  NULL);
	g_autofree char *names = NULL, *around = NULL, *sub_names = NULL;

	write_run(fx->dir, 1, TRUE);
	assert_int_equal(g_mkdir(sub, 0700), 0);
	assert_true(g_file_set_contents(inside, "k", -1, NULL));
	assert_true(g_file_set_contents(stray, "half", -1, NULL));
	write_run(fx->dir, 2, FALSE);
	names = sorted_listing(fx->dir);
	assert_string_equal(names, "points series.csv summary.json tasks.csv");
	sub_names = sorted_listing(sub);
	assert_string_equal(sub_names, "keep");
	assert_seed(fx->dir, "2");
	around = sorted_listing(fx->root);
	assert_string_equal(around, "out");
}

/* --out naming a symlink to a folder writes into the folder; the link
 * stays a link. */
static void test_symlinked_folder(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *real = g_build_filename(fx->root, "real", NULL);
	g_autofree char *names = NULL;

	write_run(real, 1, FALSE);
	assert_int_equal(symlink("real", fx->dir), 0);
	write_run(fx->dir, 2, FALSE);
	assert_true(g_file_test(fx->dir, G_FILE_TEST_IS_SYMLINK));
	assert_seed(real, "2");
	names = sorted_listing(fx->root);
	assert_string_equal(names, "out real");
}

/* --out . is updated in place: the working directory stays the folder. */
static void test_working_directory(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *names = NULL, *around = NULL, *back = g_get_current_dir();
	struct stat before, after;

	write_run(fx->dir, 1, TRUE);
	assert_int_equal(stat(fx->dir, &before), 0);
	assert_int_equal(chdir(fx->dir), 0);
	write_run(".", 2, FALSE);
	assert_int_equal(chdir(back), 0);
	/* the folder at that path is still the one we were in */
	assert_int_equal(stat(fx->dir, &after), 0);
	assert_true(before.st_ino == after.st_ino);
	names = sorted_listing(fx->dir);
	assert_string_equal(names, "series.csv summary.json tasks.csv");
	assert_seed(fx->dir, "2");
	around = sorted_listing(fx->root);
	assert_string_equal(around, "out");
}

/* A replaced folder keeps the old one's permissions. */
static void test_keeps_permissions(void **state)
{
	struct fixture *fx = *state;
	struct stat st;

	write_run(fx->dir, 1, FALSE);
	assert_int_equal(chmod(fx->dir, 0750), 0);
	write_run(fx->dir, 2, FALSE);
	assert_int_equal(stat(fx->dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0750);
	assert_seed(fx->dir, "2");
}

/* A temporary folder that a killed process of this host left is removed
 * by the next write of the same folder; one of a live process, of another
 * host or of another folder is left alone. */
static void test_orphans_removed(void **state)
{
	struct fixture *fx = *state;
	const char *host = g_get_host_name();
	/* above any pid_max (2^22): no such process */
	g_autofree char *dead = g_strdup_printf(".out.tmp.%s.99999999.AbCdEf",
						host);
	g_autofree char *live = g_strdup_printf(".out.tmp.%s.%ld.AbCdEf",
						host, (long)getpid());
	g_autofree char *other = g_strdup(".out.tmp.elsewhere.99999999.AbCdEf");
	g_autofree char *sibling = g_strdup_printf(
		".outer.tmp.%s.99999999.AbCdEf", host);
	const char *names[] = { dead, live, other, sibling };
	g_autofree char *left = NULL, *want = NULL;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *d = g_build_filename(fx->root, names[i], NULL);
		g_autofree char *f = g_build_filename(d, "timeline.json", NULL);

		assert_int_equal(g_mkdir(d, 0700), 0);
		assert_true(g_file_set_contents(f, "half", -1, NULL));
	}
	write_run(fx->dir, 1, FALSE);
	left = sorted_listing(fx->root);
	want = g_strdup_printf(".out.tmp.elsewhere.99999999.AbCdEf %s %s out",
			       live, sibling);
	assert_string_equal(left, want);
}

/* A folder name near NAME_MAX still gets a temporary sibling. */
static void test_long_name(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *name = g_strnfill(250, 'n');
	g_autofree char *dir = g_build_filename(fx->root, name, NULL);
	g_autofree char *around = NULL;

	write_run(dir, 1, FALSE);
	write_run(dir, 2, FALSE);
	assert_seed(dir, "2");
	around = sorted_listing(fx->root);
	assert_string_equal(around, name);
}

/* An update (a sweep's summary) replaces its own files only. */
static void test_update_leaves_other_files(void **state)
{
	static const char *const owned[] = { "a.txt", "b.txt", NULL };
	struct fixture *fx = *state;
	g_autoptr(GError) error = NULL;
	g_autofree char *other = g_build_filename(fx->dir, "c.txt", NULL);
	g_autofree char *names = NULL, *a = NULL;
	struct gs_outdir od;

	assert_int_equal(g_mkdir(fx->dir, 0700), 0);
	assert_true(g_file_set_contents(other, "c", -1, NULL));
	assert_true(gs_outdir_begin(&od, fx->dir, owned, false, &error));
	assert_true(gs_write_text_file(od.tmp, "a.txt", "new a", &error));
	assert_true(gs_write_text_file(od.tmp, "b.txt", "new b", &error));
	assert_true(gs_outdir_commit(&od, &error));
	names = sorted_listing(fx->dir);
	assert_string_equal(names, "a.txt b.txt c.txt");
	a = read_file(fx->dir, "a.txt");
	assert_string_equal(a, "new a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_failed_write_keeps_old_set,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_set_replaces_old_whole,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_folder_with_subfolder,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlinked_folder, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_working_directory, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_keeps_permissions, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_orphans_removed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_long_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_update_leaves_other_files,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
