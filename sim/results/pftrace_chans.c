/* See pftrace_chans.h. */
#include "sim/results/pftrace_chans.h"

static void see(GArray *top, uint32_t gpu, uint32_t channel)
{
	if (gpu >= top->len)
		g_array_set_size(top, gpu + 1); /* zeroed: "no channel" */
	if (g_array_index(top, uint64_t, gpu) < (uint64_t)channel + 1)
		g_array_index(top, uint64_t, gpu) = (uint64_t)channel + 1;
}

void pf_chans_init(struct pf_chans *c, const struct gs_results *r)
{
	g_autoptr(GArray) top = g_array_new(FALSE, TRUE, sizeof(uint64_t));
	guint i;

	for (i = 0; r->tracks && i < r->tracks->len; i++) {
		const struct gs_track *t =
			&g_array_index(r->tracks, struct gs_track, i);

		if (t->track_kind == GS_TRACK_CHANNEL)
			see(top, t->gpu, t->track);
	}
	for (i = 0; r->cmd_marks && i < r->cmd_marks->len; i++) {
		const struct gs_cmd_mark *m =
			&g_array_index(r->cmd_marks, struct gs_cmd_mark, i);

		see(top, m->gpu, m->channel);
	}
	c->n_gpus = top->len;
	c->first = g_new(size_t, MAX(top->len, 1u));
	c->n_slots = 0;
	for (i = 0; i < top->len; i++) {
		c->first[i] = c->n_slots;
		c->n_slots += (size_t)g_array_index(top, uint64_t, i);
	}
}

void pf_chans_clear(struct pf_chans *c)
{
	g_clear_pointer(&c->first, g_free);
	c->n_gpus = 0;
	c->n_slots = 0;
}
