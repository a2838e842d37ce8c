/* What a GPU's engines are running, from their status registers: used
 * before killing a task whose request shows no progress, to tell the task
 * that is stuck from the tasks queued behind it on a non-preemptive GPU. */
#ifndef GS_POLICY_ENGINES_H
#define GS_POLICY_ENGINES_H

#include "hal.h"

enum engines_running {
	ENGINES_IDLE = 0,      /* no engine is running a command */
	ENGINES_RUN_TASK = 1,  /* an engine runs one of the task's channels */
	ENGINES_RUN_OTHER = 2, /* engines run only other tasks' channels */
};

/* Two status-register reads (compute and copy engines of `gpu`). */
int engines_running(struct hal_sched *s, hal_u32 gpu,
		    const struct hal_task *t);

#endif
