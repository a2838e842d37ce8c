/* timeline.pftrace's encoder: the spans and command marks of a run, a
 * chunk at a time (struct gs_span_sink's chunks, sim/host/results.h), as
 * Perfetto packets. One encoder, two drivers: the stream
 * (pftrace_stream.c) feeds it chunks on a thread while the run goes on,
 * and results_pftrace.c feeds it the same chunks, cut from the results'
 * arrays in gs_results.chunk_order, at the end. The bytes depend on the
 * chunks alone, so both give the same file.
 *
 * State is Perfetto's incremental interning: the file's first packet
 * interns the fixed strings ("submit" and the argument names); a chunk's
 * names and categories not yet interned are interned in a packet before
 * its events (name and category iid: the results' index + 2; "submit" is
 * 1). A track's descriptor (and first its GPU's) is written just before
 * its first event. A channel's track is labelled as the recorder labels
 * it, "ch<id> <task>", from the task named by its first span or mark, so
 * the encoder keeps no copy of 65,536 channel labels; other tracks (a few
 * engines and policies) are labelled as registered. */
#ifndef GS_PFTRACE_ENC_H
#define GS_PFTRACE_ENC_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/host/results.h"
#include "sim/results/pftrace_out.h"

#define PF_SUBMIT_IID 1u

struct pf_enc {
	struct pf_out out;
	struct gs_strtab names; /* valid-UTF-8 copies of the results' names */
	GByteArray *interned; /* per name: PF_INTERNED_* bits */
	GHashTable *labels;   /* track uuid -> valid-UTF-8 label */
	GPtrArray *gpus;      /* per GPU: struct pf_enc_gpu, NULL: unseen */
	GString *label;       /* a channel's labels, made in turn */
	/* the spans seen: count, last end, the first naming a string out
	 * of range (then no more are encoded: the file is refused) */
	guint n_spans;
	gs_time_t last_end;
	bool bad;
	guint bad_i;
	uint32_t bad_name, bad_cat;
};

/* Writes the first packet to f. */
void pf_enc_init(struct pf_enc *e, FILE *f);
void pf_enc_clear(struct pf_enc *e);
/* Adds the name that follows those e has, as valid UTF-8 (each byte
 * sequence that is not replaced by U+FFFD, as g_utf8_make_valid). */
void pf_enc_add_name(struct pf_enc *e, const char *name);
/* Takes the label (valid UTF-8) of a track the recorder registered;
 * a channel's is dropped (see above). */
void pf_enc_add_track(struct pf_enc *e, const struct gs_track *t,
		      char *label);
void pf_enc_spans(struct pf_enc *e, const struct gs_span *sp, guint n);
void pf_enc_marks(struct pf_enc *e, const struct gs_cmd_mark *m, guint n);
/* The descriptor of GPU gpu's process track, if not yet written. */
void pf_enc_gpu(struct pf_enc *e, uint32_t gpu);
/* The descriptor of a span track, if not yet written: its registered
 * label (fallback: used when none was registered). */
void pf_enc_span_track(struct pf_enc *e, uint32_t gpu, uint8_t kind,
		       uint32_t id, const char *fallback);
/* Whether that descriptor is written: the run's end describes the
 * tracks the cap left without one, and formats a label only for those. */
bool pf_enc_track_described(struct pf_enc *e, uint32_t gpu, uint8_t kind,
			    uint32_t id);
/* GPUs seen so far (highest + 1). */
uint32_t pf_enc_n_gpus(const struct pf_enc *e);

/* The end of the file, after the last chunks (results_pftrace.c): the
 * descriptors of tracks and GPUs no event named, the tasks' counters and
 * the truncation note. FALSE (error set) if a span named a string out of
 * range: the file is refused. */
gboolean pf_put_tail(struct pf_enc *e, const struct gs_results *r,
		     GError **error);

/* A named child track of GPU gpu's process track; a counter's with
 * counter (its unit, if it has one; unit_name is not written). */
void pf_put_child_track(struct pf_out *o, uint64_t uuid, uint32_t gpu,
			const char *name, int32_t rank,
			const Perfetto__Protos__CounterDescriptor *counter);
/* A command's flow id (its submission's and its engine slices'). */
uint64_t pf_flow(uint32_t gpu, uint32_t channel, uint64_t serial);

#endif
