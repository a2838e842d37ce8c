/* Tasks and the throttle and app behaviours, compiled to gs_program.
 * Scripts and traces are in config_script.c. */
#include "workloads/config_internal.h"
#include "workloads/config_program.h"

#include <string.h>

#include "gpu_model/gpu.h"
#include "policies/hal.h"
#include "workloads/apps.h"

/* "100us", "1.5ms": the shortest exact unit, for labels. */
static char *format_ns(gs_time_t t)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "s", GS_NS_PER_S }, { "ms", GS_NS_PER_MS },
		{ "us", GS_NS_PER_US },
	};
	size_t i;

	for (i = 0; t && i < G_N_ELEMENTS(units); i++)
		if (t % units[i].ns == 0)
			return g_strdup_printf("%" G_GUINT64_FORMAT "%s",
					       t / units[i].ns, units[i].unit);
	return g_strdup_printf("%" G_GUINT64_FORMAT "ns", t);
}

/* --- throttle --- */

static const char *const wait_names[] = { "spin", "interrupt" };
static const char *const engine_names[] = { "compute", "copy" };

static int compile_throttle(struct cfg *c, const yaml_node_t *map,
			    struct gs_task_config *t, struct cfg_prog *p)
{
	static const char *const keys[] = {
		"kernel", "sleep", "blocking", "wait", "engine", "class",
		"content", NULL,
	};
	struct gs_step launch = cfg_step(GS_OP_LAUNCH);
	struct gs_step sleep = cfg_step(GS_OP_SLEEP);
	struct gs_step s;
	bool blocking = true;
	int mode = GS_WAIT_SPIN, engine = GS_ENGINE_COMPUTE;
	uint32_t cls = 0;
	yaml_node_t *v;
	g_autofree char *len = NULL;

	if (map->type != YAML_MAPPING_NODE)
		return cfg_error(c, map,
				 "throttle takes a mapping such as {kernel: 100us, sleep: 0}");
	if (cfg_map_check(c, map, "throttle", keys) < 0)
		return -1;
	v = cfg_map_get(c, map, "kernel");
	if (!v)
		return cfg_error(c, map,
				 "throttle: missing required key 'kernel' (the command length, e.g. kernel: 100us)");
	if (cfg_dist(c, v, "kernel", c->sc->gpu.clock_hz, &launch.dur) < 0)
		return -1;
	v = cfg_map_get(c, map, "sleep");
	if (v && cfg_dist(c, v, "sleep", c->sc->host.clock_hz,
			  &sleep.dur) < 0)
		goto fail;
	v = cfg_map_get(c, map, "blocking");
	if (v && cfg_bool(c, v, "blocking", &blocking) < 0)
		goto fail;
	v = cfg_map_get(c, map, "wait");
	if (v && cfg_enum(c, v, "wait", wait_names, 2, &mode) < 0)
		goto fail;
	v = cfg_map_get(c, map, "engine");
	if (v && cfg_enum(c, v, "engine", engine_names, 2, &engine) < 0)
		goto fail;
	v = cfg_map_get(c, map, "class");
	if (v && cfg_u32(c, v, "class", 0, GS_MAX_CMD_CLASS, &cls) < 0)
		goto fail;
	v = cfg_map_get(c, map, "content");
	if (v && cfg_content(c, v, &launch.content) < 0)
		goto fail;

	len = format_ns(gs_dist_mean(&launch.dur));
	t->behavior_label = g_strdup_printf("throttle %s%s",
					    launch.dur.kind == GS_DIST_CONST ?
					    "" : "~", len);
	launch.engine = (uint8_t)engine;
	launch.cls = (uint8_t)cls;
	launch.flags = GS_CMD_FENCE | (mode == GS_WAIT_INTERRUPT ?
				       GS_CMD_IRQ : 0);
	s = cfg_step(GS_OP_LOOP);
	if (cfg_prog_push(c, map, p, &s) < 0 ||
	    cfg_prog_push(c, map, p, &launch) < 0)
		goto fail;
	if (blocking) {
		s = cfg_step(GS_OP_WAIT);
		s.wait_mode = (uint8_t)mode;
		if (cfg_prog_push(c, map, p, &s) < 0)
			goto fail;
	}
	if (!(sleep.dur.kind == GS_DIST_CONST && sleep.dur.a == 0) &&
	    cfg_prog_push(c, map, p, &sleep) < 0)
		goto fail;
	s = cfg_step(GS_OP_ROUND);
	if (cfg_prog_push(c, map, p, &s) < 0)
		goto fail;
	s = cfg_step(GS_OP_END_LOOP);
	s.target = 0;
	return cfg_prog_push(c, map, p, &s);
fail:
	gs_dist_clear(&launch.dur);
	gs_dist_clear(&sleep.dur);
	return -1;
}

/* --- app --- */

/* word (3+ letters) appears in name, ignoring case. */
static bool contains_ci(const char *name, const char *word)
{
	g_autofree char *a = g_ascii_strdown(name, -1);
	g_autofree char *b = g_ascii_strdown(word, -1);

	return strlen(b) >= 3 && strstr(a, b) != NULL;
}

static int unknown_app(struct cfg *c, const yaml_node_t *n)
{
	const char *name = cfg_text(n);
	GString *close = g_string_new(NULL);
	g_autofree char *msg = NULL;
	uint32_t i;

	for (i = 0; name && i < gs_n_apps; i++) {
		const char *app = gs_apps[i].name;

		if (cfg_closest(name, &app, 1) || contains_ci(app, name))
			g_string_append_printf(close, "%s'%s'",
					       close->len ? ", " : "", app);
	}
	msg = g_string_free(close, FALSE);
	if (*msg)
		return cfg_error(c, n, "unknown app '%s'; did you mean %s?",
				 name, msg);
	{
		g_autofree char *got = cfg_describe(n);
		GString *all = g_string_new(NULL);
		g_autofree char *list = NULL;

		for (i = 0; i < gs_n_apps; i++)
			g_string_append_printf(all, "%s%s", i ? ", " : "",
					       gs_apps[i].name);
		list = g_string_free(all, FALSE);
		return cfg_error(c, n, "unknown app %s (apps: %s)", got, list);
	}
}

/* One request: LAUNCH on ch, then (sync per request) WAIT on ch. */
static int push_request(struct cfg *c, const yaml_node_t *where,
			struct cfg_prog *p, uint16_t ch,
			const struct gs_dist *len, int mode, bool wait)
{
	struct gs_step s = cfg_step(GS_OP_LAUNCH);

	s.channel = ch;
	s.engine = GS_ENGINE_COMPUTE;
	s.flags = GS_CMD_FENCE | (mode == GS_WAIT_INTERRUPT ? GS_CMD_IRQ : 0);
	gs_dist_copy(&s.dur, len);
	if (cfg_prog_push(c, where, p, &s) < 0)
		return -1;
	if (!wait)
		return 0;
	s = cfg_step(GS_OP_WAIT);
	s.channel = ch;
	s.wait_mode = (uint8_t)mode;
	return cfg_prog_push(c, where, p, &s);
}

/* `request:` of an app: a duration or distribution per channel (a list
 * for two-channel apps) in place of Table 1's constant mean; req[] holds
 * the constants on entry. */
static int app_requests(struct cfg *c, const yaml_node_t *v,
			const struct gs_app_desc *app, struct gs_dist req[2])
{
	uint32_t i, n;

	if (v->type != YAML_SEQUENCE_NODE) {
		if (app->channels != 1)
			return cfg_error(c, v,
					 "request: app %s uses %u channels; give a list of %u, one per channel",
					 app->name, app->channels,
					 app->channels);
		req[0] = (struct gs_dist){ 0 };
		return cfg_dist(c, v, "request", c->sc->gpu.clock_hz, &req[0]);
	}
	n = (uint32_t)(v->data.sequence.items.top -
		       v->data.sequence.items.start);
	if (n != app->channels)
		return cfg_error(c, v,
				 "request: app %s uses %u channel%s; the list has %u",
				 app->name, app->channels,
				 app->channels > 1 ? "s" : "", n);
	for (i = 0; i < n; i++) {
		req[i] = (struct gs_dist){ 0 };
		if (cfg_dist(c, cfg_node(c, v->data.sequence.items.start[i]),
			     "request", c->sc->gpu.clock_hz, &req[i]) < 0)
			return -1;
	}
	return 0;
}

/* NEON Table 1 gives the round time R and the mean request size (or the
 * mean of `request:`); the round becomes n = R / request requests (pairs,
 * alternating channels, for two-channel apps), and what the requests and
 * their host costs do not fill is CPU time. */
static int compile_app(struct cfg *c, const yaml_node_t *n,
		       struct gs_task_config *t, bool channels_set,
		       const yaml_node_t *channels_node, struct cfg_prog *p)
{
	static const char *const keys[] = { "name", "sync", "wait", "request",
					    NULL };
	static const char *const sync_names[] = { "request", "round" };
	const struct gs_host_config *h = &c->sc->host;
	const struct gs_app_desc *app;
	yaml_node_t *name = (yaml_node_t *)n, *v;
	int sync = 0, mode = GS_WAIT_SPIN;
	gs_time_t per_launch = h->launch + h->doorbell, busy, cpu, mean;
	uint64_t reps, launches, i;
	struct gs_dist req[2] = { { 0 }, { 0 } };
	const yaml_node_t *req_node = NULL;
	struct gs_step s;
	int rc = -1;

	if (n->type == YAML_MAPPING_NODE) {
		if (cfg_map_check(c, n, "app", keys) < 0)
			return -1;
		name = cfg_map_get(c, n, "name");
		if (!name)
			return cfg_error(c, n, "app: missing required key 'name'");
		v = cfg_map_get(c, n, "sync");
		if (v && cfg_enum(c, v, "sync", sync_names, 2, &sync) < 0)
			return -1;
		v = cfg_map_get(c, n, "wait");
		if (v && cfg_enum(c, v, "wait", wait_names, 2, &mode) < 0)
			return -1;
		req_node = cfg_map_get(c, n, "request");
	}
	app = cfg_text(name) ? gs_app_find(cfg_text(name)) : NULL;
	if (!app)
		return unknown_app(c, name);
	/* More channels than the app uses are opened and stay idle: LoGA
	 * 5.1 found CUDA 6.0 "to allocate 12 command submission channels
	 * per application, even though only one is actually used". */
	if (channels_set && t->channels < app->channels)
		return cfg_error(c, channels_node,
				 "app %s uses %u channel%s; remove 'channels' or set it to at least %u",
				 app->name, app->channels,
				 app->channels > 1 ? "s" : "", app->channels);
	if (!channels_set)
		t->channels = app->channels;
	t->behavior_label = g_strdup(app->name);
	req[0] = gs_dist_const(app->request[0]);
	req[1] = gs_dist_const(app->request[1]);
	if (req_node && app_requests(c, req_node, app, req) < 0)
		goto out;
	mean = gs_dist_mean(&req[0]) + gs_dist_mean(&req[1]);

	reps = app->round / MAX(mean, 1);
	if (reps == 0)
		reps = 1;
	launches = reps * app->channels;
	busy = reps * mean;
	if (sync == 0)
		busy += launches * (per_launch + h->spin_poll);
	else
		busy += launches * per_launch + h->spin_poll;
	cpu = app->round > busy ? app->round - busy : 0;

	s = cfg_step(GS_OP_LOOP);
	if (cfg_prog_push(c, n, p, &s) < 0)
		goto out;
	for (i = 0; i < reps; i++) {
		uint16_t ch;

		for (ch = 0; ch < app->channels; ch++)
			if (push_request(c, n, p, ch, &req[ch], mode,
					 sync == 0) < 0)
				goto out;
	}
	if (sync == 1) {
		s = cfg_step(GS_OP_WAIT);
		s.channel = GS_ALL_CHANNELS;
		s.wait_mode = (uint8_t)mode;
		if (cfg_prog_push(c, n, p, &s) < 0)
			goto out;
	}
	if (cpu && cfg_prog_push_cpu(c, n, p, cpu) < 0)
		goto out;
	s = cfg_step(GS_OP_ROUND);
	if (cfg_prog_push(c, n, p, &s) < 0)
		goto out;
	s = cfg_step(GS_OP_END_LOOP);
	s.target = 0;
	rc = cfg_prog_push(c, n, p, &s);
out:
	gs_dist_clear(&req[0]);
	gs_dist_clear(&req[1]);
	return rc;
}

/* --- tasks --- */

static const char *const behavior_kinds[] = {
	"throttle", "app", "script", "trace", "job", NULL,
};

static int compile_behavior(struct cfg *c, const yaml_node_t *task,
			    struct gs_task_config *t, bool channels_set)
{
	yaml_node_t *b = cfg_map_get(c, task, "behavior");
	yaml_node_t *v;
	const char *kind;
	struct cfg_prog p;
	int rc;

	if (!b)
		return cfg_error(c, task,
				 "task %s: missing required key 'behavior' (one of throttle, app, script, trace, job)",
				 t->name);
	if (b->type == YAML_MAPPING_NODE &&
	    cfg_map_check(c, b, "behavior", behavior_kinds) < 0)
		return -1;
	if (b->type == YAML_MAPPING_NODE && cfg_map_size(b) > 1) {
		yaml_node_pair_t *pr = b->data.mapping.pairs.start;

		return cfg_error(c, cfg_node(c, pr[1].key),
				 "a task has one behavior, but this one has both '%s' and '%s'",
				 cfg_text(cfg_node(c, pr[0].key)),
				 cfg_text(cfg_node(c, pr[1].key)));
	}
	if (b->type == YAML_MAPPING_NODE && cfg_map_size(b) == 0)
		return cfg_error(c, b,
				 "behavior is an empty mapping; give it one of throttle, app, script, trace, job with its settings, such as {throttle: {kernel: 100us}}");
	if (b->type != YAML_MAPPING_NODE) {
		g_autofree char *got = cfg_describe(b);

		/* `behavior: throttle` names a kind but gives it no settings:
		 * say that the shape is wrong, not the kind */
		return cfg_error(c, b,
				 "behavior must be a mapping of one kind (throttle, app, script, trace, job) to its settings, such as {throttle: {kernel: 100us}}; got %s%s",
				 b->type == YAML_SCALAR_NODE && !cfg_is_null(b) ?
				 "the scalar " : "", got);
	}
	kind = cfg_text(cfg_node(c, b->data.mapping.pairs.start->key));
	v = cfg_node(c, b->data.mapping.pairs.start->value);
	t->behavior_kind = g_strdup(kind);
	cfg_prog_init(&p);
	if (!strcmp(kind, "throttle"))
		rc = compile_throttle(c, v, t, &p);
	else if (!strcmp(kind, "app"))
		rc = compile_app(c, v, t, channels_set,
				 cfg_map_get(c, task, "channels"), &p);
	else if (!strcmp(kind, "script"))
		rc = cfg_compile_script(c, v, t, &p);
	else if (!strcmp(kind, "job"))
		rc = cfg_compile_job(c, v, t, &p);
	else
		rc = cfg_compile_trace(c, v, t, &p);
	if (rc < 0) {
		cfg_prog_free(&p);
		return -1;
	}
	if (!t->behavior_label)
		t->behavior_label = g_strdup(kind);
	cfg_prog_finish(&p, &t->program);
	return 0;
}

static int find_vm(struct cfg *c, const yaml_node_t *n, int32_t *out)
{
	const struct gs_scenario *sc = c->sc;
	const char *name = cfg_text(n);
	g_autofree const char **names = g_new0(const char *, sc->n_vms + 1);
	g_autofree char *list = NULL;
	const char *close;
	uint32_t i;

	for (i = 0; i < sc->n_vms; i++) {
		names[i] = sc->vms[i].name;
		if (name && !strcmp(name, sc->vms[i].name)) {
			*out = (int32_t)i;
			return 0;
		}
	}
	if (!name || cfg_is_null(n))
		return cfg_error(c, n, "vm: expected the name of a vm");
	if (sc->n_vms == 0)
		return cfg_error(c, n,
				 "unknown vm '%s': the scenario defines no vms (add a top-level 'vms' list)",
				 name);
	close = cfg_closest(name, names, sc->n_vms);
	if (close)
		return cfg_error(c, n, "unknown vm '%s'; did you mean '%s'?",
				 name, close);
	if (sc->n_vms > 20)
		return cfg_error(c, n, "unknown vm '%s' (see the top-level 'vms' list)",
				 name);
	list = g_strjoinv(", ", (char **)names);
	return cfg_error(c, n, "unknown vm '%s' (vms: %s)", name, list);
}

/* drm_sched's four levels, in the order of enum hal_priority. */
static int load_priority(struct cfg *c, const yaml_node_t *v, uint8_t *out)
{
	static const char *const names[] = { "kernel", "high", "normal",
					     "low" };
	int i;

	G_STATIC_ASSERT(G_N_ELEMENTS(names) == HAL_PRIO_COUNT);
	if (cfg_enum(c, v, "priority", names, G_N_ELEMENTS(names), &i) < 0)
		return -1;
	*out = (uint8_t)i;
	return 0;
}

static int load_task(struct cfg *c, const yaml_node_t *m,
		     struct gs_task_config *t, GHashTable *names)
{
	static const char *const keys[] = {
		"name", "count", "vm", "weight", "channels", "start", "gpu",
		"rounds", "behavior", "priority", "ring_entries",
		"max_inflight", NULL,
	};
	const struct gs_scenario *sc = c->sc;
	yaml_node_t *v, *first;
	uint64_t gpu;

	if (cfg_expect_map(c, m, "a task") < 0 ||
	    cfg_map_check(c, m, "task", keys) < 0)
		return -1;
	if (m->type != YAML_MAPPING_NODE)
		return cfg_error(c, m, "task: missing required key 'name'");
	v = cfg_map_get(c, m, "name");
	if (!v)
		return cfg_error(c, m, "task: missing required key 'name'");
	if (cfg_string(c, v, "task name", true, &t->name) < 0)
		return -1;
	first = g_hash_table_lookup(names, t->name);
	if (first)
		return cfg_error(c, v,
				 "duplicate task name '%s' (first defined at line %zu)",
				 t->name, first->start_mark.line + 1);
	g_hash_table_insert(names, t->name, v);

	t->count = 1;
	t->vm = -1;
	t->weight = 1;
	t->priority = HAL_PRIO_NORMAL;
	t->channels = 1;
	t->gpu = GS_GPU_AUTO;
	v = cfg_map_get(c, m, "count");
	if (v && cfg_u32(c, v, "count", 1, CFG_MAX_TASK_COUNT, &t->count) < 0)
		return -1;
	v = cfg_map_get(c, m, "vm");
	if (v && find_vm(c, v, &t->vm) < 0)
		return -1;
	v = cfg_map_get(c, m, "weight");
	if (v && cfg_u32(c, v, "weight", 1, 1000000, &t->weight) < 0)
		return -1;
	v = cfg_map_get(c, m, "priority");
	if (v && load_priority(c, v, &t->priority) < 0)
		return -1;
	v = cfg_map_get(c, m, "ring_entries");
	if (v && cfg_u32(c, v, "ring_entries", 2, sc->gpu.ring_entries,
			 &t->ring_entries) < 0)
		return -1;
	v = cfg_map_get(c, m, "max_inflight");
	if (v && cfg_u32(c, v, "max_inflight", 0, 1048576,
			 &t->max_inflight) < 0)
		return -1;
	v = cfg_map_get(c, m, "channels");
	if (v && cfg_u32(c, v, "channels", 1, sc->gpu.max_channels,
			 &t->channels) < 0)
		return -1;
	if (v && t->channels > GS_ALL_CHANNELS - 1)
		return cfg_error(c, v, "channels must be at most %u",
				 GS_ALL_CHANNELS - 1);
	v = cfg_map_get(c, m, "start");
	if (v && cfg_duration(c, v, "start", sc->host.clock_hz,
			      CFG_MAX_DURATION, &t->start) < 0)
		return -1;
	v = cfg_map_get(c, m, "gpu");
	if (v) {
		if (cfg_u64(c, v, "gpu", 0, UINT32_MAX, &gpu) < 0)
			return -1;
		if (gpu >= sc->n_gpus)
			return cfg_error(c, v,
					 "gpu %" G_GUINT64_FORMAT " is out of range: the node has %u GPU%s (0..%u)",
					 gpu, sc->n_gpus,
					 sc->n_gpus > 1 ? "s" : "",
					 sc->n_gpus - 1);
		t->gpu = (uint32_t)gpu;
	}
	v = cfg_map_get(c, m, "rounds");
	if (v && cfg_u64(c, v, "rounds", 0, UINT64_MAX, &t->rounds) < 0)
		return -1;
	return compile_behavior(c, m, t, cfg_map_get(c, m, "channels") != NULL);
}

/* Bounds on what all tasks together make the simulator allocate: the
 * channels they open (each task's table of them is allocated when it is
 * built), and the ring slots those channels could fill, as the first
 * `channels` tasks' channels get slots on the GPUs. */
static int check_channel_totals(struct cfg *c, const yaml_node_t *m,
				uint64_t channels)
{
	const struct gs_scenario *sc = c->sc;
	uint64_t slots = (uint64_t)sc->gpu.max_channels * sc->n_gpus;
	uint64_t open = MIN(channels, slots);

	if (channels > CFG_MAX_CHANNELS)
		return cfg_error(c, m,
				 "more than %u channels in all (counting count x channels)",
				 CFG_MAX_CHANNELS);
	if (open * (sc->gpu.ring_entries - 1) > CFG_MAX_RING_SLOTS)
		return cfg_error(c, m,
				 "%" G_GUINT64_FORMAT " channels of %u ring entries could queue more than %" G_GUINT64_FORMAT " commands; lower gpu.ring_entries or the channels",
				 open, sc->gpu.ring_entries,
				 (guint64)CFG_MAX_RING_SLOTS);
	return 0;
}

int cfg_load_tasks(struct cfg *c, const yaml_node_t *tasks)
{
	struct gs_scenario *sc = c->sc;
	GHashTable *names;
	size_t n = cfg_seq_len(tasks), i;
	uint64_t total = 0, channels = 0;
	int rc = 0;

	if (cfg_expect_seq(c, tasks, "tasks") < 0)
		return -1;
	if (n == 0)
		return cfg_error(c, tasks,
				 "tasks is empty; a scenario needs at least one task");
	if (n > CFG_MAX_TASKS)
		return cfg_error(c, tasks, "more than %u tasks", CFG_MAX_TASKS);
	sc->tasks = g_new0(struct gs_task_config, n);
	names = g_hash_table_new(g_str_hash, g_str_equal);
	for (i = 0; i < n && rc == 0; i++) {
		yaml_node_t *m = cfg_seq_item(c, tasks, i);

		sc->n_tasks++;
		rc = load_task(c, m, &sc->tasks[i], names);
		total += sc->tasks[i].count;
		if (rc == 0 && total > CFG_MAX_TASKS)
			rc = cfg_error(c, m,
				       "more than %u tasks in all (counting each count)",
				       CFG_MAX_TASKS);
		channels += (uint64_t)sc->tasks[i].count *
			    sc->tasks[i].channels;
		if (rc == 0)
			rc = check_channel_totals(c, m, channels);
	}
	g_hash_table_destroy(names);
	return rc;
}
