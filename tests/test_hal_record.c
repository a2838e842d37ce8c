/* policies/replay/hal_record.c: the line format the recorder writes and
 * the replay reads back (docs/hal-record.md). A call must be written the
 * same way by both, and every value must read back as it was written. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "policies/replay/hal_record.h"

#define V(...) ((const hal_u64[]){ __VA_ARGS__ })

static const char *call(char *buf, hal_u32 size, const char *name,
			const char *kinds, const hal_u64 *args,
			const char *okinds, const hal_u64 *outs)
{
	struct hrec_out o = { .buf = buf, .size = size };

	hrec_reset(&o);
	hrec_call(&o, name, kinds, args, okinds, outs);
	assert_false(o.overflow);
	return buf;
}

static void test_calls_are_written_by_kind(void **state)
{
	char buf[256];
	(void)state;

	assert_string_equal(call(buf, sizeof(buf), "hal_now", NULL, NULL, "u",
				 V(12345)), "hal_now = 12345");
	assert_string_equal(call(buf, sizeof(buf), "hal_trap_arm", "c", V(3),
				 NULL, NULL), "hal_trap_arm c3");
	/* no channel is '-', a task t<N>, a signed value with its sign */
	assert_string_equal(call(buf, sizeof(buf), "hal_chan_lookup", "uu",
				 V(0, 7), "c", V(0)),
			    "hal_chan_lookup 0 7 = -");
	assert_string_equal(call(buf, sizeof(buf), "hal_vm_parent", "i",
				 V((hal_u64)-1), "i", V((hal_u64)-2)),
			    "hal_vm_parent -1 = -2");
	assert_string_equal(call(buf, sizeof(buf), "hal_account", "tu",
				 V(2, UINT64_MAX), NULL, NULL),
			    "hal_account t2 18446744073709551615");
	assert_string_equal(call(buf, sizeof(buf), "hal_read_engine_status",
				 "uu", V(0, 1), "uuuu",
				 V(0xffffffffu, 4, 1, 0)),
			    "hal_read_engine_status 0 1 = 4294967295 4 1 0");
}

/* Strings are one token: what would split it or be read as "none" is
 * escaped, and decodes back to the same bytes. */
static void test_strings_escape_and_read_back(void **state)
{
	static const struct {
		const char *text, *written;
	} cases[] = {
		{ "drain", "drain" },
		{ "slice a", "slice%20a" },
		{ "100%", "100%25" },
		{ "-", "%2D" },
		{ "", "-" },
		{ "a\nb\tc", "a%0Ab%09c" },
		{ "\xc3\xa9t\xc3\xa9", "%C3%A9t%C3%A9" },
	};
	size_t i;
	(void)state;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[64], back[64];
		struct hrec_out o = { .buf = buf, .size = sizeof(buf) };
		hal_u32 n;

		hrec_reset(&o);
		hrec_value(&o, 's', (hal_u64)(uintptr_t)cases[i].text);
		assert_string_equal(buf + 1, cases[i].written);
		n = hrec_unescape(buf + 1, (hal_u32)strlen(buf + 1), back,
				  sizeof(back));
		assert_int_equal(n, strlen(cases[i].text));
		assert_string_equal(back, cases[i].text);
	}
}

static void test_values_parse_back(void **state)
{
	const char *line = "t12 c4 - -9223372036854775808 18446744073709551615";
	struct hrec_in in = { line, line + strlen(line) };
	hal_u64 v;
	(void)state;

	assert_int_equal(hrec_parse(&in, 't', &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(hrec_parse(&in, 'c', &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(hrec_parse(&in, 'c', &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(hrec_parse(&in, 'i', &v), 0);
	assert_int_equal((int64_t)v, INT64_MIN);
	assert_int_equal(hrec_parse(&in, 'u', &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(hrec_parse(&in, 'u', &v), -1); /* the end */
}

static void test_malformed_values_are_refused(void **state)
{
	static const struct {
		char kind;
		const char *text;
	} cases[] = {
		{ 'u', "18446744073709551616" }, /* 2^64 */
		{ 'u', "12a" },
		{ 'u', "-1" },
		{ 't', "t" },
		{ 't', "c3" },
		{ 'c', "t3" },
		{ 'i', "-" },
	};
	size_t i;
	(void)state;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hrec_in in = { cases[i].text,
				      cases[i].text + strlen(cases[i].text) };
		hal_u64 v;

		assert_int_equal(hrec_parse(&in, cases[i].kind, &v), -1);
	}
}

/* A line that does not fit is cut and said to be: the recorder refuses
 * to write it rather than write one the replay reads otherwise. */
static void test_a_long_line_overflows(void **state)
{
	char buf[12];
	struct hrec_out o = { .buf = buf, .size = sizeof(buf) };
	(void)state;

	hrec_reset(&o);
	hrec_call(&o, "hal_timer_arm", "uu", V(1, 2), NULL, NULL);
	assert_true(o.overflow);
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calls_are_written_by_kind),
		cmocka_unit_test(test_strings_escape_and_read_back),
		cmocka_unit_test(test_values_parse_back),
		cmocka_unit_test(test_malformed_values_are_refused),
		cmocka_unit_test(test_a_long_line_overflows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
