/* The `job` behaviour: a task with a compute demand, a memory footprint
 * and a run length, for multi-GPU node scenarios (DCUDA). It launches
 * kernels of `kernel`, each occupying `demand` of the GPU's cores, one
 * after the other (launch, wait, next) until it has run `length` alone,
 * then exits. Its one round is the whole run, so its slowdown is the
 * normalised execution time (time shared / time alone). Its channel's
 * kernels share the cores with other jobs' (gpu_model/shared.c): nobody
 * slows down while the demands on a GPU add up to at most 100%, beyond
 * that all slow down in proportion (docs/decisions.md, "Node contention
 * model"). */
#include "workloads/config_internal.h"
#include "workloads/config_program.h"

#include "gpu_model/gpu.h"
#include "workloads/dcuda_apps.h"

static int unknown_job(struct cfg *c, const yaml_node_t *n)
{
	const char *name = cfg_text(n);
	g_autofree const char **names = g_new0(const char *, gs_n_jobs + 1);
	const char *close;
	uint32_t i;

	for (i = 0; i < gs_n_jobs; i++)
		names[i] = gs_jobs[i].name;
	close = name ? cfg_closest(name, names, gs_n_jobs) : NULL;
	if (close)
		return cfg_error(c, n, "unknown job app '%s'; did you mean '%s'?",
				 name, close);
	return cfg_error(c, n,
			 "unknown job app '%s' (the DCUDA Table 1 apps: see `gpusim list`)",
			 name ? name : "");
}

int cfg_compile_job(struct cfg *c, const yaml_node_t *map,
		    struct gs_task_config *t, struct cfg_prog *p)
{
	static const char *const keys[] = {
		"app", "demand", "kernel", "length", "memory", "startup", NULL,
	};
	const struct gs_host_config *h = &c->sc->host;
	const struct gs_job_desc *app = NULL;
	gs_time_t kernel = 0, length = 0, startup = 0, cycle;
	uint32_t demand = 0;
	uint64_t steps;
	yaml_node_t *v;
	struct gs_step s;

	if (cfg_expect_map(c, map, "job") < 0 ||
	    cfg_map_check(c, map, "job", keys) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "app"))) {
		app = cfg_text(v) ? gs_job_find(cfg_text(v)) : NULL;
		if (!app)
			return unknown_job(c, v);
		demand = app->demand_pm;
		kernel = app->kernel;
		length = app->length;
		startup = app->startup;
		t->memory_bytes = (uint64_t)app->memory_mib << 20;
		t->behavior_label = g_strdup(app->name);
	}
	if ((v = cfg_map_get(c, map, "demand")) &&
	    cfg_share(c, v, "demand", 1, 1000, &demand) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "kernel")) &&
	    cfg_duration(c, v, "kernel", c->sc->gpu.clock_hz,
			 CFG_MAX_DURATION, &kernel) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "length")) &&
	    cfg_duration(c, v, "length", h->clock_hz, CFG_MAX_DURATION,
			 &length) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "startup")) &&
	    cfg_duration(c, v, "startup", h->clock_hz, CFG_MAX_DURATION,
			 &startup) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "memory")) &&
	    cfg_bytes(c, v, "memory", &t->memory_bytes) < 0)
		return -1;
	if (!demand || !kernel || !length)
		return cfg_error(c, map,
				 "job: give 'app' (a DCUDA Table 1 app) or all of 'demand', 'kernel' and 'length'");
	t->demand_pm = demand;
	/* one step alone: launch + doorbell, the kernel, the completion seen
	 * by spinning */
	cycle = kernel + h->launch + h->doorbell + h->spin_poll;
	steps = length / cycle;
	if (steps == 0)
		steps = 1;
	if (steps > UINT32_MAX)
		return cfg_error(c, map, "job: more than %u kernel steps",
				 UINT32_MAX);
	if (!t->behavior_label)
		t->behavior_label = g_strdup_printf("job %u%%", demand / 10);

	/* host work before the first kernel: loading data, building the
	 * model; the GPU sees nothing yet */
	if (startup && cfg_prog_push_cpu(c, map, p, startup) < 0)
		return -1;
	s = cfg_step(GS_OP_LOOP);
	s.count = (uint32_t)steps;
	if (cfg_prog_push(c, map, p, &s) < 0)
		return -1;
	s = cfg_step(GS_OP_LAUNCH);
	s.engine = GS_ENGINE_COMPUTE;
	s.flags = GS_CMD_FENCE;
	s.dur = gs_dist_const(kernel);
	if (cfg_prog_push(c, map, p, &s) < 0)
		return -1;
	s = cfg_step(GS_OP_WAIT);
	s.wait_mode = GS_WAIT_SPIN;
	if (cfg_prog_push(c, map, p, &s) < 0)
		return -1;
	s = cfg_step(GS_OP_END_LOOP);
	s.target = startup ? 1 : 0;
	if (cfg_prog_push(c, map, p, &s) < 0)
		return -1;
	s = cfg_step(GS_OP_ROUND);
	return cfg_prog_push(c, map, p, &s);
}
