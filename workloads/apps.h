/* The built-in application library: NEON Table 1 (Kepler GTX670, alone). */
#ifndef GS_APPS_H
#define GS_APPS_H

#include <stdint.h>

#include "base/event.h"

struct gs_app_desc {
	const char *name;
	const char *area;
	gs_time_t round;        /* time per round when alone */
	gs_time_t request[2];   /* mean request size per channel (second: 0
				 * for single-channel apps) */
	uint32_t channels;      /* 1, or 2 for compute+graphics apps */
};

extern const struct gs_app_desc gs_apps[];
extern const uint32_t gs_n_apps;
/* Case-insensitive lookup; NULL if unknown. */
const struct gs_app_desc *gs_app_find(const char *name);

#endif
