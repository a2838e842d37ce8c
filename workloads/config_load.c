/* The scenario loader's entry points and its top-level sections: policy,
 * vms and output (gpu or node, and host: config_machine.c). Tasks and behaviours are in
 * config_tasks.c and config_script.c; YAML access in config_yaml.c. */
#include "workloads/config_load.h"
#include "workloads/config_internal.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stddef.h>
#include <string.h>

#include "policies/policy.h"
#include "workloads/file_read.h"
#include "workloads/policy_module.h"

/* --- policy --- */

static int unknown_policy(struct cfg *c, const yaml_node_t *n)
{
	const char *name = cfg_text(n);
	GPtrArray *names = g_ptr_array_new();
	g_autofree char *list = NULL;
	const char *close;
	size_t i;

	for (i = 0; gs_policy_registry[i]; i++)
		g_ptr_array_add(names, (gpointer)gs_policy_registry[i]->name);
	g_ptr_array_add(names, NULL);
	list = g_strjoinv(", ", (char **)names->pdata);
	close = name && !cfg_is_null(n) ?
		cfg_closest(name, (const char *const *)names->pdata,
			    names->len - 1) : NULL;
	if (close)
		cfg_error(c, n, "unknown policy '%s'; did you mean '%s'?", name,
			  close);
	else {
		g_autofree char *got = cfg_describe(n);

		cfg_error(c, n, "unknown policy %s (policies: %s)", got, list);
	}
	g_ptr_array_free(names, TRUE);
	return -1;
}

/* The override that wrote node n, if one did. */
static const struct cfg_override *override_of(struct cfg *c,
					      const yaml_node_t *n)
{
	const struct cfg_override *ov = NULL;
	int idx = cfg_node_index(c, n);
	size_t i;

	for (i = 0; i < c->n_ov; i++)
		if (idx >= c->ov[i].first_node && idx <= c->ov[i].last_node)
			ov = &c->ov[i];
	return ov;
}

static int load_param(struct cfg *c, const struct gs_param_desc *d,
		      const yaml_node_t *kn,
		      const yaml_node_t *v, struct gs_policy_param *out)
{
	const struct cfg_override *ov;
	gs_time_t t;
	uint64_t u;
	bool b;
	int rc;

	switch (d->type) {
	case GS_PARAM_DURATION:
		rc = cfg_duration(c, v, d->name, c->sc->host.clock_hz,
				  CFG_MAX_DURATION, &t);
		break;
	case GS_PARAM_UINT:
		rc = cfg_u64(c, v, d->name, 0, d->max, &u);
		break;
	case GS_PARAM_BOOL:
		rc = cfg_bool(c, v, d->name, &b);
		break;
	default:
		rc = cfg_error(c, v, "%s: parameter of an unknown type",
			       d->name);
	}
	if (rc < 0)
		return -1;
	out->n = d->type == GS_PARAM_DURATION ? t
		 : d->type == GS_PARAM_UINT   ? u
					      : b;
	out->key = g_strdup(cfg_text(kn));
	out->value = g_strdup(cfg_text(v));
	ov = override_of(c, v);
	if (ov) {
		out->file = g_strdup_printf("--set %s", ov->text);
	} else {
		out->file = g_strdup(c->file);
		out->line = (uint32_t)v->start_mark.line + 1;
		out->column = (uint32_t)v->start_mark.column + 1;
	}
	return 0;
}

static int load_params(struct cfg *c, const struct gs_policy_ops *ops,
		       const yaml_node_t *map, struct gs_policy_config *pc)
{
	g_autofree const char **allowed = g_new0(const char *,
						 ops->n_params + 1);
	g_autofree char *what = g_strdup_printf("params of policy %s",
						ops->name);
	yaml_node_pair_t *p;
	uint32_t i;

	for (i = 0; i < ops->n_params; i++)
		allowed[i] = ops->params[i].name;
	if (cfg_map_check(c, map, what, allowed) < 0)
		return -1;
	if (map->type != YAML_MAPPING_NODE)
		return 0;
	pc->params = g_new0(struct gs_policy_param, cfg_map_size(map));
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *kn = cfg_node(c, p->key);
		const struct gs_param_desc *d =
			gs_policy_param(ops, cfg_text(kn));

		if (load_param(c, d, kn, cfg_node(c, p->value),
			       &pc->params[pc->n_params]) < 0)
			return -1;
		pc->params[pc->n_params++].index = (uint32_t)(d - ops->params);
	}
	return 0;
}

/* The policy of `module: FILE` (a path from the scenario's folder, or a
 * name searched as workloads/policy_module.h says). */
static const struct gs_policy_ops *load_module(struct cfg *c,
					       const yaml_node_t *n)
{
	g_autoptr(GError) err = NULL;
	const struct gs_policy_ops *ops;

	if (!cfg_text(n) || cfg_is_null(n) || !*cfg_text(n)) {
		cfg_error(c, n, "module: expected the file of a policy module");
		return NULL;
	}
	ops = gs_policy_module_load(cfg_text(n), c->dir, &err);
	if (!ops)
		cfg_error(c, n, "%s", err->message);
	return ops;
}

/* `policy:` or a VM's `scheduler:` (what: its name in messages) into pc;
 * a missing one is `direct`. */
static int load_policy(struct cfg *c, const yaml_node_t *n,
		       struct gs_policy_config *pc, const char *what)
{
	static const char *const keys[] = { "name", "module", "params", NULL };
	const struct gs_policy_ops *ops;
	yaml_node_t *name = NULL, *params = NULL, *module = NULL;

	if (n && n->type == YAML_SCALAR_NODE && !cfg_is_null(n)) {
		name = (yaml_node_t *)n; /* policy: dfq */
	} else if (n) {
		if (cfg_map_check(c, n, what, keys) < 0)
			return -1;
		name = cfg_map_get(c, n, "name");
		params = cfg_map_get(c, n, "params");
		module = cfg_map_get(c, n, "module");
	}
	if (module) {
		if (name)
			return cfg_error(c, module, "%s: give 'name' (a built-in "
					 "policy) or 'module' (a policy module), "
					 "not both", what);
		name = module;
		ops = load_module(c, module);
		if (!ops)
			return -1;
	} else if (name) {
		ops = cfg_text(name) ? gs_policy_find(cfg_text(name)) : NULL;
	}
	if (name) {
		if (!ops)
			return unknown_policy(c, name);
		const struct cfg_override *ov = override_of(c, name);

		pc->line = (uint32_t)name->start_mark.line + 1;
		pc->column = (uint32_t)name->start_mark.column + 1;
		pc->where = ov ? g_strdup_printf("--set %s", ov->text)
			       : g_strdup_printf("%s:%u:%u", c->file,
						 pc->line, pc->column);
	} else {
		ops = gs_policy_find("direct");
		if (!ops)
			return cfg_error(c, n, "the policy 'direct' is missing");
	}
	pc->name = g_strdup(ops->name);
	pc->ops = ops;
	if (params)
		return load_params(c, ops, params, pc);
	return 0;
}

/* A VM's own scheduler: any registered policy that runs on one GPU's
 * channels (a guest cannot move its tasks to other GPUs). */
static int load_vm_scheduler(struct cfg *c, const yaml_node_t *n,
			     struct gs_vm_config *vm)
{
	const struct gs_policy_ops *ops;

	if (cfg_is_null(n))
		return 0;
	if (load_policy(c, n, &vm->scheduler, "vm scheduler") < 0)
		return -1;
	ops = vm->scheduler.ops;
	if (ops && ops->node_level)
		return cfg_error(c, n->type == YAML_MAPPING_NODE
					    ? cfg_map_get(c, n, "name") : n,
				 "vm %s: policy %s places tasks on the node's "
				 "GPUs and cannot run as a VM's scheduler",
				 vm->name, ops->name);
	return 0;
}

/* --- vms --- */

/* `on_kill: vm | notify` (struct gs_vm_config.kill_notify). */
static int load_vm_on_kill(struct cfg *c, const yaml_node_t *v,
			   struct gs_vm_config *vm)
{
	static const char *const names[] = { "vm", "notify" };
	int which = 0;

	if (cfg_enum(c, v, "on_kill", names, G_N_ELEMENTS(names), &which) < 0)
		return -1;
	vm->kill_notify = which == 1;
	return 0;
}

static int load_vm_list(struct cfg *c, const yaml_node_t *seq,
			int32_t parent, GArray *vms, GHashTable *seen)
{
	static const char *const keys[] = {
		"name", "weight", "hints", "trap", "shadow_copy", "scheduler",
		"vms", "on_kill", NULL,
	};
	size_t i;

	if (cfg_expect_seq(c, seq, "vms") < 0)
		return -1;
	for (i = 0; i < cfg_seq_len(seq); i++) {
		yaml_node_t *m = cfg_seq_item(c, seq, i);
		struct gs_vm_config vm = {
			.weight = 1, .parent = parent, .hints = true,
			/* Fleig 5.3.1.1: tracking by VM exits is about an
			 * order of magnitude slower than by host faults */
			.trap = GS_VM_TRAP_FACTOR * c->sc->host.trap,
			.shadow_copy = GS_VM_SHADOW_COPY,
		};
		struct gs_vm_config *self_vm;
		yaml_node_t *v, *first;
		int32_t self;

		if (cfg_expect_map(c, m, "a vm") < 0 ||
		    cfg_map_check(c, m, "vm", keys) < 0)
			return -1;
		v = cfg_map_get(c, m, "name");
		if (!v)
			return cfg_error(c, m, "vm: missing required key 'name'");
		if (cfg_string(c, v, "vm name", true, &vm.name) < 0)
			return -1;
		first = g_hash_table_lookup(seen, vm.name);
		g_array_append_val(vms, vm); /* owned by the array from here */
		if (first)
			return cfg_error(c, v,
					 "duplicate vm name '%s' (first defined at line %zu)",
					 vm.name, first->start_mark.line + 1);
		g_hash_table_insert(seen, vm.name, v);
		self = (int32_t)vms->len - 1;
		self_vm = &g_array_index(vms, struct gs_vm_config, self);
		v = cfg_map_get(c, m, "weight");
		if (v && cfg_u32(c, v, "weight", 1, 1000000,
				 &self_vm->weight) < 0)
			return -1;
		v = cfg_map_get(c, m, "hints");
		if (v && cfg_bool(c, v, "hints", &self_vm->hints) < 0)
			return -1;
		v = cfg_map_get(c, m, "trap");
		if (v && cfg_duration(c, v, "trap", c->sc->host.clock_hz,
				      CFG_MAX_DURATION, &self_vm->trap) < 0)
			return -1;
		v = cfg_map_get(c, m, "shadow_copy");
		if (v && cfg_duration(c, v, "shadow_copy", c->sc->host.clock_hz,
				      CFG_MAX_DURATION,
				      &self_vm->shadow_copy) < 0)
			return -1;
		v = cfg_map_get(c, m, "on_kill");
		if (v && load_vm_on_kill(c, v, self_vm) < 0)
			return -1;
		v = cfg_map_get(c, m, "scheduler");
		if (v && load_vm_scheduler(c, v, self_vm) < 0)
			return -1;
		v = cfg_map_get(c, m, "vms");
		if (v && !cfg_is_null(v) &&
		    load_vm_list(c, v, self, vms, seen) < 0)
			return -1;
	}
	return 0;
}

static int load_vms(struct cfg *c, const yaml_node_t *seq)
{
	GArray *vms = g_array_new(FALSE, TRUE, sizeof(struct gs_vm_config));
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	int rc = load_vm_list(c, seq, -1, vms, seen);

	g_hash_table_destroy(seen);
	c->sc->n_vms = vms->len;
	c->sc->vms = (struct gs_vm_config *)(void *)g_array_free(vms, FALSE);
	return rc;
}

/* --- output and the top level --- */

static int load_output(struct cfg *c, const yaml_node_t *map)
{
	static const char *const keys[] = {
		"series_interval", "timeline", "timeline_max_spans", NULL,
	};
	struct gs_output_config *o = &c->sc->output;
	yaml_node_t *v;

	if (cfg_map_check(c, map, "output", keys) < 0)
		return -1;
	v = cfg_map_get(c, map, "series_interval");
	if (v && cfg_duration(c, v, "series_interval", c->sc->host.clock_hz,
			      c->sc->duration, &o->series_interval) < 0)
		return -1;
	v = cfg_map_get(c, map, "timeline");
	if (v && cfg_bool(c, v, "timeline", &o->timeline) < 0)
		return -1;
	v = cfg_map_get(c, map, "timeline_max_spans");
	if (v && cfg_u64(c, v, "timeline_max_spans", 0, CFG_MAX_SPANS,
			 &o->timeline_max_spans) < 0)
		return -1;
	return 0;
}

static char *default_name(const char *file)
{
	char *base = g_path_get_basename(file);
	size_t len = strlen(base);

	if (len > 5 && g_str_has_suffix(base, ".yaml"))
		base[len - 5] = '\0';
	else if (len > 4 && g_str_has_suffix(base, ".yml"))
		base[len - 4] = '\0';
	return base;
}

/* The name is the results folder under the output folder (results/NAME,
 * DIR/NAME for several files, a sweep's folder): it must be one path
 * component that stays inside. cfg_string already refuses '/' in a `name`
 * key, but a name taken from the file name may hold anything. Refused:
 * empty, '/', and a leading '.' (".", ".." and hidden folders). */
static int check_folder_name(struct cfg *c, const yaml_node_t *n,
			     const char *name, bool from_file)
{
	const char *why = NULL;

	if (!name[0])
		why = "is empty";
	else if (name[0] == '.')
		why = "starts with '.'";
	else if (strchr(name, '/'))
		why = "contains '/'";
	if (!why)
		return 0;
	if (from_file)
		return cfg_error(c, n,
				 "the scenario's name '%s' (its file name) %s, so it cannot name a results folder; give a 'name:'",
				 name, why);
	return cfg_error(c, n,
			 "name '%s' %s, so it cannot name a results folder (a name is one folder inside the output folder)",
			 name, why);
}

/* The scenario's top-level keys (sweeps check their key paths too). */
static const char *const scenario_keys[] = {
	"name", "seed", "duration", "max_events", "gpu", "node", "host",
	"policy", "vms", "tasks", "output", "expect", "arrivals",
	"sweep", NULL,
};

static int load_scenario(struct cfg *c, const yaml_node_t *root)
{
	struct gs_scenario *sc = c->sc;
	yaml_node_t *v, *gpu, *node;

	if (cfg_map_check(c, root, "the scenario", scenario_keys) < 0)
		return -1;
	gpu = cfg_map_get(c, root, "gpu");
	node = cfg_map_get(c, root, "node");
	sc->n_gpus = 1;
	cfg_migration_defaults(&sc->migration);
	sc->gpu_memory = CFG_GPU_MEMORY_DEFAULT;
	sc->qos_degradation_pm = CFG_QOS_DEGRADATION_DEFAULT_PM;
	if (gpu && node) {
		yaml_node_t *gk = cfg_map_key(c, root, "gpu");
		yaml_node_t *nk = cfg_map_key(c, root, "node");
		bool node_later = cfg_node_index(c, nk) > cfg_node_index(c, gk);

		return cfg_error(c, node_later ? nk : gk,
				 "use either 'gpu' (one GPU) or 'node' (several), not both");
	}
	if (node ? cfg_load_node(c, node) : cfg_load_gpu(c, gpu, &sc->gpu))
		return -1;
	if (cfg_load_host(c, cfg_map_get(c, root, "host")) < 0)
		return -1;

	v = cfg_map_get(c, root, "name");
	if (v ? cfg_string(c, v, "name", true, &sc->name) < 0 : 0)
		return -1;
	if (!sc->name)
		sc->name = default_name(c->file);
	if (check_folder_name(c, v ? v : root, sc->name, !v) < 0)
		return -1;
	sc->seed = 1;
	v = cfg_map_get(c, root, "seed");
	if (v && cfg_u64(c, v, "seed", 0, GS_SEED_MAX, &sc->seed) < 0)
		return -1;
	v = cfg_map_get(c, root, "duration");
	if (!v)
		return cfg_error(c, root,
				 "missing required key 'duration' (how long to simulate, e.g. duration: 2s)");
	if (cfg_duration(c, v, "duration", sc->host.clock_hz,
			 CFG_MAX_DURATION, &sc->duration) < 0)
		return -1;
	if (sc->duration == 0)
		return cfg_error(c, v, "duration must be above 0");
	v = cfg_map_get(c, root, "max_events");
	if (v && cfg_u64(c, v, "max_events", 0, UINT64_MAX,
			 &sc->max_events) < 0)
		return -1;

	if (load_policy(c, cfg_map_get(c, root, "policy"), &c->sc->policy,
			"policy") < 0)
		return -1;
	v = cfg_map_get(c, root, "vms");
	if (v && !cfg_is_null(v) && load_vms(c, v) < 0)
		return -1;
	v = cfg_map_get(c, root, "tasks");
	if (!v)
		return cfg_error(c, root,
				 "missing required key 'tasks' (the programs that use the GPU)");
	if (cfg_load_tasks(c, v) < 0)
		return -1;
	v = cfg_map_get(c, root, "arrivals");
	if (v && !cfg_is_null(v) && cfg_load_arrivals(c, v) < 0)
		return -1;
	sc->output.timeline = true;
	sc->output.timeline_max_spans = 1000000;
	if (load_output(c, cfg_map_get(c, root, "output")) < 0)
		return -1;
	v = cfg_map_get(c, root, "expect");
	if (v && !cfg_is_null(v) && cfg_load_expect(c, v) < 0)
		return -1;
	v = cfg_map_get(c, root, "sweep");
	return v && !cfg_is_null(v) ?
	       cfg_load_sweep(c, cfg_map_key(c, root, "sweep"), v,
			    scenario_keys) : 0;
}

/* --- entry points --- */

struct gs_scenario *gs_scenario_load_data(const char *name, const char *data,
					  size_t len,
					  const char *const *overrides,
					  size_t n_overrides, GError **error)
{
	GError *local = NULL;
	struct cfg c = {
		.file = name,
		.error = &local,
	};
	int rc;

	c.sc = g_new0(struct gs_scenario, 1);
	c.sc->file = g_strdup(name);
	c.dir = g_path_get_dirname(name);
	rc = cfg_yaml_load(&c, data, len);
	if (rc == 0)
		rc = cfg_apply_overrides(&c, overrides, n_overrides);
	if (rc == 0)
		rc = load_scenario(&c, yaml_document_get_root_node(&c.doc));
	if (c.have_doc)
		yaml_document_delete(&c.doc);
	g_free(c.ov);
	g_free(c.dir);
	if (rc < 0 || local) {
		if (!local)
			g_set_error(&local, GS_CONFIG_ERROR,
				    GS_CONFIG_ERROR_INVALID,
				    "%s: invalid scenario", name);
		g_propagate_error(error, local);
		gs_scenario_free(c.sc);
		return NULL;
	}
	return c.sc;
}

struct gs_scenario *gs_scenario_load_file(const char *path,
					  const char *const *overrides,
					  size_t n_overrides, GError **error)
{
	g_autofree char *data = NULL;
	size_t len;

	data = gs_scenario_read_file(path, &len, error);
	if (!data)
		return NULL;
	return gs_scenario_load_data(path, data, len, overrides, n_overrides,
				     error);
}

char *gs_scenario_read_file(const char *path, size_t *len, GError **error)
{
	g_autoptr(GError) err = NULL;
	char *data = gs_read_file_bounded(path, GS_MAX_INPUT_BYTES, len, &err);

	if (!data)
		g_set_error_literal(error, GS_CONFIG_ERROR,
				    GS_CONFIG_ERROR_IO, err->message);
	return data;
}
