/* The loader's duration parser (config_duration.c). */
#ifndef GS_CONFIG_DURATION_H
#define GS_CONFIG_DURATION_H

#include <stdint.h>

#include "base/event.h"

/* Parse "25us", "1.5ms", "2s", "300ns", "305 cycles" (at clock_hz), or a
 * bare integer (nanoseconds). Returns 0 on success, -1 on a bad string. */
int gs_parse_duration(const char *text, uint64_t clock_hz, gs_time_t *out);

#endif
