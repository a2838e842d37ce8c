/* The scripted HAL's state, shared by its two files: mock_hal.c (the
 * world the test scripts) and mock_hal_services.c (the HAL as the policy
 * sees it). */
#ifndef GS_TESTS_MOCK_HAL_PRIV_H
#define GS_TESTS_MOCK_HAL_PRIV_H

#include <glib.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"
#include "policies/duration.h"
#include "policies/param_value.h"

#define MOCK_MAX_TASKS 64
#define MOCK_MAX_CHANS 256
#define MOCK_MAX_GPUS 8
#define MOCK_MAX_VMS 32
#define MOCK_MAX_QUEUED 1024 /* classes remembered per shadow queue */

struct hal_task {
	struct mock_hal *m;
	uint32_t id;
	char name[32];
	uint32_t weight;
	uint32_t priority;
	int32_t vm;
	uint32_t gpu;
	void *data;
	bool held;
	struct hal_chan *held_chan;
	uint32_t releases;
	bool killed;
	bool exited;
	uint64_t accounted;
	uint64_t vtime;
	uint32_t migrations;
	uint64_t sync_ns;
	uint64_t memory;
};

struct hal_chan {
	struct hal_task *t;
	uint32_t id;
	uint32_t guest_id;
	void *data;
	bool trap;
	bool shadow;
	bool open;
	uint32_t shadow_queued;
	uint8_t shadow_cls[MOCK_MAX_QUEUED]; /* class per queued command */
	uint32_t shadow_head;                /* index of the oldest */
	uint8_t next_cls;                    /* class of the next submissions */
	/* contents per queued command, and of the next submissions */
	struct hal_cmd_content shadow_content[MOCK_MAX_QUEUED];
	struct hal_cmd_content next_content;
	uint64_t next_hint;                  /* engine time of queued ones */
	uint32_t next_occupancy;             /* and their core share */
	uint64_t submitted;
	uint64_t fence;
	uint32_t chram;
};

struct hal_sched {
	struct mock_hal *m;
	const struct gs_policy_ops *ops;
	void *priv;
	uint64_t params[GS_MAX_PARAMS];
	uint64_t timer_when[HAL_MAX_TIMERS];
};

struct mock_hal {
	struct hal_sched s;
	uint64_t now;
	struct hal_task tasks[MOCK_MAX_TASKS];
	uint32_t n_tasks;
	struct hal_chan chans[MOCK_MAX_CHANS];
	uint32_t n_chans;
	struct hal_engine_status status[MOCK_MAX_GPUS][2];
	uint64_t gpu_busy[MOCK_MAX_GPUS];
	uint64_t copy_busy[MOCK_MAX_GPUS];
	uint64_t gpu_memory; /* every GPU's; 0: unknown */
	uint32_t n_gpus;
	int32_t vm_parent[MOCK_MAX_VMS];
	uint32_t vm_weight[MOCK_MAX_VMS];
	uint32_t n_vms;
	uint64_t mmio_reads;
	uint64_t cpu_ns;
	bool poll_active;
	uint64_t poll_until;
	GHashTable *phases; /* name -> count */
	uint64_t rng;
	uint32_t warnings;       /* HAL_WARN_ON reports */
	bool warnings_expected;  /* else the first one fails the test */
	uint32_t estimates[HAL_EST_KINDS]; /* hal_note_estimate calls */
	uint64_t last_estimate;
	uint32_t last_estimate_kind;
	uint32_t next_priority;  /* the next task's, + 1; 0: normal */
};

#endif
