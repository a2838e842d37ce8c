/* Ownership of compiled programs: the steps array and each step's
 * distribution values. */
#include "workloads/program.h"

#include <glib.h>

void gs_program_clear(struct gs_program *p)
{
	uint32_t i;

	for (i = 0; p->steps && i < p->n_steps; i++)
		gs_dist_clear(&p->steps[i].dur);
	g_free(p->steps);
	p->steps = NULL;
	p->n_steps = 0;
}

void gs_program_copy(struct gs_program *dst, const struct gs_program *src)
{
	uint32_t i;

	dst->n_steps = src->n_steps;
	dst->steps = src->n_steps ? g_new(struct gs_step, src->n_steps) : NULL;
	for (i = 0; i < src->n_steps; i++) {
		dst->steps[i] = src->steps[i];
		gs_dist_copy(&dst->steps[i].dur, &src->steps[i].dur);
	}
}
