/* The HAL recorder (record_hal.h): each instance's section is a GString
 * of lines made by the same formatter the replay compares with
 * (policies/replay/hal_record.c). */
#include <inttypes.h>

#include "policies/replay/hal_record.h"
#include "sim/host/record_hal.h"
#include "sim/host/sim_internal.h"

/* One instance's section. */
struct gs_hal_rec_inst {
	GString *body;
	const char *policy;
	int32_t vm;
	uint32_t n_tasks, n_chans;
	uint32_t depth;      /* ops in progress (an op can set off another) */
	char *params;        /* the params= string (record_hal_params.c) */
	char line[1024];
};

struct gs_hal_record {
	GPtrArray *insts;
};

struct gs_hal_record *gs_hal_record_new(void)
{
	struct gs_hal_record *r = g_new0(struct gs_hal_record, 1);

	r->insts = g_ptr_array_new();
	return r;
}

void gs_hal_record_free(struct gs_hal_record *r)
{
	guint i;

	if (!r)
		return;
	for (i = 0; i < r->insts->len; i++) {
		struct gs_hal_rec_inst *in = r->insts->pdata[i];

		g_string_free(in->body, TRUE);
		g_free(in->params);
		g_free(in);
	}
	g_ptr_array_free(r->insts, TRUE);
	g_free(r);
}

char *gs_hal_record_text(const struct gs_hal_record *r, const char *about)
{
	GString *out = g_string_new(HREC_MAGIC " 1\n");
	guint i;

	if (about)
		g_string_append_printf(out, "# %s\n", about);
	for (i = 0; i < r->insts->len; i++) {
		const struct gs_hal_rec_inst *in = r->insts->pdata[i];
		char spec[512];
		struct hrec_out o = { .buf = spec, .size = sizeof(spec) };

		/* the params= string as a string value: '-' when empty */
		hrec_reset(&o);
		hrec_value(&o, 's', (hal_u64)(uintptr_t)in->params);
		g_assert(!o.overflow);
		g_string_append_printf(out, "instance %u %s vm %" PRId32
				       " tasks %" PRIu32 " chans %" PRIu32
				       " params%s\n", i, in->policy, in->vm,
				       in->n_tasks, in->n_chans, spec);
		g_string_append_len(out, in->body->str,
				    (gssize)in->body->len);
	}
	return g_string_free(out, FALSE);
}

void gs_hal_rec_attach(struct gs_hal_record *r, struct hal_sched *s)
{
	struct gs_hal_rec_inst *in = g_new0(struct gs_hal_rec_inst, 1);

	in->body = g_string_new(NULL);
	in->policy = s->ops->name;
	in->vm = s->vm;
	in->params = gs_hal_rec_params_text(s->ops, s->params);
	g_ptr_array_add(r->insts, in);
	s->rec = in;
}

gboolean gs_hal_rec_on(const struct hal_sched *s)
{
	return s->rec && s->rec->depth;
}

static struct hrec_out line_of(struct gs_hal_rec_inst *in)
{
	struct hrec_out o = { .buf = in->line, .size = sizeof(in->line) };

	hrec_reset(&o);
	return o;
}

static void put_line(struct gs_hal_rec_inst *in, const struct hrec_out *o)
{
	/* a line longer than the replay reads would not replay */
	g_assert(!o->overflow);
	g_string_append_len(in->body, o->buf, o->len);
	g_string_append_c(in->body, '\n');
}

void gs_hal_rec_call(struct hal_sched *s, const char *name, const char *kinds,
		     const hal_u64 *args, const char *okinds,
		     const hal_u64 *outs)
{
	struct hrec_out o = line_of(s->rec);

	hrec_call(&o, name, kinds, args, okinds, outs);
	put_line(s->rec, &o);
}

void gs_hal_rec_op(struct hal_sched *s, const char *op, const char *kinds,
		   const hal_u64 *args)
{
	struct hrec_out o;

	if (!s->rec)
		return;
	o = line_of(s->rec);
	hrec_str(&o, "op ");
	hrec_u64(&o, s->sim->q.now);
	hrec_str(&o, " ");
	hrec_call(&o, op, kinds, args, NULL, NULL);
	put_line(s->rec, &o);
	s->rec->depth++;
}

void gs_hal_rec_op_end(struct hal_sched *s, gboolean answers, int64_t ret)
{
	if (!s->rec)
		return;
	s->rec->depth--;
	if (answers)
		g_string_append_printf(s->rec->body, "ret %" PRId64 "\n", ret);
	else
		g_string_append(s->rec->body, "end\n");
}

uint32_t gs_hal_rec_new_task(struct hal_sched *s, struct hal_task *t)
{
	if (s->rec)
		t->rec_ref = ++s->rec->n_tasks;
	return t->rec_ref;
}

uint32_t gs_hal_rec_new_chan(struct hal_sched *s, struct hal_chan *c)
{
	if (s->rec)
		gs_hal_chan_rare(c)->rec_ref = ++s->rec->n_chans;
	return gs_hal_rec_chan(c);
}

hal_u64 gs_hal_rec_task(const struct hal_task *t)
{
	return t ? t->rec_ref : 0;
}

hal_u64 gs_hal_rec_chan(const struct hal_chan *c)
{
	return c && c->rare ? c->rare->rec_ref : 0;
}
