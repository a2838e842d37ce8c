/* Writing a generated scenario description as YAML (and its trace CSVs).
 * Every duration is written out, defaults included, so that a file says
 * everything a property test may change. */
#include "workloads/generate.h"

#include <inttypes.h>
#include <string.h>

#include "policies/policy.h"
#include "workloads/apps.h"
#include "workloads/dcuda_apps.h"
#include "workloads/config_load.h"

/* ns in the largest unit that divides it exactly. */
static void put_ns(GString *s, gs_time_t ns)
{
	if (ns && ns % 1000000000 == 0)
		g_string_append_printf(s, "%" PRIu64 "s", ns / 1000000000);
	else if (ns && ns % 1000000 == 0)
		g_string_append_printf(s, "%" PRIu64 "ms", ns / 1000000);
	else if (ns && ns % 1000 == 0)
		g_string_append_printf(s, "%" PRIu64 "us", ns / 1000);
	else
		g_string_append_printf(s, "%" PRIu64 "ns", ns);
}

static void put_dur(GString *s, const struct gs_gen_dur *d)
{
	switch (d->dist) {
	case GS_GEN_UNIFORM:
		g_string_append(s, "{uniform: [");
		put_ns(s, d->v[0]);
		g_string_append(s, ", ");
		put_ns(s, d->v[1]);
		g_string_append(s, "]}");
		break;
	case GS_GEN_EXPONENTIAL:
		g_string_append(s, "{exponential: ");
		put_ns(s, d->v[0]);
		g_string_append(s, "}");
		break;
	case GS_GEN_NORMAL:
		g_string_append(s, "{normal: {mean: ");
		put_ns(s, d->v[0]);
		g_string_append(s, ", stddev: ");
		put_ns(s, d->v[1]);
		g_string_append(s, "}}");
		break;
	case GS_GEN_EMPIRICAL:
		g_string_append(s, "{empirical: [");
		put_ns(s, d->v[0]);
		g_string_append(s, ", ");
		put_ns(s, d->v[1]);
		g_string_append(s, ", ");
		put_ns(s, d->v[2]);
		g_string_append(s, "]}");
		break;
	default:
		put_ns(s, d->v[0]);
	}
}

static void put_key_ns(GString *s, const char *key, gs_time_t ns,
		       const char *sep)
{
	g_string_append_printf(s, "%s: ", key);
	put_ns(s, ns);
	g_string_append(s, sep);
}

static void put_params(GString *s, const struct gs_gen_param *p, uint32_t n)
{
	uint32_t i;

	g_string_append(s, "{");
	for (i = 0; i < n; i++) {
		g_string_append_printf(s, "%s%s: ", i ? ", " : "", p[i].key);
		if (p[i].is_duration)
			put_ns(s, p[i].ns);
		else
			g_string_append(s, p[i].text);
	}
	g_string_append(s, "}");
}

/* A VM's scheduler with its duration parameters at their defaults times
 * the scenario's time scale. */
static void put_scheduler(GString *s, const char *name, uint32_t scale)
{
	const struct gs_policy_ops *ops = gs_policy_find(name);
	uint32_t i, n = 0;

	g_string_append_printf(s, "{name: %s, params: {", name);
	for (i = 0; ops && i < ops->n_params; i++) {
		gs_time_t ns;

		if (ops->params[i].type != GS_PARAM_DURATION ||
		    gs_parse_duration(ops->params[i].def, 1000000000, &ns) < 0)
			continue;
		g_string_append_printf(s, "%s%s: ", n++ ? ", " : "",
				       ops->params[i].name);
		put_ns(s, ns * scale);
	}
	g_string_append(s, "}}");
}

static void put_vms(GString *s, const struct gs_gen_scenario *g,
		    int32_t parent, const char *indent)
{
	g_autofree char *deeper = g_strconcat(indent, "    ", NULL);
	uint32_t i, j;
	bool children;

	for (i = 0; i < g->n_vms; i++) {
		const struct gs_gen_vm *vm = &g->vms[i];

		if (vm->parent != parent)
			continue;
		g_string_append_printf(s, "%s- name: %s\n%s  weight: %u\n"
				       "%s  hints: %s\n%s  ", indent, vm->name,
				       indent, vm->weight, indent,
				       vm->hints ? "true" : "false", indent);
		put_key_ns(s, "trap", vm->trap, "\n");
		g_string_append_printf(s, "%s  ", indent);
		put_key_ns(s, "shadow_copy", vm->shadow_copy, "\n");
		if (vm->notify_on_kill)
			g_string_append_printf(s, "%s  on_kill: notify\n",
					       indent);
		if (vm->scheduler[0]) {
			g_string_append_printf(s, "%s  scheduler: ", indent);
			put_scheduler(s, vm->scheduler, g->time_scale);
			g_string_append(s, "\n");
		}
		for (j = 0, children = false; j < g->n_vms; j++)
			children |= g->vms[j].parent == (int32_t)i;
		if (children) {
			g_string_append_printf(s, "%s  vms:\n", indent);
			put_vms(s, g, (int32_t)i, deeper);
		}
	}
}

/* A launch's contents, after a comma, unless all 0. */
static void put_content(GString *s, const struct gs_gen_content *c)
{
	if (!(c->texture_bytes || c->swaps || c->vertices || c->cmd_bytes))
		return;
	g_string_append_printf(s, ", content: {texture_bytes: %u, swaps: %u, "
			       "vertices: %u, cmd_bytes: %u}",
			       c->texture_bytes, c->swaps, c->vertices,
			       c->cmd_bytes);
}

static void put_wait(GString *s, const struct gs_gen_step *st)
{
	const char *mode = st->interrupt ? "interrupt" : "spin";

	if (st->wait_one)
		g_string_append_printf(s, "wait: {channel: %u, mode: %s}\n",
				       st->channel, mode);
	else if (st->interrupt)
		g_string_append(s, "wait: interrupt\n");
	else
		g_string_append(s, "wait\n");
}

/* Script steps from *i on, `n` of them (a repeat's body counts its own
 * nested steps), at the given indentation. */
static void put_steps(GString *s, const struct gs_gen_task *t, uint32_t *i,
		      uint32_t n, const char *indent)
{
	uint32_t end = *i + n;

	while (*i < end) {
		const struct gs_gen_step *st = &t->steps[(*i)++];

		g_string_append_printf(s, "%s- ", indent);
		switch (st->kind) {
		case GS_GEN_LAUNCH:
			g_string_append(s, "launch: {kernel: ");
			put_dur(s, &st->dur);
			g_string_append_printf(s, ", channel: %u, engine: %s",
					       st->channel,
					       st->copy ? "copy" : "compute");
			if (st->irq)
				g_string_append(s, ", irq: true");
			if (st->klass)
				g_string_append_printf(s, ", class: %u",
						       st->klass);
			put_content(s, &st->content);
			g_string_append(s, "}\n");
			break;
		case GS_GEN_WAIT:
			put_wait(s, st);
			break;
		case GS_GEN_CPU:
		case GS_GEN_SLEEP:
			g_string_append(s, st->kind == GS_GEN_CPU ? "cpu: " :
					"sleep: ");
			put_dur(s, &st->dur);
			g_string_append(s, "\n");
			break;
		case GS_GEN_ROUND:
			g_string_append(s, "round\n");
			break;
		case GS_GEN_REPEAT: {
			g_autofree char *deeper =
				g_strconcat(indent, "      ", NULL);

			g_string_append(s, "repeat:\n");
			if (st->count)
				g_string_append_printf(s, "%s    count: %u\n",
						       indent, st->count);
			else
				g_string_append_printf(s, "%s    count: "
						       "forever\n", indent);
			g_string_append_printf(s, "%s    steps:\n", indent);
			put_steps(s, t, i, st->body, deeper);
			break;
		}
		}
	}
}

static char *trace_csv(const struct gs_gen_task *t)
{
	GString *s = g_string_new("time,channel,engine,duration\n");
	uint32_t i;

	for (i = 0; i < t->n_rows; i++) {
		const struct gs_gen_row *row = &t->rows[i];

		put_ns(s, row->time);
		g_string_append_printf(s, ",%u,%s,", row->channel,
				       row->copy ? "copy" : "compute");
		put_ns(s, row->duration);
		g_string_append(s, "\n");
	}
	return g_string_free(s, FALSE);
}

static void put_app(GString *s, const struct gs_gen_task *t)
{
	const struct gs_app_desc *app = &gs_apps[t->app];
	uint32_t c;

	g_string_append_printf(s, "    behavior:\n      app: {name: %s, "
			       "sync: %s", app->name,
			       t->sync_round ? "round" : "request");
	if (t->irq_wait)
		g_string_append(s, ", wait: interrupt");
	if (t->request_set) {
		g_string_append(s, ", request: ");
		if (app->channels > 1)
			g_string_append(s, "[");
		for (c = 0; c < app->channels; c++) {
			g_string_append(s, c ? ", " : "");
			put_dur(s, &t->request[c]);
		}
		if (app->channels > 1)
			g_string_append(s, "]");
	}
	g_string_append(s, "}\n");
}

/* A job named from DCUDA's Table 1 by its name alone, or written out. */
static void put_job(GString *s, const struct gs_gen_task *t)
{
	g_string_append(s, "    behavior:\n      job: {");
	if (t->job_named) {
		g_string_append_printf(s, "app: %s}\n", gs_jobs[t->app].name);
		return;
	}
	g_string_append_printf(s, "demand: %u%%, ", t->demand_pct);
	put_key_ns(s, "kernel", t->job_kernel, ", ");
	put_key_ns(s, "length", t->job_length, ", ");
	if (t->job_startup)
		put_key_ns(s, "startup", t->job_startup, ", ");
	g_string_append_printf(s, "memory: %uMiB}\n", t->memory_mib);
}

static void put_behavior(GString *s, const struct gs_gen_task *t,
			 const char *stem, GPtrArray *files)
{
	switch (t->behavior) {
	case GS_GEN_THROTTLE:
		g_string_append(s, "    behavior:\n      throttle: {kernel: ");
		put_dur(s, &t->kernel);
		g_string_append(s, ", sleep: ");
		put_dur(s, &t->sleep);
		g_string_append_printf(s, ", blocking: %s, wait: %s, "
				       "engine: %s, class: %u",
				       t->blocking ? "true" : "false",
				       t->irq_wait ? "interrupt" : "spin",
				       t->copy ? "copy" : "compute", t->klass);
		put_content(s, &t->content);
		g_string_append(s, "}\n");
		break;
	case GS_GEN_APP:
		put_app(s, t);
		break;
	case GS_GEN_SCRIPT:
	case GS_GEN_IDLE: {
		uint32_t i = 0;

		g_string_append(s, "    behavior:\n      script:\n");
		put_steps(s, t, &i, t->n_steps, "        ");
		break;
	}
	case GS_GEN_TRACE: {
		struct gs_gen_file *f = g_new0(struct gs_gen_file, 1);

		f->name = g_strdup_printf("%s-%s.csv", stem, t->name);
		f->text = trace_csv(t);
		g_string_append_printf(s, "    behavior:\n      trace: "
				       "{file: %s%s}\n", f->name,
				       t->irq_wait ? ", wait: interrupt" : "");
		g_ptr_array_add(files, f);
		break;
	}
	case GS_GEN_JOB:
		put_job(s, t);
		break;
	}
}

/* A task's keys from the later streams, those not at their default. */
static void put_task_more(GString *s, const struct gs_gen_task *t)
{
	if (t->count)
		g_string_append_printf(s, "    count: %u\n", t->count);
	if (t->pinned)
		g_string_append_printf(s, "    gpu: %u\n", t->gpu);
	if (t->priority)
		g_string_append_printf(s, "    priority: %s\n",
				       gs_gen_priorities[t->priority]);
	if (t->max_inflight)
		g_string_append_printf(s, "    max_inflight: %u\n",
				       t->max_inflight);
	if (t->ring_entries)
		g_string_append_printf(s, "    ring_entries: %u\n",
				       t->ring_entries);
	if (t->rounds)
		g_string_append_printf(s, "    rounds: %u\n", t->rounds);
}

static void put_gpu(GString *s, const struct gs_gen_scenario *g,
		    const char *indent)
{
	g_string_append_printf(s, "%spreset: %s\n%sring_entries: %u\n"
			       "%sdispatch_batch: %u\n", indent, g->preset,
			       indent, g->ring_entries, indent,
			       g->dispatch_batch);
#define GS_GEN_PUT(field) \
	do { \
		g_string_append(s, indent); \
		put_key_ns(s, #field, g->field, "\n"); \
	} while (0)
	GS_GEN_PUT(fetch);
	GS_GEN_PUT(ctx_switch);
	GS_GEN_PUT(mmio_read);
	GS_GEN_PUT(ref_writeback);
	GS_GEN_PUT(irq_latency);
	GS_GEN_PUT(timeslice);
	GS_GEN_PUT(preempt_save);
#undef GS_GEN_PUT
	if (g->more.sched)
		g_string_append_printf(s, "%ssched: %s\n", indent,
				       g->more.sched == 2 ? "timeslice" :
				       "round-robin");
	if (g->more.preemption)
		g_string_append_printf(s, "%spreemption: %s\n", indent,
				       g->more.preemption == 2 ? "true" :
				       "false");
	if (g->more.no_copy_engine)
		g_string_append_printf(s, "%scopy_engine: false\n", indent);
}

/* The node's blocks other than gpu: from the second stream. */
static void put_node_more(GString *s, const struct gs_gen_more *m,
			  const struct gs_gen_machine *machine)
{
	if (machine->memory_gib)
		g_string_append_printf(s, "  memory: %uGiB\n",
				       machine->memory_gib);
	if (machine->qos_pct)
		g_string_append_printf(s, "  qos_degradation: %u%%\n",
				       machine->qos_pct);
	if (m->interference_pct)
		g_string_append_printf(s, "  interference: %u%%\n",
				       m->interference_pct);
	if (m->power)
		g_string_append(s, "  power: {idle_watts: 30, active_watts: "
				"150, busy_watts: 250, wake_joules: 20}\n");
	if (m->um_page_kib) {
		g_string_append_printf(s, "  unified_memory: {page: %uKiB, ",
				       m->um_page_kib);
		put_key_ns(s, "fault", m->um_fault, "}\n");
	}
}

char *gs_gen_yaml(const struct gs_gen_scenario *g, const char *stem,
		  GPtrArray *files)
{
	GString *s = g_string_new(NULL);
	uint32_t i;

	g_string_append_printf(s, "# gpusim generate --seed %" PRIu64
			       " --policy %s --preset %s\n"
			       "name: gen-%" PRIu64 "\nseed: %" PRIu64 "\n",
			       g->seed, g->policy, g->preset, g->seed, g->seed);
	put_key_ns(s, "duration", g->duration, "\n");
	if (g->gpus) {
		g_string_append_printf(s, "node:\n  gpus: %u\n  migration: {",
				       g->gpus);
		put_key_ns(s, "clone", g->migration_clone, ", ");
		g_string_append_printf(s, "bandwidth: %" PRIu64 "/s",
				       g->migration_bandwidth);
		if (g->more.on_demand_set)
			g_string_append_printf(s, ", on_demand: %u%%",
					       g->more.on_demand_pct);
		g_string_append(s, "}\n");
		put_node_more(s, &g->more, &g->machine);
		g_string_append(s, "  gpu:\n");
		put_gpu(s, g, "    ");
	} else {
		g_string_append(s, "gpu:\n");
		put_gpu(s, g, "  ");
	}
	g_string_append(s, "host: {");
	put_key_ns(s, "launch", g->launch, ", ");
	put_key_ns(s, "doorbell", g->doorbell, ", ");
	put_key_ns(s, "trap", g->trap, ", ");
	put_key_ns(s, "spin_poll", g->spin_poll, ", ");
	put_key_ns(s, "wakeup", g->wakeup, ", ");
	put_key_ns(s, "policy_wakeup", g->policy_wakeup, "}\n");
	g_string_append_printf(s, "policy:\n  name: %s\n  params: ", g->policy);
	put_params(s, g->params, g->n_params);
	g_string_append(s, "\n");
	if (g->arrivals_every) {
		g_string_append(s, g->more.arrivals_shuffled ?
				"arrivals: {order: shuffled, " : "arrivals: {");
		put_key_ns(s, g->more.arrivals_poisson ? "poisson" : "every",
			   g->arrivals_every, "}\n");
	}
	if (g->n_vms) {
		g_string_append(s, "vms:\n");
		put_vms(s, g, -1, "  ");
	}
	g_string_append(s, "tasks:\n");
	for (i = 0; i < g->n_tasks; i++) {
		const struct gs_gen_task *t = &g->tasks[i];

		g_string_append_printf(s, "  - name: %s\n    weight: %u\n",
				       t->name, t->weight);
		if (t->behavior != GS_GEN_APP && t->behavior != GS_GEN_JOB)
			g_string_append_printf(s, "    channels: %u\n",
					       t->channels);
		if (t->start) {
			g_string_append(s, "    ");
			put_key_ns(s, "start", t->start, "\n");
		}
		if (t->vm >= 0)
			g_string_append_printf(s, "    vm: %s\n",
					       g->vms[t->vm].name);
		put_task_more(s, t);
		put_behavior(s, t, stem, files);
	}
	g_string_append(s, "output: {timeline: false}\n");
	return g_string_free(s, FALSE);
}

void gs_gen_file_free(gpointer file)
{
	struct gs_gen_file *f = file;

	g_free(f->name);
	g_free(f->text);
	g_free(f);
}
