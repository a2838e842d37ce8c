/* gs_jsonw_key() (a key whose length the caller gives, copied without a
 * scan or a call) and the integers and doubles put straight into the
 * writer's buffer, against json-glib's generator: keys of every length
 * the short copy handles and beyond, at every depth of its fast path and
 * beyond, with the buffer's end falling at every point of a member. */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/results/json_writer.h"

#define KEY_LEN_MAX 24  /* past the short copy's 16 bytes */
#define OBJECTS 97      /* about 50 KB a document: six buffers' ends */

static const char letters[] = "abcdefghijklmnopqrstuvwxyz";

/* The key of length len: one letter repeated, so each length is its own
 * member name. */
static void key_of(char *k, unsigned len)
{
	memset(k, letters[len % 26], len);
	k[len] = '\0';
}

static int64_t int_of(unsigned obj, unsigned len)
{
	int64_t v = (int64_t)(obj * 7919u + len * 104729u);

	return len % 3 == 0 ? -v : len == 5 ? INT64_MIN : v * 1000003;
}

static double double_of(unsigned obj, unsigned len)
{
	return len == 7 ? 1e20 : (double)obj / (len + 1) + 0.1;
}

/* depth - 1 objects nested by "o", then an array of OBJECTS objects of
 * KEY_LEN_MAX + 1 members each: ints at even lengths, doubles at odd. */
static char *play_writer(unsigned depth)
{
	char *buf = NULL, k[KEY_LEN_MAX + 1];
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct gs_jsonw w;
	unsigned d, o, len;

	assert_non_null(f);
	gs_jsonw_init(&w, f);
	gs_jsonw_begin_object(&w);
	for (d = 1; d < depth; d++) {
		gs_jsonw_key(&w, "o", 1);
		gs_jsonw_begin_object(&w);
	}
	GS_JSONW_KEY(&w, "list");
	gs_jsonw_begin_array(&w);
	for (o = 0; o < OBJECTS; o++) {
		gs_jsonw_begin_object(&w);
		for (len = 0; len <= KEY_LEN_MAX; len++) {
			key_of(k, len);
			gs_jsonw_key(&w, k, len);
			if (len % 2 == 0)
				gs_jsonw_int(&w, int_of(o, len));
			else
				gs_jsonw_double(&w, double_of(o, len));
		}
		gs_jsonw_end(&w);
	}
	gs_jsonw_end(&w);
	for (d = 0; d < depth; d++)
		gs_jsonw_end(&w);
	gs_jsonw_finish(&w);
	fclose(f);
	return buf;
}

static char *play_json_glib(unsigned depth)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = NULL;
	char k[KEY_LEN_MAX + 1];
	unsigned d, o, len;

	json_builder_begin_object(b);
	for (d = 1; d < depth; d++) {
		json_builder_set_member_name(b, "o");
		json_builder_begin_object(b);
	}
	json_builder_set_member_name(b, "list");
	json_builder_begin_array(b);
	for (o = 0; o < OBJECTS; o++) {
		json_builder_begin_object(b);
		for (len = 0; len <= KEY_LEN_MAX; len++) {
			key_of(k, len);
			json_builder_set_member_name(b, k);
			if (len % 2 == 0)
				json_builder_add_int_value(b, int_of(o, len));
			else
				json_builder_add_double_value(
					b, double_of(o, len));
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	for (d = 0; d < depth; d++)
		json_builder_end_object(b);
	root = json_builder_get_root(b);
	json_generator_set_pretty(gen, TRUE);
	json_generator_set_indent(gen, 2);
	json_generator_set_indent_char(gen, ' ');
	json_generator_set_root(gen, root);
	return json_generator_to_data(gen, NULL);
}

/* Depths 1 to 10: the fast path's members go up to depth 8 (their
 * indent in one 16-byte copy), deeper ones the general way. */
static void test_keys_of_every_length_at_every_depth(void **state)
{
	unsigned depth;

	(void)state;
	for (depth = 1; depth <= 10; depth++) {
		g_autofree char *mine = play_writer(depth);
		g_autofree char *theirs = play_json_glib(depth);

		assert_string_equal(mine, theirs);
	}
}

/* Into a part's buffer (summary_parts.h) as into a file. */
static void test_keys_into_a_part(void **state)
{
	g_autoptr(GString) mem = g_string_new(NULL);
	struct gs_jsonw top, w;

	(void)state;
	gs_jsonw_init(&top, NULL);
	top.depth = 0;
	gs_jsonw_init_part(&w, mem, &top);
	gs_jsonw_begin_object(&w);
	GS_JSONW_KEY(&w, "n");
	gs_jsonw_int(&w, -12);
	GS_JSONW_KEY(&w, "exactly_16_bytes");
	gs_jsonw_double(&w, 2);
	GS_JSONW_KEY(&w, "seventeen_bytes_k");
	gs_jsonw_double(&w, 0.5);
	gs_jsonw_end(&w);
	gs_jsonw_finish(&w);
	assert_string_equal(mem->str, "{\n  \"n\" : -12,\n"
				      "  \"exactly_16_bytes\" : 2.0,\n"
				      "  \"seventeen_bytes_k\" : 0.5\n}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_of_every_length_at_every_depth),
		cmocka_unit_test(test_keys_into_a_part),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
