/* A policy's accounting engine at work (struct acct_run, acct_engine.h):
 * its state allocated and freed, the ops forwarded to it; the ops of an
 * engine run as a policy of its own (dfq, loga); and the freeing of the
 * engines' entity and channel records, the same for both. */
#include "acct_engine.h"

/* ---- entities' records ------------------------------------------------- */

void *acct_chan_new(struct hal_sched *s, hal_u32 size, hal_u32 off,
		    struct plist *chans, struct hal_chan *c)
{
	char *rec = hal_zalloc(s, size);
	struct acct_chan *ac;

	if (!rec)
		return 0;
	ac = (struct acct_chan *)(rec + off);
	ac->c = c;
	plist_add_tail(chans, &ac->link);
	hal_chan_set_data(c, rec);
	return rec;
}

void acct_chan_free(struct hal_sched *s, void *rec, hal_u32 off)
{
	struct acct_chan *ac = (struct acct_chan *)((char *)rec + off);

	plist_del(&ac->link);
	hal_chan_set_data(ac->c, 0);
	hal_free(s, rec);
}

void acct_chans_free(struct hal_sched *s, struct plist *chans, hal_u32 off,
		     int forget)
{
	while (!plist_empty(chans)) {
		struct acct_chan *ac = plist_entry(chans->next,
						   struct acct_chan, link);

		plist_del(&ac->link);
		if (forget)
			hal_chan_set_data(ac->c, 0);
		hal_free(s, (char *)ac - off);
	}
}

void acct_entity_release(struct hal_sched *s, void *rec, struct vt_task *vt,
			 struct plist *chans, hal_u32 chan_off, int forget)
{
	acct_chans_free(s, chans, chan_off, forget);
	vt_task_del(vt);
	hal_free(s, rec);
}

/* ---- an engine at work -------------------------------------------------- */

void *acct_run_start(struct hal_sched *s, struct acct_run *r,
		     const struct acct_engine *eng)
{
	r->eng = eng;
	r->st = hal_zalloc(s, eng->state_size);
	return r->st;
}

void acct_run_stop(struct hal_sched *s, struct acct_run *r)
{
	if (!r->st)
		return;
	r->eng->fini(s, r->st);
	hal_free(s, r->st);
	r->st = 0;
}

void acct_run_trace_open(struct hal_sched *s, struct acct_run *r)
{
	if (r->st)
		r->eng->trace_open(s, r->st);
}

void acct_run_channel_destroy(struct hal_sched *s, struct acct_run *r,
			      struct hal_chan *c)
{
	if (r->st)
		r->eng->channel_destroy(s, r->st, c);
}

int acct_run_submit(struct hal_sched *s, struct acct_run *r,
		    struct hal_chan *c)
{
	return r->st ? r->eng->submit(s, r->st, c) : GS_SUBMIT_ALLOW;
}

void acct_run_shadow_submit(struct hal_sched *s, struct acct_run *r,
			    struct hal_chan *c)
{
	if (r->st)
		r->eng->shadow_submit(s, r->st, c);
}

void acct_run_timer(struct hal_sched *s, struct acct_run *r, hal_u32 id)
{
	if (r->st)
		r->eng->timer(s, r->st, id);
}

void acct_run_poll_change(struct hal_sched *s, struct acct_run *r,
			  const struct hal_engine_status *es, hal_u64 when)
{
	if (r->st && r->eng->poll_change)
		r->eng->poll_change(s, r->st, es, when);
}

void acct_run_poll_end(struct hal_sched *s, struct acct_run *r)
{
	if (r->st && r->eng->poll_end)
		r->eng->poll_end(s, r->st);
}

/* ---- the engine as a policy of its own ---------------------------------- */

static struct acct_run *own_run(struct hal_sched *s)
{
	return hal_priv(s);
}

void acct_own_fini(struct hal_sched *s)
{
	acct_run_stop(s, own_run(s));
}

void acct_own_trace_open(struct hal_sched *s)
{
	acct_run_trace_open(s, own_run(s));
}

void acct_own_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct acct_run *r = own_run(s);
	void *e;

	if (!r->st)
		return;
	e = r->eng->entity_new(s, r->st, t, hal_task_weight(t), 0, 0);
	if (e)
		hal_task_set_data(t, e);
}

void acct_own_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct acct_run *r = own_run(s);
	void *e = hal_task_data(t);

	if (!e)
		return;
	r->eng->entity_free(s, r->st, e);
	hal_task_set_data(t, 0);
}

void acct_own_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	struct acct_run *r = own_run(s);
	void *e = hal_task_data(hal_chan_task(c));

	if (e)
		r->eng->chan_attach(s, r->st, e, c);
}

void acct_own_channel_destroy(struct hal_sched *s, struct hal_chan *c)
{
	acct_run_channel_destroy(s, own_run(s), c);
}

int acct_own_submit(struct hal_sched *s, struct hal_chan *c)
{
	return acct_run_submit(s, own_run(s), c);
}

void acct_own_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	acct_run_shadow_submit(s, own_run(s), c);
}

void acct_own_timer(struct hal_sched *s, hal_u32 id)
{
	acct_run_timer(s, own_run(s), id);
}

void acct_own_poll_change(struct hal_sched *s,
			  const struct hal_engine_status *es, hal_u64 when)
{
	acct_run_poll_change(s, own_run(s), es, when);
}

void acct_own_poll_end(struct hal_sched *s)
{
	acct_run_poll_end(s, own_run(s));
}
