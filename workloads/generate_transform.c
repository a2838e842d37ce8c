/* Changes to a generated scenario description that the metamorphic
 * property tests make (workloads/generate.h). */
#include "workloads/generate.h"

#include <string.h>

#include "workloads/apps.h"

void gs_gen_scale_weights(struct gs_gen_scenario *g, uint32_t factor)
{
	uint32_t i;

	for (i = 0; i < g->n_tasks; i++)
		g->tasks[i].weight *= factor;
	/* the VMs' too: a task outside every VM competes with the VMs at
	 * the top level, where only the ratio of its weight to theirs may
	 * matter (seed 4750: a VM of weight 1 beside a task of weight 3
	 * is another scenario than the two of weight 1) */
	for (i = 0; i < g->n_vms; i++)
		g->vms[i].weight *= factor;
}

static void scale_dur(struct gs_gen_dur *d, uint32_t k)
{
	d->v[0] *= k;
	d->v[1] *= k;
	d->v[2] *= k;
}

static bool scale_task(struct gs_gen_task *t, uint32_t k)
{
	uint32_t i;

	scale_dur(&t->kernel, k);
	scale_dur(&t->sleep, k);
	t->start *= k;
	for (i = 0; i < t->n_steps; i++)
		scale_dur(&t->steps[i].dur, k);
	for (i = 0; i < t->n_rows; i++) {
		t->rows[i].time *= k;
		t->rows[i].duration *= k;
	}
	t->job_kernel *= k;
	t->job_length *= k;
	t->job_startup *= k;
	scale_dur(&t->request[0], k);
	scale_dur(&t->request[1], k);
	/* an app's times are NEON's Table 1, a named job's DCUDA's: not
	 * ours to scale */
	return t->behavior != GS_GEN_APP && !t->job_named;
}

bool gs_gen_scale_time(struct gs_gen_scenario *g, uint32_t k)
{
	bool ok = true;
	uint32_t i;

	g->duration *= k;
	g->fetch *= k;
	g->ctx_switch *= k;
	g->mmio_read *= k;
	g->ref_writeback *= k;
	g->irq_latency *= k;
	g->timeslice *= k;
	g->preempt_save *= k;
	g->launch *= k;
	g->doorbell *= k;
	g->trap *= k;
	g->spin_poll *= k;
	g->wakeup *= k;
	g->policy_wakeup *= k;
	g->arrivals_every *= k;
	g->migration_clone *= k;
	g->migration_bandwidth /= k;
	g->more.um_fault *= k;
	g->time_scale *= k;
	for (i = 0; i < g->n_params; i++)
		g->params[i].ns *= k;
	for (i = 0; i < g->n_vms; i++) {
		g->vms[i].trap *= k;
		g->vms[i].shadow_copy *= k;
	}
	for (i = 0; i < g->n_tasks; i++)
		ok &= scale_task(&g->tasks[i], k);
	return ok;
}

void gs_gen_move_task_last(struct gs_gen_scenario *g, uint32_t from)
{
	struct gs_gen_task t = g->tasks[from];

	memmove(&g->tasks[from], &g->tasks[from + 1],
		(g->n_tasks - from - 1) * sizeof(t));
	g->tasks[g->n_tasks - 1] = t;
}

void gs_gen_reverse_tasks(struct gs_gen_scenario *g)
{
	uint32_t i;

	for (i = 0; i < g->n_tasks / 2; i++) {
		struct gs_gen_task t = g->tasks[i];

		g->tasks[i] = g->tasks[g->n_tasks - 1 - i];
		g->tasks[g->n_tasks - 1 - i] = t;
	}
}

bool gs_gen_add_idle_task(struct gs_gen_scenario *g)
{
	struct gs_gen_task *t;
	uint32_t i;

	if (g->n_tasks >= GS_GEN_MAX_TASKS)
		return false;
	t = &g->tasks[g->n_tasks++];
	memset(t, 0, sizeof(*t));
	g_strlcpy(t->name, "idle", sizeof(t->name));
	t->behavior = GS_GEN_IDLE;
	t->weight = 1;
	t->channels = 1;
	t->vm = -1;
	t->app = -1;
	/* it arrives last, so it takes no placement turn before any other
	 * task (round-robin and least-loaded place at arrival, DCUDA 4.1) */
	for (i = 0; i + 1 < g->n_tasks; i++)
		t->start = MAX(t->start, g->tasks[i].start);
	t->n_steps = 2;
	t->steps[0].kind = GS_GEN_REPEAT;
	t->steps[0].body = 1;
	t->steps[1].kind = GS_GEN_SLEEP;
	t->steps[1].dur.v[0] = g->duration;
	return true;
}

bool gs_gen_runs_to_end(const struct gs_gen_task *t)
{
	uint32_t i;

	if (t->rounds)
		return false; /* it exits after them */
	switch (t->behavior) {
	case GS_GEN_THROTTLE:
	case GS_GEN_APP:
		return true;
	case GS_GEN_SCRIPT:
	case GS_GEN_IDLE:
		for (i = 0; i < t->n_steps; i++)
			if (t->steps[i].kind == GS_GEN_REPEAT &&
			    !t->steps[i].count)
				return true;
		return false;
	default:
		/* a trace ends after its last row; a job has a length */
		return false;
	}
}

int32_t gs_gen_idle_channel_twin(const struct gs_gen_scenario *g)
{
	gs_time_t last = 0;
	uint32_t i;

	for (i = 0; i < g->n_tasks; i++)
		last = MAX(last, g->tasks[i].start);
	/* not a definition with replicas: its added channel would be one
	 * per replica */
	for (i = g->n_tasks; i-- > 0;)
		if (g->tasks[i].start == last && g->tasks[i].count <= 1 &&
		    gs_gen_runs_to_end(&g->tasks[i]))
			return (int32_t)i;
	return -1;
}

void gs_gen_keep_task(struct gs_gen_scenario *g, uint32_t i)
{
	g->tasks[0] = g->tasks[i];
	g->tasks[0].vm = -1;
	g->tasks[0].count = 0;
	g->n_tasks = 1;
	g->n_vms = 0;
	g->arrivals_every = 0;
}

uint64_t gs_gen_param(const struct gs_gen_scenario *g, const char *key,
		      uint64_t def)
{
	uint32_t i;

	for (i = 0; i < g->n_params; i++) {
		const struct gs_gen_param *p = &g->params[i];

		if (strcmp(p->key, key))
			continue;
		if (p->is_duration)
			return p->ns;
		if (!strcmp(p->text, "true") || !strcmp(p->text, "false"))
			return !strcmp(p->text, "true");
		return g_ascii_strtoull(p->text, NULL, 10);
	}
	return def;
}

/* The largest value a duration takes but with negligible probability:
 * an exponential beyond 5 means (e^-5, under 1%), a normal beyond 4
 * standard deviations. */
static gs_time_t dur_max(const struct gs_gen_dur *d)
{
	switch (d->dist) {
	case GS_GEN_UNIFORM:
		return d->v[1];
	case GS_GEN_EXPONENTIAL:
		return 5 * d->v[0];
	case GS_GEN_NORMAL:
		return d->v[0] + 4 * d->v[1];
	case GS_GEN_EMPIRICAL:
		return d->v[2];
	default:
		return d->v[0];
	}
}

static gs_time_t dur_mean(const struct gs_gen_dur *d)
{
	switch (d->dist) {
	case GS_GEN_UNIFORM:
		return (d->v[0] + d->v[1]) / 2;
	case GS_GEN_EMPIRICAL:
		return (d->v[0] + d->v[1] + d->v[2]) / 3;
	default:
		return d->v[0];
	}
}

static gs_time_t task_max_command(const struct gs_gen_task *t)
{
	gs_time_t m = 0;
	uint32_t i;

	switch (t->behavior) {
	case GS_GEN_THROTTLE:
		return dur_max(&t->kernel);
	case GS_GEN_APP:
		if (t->request_set)
			return MAX(dur_max(&t->request[0]),
				   dur_max(&t->request[1]));
		m = gs_apps[t->app].request[0];
		return MAX(m, gs_apps[t->app].request[1]);
	case GS_GEN_JOB:
		return t->job_kernel;
	default:
		break;
	}
	for (i = 0; i < t->n_steps; i++)
		if (t->steps[i].kind == GS_GEN_LAUNCH)
			m = MAX(m, dur_max(&t->steps[i].dur));
	for (i = 0; i < t->n_rows; i++)
		m = MAX(m, t->rows[i].duration);
	return m;
}

gs_time_t gs_gen_max_command(const struct gs_gen_scenario *g)
{
	gs_time_t m = 0;
	uint32_t i;

	for (i = 0; i < g->n_tasks; i++)
		m = MAX(m, task_max_command(&g->tasks[i]));
	return m;
}

/* Commands a task can have queued at once (at most a ring's worth): a
 * scheduler that cannot preempt (NEON 3.2: a slice's end waits for the
 * holder's outstanding requests) may have to let all of them run. */
static uint64_t task_backlog(const struct gs_gen_scenario *g,
			     const struct gs_gen_task *t)
{
	uint64_t n = 1, ring = (t->ring_entries ? t->ring_entries :
				g->ring_entries) - 1;
	uint32_t i;

	switch (t->behavior) {
	case GS_GEN_THROTTLE:
		n = t->blocking ? 1 : ring;
		break;
	case GS_GEN_APP:
		if (t->sync_round)
			n = gs_apps[t->app].round /
			    MAX(t->request_set ? dur_mean(&t->request[0]) :
				gs_apps[t->app].request[0], 1);
		break;
	case GS_GEN_TRACE:
		n = t->n_rows;
		break;
	case GS_GEN_SCRIPT: {
		uint32_t times = 1, left = 0; /* a counted loop's body */

		for (i = 0, n = 0; i < t->n_steps; i++) {
			const struct gs_gen_step *st = &t->steps[i];

			if (st->kind == GS_GEN_REPEAT && st->count) {
				times = st->count;
				left = st->body;
				continue;
			}
			if (st->kind == GS_GEN_LAUNCH)
				n += times;
			if (left && !--left)
				times = 1;
		}
		break;
	}
	default:
		break;
	}
	return MAX(MIN(n, ring * t->channels), 1);
}

bool gs_gen_sched_timeslice(const struct gs_gen_scenario *g)
{
	if (g->more.sched)
		return g->more.sched == 2;
	return !strcmp(g->preset, "volta");
}

gs_time_t gs_gen_granularity(const struct gs_gen_scenario *g)
{
	gs_time_t grain = g->ctx_switch + g->preempt_save, backlog = 0;
	uint64_t n = g->n_tasks, channels = 0;
	uint32_t i;

	for (i = 0; i < g->n_tasks; i++) {
		channels += g->tasks[i].channels;
		backlog = MAX(backlog, task_backlog(g, &g->tasks[i]) *
			      task_max_command(&g->tasks[i]));
	}
	grain += backlog;
	if (gs_gen_sched_timeslice(g))
		grain += g->timeslice;
	if (!strcmp(g->policy, "timeslice")) {
		grain += gs_gen_param(g, "slice", 0);
	} else if (!strcmp(g->policy, "dfq") || !strcmp(g->policy, "hdfq")) {
		gs_time_t sample = gs_gen_param(g, "sample", 0) * n;

		grain += sample * (1 + gs_gen_param(g, "free_run_factor", 0));
	} else if (!strcmp(g->policy, "loga")) {
		grain += gs_gen_param(g, "event_T", 0) * channels *
			 (1 + gs_gen_param(g, "event_X", 0));
	} else if (!strcmp(g->policy, "drr")) {
		/* a quantum, the tick a batch may wait for when its early
		 * probes run out, and the cost estimates' learning: until a
		 * class average has seen 2^avg_shift commands, each of them
		 * may be charged up to a whole command wrong */
		grain += gs_gen_param(g, "quantum", 0) +
			 gs_gen_param(g, "tick", 0) +
			 (gs_gen_max_command(g) <<
			  MIN(gs_gen_param(g, "avg_shift", 3), 16));
	} else if (!strcmp(g->policy, "dcuda")) {
		grain += gs_gen_param(g, "monitor", 0) +
			 gs_gen_param(g, "slice", 0);
	}
	return grain;
}
