/* The table of an accounting engine (acct_engine.h) from its typed
 * functions, written once for both engines: ACCT_ENGINE(eng, state type,
 * record type, poll_change, poll_end) in the engine's own file, after
 * eng_fini, eng_trace_open, eng_chan_detach, eng_submit,
 * eng_shadow_submit, eng_timer, eng_entity_new, eng_entity_free and
 * eng_chan_attach, each taking the engine's state after s. The record
 * type has the fields vt, t, shadow_gate and unreported. */
#ifndef GS_POLICY_ACCT_ENGINE_DEF_H
#define GS_POLICY_ACCT_ENGINE_DEF_H

#include "acct_engine.h"

#define ACCT_ENGINE(eng, state_type, rec_type, poll_change_fn, poll_end_fn) \
static void eng##_st_fini(struct hal_sched *s, void *st)		\
{									\
	eng##_fini(s, st);						\
}									\
									\
static void eng##_st_trace_open(struct hal_sched *s, void *st)		\
{									\
	eng##_trace_open(s, st);					\
}									\
									\
static void eng##_st_chan_destroy(struct hal_sched *s, void *st,	\
				  struct hal_chan *c)			\
{									\
	eng##_chan_detach(s, st, c);					\
}									\
									\
static int eng##_st_submit(struct hal_sched *s, void *st,		\
			   struct hal_chan *c)				\
{									\
	return eng##_submit(s, st, c);					\
}									\
									\
static void eng##_st_shadow_submit(struct hal_sched *s, void *st,	\
				   struct hal_chan *c)			\
{									\
	eng##_shadow_submit(s, st, c);					\
}									\
									\
static void eng##_st_timer(struct hal_sched *s, void *st, hal_u32 id)	\
{									\
	eng##_timer(s, st, id);						\
}									\
									\
static void *eng##_ent_new(struct hal_sched *s, void *st,		\
			   struct hal_task *t, hal_u32 weight,		\
			   hal_u8 shadow_gate, hal_u8 unreported)	\
{									\
	rec_type *r = eng##_entity_new(s, st, t, weight);		\
									\
	if (r) {							\
		r->shadow_gate = shadow_gate;				\
		r->unreported = unreported;				\
	}								\
	return r;							\
}									\
									\
static void eng##_ent_free(struct hal_sched *s, void *st, void *e)	\
{									\
	eng##_entity_free(s, st, e);					\
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
static void eng##_ent_chan_attach(struct hal_sched *s, void *st,	\
				  void *e, struct hal_chan *c)		\
{									\
	eng##_chan_attach(s, st, e, c);					\
}									\
									\
const struct acct_engine eng##_acct_engine = {				\
	.state_size = sizeof(state_type),				\
	.fini = eng##_st_fini,						\
	.trace_open = eng##_st_trace_open,				\
	.channel_destroy = eng##_st_chan_destroy,			\
	.submit = eng##_st_submit,					\
	.shadow_submit = eng##_st_shadow_submit,			\
	.timer = eng##_st_timer,					\
	.poll_change = poll_change_fn,					\
	.poll_end = poll_end_fn,					\
	.entity_new = eng##_ent_new,					\
	.entity_free = eng##_ent_free,					\
	.entity_vt = eng##_ent_vt,					\
	.reporter = eng##_ent_reporter,					\
	.set_reporter = eng##_ent_set_reporter,				\
	.chan_attach = eng##_ent_chan_attach,				\
}

#endif
