/* The streaming JSON writer (sim/results/json_writer.c) against
 * json-glib's generator, which wrote summary.json before it: the same
 * documents must come out as the same bytes. */
#include "tests/support/results_fixture.h"

#include <float.h>

#include "sim/results/json_writer.h"

/* A document as a list of steps, played to both writers. */
enum step_kind { OBJ, ARR, END, KEY, STR, INT, DBL, BOOL, NUL };

struct step {
	enum step_kind kind;
	const char *s;
	int64_t i;
	double d;
};

#define S_OBJ { OBJ, NULL, 0, 0 }
#define S_ARR { ARR, NULL, 0, 0 }
#define S_END { END, NULL, 0, 0 }
#define S_KEY(k) { KEY, k, 0, 0 }
#define S_STR(v) { STR, v, 0, 0 }
#define S_INT(v) { INT, NULL, v, 0 }
#define S_DBL(v) { DBL, NULL, 0, v }
#define S_BOOL(v) { BOOL, NULL, v, 0 }
#define S_NUL { NUL, NULL, 0, 0 }

static char *play_writer(const struct step *st, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct gs_jsonw w;
	size_t i;

	assert_non_null(f);
	gs_jsonw_init(&w, f);
	for (i = 0; i < n; i++) {
		switch (st[i].kind) {
		case OBJ:  gs_jsonw_begin_object(&w); break;
		case ARR:  gs_jsonw_begin_array(&w); break;
		case END:  gs_jsonw_end(&w); break;
		case KEY:  gs_jsonw_member(&w, st[i].s); break;
		case STR:  gs_jsonw_string(&w, st[i].s); break;
		case INT:  gs_jsonw_int(&w, st[i].i); break;
		case DBL:  gs_jsonw_double(&w, st[i].d); break;
		case BOOL: gs_jsonw_bool(&w, st[i].i != 0); break;
		case NUL:  gs_jsonw_null(&w); break;
		}
	}
	assert_int_equal(w.depth, 0);
	gs_jsonw_finish(&w);
	fclose(f);
	return buf;
}

/* The generator's settings summary.json was written with. */
static char *generate(JsonNode *root)
{
	g_autoptr(JsonGenerator) gen = json_generator_new();

	json_generator_set_pretty(gen, TRUE);
	json_generator_set_indent(gen, 2);
	json_generator_set_indent_char(gen, ' ');
	json_generator_set_root(gen, root);
	return json_generator_to_data(gen, NULL);
}

static char *play_json_glib(const struct step *st, size_t n)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	bool array[GS_JSONW_MAX_DEPTH]; /* the builder ends each kind apart */
	unsigned depth = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		switch (st[i].kind) {
		case OBJ:
			json_builder_begin_object(b);
			array[depth++] = false;
			break;
		case ARR:
			json_builder_begin_array(b);
			array[depth++] = true;
			break;
		case END:
			if (array[--depth])
				json_builder_end_array(b);
			else
				json_builder_end_object(b);
			break;
		case KEY:  json_builder_set_member_name(b, st[i].s); break;
		case STR:  json_builder_add_string_value(b, st[i].s); break;
		case INT:  json_builder_add_int_value(b, st[i].i); break;
		case DBL:  json_builder_add_double_value(b, st[i].d); break;
		case BOOL: json_builder_add_boolean_value(b, st[i].i); break;
		case NUL:  json_builder_add_null_value(b); break;
		}
	}
	root = json_builder_get_root(b);
	return generate(root);
}

static void assert_same_as_json_glib(const struct step *st, size_t n)
{
	g_autofree char *mine = play_writer(st, n);
	g_autofree char *theirs = play_json_glib(st, n);

	assert_string_equal(mine, theirs);
}

static char all_controls[128];

static void test_strings(void **state)
{
	const struct step doc[] = {
		S_OBJ,
		S_KEY("controls"), S_STR(all_controls),
		S_KEY("quotes \"and\\ back"), S_STR("a\"b\\c/d"),
		S_KEY("utf8"), S_STR("caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80"),
		S_KEY("empty"), S_STR(""),
		S_KEY(""), S_STR("empty key"),
		S_END,
	};
	int c;

	(void)state;
	for (c = 1; c < 128; c++)
		all_controls[c - 1] = (char)c;
	assert_same_as_json_glib(doc, G_N_ELEMENTS(doc));
}

static void test_integers(void **state)
{
	const struct step doc[] = {
		S_ARR, S_INT(0), S_INT(-1), S_INT(7), S_INT(1234567890123),
		S_INT(INT64_MAX), S_INT(INT64_MIN), S_INT(-9), S_END,
	};

	(void)state;
	assert_same_as_json_glib(doc, G_N_ELEMENTS(doc));
}

/* "%.17g", and ".0" after any text without a point, even an exponent:
 * 1e20 comes out as json-glib 1.6 writes it, "1e+20.0". */
static void test_doubles(void **state)
{
	const struct step doc[] = {
		S_ARR, S_DBL(0.0), S_DBL(-0.0), S_DBL(1.0), S_DBL(0.1),
		S_DBL(1.0 / 3), S_DBL(-2.5), S_DBL(123456.789),
		S_DBL(1e16), S_DBL(1e17), S_DBL(1e20), S_DBL(1e-7),
		S_DBL(5e-324), S_DBL(DBL_MAX), S_DBL(-DBL_MIN),
		S_DBL(9007199254740993.0), S_DBL(0.6), S_DBL(250000.5),
		S_END,
	};

	(void)state;
	assert_same_as_json_glib(doc, G_N_ELEMENTS(doc));
}

/* Empty containers at several depths: "[]" but "{" indent "}". */
static void test_nesting(void **state)
{
	const struct step doc[] = {
		S_OBJ,
		S_KEY("empty_object"), S_OBJ, S_END,
		S_KEY("empty_array"), S_ARR, S_END,
		S_KEY("list"), S_ARR,
			S_OBJ, S_END,
			S_ARR, S_END,
			S_OBJ, S_KEY("deep"), S_OBJ,
				S_KEY("x"), S_ARR, S_OBJ, S_END, S_END,
				S_KEY("t"), S_BOOL(1), S_KEY("f"), S_BOOL(0),
				S_KEY("n"), S_NUL,
			S_END, S_END,
			S_ARR, S_ARR, S_INT(1), S_END, S_STR("s"), S_END,
			S_NUL,
		S_END,
		S_END,
	};
	const struct step empty_root[] = { S_OBJ, S_END };
	const struct step empty_list[] = { S_ARR, S_END };

	(void)state;
	assert_same_as_json_glib(doc, G_N_ELEMENTS(doc));
	assert_same_as_json_glib(empty_root, G_N_ELEMENTS(empty_root));
	assert_same_as_json_glib(empty_list, G_N_ELEMENTS(empty_list));
}

/* Longer than the writer's buffer: a string of its own and many short
 * values that cross it. */
static void test_beyond_the_buffer(void **state)
{
	enum { LONG = 3 * GS_JSONW_BUFSZ, MANY = 5000 };
	struct step *doc = g_new(struct step, MANY + 8);
	char *big = g_malloc(LONG + 1);
	size_t n = 0, i;

	(void)state;
	memset(big, 'x', LONG);
	big[LONG] = '\0';
	big[GS_JSONW_BUFSZ] = '"'; /* an escape at the seam */
	doc[n++] = (struct step)S_ARR;
	doc[n++] = (struct step)S_STR(big);
	for (i = 0; i < MANY; i++)
		doc[n++] = (struct step)S_INT((int64_t)i * 7919);
	doc[n++] = (struct step)S_STR(big);
	doc[n++] = (struct step)S_END;
	assert_same_as_json_glib(doc, n);
	g_free(doc);
	g_free(big);
}

/* Members whose keys are put straight into the buffer, at every offset
 * of its end and at depths 1 and 2, among keys that need escapes (the
 * other way): json-glib's bytes throughout. Keys are unique (json-glib
 * keeps one member of a name). */
static void test_members_beyond_the_buffer(void **state)
{
	enum { MANY = 3000 };
	static const char *const stems[] = {
		"n", "p50", "round_mean_ns", "accounted_gpu_time_ns", "tab\t",
	};
	struct step *doc = g_new(struct step, 4 * MANY + 16);
	g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);
	size_t n = 0, i;

	(void)state;
	for (i = 0; i < MANY; i++)
		g_ptr_array_add(keys, g_strdup_printf(
			"%s%zu", stems[i % G_N_ELEMENTS(stems)], i));
	doc[n++] = (struct step)S_OBJ;
	for (i = 0; i < MANY; i++) {
		doc[n++] = (struct step)S_KEY(g_ptr_array_index(keys, i));
		if (i % 7 == 0) { /* a nested object of one member */
			doc[n++] = (struct step)S_OBJ;
			doc[n++] = (struct step)S_KEY(stems[(i / 7) % 4]);
			doc[n++] = (struct step)S_INT((int64_t)i);
			doc[n++] = (struct step)S_END;
		} else {
			doc[n++] = (struct step)S_INT((int64_t)i * 31);
		}
	}
	doc[n++] = (struct step)S_END;
	assert_same_as_json_glib(doc, n);
	g_free(doc);
}

/* What does not exist is null, as summary.json wrote it before; json-glib
 * itself would write "nan.0", which is not JSON. */
static void test_non_finite_doubles_are_null(void **state)
{
	const struct step doc[] = {
		S_ARR, S_DBL(NAN), S_DBL(INFINITY), S_DBL(-INFINITY), S_END,
	};
	g_autofree char *mine = NULL;

	(void)state;
	mine = play_writer(doc, G_N_ELEMENTS(doc));
	assert_string_equal(mine, "[\n  null,\n  null,\n  null\n]");
}

/* --- a whole summary.json ------------------------------------------------
 * json-glib reads the file and writes it again: the same bytes, when the
 * file was in its format (member order and numbers survive the trip). */

static void assert_summary_regenerates(const struct gs_results *r)
{
	g_autofree char *text = NULL;
	g_autofree char *again = NULL;
	g_autoptr(JsonNode) root = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_true(gs_results_fill_summary(r, f, NULL));
	fclose(f);
	root = parse_json(text);
	again = generate(root);
	assert_true(len > 0 && text[len - 1] == '\n');
	text[len - 1] = '\0';
	assert_string_equal(text, again);
}

static void test_summary_fixture(void **state)
{
	struct fixture *fx = *state;

	assert_summary_regenerates(&fx->r);
}

/* Every optional group: node figures, GPUs, VMs, estimates, warnings. */
static void test_summary_every_group(void **state)
{
	struct fixture *fx = *state;
	struct gs_results *r = &fx->r;
	struct gs_task_result *t = &r->tasks[0];

	r->invariant_violation = g_strdup("queue \"q\" went below zero\n");
	r->policy_warnings = 3;
	r->policy_warning = g_strdup("odd\tstate");
	r->node_report = true;
	r->gpus = g_new0(struct gs_gpu_result, 2);
	r->gpus[0] = (struct gs_gpu_result){ 1, 2, 3, 4, 5, 0.25, 0.5 };
	r->gpus[1] = (struct gs_gpu_result){ 0, 0, 0, 0, 0, NAN, 1.0 };
	r->n_vms = 1;
	r->vms = g_new0(struct gs_vm_result, 1);
	r->vms[0] = (struct gs_vm_result){ g_strdup("vm\xff"), NULL, 0.3,
					   1e-9, NAN, 0.0 };
	t->has_fair = true;
	t->fair_share = 0.5;
	t->fair_slowdown = 2.0;
	t->has_monitored = true;
	t->declared_demand = 0.7;
	t->monitored_demand = 0.65;
	r->metrics.monitor_accuracy = 0.93;
	r->metrics.utime = 0.125;
	r->metrics.estimates[1] = (struct gs_estimate_result){ 4, 0.1, 0.3 };
	assert_summary_regenerates(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_beyond_the_buffer),
		cmocka_unit_test(test_members_beyond_the_buffer),
		cmocka_unit_test(test_non_finite_doubles_are_null),
		cmocka_unit_test_setup_teardown(test_summary_fixture, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_summary_every_group,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
