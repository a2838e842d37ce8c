/* See pftrace_spans.h. */
#include "sim/results/pftrace_spans.h"

/* Unique for up to 256 GPUs, 2^20 channels a GPU and 2^36 commands a
 * channel. */
uint64_t pf_flow(uint32_t gpu, uint32_t channel, uint64_t serial)
{
	return ((uint64_t)(gpu & 0xff) << 56) |
	       ((uint64_t)(channel & 0xfffff) << 36) |
	       (serial & 0xfffffffffULL);
}

void pf_spans_init(struct pf_spans *s)
{
	*s = (struct pf_spans){
		.names = g_ptr_array_new_with_free_func(g_free),
		.cats = g_byte_array_new(),
	};
}

void pf_spans_clear(struct pf_spans *s)
{
	if (s->names)
		g_ptr_array_unref(s->names);
	if (s->cats)
		g_byte_array_unref(s->cats);
	*s = (struct pf_spans){ 0 };
}

void pf_spans_add_names(struct pf_spans *s, GPtrArray *more)
{
	guint i;

	for (i = 0; i < more->len; i++)
		g_ptr_array_add(s->names, g_steal_pointer(&more->pdata[i]));
	g_byte_array_set_size(s->cats, s->names->len); /* zeroed below */
	for (i = s->names->len - more->len; i < s->names->len; i++)
		s->cats->data[i] = 0;
}

bool pf_spans_note(struct pf_spans *s, const struct gs_span *sp, guint n)
{
	guint i;

	for (i = 0; i < n; i++, s->n++) {
		if (sp[i].name >= s->names->len ||
		    sp[i].category >= s->names->len) {
			if (!s->bad)
				s->bad_i = s->n, s->bad_name = sp[i].name,
				s->bad_cat = sp[i].category;
			s->bad = true;
			continue;
		}
		s->cats->data[sp[i].category] = 1;
		s->n_gpus = MAX(s->n_gpus, sp[i].gpu + 1);
		s->last_end = MAX(s->last_end, sp[i].end);
	}
	return !s->bad;
}

/* A span as a slice. The arguments of a command go on its engine slice
 * only (its channel slice is the same command at the same time), and so
 * does the arrow from its submission. */
static void put_span(struct pf_out *o, const struct gs_span *s,
		     const GPtrArray *names)
{
	struct pf_ev e = {
		.track_uuid = pf_uuid(PF_SPANS + s->track_kind, s->gpu,
				      s->track),
		.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
		.name_iid = (uint64_t)s->name + 1,
		.category_iid = (uint64_t)s->category + 1,
	};

	if (s->cmd && s->track_kind == GS_TRACK_ENGINE) {
		e.args[e.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_CMD, .kind = PF_VALUE_UINT, .u = s->cmd };
		e.args[e.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_TASK, .kind = PF_VALUE_STRING,
			.s = g_ptr_array_index(names, s->name) };
		e.args[e.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_LENGTH, .kind = PF_VALUE_UINT,
			.u = s->cmd_len };
		e.has_flow = true;
		e.flow = pf_flow(s->gpu, s->channel, s->cmd);
	}
	if (s->open) /* cut at the run's end */
		e.args[e.n_args++] = (struct pf_ev_arg){
			.name = PF_ARG_OPEN, .kind = PF_VALUE_BOOL };
	pf_put_ev(o, s->start, &e);
	pf_put_ev(o, s->end, &(struct pf_ev){
		.track_uuid = e.track_uuid,
		.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END });
}

void pf_spans_put(struct pf_out *o, const struct gs_span *sp, guint n,
		  const GPtrArray *names)
{
	guint i;

	for (i = 0; i < n; i++)
		put_span(o, &sp[i], names);
}
