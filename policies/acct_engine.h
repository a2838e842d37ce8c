/* An accounting engine: what measures the entities' GPU time, keeps their
 * virtual times and gates them. dfq's (exclusive samples, dfq.h) and
 * loga's (status-register polling, loga.h) are the two; a policy that
 * schedules its own entities over either (hdfq) calls the one it chose
 * through this table instead of asking which at every call.
 *
 * The engine's state is an object of its own (state_size bytes, from
 * hal_zalloc), passed to every call: a policy running an engine keeps a
 * struct acct_run, the engine and its state, in its private data, and
 * nobody's private data is read as another type. An entity is the
 * engine's record, opaque to the caller. */
#ifndef GS_POLICY_ACCT_ENGINE_H
#define GS_POLICY_ACCT_ENGINE_H

#include "policy.h"
#include "vtime.h"

struct acct_engine {
	hal_u32 state_size;
	/* The policy's ops that the engine serves once the caller's
	 * entities are set up, each on the engine's state `st`; poll_change
	 * and poll_end may be NULL (dfq polls no status register). */
	void (*fini)(struct hal_sched *s, void *st);
	void (*trace_open)(struct hal_sched *s, void *st);
	void (*channel_destroy)(struct hal_sched *s, void *st,
				struct hal_chan *c);
	int (*submit)(struct hal_sched *s, void *st, struct hal_chan *c);
	void (*shadow_submit)(struct hal_sched *s, void *st,
			      struct hal_chan *c);
	void (*timer)(struct hal_sched *s, void *st, hal_u32 id);
	void (*poll_change)(struct hal_sched *s, void *st,
			    const struct hal_engine_status *es, hal_u64 when);
	void (*poll_end)(struct hal_sched *s, void *st);
	/* A new entity on task t of user weight `weight`, 0 when out of
	 * memory. shadow_gate: stopped by shadowing its channels (a VM's
	 * task) rather than holding it; unreported: its figures are not
	 * published on t. */
	void *(*entity_new)(struct hal_sched *s, void *st, struct hal_task *t,
			    hal_u32 weight, hal_u8 shadow_gate,
			    hal_u8 unreported);
	/* The entity is gone (its channels detached first). */
	void (*entity_free)(struct hal_sched *s, void *st, void *e);
	struct vt_task *(*entity_vt)(void *e);
	/* The task its figures are reported on, and a change of it. */
	struct hal_task *(*reporter)(const void *e);
	void (*set_reporter)(void *e, struct hal_task *t);
	/* Channel c is the entity's from now on. */
	void (*chan_attach)(struct hal_sched *s, void *st, void *e,
			    struct hal_chan *c);
};

/* What an engine's channel record and entity record hold for the
 * shared helpers below: the channel record embeds a struct acct_chan
 * (as `ac`), the entity record lists them. */
struct acct_chan {
	struct plist link;  /* in its entity's list of channels */
	struct hal_chan *c;
};

/* Byte offset of the acct_chan in channel record type `type`. */
#define ACCT_CHAN_OFF(type) ((hal_u32)__builtin_offsetof(type, ac))

/* A new channel record of `size` bytes for channel c (its acct_chan at
 * byte offset `off`), zeroed but for the acct_chan, on `chans` and the
 * channel's hal_chan_data; 0 when out of memory. */
void *acct_chan_new(struct hal_sched *s, hal_u32 size, hal_u32 off,
		    struct plist *chans, struct hal_chan *c);
/* A new channel record of type `type` for channel c, on list `chans`. */
#define ACCT_CHAN_NEW(s, type, chans, c) \
	((type *)acct_chan_new((s), sizeof(type), ACCT_CHAN_OFF(type), \
			       (chans), (c)))
/* Channel record `rec` (its acct_chan at `off`) off its entity's list and
 * its channel, freed. */
void acct_chan_free(struct hal_sched *s, void *rec, hal_u32 off);
/* Free the channel records on `chans` (each of a type with its acct_chan
 * at byte offset `off`). forget: the channels live on and their
 * hal_chan_data is cleared; at fini nothing of a channel is touched. */
void acct_chans_free(struct hal_sched *s, struct plist *chans, hal_u32 off,
		     int forget);
/* Free entity record `rec`: its channel records (acct_chans_free), its
 * place in the engine's virtual times (vt), then the record. */
void acct_entity_release(struct hal_sched *s, void *rec, struct vt_task *vt,
			 struct plist *chans, hal_u32 chan_off, int forget);

extern const struct acct_engine dfq_acct_engine;
extern const struct acct_engine loga_acct_engine;

/* An engine at work for a policy: which one, and its state (0 until
 * acct_run_start). */
struct acct_run {
	const struct acct_engine *eng;
	void *st;
};

/* Allocate eng's state into r: the state, to be initialised by the
 * engine's own init (dfq_init, loga_init), or 0 when out of memory. */
void *acct_run_start(struct hal_sched *s, struct acct_run *r,
		     const struct acct_engine *eng);
/* The engine's fini, then its state freed; nothing if never started. */
void acct_run_stop(struct hal_sched *s, struct acct_run *r);
/* The ops forwarded to the engine at work. */
void acct_run_trace_open(struct hal_sched *s, struct acct_run *r);
void acct_run_channel_destroy(struct hal_sched *s, struct acct_run *r,
			      struct hal_chan *c);
int acct_run_submit(struct hal_sched *s, struct acct_run *r,
		    struct hal_chan *c);
void acct_run_shadow_submit(struct hal_sched *s, struct acct_run *r,
			    struct hal_chan *c);
void acct_run_timer(struct hal_sched *s, struct acct_run *r, hal_u32 id);
void acct_run_poll_change(struct hal_sched *s, struct acct_run *r,
			  const struct hal_engine_status *es, hal_u64 when);
void acct_run_poll_end(struct hal_sched *s, struct acct_run *r);

/* The engine as a policy of its own (dfq, loga): its private data is a
 * struct acct_run, each task its own entity (its hal_task_data). The
 * policy's init calls acct_run_start and the engine's init; the other
 * ops are these. */
void acct_own_fini(struct hal_sched *s);
void acct_own_trace_open(struct hal_sched *s);
void acct_own_task_create(struct hal_sched *s, struct hal_task *t);
void acct_own_task_exit(struct hal_sched *s, struct hal_task *t);
void acct_own_channel_create(struct hal_sched *s, struct hal_chan *c);
void acct_own_channel_destroy(struct hal_sched *s, struct hal_chan *c);
int acct_own_submit(struct hal_sched *s, struct hal_chan *c);
void acct_own_shadow_submit(struct hal_sched *s, struct hal_chan *c);
void acct_own_timer(struct hal_sched *s, hal_u32 id);
void acct_own_poll_change(struct hal_sched *s,
			  const struct hal_engine_status *es, hal_u64 when);
void acct_own_poll_end(struct hal_sched *s);

/* The ops table entries of an engine run as its own policy, but for
 * name, summary, params and init (and the poll ops, for an engine that
 * polls). */
#define ACCT_OWN_OPS \
	.priv_size = sizeof(struct acct_run), \
	.fini = acct_own_fini, \
	.trace_open = acct_own_trace_open, \
	.task_create = acct_own_task_create, \
	.task_exit = acct_own_task_exit, \
	.channel_create = acct_own_channel_create, \
	.channel_destroy = acct_own_channel_destroy, \
	.submit = acct_own_submit, \
	.shadow_submit = acct_own_shadow_submit, \
	.timer = acct_own_timer

#endif
