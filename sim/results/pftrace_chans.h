/* The channels a timeline mentions, (gpu, channel) -> a dense slot, for
 * the per-channel state timeline.pftrace keeps while it writes (a
 * channel's label, its queue depth). Looked up once per span track and
 * per command mark, millions of times: an offset per GPU and the channel
 * id, not a hash. */
#ifndef GS_PFTRACE_CHANS_H
#define GS_PFTRACE_CHANS_H

#include <glib.h>
#include <stdint.h>

#include "sim/host/results.h"

struct pf_chans {
	uint32_t n_gpus;
	size_t *first;  /* per GPU: its channel 0's slot */
	size_t n_slots; /* sum over GPUs of (highest channel id + 1) */
};

/* Slots for every channel track of r and every channel of its marks. */
void pf_chans_init(struct pf_chans *c, const struct gs_results *r);
void pf_chans_clear(struct pf_chans *c);

static inline size_t pf_chans_slot(const struct pf_chans *c, uint32_t gpu,
				   uint32_t channel)
{
	return c->first[gpu] + channel;
}

#endif
