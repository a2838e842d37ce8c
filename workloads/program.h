/* A task's behaviour compiled to a flat program of steps that the host
 * model executes. Every behaviour (throttle, app, script, trace) compiles
 * to this one form. */
#ifndef GS_PROGRAM_H
#define GS_PROGRAM_H

#include <stdint.h>

#include "base/dist.h"
#include "gpu_model/gpu.h"

#define GS_ALL_CHANNELS UINT16_MAX
#define GS_MAX_LOOP_DEPTH 8
#define GS_MAX_CMD_CLASS 7

enum gs_op {
	/* CPU launch cost, write a command to a ring (blocks while full),
	 * then the doorbell write. */
	GS_OP_LAUNCH = 0,
	/* Wait until every command launched on `channel` (or all channels)
	 * has completed; wait_mode says how the task notices. */
	GS_OP_WAIT = 1,
	GS_OP_CPU = 2,         /* busy on the CPU for dur */
	GS_OP_SLEEP = 3,       /* off the CPU for dur */
	GS_OP_SLEEP_UNTIL = 4, /* until task start + at (trace replay) */
	GS_OP_ROUND = 5,       /* a round of work ends here (round timing) */
	GS_OP_LOOP = 6,        /* repeat the body up to the matching END_LOOP
				* `count` times (0: forever) */
	GS_OP_END_LOOP = 7,    /* jump back to `target` (the LOOP's index) */
	GS_OP_END = 8,         /* the task exits */
};

enum gs_wait_mode {
	GS_WAIT_SPIN = 0,      /* poll the fence: completion + host.spin_poll */
	GS_WAIT_INTERRUPT = 1, /* sleep: + irq_latency + host.wakeup */
};

struct gs_step {
	uint8_t op;
	uint8_t engine;    /* GS_OP_LAUNCH: enum gs_engine_kind */
	uint8_t flags;     /* GS_OP_LAUNCH: enum gs_cmd_flags */
	uint8_t wait_mode; /* GS_OP_WAIT */
	uint8_t cls;       /* GS_OP_LAUNCH: command class 0..GS_MAX_CMD_CLASS,
			    * carried to the command (policies may read it) */
	uint16_t channel;  /* LAUNCH/WAIT: index among the task's channels */
	struct gs_cmd_content content; /* LAUNCH: carried to the command
					* (hal_shadow_peek_content) */
	uint32_t count;    /* GS_OP_LOOP */
	uint32_t target;   /* GS_OP_END_LOOP: index of its GS_OP_LOOP */
	struct gs_dist dur;/* LAUNCH: command length; CPU, SLEEP: time */
	gs_time_t at;      /* GS_OP_SLEEP_UNTIL */
};

struct gs_program {
	struct gs_step *steps; /* last one is GS_OP_END */
	uint32_t n_steps;
};

void gs_program_clear(struct gs_program *p);
void gs_program_copy(struct gs_program *dst, const struct gs_program *src);

#endif
