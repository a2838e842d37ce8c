/* Private to the scenario loader (workloads/config_*.c): the loading
 * context, error reporting with positions, and typed readers of libyaml
 * nodes. Every reader returns 0 on success and -1 after setting the error;
 * the first error wins and the caller unwinds. */
#ifndef GS_CONFIG_INTERNAL_H
#define GS_CONFIG_INTERNAL_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include "workloads/config_duration.h"
#include "workloads/config_error.h"
#include "workloads/file_read.h"
#include "workloads/scenario.h"

#define CFG_MAX_DEPTH 64                /* YAML nesting */
#define CFG_MAX_NODES (1u << 20)        /* YAML nodes in one document */
#define CFG_MAX_DURATION (86400ULL * GS_NS_PER_S) /* any duration: 1 day */
#define CFG_MAX_TASK_COUNT 10000u       /* count of one task entry */
#define CFG_MAX_TASKS 100000u           /* tasks after replication */
#define CFG_MAX_STEPS (1u << 22)        /* steps of one compiled program */
#define CFG_MAX_EMPIRICAL 100000u       /* values of one empirical dist */
#define CFG_MAX_GPUS 64u
/* Memory bounds (see REFERENCE.md, "Limits"): channel slots over all GPUs
 * and channels opened by all tasks (a slot is a few hundred bytes); ring
 * slots those channels could fill (a queued command is 32 bytes, so at
 * most 2 GiB); recorded timeline spans. */
#define CFG_MAX_CHANNELS (1u << 20)
#define CFG_MAX_RING_SLOTS (1ULL << 26)
#define CFG_MAX_SPANS 100000000ULL

/* One --set override and the YAML nodes it added (indexes first..last). */
struct cfg_override {
	const char *text;
	int first_node, last_node;
};

struct cfg {
	const char *file;        /* name used in messages */
	char *dir;               /* directory of file, for trace paths */
	yaml_document_t doc;
	bool have_doc;
	int file_nodes;          /* nodes 1..file_nodes came from the file */
	struct cfg_override *ov;
	size_t n_ov;
	GError **error;
	struct gs_scenario *sc;
};

/* --- errors (config_yaml.c) --- */

int cfg_error(struct cfg *c, const yaml_node_t *node, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);
/* An error at a raw position (1-based) of a named file. */
int cfg_error_at(GError **error, int code, const char *file, size_t line,
		 size_t column, const char *fmt, ...) G_GNUC_PRINTF(6, 7);
/* The closest of candidates[0..n) to word (edit distance <= 2 or equal
 * ignoring case), or NULL. */
const char *cfg_closest(const char *word, const char *const *candidates,
			size_t n);

/* --- the YAML document (config_yaml.c) --- */

/* Parse data into c->doc after checking it for aliases, nesting and size.
 * Syntax problems are reported as "name:line:col: problem". */
int cfg_yaml_load(struct cfg *c, const char *data, size_t len);
/* Parse one --set value given in flow syntax ("{a: 1}") into doc; returns
 * the new node's index or 0 after setting *error. */
int cfg_yaml_parse_value(yaml_document_t *doc, const char *text,
			 const char *prefix, GError **error);

static inline int cfg_node_index(const struct cfg *c, const yaml_node_t *n)
{
	return (int)(n - c->doc.nodes.start) + 1;
}

static inline yaml_node_t *cfg_node(struct cfg *c, int index)
{
	return yaml_document_get_node(&c->doc, index);
}

bool cfg_is_null(const yaml_node_t *n);
/* The node's text if it is a scalar, else NULL. */
const char *cfg_text(const yaml_node_t *n);
/* "a mapping", "a list", "'text'", "nothing": what the user wrote. */
char *cfg_describe(const yaml_node_t *n);

/* A mapping's keys must be scalars, known (allowed: NULL-terminated) and
 * unique. NULL (absent) and a null node stand for an empty mapping. `what`
 * names it. */
int cfg_map_check(struct cfg *c, const yaml_node_t *map, const char *what,
		  const char *const *allowed);
/* The value of key (NULL if absent or map is null). */
/* The key/value pair of `key` in mapping `map`; NULL if absent or if map
 * is not a mapping. */
yaml_node_pair_t *cfg_map_find_pair(struct cfg *c, const yaml_node_t *map,
				    const char *key);
yaml_node_t *cfg_map_get(struct cfg *c, const yaml_node_t *map,
			 const char *key);
/* The node of key itself, for errors about the key. */
yaml_node_t *cfg_map_key(struct cfg *c, const yaml_node_t *map,
			 const char *key);
size_t cfg_map_size(const yaml_node_t *map);
/* A sequence's item i. */
yaml_node_t *cfg_seq_item(struct cfg *c, const yaml_node_t *seq, size_t i);
size_t cfg_seq_len(const yaml_node_t *seq);
int cfg_expect_map(struct cfg *c, const yaml_node_t *n, const char *what);
int cfg_expect_seq(struct cfg *c, const yaml_node_t *n, const char *what);

/* --- typed readers (config_values.c, config_duration.c) --- */

int cfg_u64(struct cfg *c, const yaml_node_t *n, const char *what,
	    uint64_t min, uint64_t max, uint64_t *out);
int cfg_u32(struct cfg *c, const yaml_node_t *n, const char *what,
	    uint32_t min, uint32_t max, uint32_t *out);
int cfg_bool(struct cfg *c, const yaml_node_t *n, const char *what,
	     bool *out);
/* One of names[0..n) (exact); *out gets its index. */
int cfg_enum(struct cfg *c, const yaml_node_t *n, const char *what,
	     const char *const *names, size_t n_names, int *out);
/* A non-empty string; with `word`, only [A-Za-z0-9_.-]. */
int cfg_string(struct cfg *c, const yaml_node_t *n, const char *what,
	       bool word, char **out);
/* Watts with up to 3 decimals, as milliwatts. */
int cfg_watts(struct cfg *c, const yaml_node_t *n, const char *what,
	      uint32_t *out_mw);
/* A duration (see gs_parse_duration), at most max. */
int cfg_duration(struct cfg *c, const yaml_node_t *n, const char *what,
		 uint64_t clock_hz, gs_time_t max, gs_time_t *out);
/* A duration or a distribution mapping; *out must be empty. */
int cfg_dist(struct cfg *c, const yaml_node_t *n, const char *what,
	     uint64_t clock_hz, struct gs_dist *out);

/* Why a duration string is bad: 0 if it is good. */
/* policies/duration.h's enum gs_dur_problem, value for value */
enum cfg_dur_problem {
	CFG_DUR_OK = 0,
	CFG_DUR_SYNTAX,
	CFG_DUR_NEGATIVE,
	CFG_DUR_UNIT,
	CFG_DUR_PRECISION,
	CFG_DUR_OVERFLOW,
	CFG_DUR_NO_CLOCK,
};
enum cfg_dur_problem cfg_parse_duration(const char *text, uint64_t clock_hz,
					gs_time_t *out);
/* A message for problem p with the text, e.g. for CSV errors. */
char *cfg_duration_message(enum cfg_dur_problem p, const char *text,
			   const char *what);

/* --- node sections and jobs (config_node.c, config_job.c) --- */

int cfg_bytes(struct cfg *c, const yaml_node_t *n, const char *what,
	      uint64_t *out);
int cfg_share(struct cfg *c, const yaml_node_t *n, const char *what,
	      uint32_t min_pm, uint32_t max_pm, uint32_t *out);
int cfg_load_power(struct cfg *c, const yaml_node_t *map);
void cfg_migration_defaults(struct gs_migration_config *m);
int cfg_load_migration(struct cfg *c, const yaml_node_t *map);
int cfg_load_paging(struct cfg *c, const yaml_node_t *map);
/* node.memory: each GPU's memory; the default is the 12 GB of the DCUDA
 * paper's GTX 1080 Ti GPUs (section 4.1). */
#define CFG_GPU_MEMORY_DEFAULT (12ULL << 30)
/* DCUDA section 4.5: "If the performance degradation is less than 20%, we
 * see that the QoS requirement is satisfied." */
#define CFG_QOS_DEGRADATION_DEFAULT_PM 200
int cfg_load_gpu_memory(struct cfg *c, const yaml_node_t *v);
int cfg_load_arrivals(struct cfg *c, const yaml_node_t *map);

/* --- overrides (config_set.c) --- */

int cfg_apply_overrides(struct cfg *c, const char *const *overrides,
			size_t n);

/* --- sections (config_load.c, config_tasks.c, config_script.c) --- */

/* config_machine.c: `gpu` into *gpu, `node`, `host` */
int cfg_load_gpu(struct cfg *c, const yaml_node_t *map,
		 struct gs_gpu_config *gpu);
int cfg_load_node(struct cfg *c, const yaml_node_t *map);
int cfg_load_host(struct cfg *c, const yaml_node_t *map);

int cfg_load_tasks(struct cfg *c, const yaml_node_t *tasks);
/* config_expect.c */
int cfg_load_expect(struct cfg *c, const yaml_node_t *list);
/* config_sweep.c: `key` is the `sweep` key, for its position; a swept
 * key path must start with one of `scenario_keys` (NULL-terminated; the
 * loader passes its own list, so the sweep never calls back into it). */
int cfg_load_sweep(struct cfg *c, const yaml_node_t *key,
		   const yaml_node_t *map, const char *const *scenario_keys);

struct cfg_prog; /* config_program.h */
int cfg_compile_script(struct cfg *c, const yaml_node_t *steps,
		       struct gs_task_config *t, struct cfg_prog *p);
int cfg_compile_job(struct cfg *c, const yaml_node_t *map,
		    struct gs_task_config *t, struct cfg_prog *p);
int cfg_compile_trace(struct cfg *c, const yaml_node_t *n,
		      struct gs_task_config *t, struct cfg_prog *p);
/* config_content.c: a launch's `content:` mapping */
struct gs_cmd_content;
int cfg_content(struct cfg *c, const yaml_node_t *map,
		struct gs_cmd_content *out);

#endif
