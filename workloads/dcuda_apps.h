/* The DCUDA (SoCC'19) Table 1 application mix as `job` presets: twenty
 * CUDA Samples, SHOC and TensorFlow benchmarks, each reduced to what the
 * node model needs (see workloads/dcuda_apps.c for the estimates). */
#ifndef GS_DCUDA_APPS_H
#define GS_DCUDA_APPS_H

#include <stdint.h>

#include "base/event.h"

struct gs_job_desc {
	const char *name;
	const char *suite;
	uint32_t demand_pm;     /* share of one GPU's cores when alone, 1/1000 */
	gs_time_t kernel;       /* length of one kernel launch */
	gs_time_t length;       /* GPU part of the run, alone */
	uint32_t memory_mib;    /* memory footprint */
	gs_time_t startup;      /* host work before the first kernel */
};

extern const struct gs_job_desc gs_jobs[];
extern const uint32_t gs_n_jobs;
/* Case-insensitive lookup; NULL if unknown. */
const struct gs_job_desc *gs_job_find(const char *name);

#endif
