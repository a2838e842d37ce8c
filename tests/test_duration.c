/* policies/duration.c, the kernel-clean duration parser, against the
 * loader's earlier parser kept here as the oracle (it computes in 128-bit
 * arithmetic, which the kernel-clean one may not): the same answer, value
 * and problem alike, for the edge cases and for a stream of generated
 * texts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "policies/duration.h"
#include "policies/param_value.h"

#define GS_NS_PER_US 1000ULL
#define GS_NS_PER_MS 1000000ULL
#define GS_NS_PER_S 1000000000ULL

__extension__ typedef unsigned __int128 ref_u128;

struct unit {
	const char *name;
	uint64_t ns; /* 0: cycles */
};

static const struct unit ref_units[] = {
	{ "ns", 1 },
	{ "us", GS_NS_PER_US },
	{ "ms", GS_NS_PER_MS },
	{ "s", GS_NS_PER_S },
	{ "cycles", 0 },
	{ "cycle", 0 },
};

/* The number is read as ip + fp / 10^scale (at most 18 fractional digits
 * that matter); the result must then be a whole number of nanoseconds, or
 * is rounded to the nearest nanosecond for cycles (which rarely divide
 * evenly). */
static int ref_parse(const char *text, uint64_t clock_hz, uint64_t *out)
{
	static const struct unit bare = { "", 1 };
	const char *s = text;
	uint64_t ip = 0, fp = 0, pow10 = 1;
	ref_u128 ns;
	const struct unit *u = NULL;
	bool digits = false, lost = false;
	size_t i;

	if (!s)
		return GS_DUR_SYNTAX;
	while (*s == ' ')
		s++;
	if (*s == '-')
		return GS_DUR_NEGATIVE;
	if (*s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (ip > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return GS_DUR_OVERFLOW;
		ip = ip * 10 + (uint64_t)(*s - '0');
		digits = true;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++) {
			digits = true;
			if (pow10 == 1000000000000000000ULL) {
				lost |= *s != '0';
				continue;
			}
			fp = fp * 10 + (uint64_t)(*s - '0');
			pow10 *= 10;
		}
	}
	if (!digits)
		return GS_DUR_SYNTAX;
	while (*s == ' ')
		s++;
	if (!*s)
		u = &bare;
	for (i = 0; !u && i < G_N_ELEMENTS(ref_units); i++) {
		size_t len = strlen(ref_units[i].name);
		const char *e = s + len;

		if (strncmp(s, ref_units[i].name, len))
			continue;
		while (*e == ' ')
			e++;
		if (!*e)
			u = &ref_units[i];
	}
	if (!u) {
		for (i = 0; s[i]; i++)
			if (!g_ascii_isalpha(s[i]) && s[i] != ' ')
				return GS_DUR_SYNTAX;
		return GS_DUR_UNIT;
	}
	if (lost)
		return GS_DUR_PRECISION;
	if (u->ns == 0) {
		/* (ip + fp / pow10) * 1e9 / clock, rounded to nearest. */
		ref_u128 num, den;

		if (!clock_hz)
			return GS_DUR_NO_CLOCK;
		if (pow10 > 1000000000ULL)
			return GS_DUR_PRECISION;
		if (ip > 1000000000000000000ULL)
			return GS_DUR_OVERFLOW;
		num = ((ref_u128)ip * pow10 + fp) * GS_NS_PER_S;
		den = (ref_u128)pow10 * clock_hz;
		ns = (num + den / 2) / den;
	} else {
		ref_u128 frac = (ref_u128)fp * u->ns;

		if (frac % pow10)
			return GS_DUR_PRECISION;
		ns = (ref_u128)ip * u->ns + frac / pow10;
	}
	if (ns > UINT64_MAX - 1) /* GS_TIME_NEVER is not a duration */
		return GS_DUR_OVERFLOW;
	*out = (uint64_t)ns;
	return GS_DUR_OK;
}


static void check(const char *text, uint64_t clock_hz)
{
	uint64_t want = 0xdead, got = 0xdead;
	int want_rc = ref_parse(text, clock_hz, &want);
	int got_rc = (int)gs_duration_parse(text, clock_hz, &got);

	if (want_rc != got_rc || want != got)
		fail_msg("'%s' at %llu Hz: want %d %llu, got %d %llu", text,
			 (unsigned long long)clock_hz, want_rc,
			 (unsigned long long)want, got_rc,
			 (unsigned long long)got);
}

static const uint64_t clocks[] = {
	0, 1, 2, 3, 7, 999999999, 1000000000, 1000000001, 705000000,
	1530000000, 0xffffffffULL, 18446744073709551557ULL,
	0xffffffffffffffffULL,
};

static void test_edge_cases(void **state)
{
	static const char *const texts[] = {
		"", " ", "0", "1", "25us", "1.5ms", "1.5 ms ", " +3s", "-1s",
		"1.", ".5us", ".", "+", "1e3", "1 2", "3 parsecs", "3 $",
		"305 cycles", "1 cycle", "0.5 cycles", "1.5 cycles",
		"1.0000000001 cycles", "1.000000000 cycles",
		"0.0000000000000000001s", "1.0000000000000000000s",
		"1.000000000000000000100s", "0.000000001s", "0.0000000001s",
		"18446744073709551614", "18446744073709551615",
		"18446744073709551616", "99999999999999999999999",
		"18446744073.709551614s", "18446744073.709551615s",
		"18446744073709551.614ms", "18446744073709551.6145ms",
		"1000000000000000000 cycles", "1000000000000000001 cycles",
		"18446744073709551614 cycles", "9.999999999 cycles",
		"0.999999999 cycles", "500000000.5 cycles", "2.5 cycles",
		"1 Cycles", "1 nss", "1 n s", "1 s s", "12\t", "1ms\n",
	};
	size_t i, k;
	(void)state;

	for (i = 0; i < G_N_ELEMENTS(texts); i++)
		for (k = 0; k < G_N_ELEMENTS(clocks); k++)
			check(texts[i], clocks[k]);
}

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Texts built from the pieces a duration is made of, most of them well
 * formed, at clocks from 1 Hz up. */
static void test_generated_texts(void **state)
{
	static const char *const unit_words[] = {
		"", "ns", "us", "ms", "s", "cycles", "cycle", "x", " ms", "m",
	};
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char text[96];
	int n;
	(void)state;

	for (n = 0; n < 200000; n++) {
		size_t len = 0;
		uint32_t digits = (uint32_t)(next(&x) % 24), frac, i;
		uint64_t clock = next(&x) % 4 == 0 ? clocks[next(&x) % 13]
						   : next(&x) >> (next(&x) % 64);

		if (next(&x) % 8 == 0)
			text[len++] = " +-"[next(&x) % 3];
		for (i = 0; i < digits; i++)
			text[len++] = (char)('0' + (next(&x) % 4 ? next(&x) % 10
								 : 9));
		frac = next(&x) % 3 ? 0 : (uint32_t)(next(&x) % 24);
		if (frac || next(&x) % 16 == 0)
			text[len++] = '.';
		for (i = 0; i < frac; i++)
			text[len++] = (char)('0' + (next(&x) % 2 ? 0
							      : next(&x) % 10));
		if (next(&x) % 4 == 0)
			text[len++] = ' ';
		g_strlcpy(text + len,
			  unit_words[next(&x) % G_N_ELEMENTS(unit_words)],
			  sizeof(text) - len);
		check(text, clock);
	}
}

/* Every registered policy's defaults parse as every environment reads
 * them: durations with no clock (the kernel module has none). */
static void test_every_default_parses(void **state)
{
	const struct gs_policy_ops *const *ops;
	hal_u64 values[GS_MAX_PARAMS];
	(void)state;

	for (ops = gs_policy_registry; *ops; ops++) {
		assert_true((*ops)->n_params <= GS_MAX_PARAMS);
		if (gs_param_defaults(*ops, values) < 0)
			fail_msg("policy %s: a malformed default", (*ops)->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_generated_texts),
		cmocka_unit_test(test_every_default_parses),
	};
	return cmocka_run_group_tests_name("duration", tests, NULL, NULL);
}
