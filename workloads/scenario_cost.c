/* Commands a scenario launches, estimated from its tasks' programs: one
 * pass of a program launches L commands in T nanoseconds, where T counts
 * each launch as its command's mean length plus the host's launch cost
 * (a task that waits for its commands is paced by them; one that does
 * not is paced at least by its launches), CPU and sleep steps as their
 * mean length. A task looping forever launches L per T for the run's
 * duration; a finite one at most its L. Overlap between tasks, blocking
 * on the GPU and policies are ignored: an ordering key, not a forecast. */
#include "workloads/program.h"
#include "workloads/scenario_cost.h"

struct pass {
	double launches;
	double ns;
	bool forever;
};

/* One walk over the program; a finite loop's body counts `count` times
 * (nested loops multiply), a loop forever counts once and marks the
 * task as running to the end. */
static struct pass program_pass(const struct gs_program *p, gs_time_t launch)
{
	double mult[GS_MAX_LOOP_DEPTH + 1] = { 1.0 };
	struct pass out = { 0 };
	unsigned depth = 0;
	uint32_t i;

	for (i = 0; i < p->n_steps; i++) {
		const struct gs_step *s = &p->steps[i];
		double m = mult[depth];

		switch (s->op) {
		case GS_OP_LAUNCH:
			out.launches += m;
			out.ns += m * (double)(gs_dist_mean(&s->dur) + launch);
			break;
		case GS_OP_CPU:
		case GS_OP_SLEEP:
			out.ns += m * (double)gs_dist_mean(&s->dur);
			break;
		case GS_OP_LOOP:
			if (!s->count)
				out.forever = true;
			if (depth < GS_MAX_LOOP_DEPTH) {
				depth++;
				mult[depth] = m * (s->count ? s->count : 1);
			}
			break;
		case GS_OP_END_LOOP:
			if (depth)
				depth--;
			break;
		default:
			break;
		}
	}
	return out;
}

uint64_t gs_task_cost(const struct gs_scenario *sc,
		      const struct gs_task_config *t)
{
	gs_time_t run = sc->duration > t->start ? sc->duration - t->start : 0;
	struct pass p = program_pass(&t->program, sc->host.launch);
	double n = p.launches;

	if (p.ns > 0 && (p.forever || p.ns > (double)run))
		n = p.launches * (double)run / p.ns;
	if (!p.forever && n > p.launches)
		n = p.launches;
	n *= t->count ? t->count : 1;
	/* converting a double beyond the range is undefined */
	return n < 1.8e19 ? (uint64_t)n : UINT64_MAX;
}

uint64_t gs_scenario_cost(const struct gs_scenario *sc)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < sc->n_tasks; i++) {
		uint64_t c = gs_task_cost(sc, &sc->tasks[i]);

		sum = c > UINT64_MAX - sum ? UINT64_MAX : sum + c;
	}
	return sum;
}
