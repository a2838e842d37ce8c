/* gs_duration_parse (duration.h). The number is read as its integer part
 * and its fractional digits, kept as text: a unit of 10^e ns takes the
 * first e fractional digits and needs every later one to be 0, so no
 * division is needed for exactness; cycles are the one conversion that
 * divides (by the clock, through hal_mul_div64 / hal_div64). */
#include "duration.h"

#define NS_PER_S 1000000000ULL
#define U64_MAX_ 0xffffffffffffffffULL
/* Fractional digits that count (as many as fit a 64-bit number); a
 * nonzero digit past them cannot be a whole nanosecond in any unit. */
#define MAX_FRAC_DIGITS 18

struct unit {
	const char *name;
	hal_u32 exp10;   /* the unit is 10^exp10 ns */
	hal_u8 cycles;
};

static const struct unit units[] = {
	{ "ns", 0, 0 }, { "us", 3, 0 }, { "ms", 6, 0 }, { "s", 9, 0 },
	{ "cycles", 0, 1 }, { "cycle", 0, 1 },
};

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

/* The unit `s` names exactly (trailing spaces allowed), or 0. */
static const struct unit *unit_named(const char *s)
{
	hal_u32 i, n;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		const char *name = units[i].name;

		for (n = 0; name[n] && s[n] == name[n]; n++)
			;
		if (!name[n] && !*skip_spaces(s + n))
			return &units[i];
	}
	return 0;
}

/* The first `n` fractional digits as a number (missing ones are 0). */
static hal_u64 frac_value(const char *frac, hal_u32 len, hal_u32 n)
{
	hal_u64 v = 0;
	hal_u32 i;

	for (i = 0; i < n; i++)
		v = v * 10 + (hal_u64)(i < len ? frac[i] - '0' : 0);
	return v;
}

/* Some fractional digit from position `from` on is not 0. */
static int frac_nonzero_from(const char *frac, hal_u32 len, hal_u32 from)
{
	hal_u32 i;

	for (i = from; i < len; i++)
		if (frac[i] != '0')
			return 1;
	return 0;
}

/* round((ip + frac / 10^len) s * clock_hz^-1), half up: with
 * F = frac x 10^(9 - len) (len <= 9), (ip x 10^9 + F) / clock. */
static enum gs_dur_problem cycles_to_ns(hal_u64 ip, const char *frac,
					hal_u32 len, hal_u64 clock,
					hal_u64 *out)
{
	hal_u64 f = frac_value(frac, len, 9), q, r, q2, r2;

	if (ip > 1000000000000000000ULL)
		return GS_DUR_OVERFLOW;
	/* the quotient ip x 10^9 / clock must fit in 64 bits */
	if (clock < NS_PER_S && ip > hal_mul_div64(clock, U64_MAX_, NS_PER_S))
		return GS_DUR_OVERFLOW;
	q = hal_mul_div64(ip, NS_PER_S, clock);
	r = ip * NS_PER_S - q * clock; /* exact modulo 2^64, and < clock */
	q2 = hal_div64(f, clock);
	r2 = f - q2 * clock;
	if (q + q2 < q)
		return GS_DUR_OVERFLOW;
	q += q2;
	if (r + r2 < r || r + r2 >= clock) {
		r = r + r2 - clock;
		if (++q == 0)
			return GS_DUR_OVERFLOW;
	} else {
		r += r2;
	}
	if (r >= clock - (clock >> 1) && ++q == 0)
		return GS_DUR_OVERFLOW;
	if (q == U64_MAX_)
		return GS_DUR_OVERFLOW;
	*out = q;
	return GS_DUR_OK;
}

enum gs_dur_problem gs_duration_parse(const char *text, hal_u64 clock_hz,
				      hal_u64 *out)
{
	const char *s = text, *frac = 0;
	const struct unit *u;
	hal_u32 len = 0, i;
	hal_u64 ip = 0, unit_ns = 1, f;
	int digits = 0;

	if (!s)
		return GS_DUR_SYNTAX;
	s = skip_spaces(s);
	if (*s == '-')
		return GS_DUR_NEGATIVE;
	if (*s == '+')
		s++;
	for (; is_digit(*s); s++) {
		hal_u64 d = (hal_u64)(*s - '0');

		if (ip > hal_div64(U64_MAX_ - d, 10))
			return GS_DUR_OVERFLOW;
		ip = ip * 10 + d;
		digits = 1;
	}
	if (*s == '.') {
		frac = ++s;
		for (; is_digit(*s); s++)
			len++;
		digits |= len > 0;
	}
	if (!digits)
		return GS_DUR_SYNTAX;
	s = skip_spaces(s);
	u = *s ? unit_named(s) : &units[0];
	if (!u) {
		for (i = 0; s[i]; i++)
			if (!is_alpha(s[i]) && s[i] != ' ')
				return GS_DUR_SYNTAX;
		return GS_DUR_UNIT;
	}
	if (frac_nonzero_from(frac, len, MAX_FRAC_DIGITS))
		return GS_DUR_PRECISION;
	if (len > MAX_FRAC_DIGITS)
		len = MAX_FRAC_DIGITS;
	if (u->cycles) {
		if (!clock_hz)
			return GS_DUR_NO_CLOCK;
		if (len > 9)
			return GS_DUR_PRECISION;
		return cycles_to_ns(ip, frac, len, clock_hz, out);
	}
	if (frac_nonzero_from(frac, len, u->exp10))
		return GS_DUR_PRECISION;
	for (i = 0; i < u->exp10; i++)
		unit_ns *= 10;
	f = frac_value(frac, len, u->exp10);
	if (ip > hal_div64(U64_MAX_ - 1 - f, unit_ns))
		return GS_DUR_OVERFLOW;
	*out = ip * unit_ns + f;
	return GS_DUR_OK;
}
