/* dfq's and loga's engines as struct acct_engine (acct_engine.h): their
 * entity calls adapted to an opaque record, written once for both record
 * types (struct dfq_task, struct loga_task: the same fields by name). */
#include "acct_engine.h"
#include "dfq.h"
#include "loga.h"

#define ACCT_ENGINE(eng, rec_type, ops_table)				\
static void *eng##_ent_new(struct hal_sched *s, struct hal_task *t,	\
			   hal_u32 weight, hal_u8 shadow_gate,		\
			   hal_u8 unreported)				\
{									\
	rec_type *r = eng##_entity_new(s, t, weight);			\
									\
	if (r) {							\
		r->shadow_gate = shadow_gate;				\
		r->unreported = unreported;				\
	}								\
	return r;							\
}									\
									\
static void eng##_ent_free(struct hal_sched *s, void *e)		\
{									\
	eng##_entity_free(s, e);					\
}									\
									\
static struct vt_task *eng##_ent_vt(void *e)				\
{									\
	return &((rec_type *)e)->vt;					\
}									\
									\
static struct hal_task *eng##_ent_reporter(const void *e)		\
{									\
	return ((const rec_type *)e)->t;				\
}									\
									\
static void eng##_ent_set_reporter(void *e, struct hal_task *t)	\
{									\
	((rec_type *)e)->t = t;						\
}									\
									\
static void eng##_ent_chan_attach(struct hal_sched *s, void *e,	\
				  struct hal_chan *c)			\
{									\
	eng##_chan_attach(s, e, c);					\
}									\
									\
const struct acct_engine eng##_acct_engine = {				\
	.ops = &(ops_table),						\
	.entity_new = eng##_ent_new,					\
	.entity_free = eng##_ent_free,					\
	.entity_vt = eng##_ent_vt,					\
	.reporter = eng##_ent_reporter,					\
	.set_reporter = eng##_ent_set_reporter,				\
	.chan_attach = eng##_ent_chan_attach,				\
}

ACCT_ENGINE(dfq, struct dfq_task, gs_policy_dfq);
ACCT_ENGINE(loga, struct loga_task, gs_policy_loga);

void acct_own_task_create(const struct acct_engine *eng, struct hal_sched *s,
			  struct hal_task *t)
{
	void *e = eng->entity_new(s, t, hal_task_weight(t), 0, 0);

	if (e)
		hal_task_set_data(t, e);
}

void acct_own_task_exit(const struct acct_engine *eng, struct hal_sched *s,
			struct hal_task *t)
{
	void *e = hal_task_data(t);

	if (!e)
		return;
	eng->entity_free(s, e);
	hal_task_set_data(t, 0);
}

void acct_own_channel_create(const struct acct_engine *eng,
			     struct hal_sched *s, struct hal_chan *c)
{
	void *e = hal_task_data(hal_chan_task(c));

	if (e)
		eng->chan_attach(s, e, c);
}
