/* See engines.h. */
#include "engines.h"

int engines_running(struct hal_sched *s, hal_u32 gpu,
		    const struct hal_task *t)
{
	int result = ENGINES_IDLE;
	hal_u32 e;

	for (e = HAL_ENGINE_COMPUTE; e <= HAL_ENGINE_COPY; e++) {
		struct hal_engine_status es;
		struct hal_chan *on;

		hal_read_engine_status(s, gpu, e, &es);
		if (!es.busy || es.cur_id == HAL_CHAN_NONE)
			continue;
		on = hal_chan_lookup(s, gpu, es.cur_id);
		if (on && hal_chan_task(on) == t)
			return ENGINES_RUN_TASK;
		result = ENGINES_RUN_OTHER;
	}
	return result;
}
