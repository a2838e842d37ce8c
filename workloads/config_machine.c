/* The machine a scenario runs on: its `gpu` (or a preset) or `node` of
 * several GPUs, and its `host` (CPU costs of the driver paths). */
#include "workloads/config_internal.h"

#include <string.h>

#include "gpu_model/gpu_config.h"

/* --- gpu --- */

enum field_type { F_DURATION, F_U32, F_U64, F_BOOL, F_WATTS };

struct gpu_field {
	const char *key;
	enum field_type type;
	size_t offset;
	uint32_t min, max; /* F_U32 */
};

#define GPU_FIELD(k, t, f, lo, hi) \
	{ k, t, offsetof(struct gs_gpu_config, f), lo, hi }

static const struct gpu_field gpu_fields[] = {
	GPU_FIELD("ring_entries", F_U32, ring_entries, 2, 1048576),
	GPU_FIELD("max_channels", F_U32, max_channels, 1, 1048576),
	GPU_FIELD("dispatch_batch", F_U32, dispatch_batch, 1, 1048576),
	GPU_FIELD("fetch", F_DURATION, fetch, 0, 0),
	GPU_FIELD("ctx_switch", F_DURATION, ctx_switch, 0, 0),
	GPU_FIELD("mmio_read", F_DURATION, mmio_read, 0, 0),
	GPU_FIELD("ref_writeback", F_DURATION, ref_writeback, 0, 0),
	GPU_FIELD("irq_latency", F_DURATION, irq_latency, 0, 0),
	GPU_FIELD("copy_engine", F_BOOL, copy_engine, 0, 0),
	GPU_FIELD("timeslice", F_DURATION, timeslice, 0, 0),
	GPU_FIELD("preemption", F_BOOL, preemption, 0, 0),
	GPU_FIELD("preempt_save", F_DURATION, preempt_save, 0, 0),
	GPU_FIELD("idle_watts", F_WATTS, idle_mw, 0, 0),
	GPU_FIELD("active_watts", F_WATTS, active_mw, 0, 0),
};

static const char *const gpu_keys[] = {
	"preset", "clock_hz", "ring_entries", "max_channels", "dispatch_batch",
	"fetch", "ctx_switch", "mmio_read", "ref_writeback", "irq_latency",
	"copy_engine", "sched", "timeslice", "preemption", "preempt_save",
	"idle_watts", "active_watts", NULL,
};

static const char *const sched_names[] = { "round-robin", "timeslice" };

static int load_preset(struct cfg *c, const yaml_node_t *n,
		       struct gs_gpu_config *gpu)
{
	const char *name = cfg_text(n);
	const char *close;
	g_autofree char *list = NULL;

	if (name && !cfg_is_null(n) && gs_gpu_preset(name, gpu) == 0)
		return 0;
	list = g_strjoinv(", ", (char **)gs_gpu_preset_names);
	close = name ? cfg_closest(name, (const char *const *)
				   gs_gpu_preset_names,
				   g_strv_length((char **)gs_gpu_preset_names))
		     : NULL;
	if (close)
		return cfg_error(c, n, "unknown GPU preset '%s'; did you mean '%s'?",
				 name, close);
	{
		g_autofree char *got = cfg_describe(n);

		return cfg_error(c, n, "unknown GPU preset %s (presets: %s)",
				 got, list);
	}
}

int cfg_load_gpu(struct cfg *c, const yaml_node_t *map,
		 struct gs_gpu_config *gpu)
{
	yaml_node_t *v;
	size_t i;

	if (cfg_map_check(c, map, "gpu", gpu_keys) < 0)
		return -1;
	v = cfg_map_get(c, map, "preset");
	if (v) {
		if (load_preset(c, v, gpu) < 0)
			return -1;
	} else if (gs_gpu_preset("kepler", gpu) < 0) {
		return cfg_error(c, map, "the built-in preset 'kepler' is missing");
	}
	/* The clock first: the durations below may be written in cycles. */
	v = cfg_map_get(c, map, "clock_hz");
	if (v && cfg_u64(c, v, "clock_hz", 1, 1000000000000ULL,
			 &gpu->clock_hz) < 0)
		return -1;
	for (i = 0; i < G_N_ELEMENTS(gpu_fields); i++) {
		const struct gpu_field *f = &gpu_fields[i];
		char *field = (char *)gpu + f->offset;
		int rc = 0;

		v = cfg_map_get(c, map, f->key);
		if (!v)
			continue;
		switch (f->type) {
		case F_DURATION:
			rc = cfg_duration(c, v, f->key, gpu->clock_hz,
					  CFG_MAX_DURATION, (gs_time_t *)field);
			break;
		case F_U32:
			rc = cfg_u32(c, v, f->key, f->min, f->max,
				     (uint32_t *)field);
			break;
		case F_U64:
			rc = cfg_u64(c, v, f->key, 0, UINT64_MAX,
				     (uint64_t *)field);
			break;
		case F_BOOL:
			rc = cfg_bool(c, v, f->key, (bool *)field);
			break;
		case F_WATTS:
			rc = cfg_watts(c, v, f->key, (uint32_t *)field);
			break;
		}
		if (rc < 0)
			return -1;
	}
	v = cfg_map_get(c, map, "sched");
	if (v) {
		int mode;

		if (cfg_enum(c, v, "sched", sched_names,
			     G_N_ELEMENTS(sched_names), &mode) < 0)
			return -1;
		gpu->sched = (enum gs_sched_mode)mode;
	}
	if (gpu->sched == GS_SCHED_TIMESLICE && gpu->timeslice == 0)
		return cfg_error(c, v ? v : map,
				 "sched: timeslice needs a timeslice above 0");
	return 0;
}

int cfg_load_node(struct cfg *c, const yaml_node_t *map)
{
	static const char *const keys[] = {
		"gpus", "gpu", "power", "migration", "interference", "memory",
		"qos_degradation", "unified_memory", NULL,
	};
	yaml_node_t *v;

	if (cfg_map_check(c, map, "node", keys) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "power")) && cfg_load_power(c, v) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "migration")) &&
	    cfg_load_migration(c, v) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "unified_memory")) &&
	    cfg_load_paging(c, v) < 0)
		return -1;
	v = cfg_map_get(c, map, "gpus");
	if (!v)
		return cfg_error(c, map,
				 "node: missing required key 'gpus' (the number of GPUs)");
	if (cfg_u32(c, v, "gpus", 1, CFG_MAX_GPUS, &c->sc->n_gpus) < 0)
		return -1;
	if (cfg_load_gpu(c, cfg_map_get(c, map, "gpu"), &c->sc->gpu) < 0)
		return -1;
	/* Every GPU's channel table is allocated up front. */
	if ((uint64_t)c->sc->n_gpus * c->sc->gpu.max_channels >
	    CFG_MAX_CHANNELS)
		return cfg_error(c, v,
				 "%u GPUs of %u channels are more than %u channel slots in all; lower gpu.max_channels",
				 c->sc->n_gpus, c->sc->gpu.max_channels,
				 CFG_MAX_CHANNELS);
	if ((v = cfg_map_get(c, map, "memory")) &&
	    cfg_load_gpu_memory(c, v) < 0)
		return -1;
	/* DCUDA 4.5: a task meets its QoS when slowed by less than this */
	if ((v = cfg_map_get(c, map, "qos_degradation")) &&
	    cfg_share(c, v, "qos_degradation", 0, 100000,
		      &c->sc->qos_degradation_pm) < 0)
		return -1;
	v = cfg_map_get(c, map, "interference");
	return v ? cfg_share(c, v, "interference", 0, 10000,
			     &c->sc->gpu.interference_pm) : 0;
}

/* --- host --- */

int cfg_load_host(struct cfg *c, const yaml_node_t *map)
{
	static const char *const keys[] = {
		"clock_hz", "launch", "doorbell", "trap", "spin_poll", "wakeup",
		"policy_wakeup", NULL,
	};
	struct gs_host_config *h = &c->sc->host;
	gs_time_t *fields[] = {
		&h->launch, &h->doorbell, &h->trap, &h->spin_poll, &h->wakeup,
		&h->policy_wakeup,
	};
	yaml_node_t *v;
	size_t i;

	gs_host_defaults(h);
	if (cfg_map_check(c, map, "host", keys) < 0)
		return -1;
	v = cfg_map_get(c, map, "clock_hz");
	if (v && cfg_u64(c, v, "clock_hz", 1, 1000000000000ULL,
			 &h->clock_hz) < 0)
		return -1;
	for (i = 0; i < G_N_ELEMENTS(fields); i++) {
		v = cfg_map_get(c, map, keys[i + 1]);
		if (v && cfg_duration(c, v, keys[i + 1], h->clock_hz,
				      CFG_MAX_DURATION, fields[i]) < 0)
			return -1;
	}
	return 0;
}
