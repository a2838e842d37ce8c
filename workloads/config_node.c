/* The node sections of a scenario: node.power, node.migration and the
 * top-level arrivals, plus the readers they share with `job` behaviours
 * (byte sizes and shares). */
#include "workloads/config_internal.h"

#include <string.h>

#include "base/rng.h"

/* "512MiB", "2GiB", "1.5GB", "4096" (bytes). KB/MB/GB are taken as the
 * binary units too: footprints are what matters, not the convention.
 * `s` is n's text or a part of it; errors are reported at n (which knows
 * its position, or the --set it came from). */
static int parse_bytes(struct cfg *c, const yaml_node_t *n, const char *s,
		       const char *what, uint64_t *out)
{
	static const struct { const char *unit; uint64_t mul; } units[] = {
		{ "KiB", 1ULL << 10 }, { "MiB", 1ULL << 20 },
		{ "GiB", 1ULL << 30 }, { "KB", 1ULL << 10 },
		{ "MB", 1ULL << 20 }, { "GB", 1ULL << 30 }, { "B", 1 },
	};
	char *end = NULL;
	double v;
	size_t i;

	v = g_ascii_strtod(s, &end);
	if (end == s || !(v >= 0) || v > 1e15)
		return cfg_error(c, n, "%s: expected a size such as 512MiB or 2GiB, got '%s'",
				 what, s);
	if (!*end) {
		*out = (uint64_t)v;
		return 0;
	}
	for (i = 0; i < G_N_ELEMENTS(units); i++) {
		if (!strcmp(end, units[i].unit)) {
			*out = (uint64_t)(v * (double)units[i].mul);
			return 0;
		}
	}
	return cfg_error(c, n, "%s: unknown unit in '%s' (use B, KiB, MiB or GiB)",
			 what, s);
}

int cfg_bytes(struct cfg *c, const yaml_node_t *n, const char *what,
	      uint64_t *out)
{
	const char *s = cfg_text(n);

	if (!s || cfg_is_null(n))
		return cfg_error(c, n, "%s: expected a size such as 512MiB or 2GiB",
				 what);
	return parse_bytes(c, n, s, what, out);
}

/* "40%" or 0.4, as per-mille in [min_pm, max_pm]. */
int cfg_share(struct cfg *c, const yaml_node_t *n, const char *what,
	      uint32_t min_pm, uint32_t max_pm, uint32_t *out)
{
	const char *s = cfg_text(n);
	char *end = NULL;
	double v;

	if (!s || cfg_is_null(n))
		return cfg_error(c, n, "%s: expected a share such as 40%% or 0.4",
				 what);
	v = g_ascii_strtod(s, &end);
	if (end != s && *end == '%' && !end[1])
		v /= 100;
	else if (end == s || *end)
		return cfg_error(c, n, "%s: expected a share such as 40%% or 0.4, got '%s'",
				 what, s);
	if (!(v * 1000 >= min_pm - 1e-9) || v * 1000 > max_pm + 1e-9)
		return cfg_error(c, n, "%s must be between %u%% and %u%%, got '%s'",
				 what, min_pm / 10, max_pm / 10, s);
	*out = (uint32_t)(v * 1000 + 0.5);
	return 0;
}

int cfg_load_power(struct cfg *c, const yaml_node_t *map)
{
	static const char *const keys[] = {
		"idle_watts", "active_watts", "busy_watts", "wake_joules",
		NULL,
	};
	struct gs_node_power *p = &c->sc->power;
	uint32_t wake = 0;
	yaml_node_t *v;

	if (cfg_expect_map(c, map, "node.power") < 0 ||
	    cfg_map_check(c, map, "power", keys) < 0)
		return -1;
	p->set = true;
	p->idle_mw = 50000;
	p->active_mw = 150000;
	p->wake_mj = 20000;
	if ((v = cfg_map_get(c, map, "idle_watts")) &&
	    cfg_watts(c, v, "idle_watts", &p->idle_mw) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "active_watts")) &&
	    cfg_watts(c, v, "active_watts", &p->active_mw) < 0)
		return -1;
	p->busy_mw = p->active_mw;
	if ((v = cfg_map_get(c, map, "busy_watts"))) {
		if (cfg_watts(c, v, "busy_watts", &p->busy_mw) < 0)
			return -1;
		if (p->busy_mw < p->active_mw)
			return cfg_error(c, v,
					 "busy_watts (all cores in use) must be at least active_watts");
	}
	if ((v = cfg_map_get(c, map, "wake_joules"))) {
		/* joules with up to 3 decimals read like watts */
		if (cfg_watts(c, v, "wake_joules", &wake) < 0)
			return -1;
		p->wake_mj = wake;
	}
	return 0;
}

void cfg_migration_defaults(struct gs_migration_config *m)
{
	m->clone = 5 * GS_NS_PER_MS;
	m->bandwidth = 12ULL << 30;
	m->on_demand_pm = 50;
}

int cfg_load_migration(struct cfg *c, const yaml_node_t *map)
{
	static const char *const keys[] = {
		"clone", "bandwidth", "on_demand", NULL,
	};
	struct gs_migration_config *m = &c->sc->migration;
	yaml_node_t *v;

	if (cfg_expect_map(c, map, "node.migration") < 0 ||
	    cfg_map_check(c, map, "migration", keys) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "clone")) &&
	    cfg_duration(c, v, "clone", c->sc->host.clock_hz,
			 CFG_MAX_DURATION, &m->clone) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "bandwidth"))) {
		g_autofree char *text = NULL;
		const char *s = cfg_text(v);

		if (!s || !g_str_has_suffix(s, "/s"))
			return cfg_error(c, v,
					 "bandwidth: expected bytes per second such as 12GiB/s");
		/* the number and unit before "/s", errors at v itself (a
		 * copy of the node would lose the --set it came from) */
		text = g_strndup(s, strlen(s) - 2);
		if (parse_bytes(c, v, text, "bandwidth", &m->bandwidth) < 0)
			return -1;
		if (!m->bandwidth)
			return cfg_error(c, v, "bandwidth must be above 0");
	}
	if ((v = cfg_map_get(c, map, "on_demand")) &&
	    cfg_share(c, v, "on_demand", 0, 1000, &m->on_demand_pm) < 0)
		return -1;
	return 0;
}

/* node.unified_memory: {page: 64KiB, fault: 10us}; both required, so
 * that a config states the mechanism's constants it relies on. */
int cfg_load_paging(struct cfg *c, const yaml_node_t *map)
{
	static const char *const keys[] = { "page", "fault", NULL };
	struct gs_paging_config *p = &c->sc->paging;
	yaml_node_t *page, *fault;

	if (cfg_expect_map(c, map, "node.unified_memory") < 0 ||
	    cfg_map_check(c, map, "unified_memory", keys) < 0)
		return -1;
	page = cfg_map_get(c, map, "page");
	fault = cfg_map_get(c, map, "fault");
	if (!page || !fault)
		return cfg_error(c, map,
				 "unified_memory: give 'page' (bytes per fault) and 'fault' (the stall of one)");
	if (cfg_bytes(c, page, "page", &p->page) < 0 ||
	    cfg_duration(c, fault, "fault", c->sc->host.clock_hz,
			 CFG_MAX_DURATION, &p->fault) < 0)
		return -1;
	if (!p->page)
		return cfg_error(c, page, "page must be above 0");
	p->set = true;
	return 0;
}

int cfg_load_gpu_memory(struct cfg *c, const yaml_node_t *v)
{
	if (cfg_bytes(c, v, "memory", &c->sc->gpu_memory) < 0)
		return -1;
	if (!c->sc->gpu_memory)
		return cfg_error(c, v, "memory must be above 0");
	return 0;
}

/* arrivals: {every: 5s | poisson: 5s | at: [0s, 1s, ...], first: 0s,
 * order: listed | shuffled}. The task definitions start one after the
 * other in list order, or in an order drawn from the seed (stream
 * "arrivals"); `start` of a task is replaced. */
int cfg_load_arrivals(struct cfg *c, const yaml_node_t *map)
{
	static const char *const keys[] = {
		"every", "poisson", "at", "first", "order", NULL,
	};
	static const char *const orders[] = { "listed", "shuffled" };
	struct gs_scenario *sc = c->sc;
	yaml_node_t *every = NULL, *poisson = NULL, *at = NULL, *v;
	g_autofree uint32_t *perm = NULL;
	gs_time_t gap = 0, first = 0, t;
	struct gs_rng rng;
	int order = 0, given = 0;
	uint32_t i;

	if (cfg_expect_map(c, map, "arrivals") < 0 ||
	    cfg_map_check(c, map, "arrivals", keys) < 0)
		return -1;
	given += (every = cfg_map_get(c, map, "every")) != NULL;
	given += (poisson = cfg_map_get(c, map, "poisson")) != NULL;
	given += (at = cfg_map_get(c, map, "at")) != NULL;
	if (given != 1)
		return cfg_error(c, map,
				 "arrivals: give exactly one of 'every' (fixed interval), 'poisson' (mean interval) or 'at' (a list of times)");
	if ((v = cfg_map_get(c, map, "first")) &&
	    cfg_duration(c, v, "first", sc->host.clock_hz, CFG_MAX_DURATION,
			 &first) < 0)
		return -1;
	if ((v = cfg_map_get(c, map, "order")) &&
	    cfg_enum(c, v, "order", orders, 2, &order) < 0)
		return -1;
	v = every ? every : poisson;
	if (v && cfg_duration(c, v, every ? "every" : "poisson",
			      sc->host.clock_hz, CFG_MAX_DURATION, &gap) < 0)
		return -1;
	if (at) {
		if (cfg_expect_seq(c, at, "at") < 0)
			return -1;
		if (cfg_seq_len(at) != sc->n_tasks)
			return cfg_error(c, at,
					 "arrivals.at: %zu times for %u tasks",
					 cfg_seq_len(at), sc->n_tasks);
	}
	gs_rng_seed(&rng, sc->seed, "arrivals");
	perm = g_new(uint32_t, sc->n_tasks);
	for (i = 0; i < sc->n_tasks; i++)
		perm[i] = i;
	for (i = sc->n_tasks; order == 1 && i > 1; i--) {
		uint32_t j = (uint32_t)gs_rng_below(&rng, i), tmp = perm[i - 1];

		perm[i - 1] = perm[j];
		perm[j] = tmp;
	}
	t = first;
	for (i = 0; i < sc->n_tasks; i++) {
		if (at) {
			if (cfg_duration(c, cfg_seq_item(c, at, i), "at",
					 sc->host.clock_hz, CFG_MAX_DURATION,
					 &t) < 0)
				return -1;
			t += first;
		} else if (i && poisson) {
			t += (gs_time_t)(-(double)gap *
					 gs_ln(1.0 - gs_rng_unit(&rng)));
		} else if (i) {
			t += gap;
		}
		sc->tasks[perm[i]].start = t;
	}
	return 0;
}
