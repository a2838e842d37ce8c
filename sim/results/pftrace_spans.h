/* timeline.pftrace's spans section: the slices of the spans, after the
 * header packets and the command marks. Its bytes depend on the spans and
 * the names alone (a name's iid is its index + 1, a track's uuid a
 * function of its GPU, kind and id), never on what comes later in the
 * run, so it can be encoded while the run goes on (pftrace_stream.c).
 * The header does depend on the spans (GPUs, names used as categories)
 * and so does the truncation note (the last end): struct pf_spans keeps
 * those facts of the spans it saw. */
#ifndef GS_PFTRACE_SPANS_H
#define GS_PFTRACE_SPANS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/host/results.h"
#include "sim/results/pftrace_out.h"

struct pf_spans {
	GPtrArray *names;   /* valid-UTF-8 copies of the results' names */
	GByteArray *cats;   /* cats[i]: names[i] is some span's category */
	uint32_t n_gpus;    /* highest GPU of a span + 1 */
	gs_time_t last_end;
	guint n;            /* spans seen */
	bool bad;           /* span bad_i named a string out of range */
	guint bad_i;
	uint32_t bad_name, bad_cat;
};

void pf_spans_init(struct pf_spans *s);
void pf_spans_clear(struct pf_spans *s);
/* Takes the valid-UTF-8 names that follow those s has. */
void pf_spans_add_names(struct pf_spans *s, GPtrArray *more);
/* Notes the facts of the next n spans; false if one of them names a
 * string s does not have (the first is kept in bad_*). */
bool pf_spans_note(struct pf_spans *s, const struct gs_span *sp, guint n);
/* The slices of n spans into o; names: valid UTF-8, covering theirs. */
void pf_spans_put(struct pf_out *o, const struct gs_span *sp, guint n,
		  const GPtrArray *names);
/* A command's flow id (its submission's and its engine slices'). */
uint64_t pf_flow(uint32_t gpu, uint32_t channel, uint64_t serial);

#endif
