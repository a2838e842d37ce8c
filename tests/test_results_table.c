/* Result writers: the table printed at the end of a run. */
#include "tests/support/results_fixture.h"

/* The first of lines that starts with prefix. */
static const char *line_starting(char **lines, const char *prefix)
{
	for (; *lines; lines++)
		if (g_str_has_prefix(*lines, prefix))
			return *lines;
	fail_msg("no line starts with %s", prefix);
	return NULL;
}

static char **words(const char *line)
{
	g_auto(GStrv) raw = g_strsplit_set(line, " ", -1);
	GPtrArray *w = g_ptr_array_new();
	char **p;

	for (p = raw; *p; p++)
		if (**p)
			g_ptr_array_add(w, g_strdup(*p));
	g_ptr_array_add(w, NULL);
	return (char **)g_ptr_array_free(w, FALSE);
}

static void test_table(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = print_table(&fx->r);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	g_auto(GStrv) head = NULL, alpha = NULL, b = NULL;
	const char *header;
	size_t width;

	assert_string_equal(lines[0], "two-vms: policy dfq, seed 42, "
			    "2.000 s simulated, 123456 events");
	header = line_starting(lines, "task ");
	head = words(header);
	alpha = words(line_starting(lines, "alpha "));
	b = words(line_starting(lines, "b,\"q\" "));
	assert_int_equal(g_strv_length(head), 10);
	assert_int_equal(g_strv_length(alpha), 10);
	assert_int_equal(g_strv_length(b), 10);
	assert_string_equal(head[7], "slowdn");

	/* alpha: no VM, 1.5 ms rounds, 600 ms, 60 %, no estimate. */
	assert_string_equal(alpha[1], "-");
	assert_string_equal(alpha[4], "1500.0");
	assert_string_equal(alpha[5], "600.000");
	assert_string_equal(alpha[6], "60.0%");
	assert_string_equal(alpha[7], "1.50x");
	assert_string_equal(alpha[8], "-");
	assert_string_equal(alpha[9], "no");
	/* b: NAN round time and slowdown, an estimate, killed. */
	assert_string_equal(b[1], "vm1");
	assert_string_equal(b[4], "-");
	assert_string_equal(b[7], "-");
	assert_string_equal(b[8], "390.000");
	assert_string_equal(b[9], "yes");
	assert_non_null(line_starting(lines, "gamma "));

	/* Aligned, and within 80 columns for short names. */
	width = strlen(header);
	assert_true(width <= 80);
	assert_int_equal(strlen(line_starting(lines, "alpha ")), width);
	assert_int_equal(strlen(line_starting(lines, "gamma ")), width);

	assert_true(g_str_has_suffix(line_starting(lines,
		"  Jain's fairness index"), " 0.9000"));
	assert_true(g_str_has_suffix(line_starting(lines,
		"  accounting error"), " -"));
	assert_true(g_str_has_suffix(line_starting(lines, "  energy"),
				     " -"));
	assert_true(g_str_has_suffix(line_starting(lines,
		"  context switches"), " 1234"));
	assert_true(g_str_has_suffix(line_starting(lines,
		"  GPU utilization"), " 50.0 %"));
}

/* A 16-character name with wide figures (a 10 s run, a 100 % share) still
 * fits an 80-column terminal. */
static void test_table_fits_80_columns(void **state)
{
	struct fixture *fx = *state;
	struct gs_task_result *t = &fx->r.tasks[0];
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	char **l;

	g_free(t->name);
	t->name = g_strdup("sixteen-chars-ab");
	t->vm = g_strdup("vm12");
	t->rounds = 123456;
	t->round_mean_ns = 12345678.9;
	t->gpu_time_ns = 9999000000ULL;
	t->has_accounted = true;
	t->accounted_gpu_time_ns = 9999000000ULL;
	t->gpu_share = 1.0;
	t->slowdown = 12.34;
	text = print_table(&fx->r);
	lines = g_strsplit(text, "\n", -1);
	assert_non_null(strstr(text, "sixteen-chars-ab vm12"));
	for (l = lines; *l; l++)
		if (strlen(*l) > 80)
			fail_msg("%zu columns: %s", strlen(*l), *l);
}

static void test_table_widens_for_long_names(void **state)
{
	static const char long_name[] = "a-rather-long-task-name-of-40-chars!!!!";
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	const char *header, *row, *b;

	g_free(fx->r.tasks[0].name);
	fx->r.tasks[0].name = g_strdup(long_name);
	text = print_table(&fx->r);
	lines = g_strsplit(text, "\n", -1);
	header = line_starting(lines, "task ");
	row = line_starting(lines, long_name);
	b = line_starting(lines, "b,\"q\" ");
	assert_int_equal(strlen(row), strlen(header));
	assert_int_equal(strlen(b), strlen(header));
	/* The vm column starts at the same place in the header and rows. */
	assert_int_equal(strstr(header, " vm ") + 1 - header,
			 strstr(b, " vm1 ") + 1 - b);
}

/* A name with multi-byte characters is padded by characters, not bytes. */
static void test_table_pads_utf8_names(void **state)
{
	struct fixture *fx = *state;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	const char *header, *row;

	g_free(fx->r.tasks[0].name);
	fx->r.tasks[0].name = g_strdup("\xc3\xa9t\xc3\xa9-long-name");
	text = print_table(&fx->r);
	lines = g_strsplit(text, "\n", -1);
	header = line_starting(lines, "task ");
	row = line_starting(lines, "\xc3\xa9t\xc3\xa9");
	assert_int_equal(g_utf8_strlen(row, -1), g_utf8_strlen(header, -1));
}

/* Lines of text that start with prefix. */
static unsigned count_lines(char **lines, const char *prefix)
{
	unsigned n = 0;

	for (; *lines; lines++)
		n += g_str_has_prefix(*lines, prefix);
	return n;
}

/* Tasks named "many#I" with a name width that grows with I, added to the
 * fixture's results (which then hold their own tasks first). */
static void add_many(struct gs_results *r, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		g_autofree char *name = g_strdup_printf("many#%u", i);
		struct gs_task_result t = { .name = name, .gpu = 0 };

		t.rounds = i;
		t.round_mean_ns = NAN;
		t.slowdown = NAN;
		add_task(r, &t);
	}
}

/* Past max_rows, each of the three task tables shows the first max_rows
 * tasks and says how many are left; columns are sized by the rows shown
 * (a wide name past the cut does not widen the table); 0 shows all. */
static void test_table_rows_capped(void **state)
{
	struct fixture *fx = *state;
	uint32_t before = fx->r.n_tasks, more;
	g_autofree char *capped = NULL, *all = NULL, *more_line = NULL;
	g_auto(GStrv) lines = NULL, all_lines = NULL;
	const char *header;

	add_many(&fx->r, 2 * GS_TABLE_ROWS_DEFAULT);
	g_free(fx->r.tasks[fx->r.n_tasks - 1].name);
	fx->r.tasks[fx->r.n_tasks - 1].name =
		g_strdup("a-name-far-wider-than-any-shown-above-it");
	more = fx->r.n_tasks - GS_TABLE_ROWS_DEFAULT;
	capped = print_table(&fx->r);
	lines = g_strsplit(capped, "\n", -1);
	/* the fixture's own tasks come first: all shown */
	assert_true(before < GS_TABLE_ROWS_DEFAULT);
	assert_int_equal(count_lines(lines, "many#"),
			 3 * (GS_TABLE_ROWS_DEFAULT - before));
	assert_int_equal(count_lines(lines, "many#"
				     G_STRINGIFY(GS_TABLE_ROWS_DEFAULT) " "),
			 0);
	assert_null(strstr(capped, "a-name-far-wider"));
	more_line = g_strdup_printf("... and %u more tasks (every task is in "
				    "tasks.csv and summary.json; --rows=0 "
				    "prints all here)", more);
	assert_int_equal(count_lines(lines, more_line), 3);
	header = line_starting(lines, "task ");
	assert_true((size_t)(strstr(header, " vm ") - header) <
		    strlen("a-name-far-wider-than-any-shown-above-it"));
	/* the metrics still follow */
	assert_int_equal(count_lines(lines, "  Jain's fairness index"), 1);

	all = print_table_rows(&fx->r, 0);
	all_lines = g_strsplit(all, "\n", -1);
	/* all but the one renamed, in each of the three tables */
	assert_int_equal(count_lines(all_lines, "many#"),
			 3 * (2 * GS_TABLE_ROWS_DEFAULT - 1));
	assert_int_equal(count_lines(all_lines, "... and"), 0);
	assert_non_null(strstr(all, "a-name-far-wider"));
	/* a cap of exactly the tasks there are cuts nothing */
	g_free(capped);
	capped = print_table_rows(&fx->r, fx->r.n_tasks);
	assert_string_equal(capped, all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_fits_80_columns,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_table_widens_for_long_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_pads_utf8_names,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_table_rows_capped,
						setup, teardown),
	
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
