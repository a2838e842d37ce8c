/* The program builder of the scenario loader (config_program.c). */
#ifndef GS_CONFIG_PROGRAM_H
#define GS_CONFIG_PROGRAM_H

#include <glib.h>
#include <yaml.h>

#include "base/event.h"
#include "workloads/program.h"

struct cfg;

/* A growing program; cfg_prog_finish appends GS_OP_END. */
struct cfg_prog {
	GArray *steps; /* struct gs_step */
};
void cfg_prog_init(struct cfg_prog *p);
void cfg_prog_free(struct cfg_prog *p);
/* Appends a copy of *s (its dist is moved: *s->dur is left empty). */
int cfg_prog_push(struct cfg *c, const yaml_node_t *where,
		  struct cfg_prog *p, struct gs_step *s);
/* Appends host work of a fixed length `dur` (GS_OP_CPU). */
int cfg_prog_push_cpu(struct cfg *c, const yaml_node_t *where,
		      struct cfg_prog *p, gs_time_t dur);
void cfg_prog_finish(struct cfg_prog *p, struct gs_program *out);
struct gs_step cfg_step(enum gs_op op);

#endif
