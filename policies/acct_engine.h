/* An accounting engine: what measures the entities' GPU time, keeps their
 * virtual times and gates them. dfq's (exclusive samples, dfq.h) and
 * loga's (status-register polling, loga.h) are the two; a policy that
 * schedules its own entities over either (hdfq) calls the one it chose
 * through this table instead of asking which at every call. An entity is
 * the engine's record, opaque to the caller. The engine's state is the
 * caller's hal_priv (dfq.h, loga.h). */
#ifndef GS_POLICY_ACCT_ENGINE_H
#define GS_POLICY_ACCT_ENGINE_H

#include "policy.h"
#include "vtime.h"

struct acct_engine {
	/* The engine's policy, whose ops the caller forwards to once its
	 * entities are set up: fini, trace_open, channel_destroy, submit,
	 * shadow_submit, timer, poll_change, poll_end (each may be NULL). */
	const struct gs_policy_ops *ops;
	/* A new entity on task t of user weight `weight`, 0 when out of
	 * memory. shadow_gate: stopped by shadowing its channels (a VM's
	 * task) rather than holding it; unreported: its figures are not
	 * published on t. */
	void *(*entity_new)(struct hal_sched *s, struct hal_task *t,
			    hal_u32 weight, hal_u8 shadow_gate,
			    hal_u8 unreported);
	/* The entity is gone (its channels detached first). */
	void (*entity_free)(struct hal_sched *s, void *e);
	struct vt_task *(*entity_vt)(void *e);
	/* The task its figures are reported on, and a change of it. */
	struct hal_task *(*reporter)(const void *e);
	void (*set_reporter)(void *e, struct hal_task *t);
	/* Channel c is the entity's from now on. */
	void (*chan_attach)(struct hal_sched *s, void *e, struct hal_chan *c);
};

extern const struct acct_engine dfq_acct_engine;
extern const struct acct_engine loga_acct_engine;

/* The engine as a policy of its own, each task its own entity (its
 * hal_task_data): the ops task_create, task_exit and channel_create of
 * dfq and loga. */
void acct_own_task_create(const struct acct_engine *eng, struct hal_sched *s,
			  struct hal_task *t);
void acct_own_task_exit(const struct acct_engine *eng, struct hal_sched *s,
			struct hal_task *t);
void acct_own_channel_create(const struct acct_engine *eng,
			     struct hal_sched *s, struct hal_chan *c);

#endif
