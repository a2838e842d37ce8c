/* The program builder every behaviour compiles with (tasks, apps, jobs,
 * scripts, traces): a file of its own, so that config_tasks.c, which
 * calls the job and script compilers, and those compilers do not call
 * back into each other. */
#include "workloads/config_program.h"
#include "workloads/config_internal.h"

#include <string.h>

void cfg_prog_init(struct cfg_prog *p)
{
	p->steps = g_array_new(FALSE, TRUE, sizeof(struct gs_step));
}

void cfg_prog_free(struct cfg_prog *p)
{
	guint i;

	if (!p->steps)
		return;
	for (i = 0; i < p->steps->len; i++)
		gs_dist_clear(&g_array_index(p->steps, struct gs_step, i).dur);
	g_array_free(p->steps, TRUE);
	p->steps = NULL;
}

struct gs_step cfg_step(enum gs_op op)
{
	struct gs_step s = { .op = (uint8_t)op };

	return s;
}

int cfg_prog_push(struct cfg *c, const yaml_node_t *where,
		  struct cfg_prog *p, struct gs_step *s)
{
	if (p->steps->len >= CFG_MAX_STEPS) {
		gs_dist_clear(&s->dur);
		return cfg_error(c, where,
				 "the behaviour compiles to more than %u steps",
				 CFG_MAX_STEPS);
	}
	g_array_append_val(p->steps, *s);
	memset(&s->dur, 0, sizeof(s->dur));
	return 0;
}

int cfg_prog_push_cpu(struct cfg *c, const yaml_node_t *where,
		      struct cfg_prog *p, gs_time_t dur)
{
	struct gs_step s = cfg_step(GS_OP_CPU);

	s.dur = gs_dist_const(dur);
	return cfg_prog_push(c, where, p, &s);
}

void cfg_prog_finish(struct cfg_prog *p, struct gs_program *out)
{
	struct gs_step end = cfg_step(GS_OP_END);

	g_array_append_val(p->steps, end);
	out->n_steps = p->steps->len;
	out->steps = (struct gs_step *)(void *)g_array_free(p->steps, FALSE);
	p->steps = NULL;
}
