/* Durations as text ("25us", "1.5ms", "305 cycles") to nanoseconds, the
 * one parser of the simulator's loader (workloads/config_duration.c,
 * which words the errors) and the kernel module's params=. Kernel-clean:
 * no libc, integer only, 64-bit division through the HAL. */
#ifndef GS_POLICY_DURATION_H
#define GS_POLICY_DURATION_H

#include "hal.h"

enum gs_dur_problem {
	GS_DUR_OK = 0,
	GS_DUR_SYNTAX,     /* not a number with an optional unit */
	GS_DUR_NEGATIVE,
	GS_DUR_UNIT,       /* a word that is not a unit */
	GS_DUR_PRECISION,  /* not a whole number of nanoseconds */
	GS_DUR_OVERFLOW,   /* more than 2^64 - 2 ns (2^64 - 1 means never) */
	GS_DUR_NO_CLOCK,   /* cycles, with clock_hz 0 */
};

/* text: [spaces][+]digits[.digits][spaces][unit][spaces], unit one of
 * ns, us, ms, s, cycles (cycle); none means ns. Cycles are converted at
 * clock_hz and rounded to the nearest nanosecond (half up); every other
 * value must be exact. *out is written only on GS_DUR_OK. */
enum gs_dur_problem gs_duration_parse(const char *text, hal_u64 clock_hz,
				      hal_u64 *out);

#endif
