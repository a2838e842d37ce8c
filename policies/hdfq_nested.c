/* hdfq's nested mode (Fleig 3.4, the decentralised design): the host's
 * scheduler knows nothing of guest tasks. It runs one DFQ engine over the
 * host tasks and the top-level VMs, each VM one entity (user weight: the
 * VM's), stopped and sampled through its channels as a whole (shadow
 * channels, as in the paravirtual mode). Inside each top-level VM its own
 * DFQ engine schedules the VM's tasks (nested VMs' tasks included) with
 * its own, shorter sampling (`vm_sample`; the thesis set the nested
 * sampling to a fraction of the host's by hand), stopping a guest task at
 * its guest page-table trap (the task is held; the VM runs on). It knows
 * the VM's processes itself: paravirtual hints play no part.
 *
 * Both engines act on the same channels. A channel of a guest task is
 * shadowed while the host stops its VM; otherwise its doorbell is trapped
 * if either engine wants to see its writes (the host counting its VM's
 * requests in the VM's sample, the guest engaged or stopping the task).
 * A trapped write goes to the guest engine first (it may hold the task),
 * then to the host engine. A write into the shadow queue is seen by both
 * but can no longer be held: the guest scheduler's view is disturbed. The
 * thesis's interference follows from this, uncoordinated as in its
 * prototype: the guest samples a task "alone" while the host's free run
 * lets other VMs' and host tasks' work share the GPU, or while the host
 * has shadowed the whole VM so that the sampled requests never run (the
 * sample sees long requests); and the guest's engagements idle the VM in
 * time the host has given it. `gpusim` reports what results as shares
 * and accounting error (configs/paper/fleig_nested.yaml).
 *
 * Limits: at most HDFQ_NESTED_MAX_VMS top-level VMs (timers); accounting
 * by DFQ only (not LoGA) at both levels. */
#include "gate.h"
#include "hdfq_nested.h"

struct nest_ent {
	struct plist link;       /* in hdfq_nested.ents */
	struct dfq *eng;         /* the engine it belongs to */
	struct dfq_task *dt;
	struct plist members;    /* struct nest_member (glink or vlink) */
	hal_s32 vm;              /* top-level VM, -1 for a host task */
	hal_u8 is_vm;            /* the host engine's entity for a VM */
};

/* hal_task_data of a task in nested mode. */
struct nest_member {
	struct plist glink;      /* in e->members */
	struct plist vlink;      /* in ve->members */
	struct hal_task *t;
	struct nest_ent *e;      /* host task's or guest task's entity */
	struct nest_ent *ve;     /* its VM's entity at the host */
};

/* hal_chan_data of a channel in nested mode: each engine's record. */
struct nest_chan {
	struct plist link;       /* in hdfq_nested.chans */
	struct dfq_chan *host_dc, *guest_dc;
	struct dfq *geng;        /* the guest engine of guest_dc */
	hal_u8 host_state, guest_state; /* enum dfq_gate asked by each */
	hal_u8 in_vm;
};

struct nest_vm {
	struct dfq eng;
	hal_s32 vm;
};

struct hdfq_nested {
	struct dfq_env env;      /* first: found from the host engine */
	struct dfq *host;
	struct nest_vm *vms[HDFQ_NESTED_MAX_VMS];
	hal_u32 n_vms;
	struct plist ents;       /* struct nest_ent */
	struct plist chans;      /* struct nest_chan */
};

static struct hdfq_nested *nest_of(struct hal_sched *s)
{
	return (struct hdfq_nested *)((struct dfq *)hal_priv(s))->env;
}

static void use(struct hdfq_nested *n, struct dfq *eng)
{
	n->env.cur = eng;
}

static hal_s32 top_vm(struct hal_sched *s, hal_s32 vm)
{
	hal_u32 depth = 0;

	while (vm >= 0 && hal_vm_parent(s, vm) >= 0 &&
	       depth++ < hal_vm_count(s))
		vm = hal_vm_parent(s, vm);
	return vm;
}

static struct dfq *vm_engine(struct hdfq_nested *n, hal_s32 vm)
{
	hal_u32 i;

	for (i = 0; i < n->n_vms; i++)
		if (n->vms[i]->vm == vm)
			return &n->vms[i]->eng;
	return 0;
}

/* ---- the engines' hooks -------------------------------------------------- */

static struct dfq_chan *nest_chan_get(struct hal_sched *s, struct hal_chan *c)
{
	struct hdfq_nested *n = nest_of(s);
	struct nest_chan *nc = hal_chan_data(c);

	if (!nc)
		return 0;
	return n->env.cur == n->host ? nc->host_dc : nc->guest_dc;
}

static void nest_chan_set(struct hal_sched *s, struct hal_chan *c,
			  struct dfq_chan *dc)
{
	struct hdfq_nested *n = nest_of(s);
	struct nest_chan *nc = hal_chan_data(c);

	if (!nc)
		return;
	if (n->env.cur == n->host) {
		nc->host_dc = dc;
	} else {
		nc->guest_dc = dc;
		nc->geng = n->env.cur;
	}
}

/* What both engines ask of a guest task's channel, combined (see top). */
static void nest_gate(struct hal_sched *s, struct dfq_task *dt,
		      struct hal_chan *c, hal_u32 state)
{
	struct hdfq_nested *n = nest_of(s);
	struct nest_chan *nc = hal_chan_data(c);
	int shadow, trap;

	if (!nc)
		return;
	if (n->env.cur == n->host)
		nc->host_state = (hal_u8)state;
	else
		nc->guest_state = (hal_u8)state;
	if (!nc->in_vm) {
		if (state == DFQ_GATE_COUNT) {
			hal_shadow_disable(s, c);
			hal_trap_arm(s, c);
		} else {
			gate_chan(s, c, dt->shadow_gate,
				  state == DFQ_GATE_STOP);
		}
		return;
	}
	shadow = nc->host_state == DFQ_GATE_STOP;
	trap = !shadow && (nc->host_state == DFQ_GATE_COUNT ||
			   nc->guest_state != DFQ_GATE_GO);
	if (shadow) {
		hal_trap_disarm(s, c);
		hal_shadow_enable(s, c);
		return;
	}
	hal_shadow_disable(s, c);
	if (trap)
		hal_trap_arm(s, c);
	else
		hal_trap_disarm(s, c);
}

/* ---- entities ------------------------------------------------------------ */

static struct nest_ent *ent_new(struct hal_sched *s, struct dfq *eng,
				struct hal_task *t, hal_u32 weight,
				hal_s32 vm, hal_u8 is_vm)
{
	struct hdfq_nested *n = nest_of(s);
	struct nest_ent *e = hal_zalloc(s, sizeof(*e));
	struct dfq *prev = n->env.cur;

	if (!e)
		return 0;
	use(n, eng);
	e->dt = dfq_entity_new(s, t, weight);
	use(n, prev);
	if (!e->dt) {
		hal_free(s, e);
		return 0;
	}
	/* the host stops a VM by its shadow channels, a guest engine its
	 * task at the guest trap */
	e->dt->shadow_gate = is_vm;
	/* what a task used is reported by its VM's scheduler */
	e->dt->unreported = is_vm;
	e->eng = eng;
	e->vm = vm;
	e->is_vm = is_vm;
	plist_init(&e->members);
	plist_add_tail(&n->ents, &e->link);
	return e;
}

/* The host engine's entity for top-level VM `vm`, if it has one. */
static struct nest_ent *vm_entity(struct hdfq_nested *n, hal_s32 vm)
{
	struct plist *pos;

	plist_for_each(pos, &n->ents) {
		struct nest_ent *e = plist_entry(pos, struct nest_ent, link);

		if (e->is_vm && e->vm == vm)
			return e;
	}
	return 0;
}

/* Member m leaves entity e (through its link `l`): the last one frees it;
 * otherwise the entity reports on a task still there. */
static void ent_leave(struct hal_sched *s, struct nest_ent *e,
		      struct plist *l, struct hal_task *t, int via_vlink)
{
	struct hdfq_nested *n = nest_of(s);
	struct dfq *prev = n->env.cur;

	plist_del(l);
	if (plist_empty(&e->members)) {
		/* may come from inside an engine (a kill): put it back */
		use(n, e->eng);
		dfq_entity_free(s, e->dt);
		use(n, prev);
		plist_del(&e->link);
		hal_free(s, e);
	} else if (e->dt->t == t) {
		struct nest_member *o = via_vlink
			? plist_entry(e->members.next, struct nest_member, vlink)
			: plist_entry(e->members.next, struct nest_member, glink);

		e->dt->t = o->t;
	}
}

/* ---- life cycle ----------------------------------------------------------- */

int hdfq_nested_init(struct hal_sched *s, struct dfq *host,
		     struct hdfq_nested **out)
{
	struct hdfq_nested *n = hal_zalloc(s, sizeof(*n));
	hal_u64 vm_sample = hal_param(s, "vm_sample");
	hal_u32 i;

	*out = n;
	if (!n)
		return -1;
	n->env.cur = host;
	n->env.chan_get = nest_chan_get;
	n->env.chan_set = nest_chan_set;
	n->env.gate = nest_gate;
	n->host = host;
	plist_init(&n->ents);
	plist_init(&n->chans);
	host->env = &n->env;
	host->timer_base = 0;
	if (dfq_init(s) < 0)
		return -1;
	host->charge_sample = 1;
	for (i = 0; i < hal_vm_count(s); i++) {
		struct nest_vm *v;

		if (hal_vm_parent(s, (hal_s32)i) >= 0)
			continue;
		if (n->n_vms == HDFQ_NESTED_MAX_VMS)
			return -1;
		v = hal_zalloc(s, sizeof(*v));
		if (!v)
			return -1;
		n->vms[n->n_vms] = v;
		v->vm = (hal_s32)i;
		v->eng.timer_base = 2 + 2 * n->n_vms++;
		use(n, &v->eng);
		if (dfq_init(s) < 0)
			return -1;
		v->eng.sample = vm_sample ? vm_sample : 1;
		v->eng.charge_sample = 1;
	}
	use(n, host);
	return 0;
}

void hdfq_nested_fini(struct hal_sched *s, struct hdfq_nested *n)
{
	hal_u32 i;

	if (!n)
		return;
	for (i = 0; i < n->n_vms; i++) {
		use(n, &n->vms[i]->eng);
		dfq_fini(s);
		hal_free(s, n->vms[i]);
	}
	use(n, n->host);
	dfq_fini(s);
	while (!plist_empty(&n->ents)) {
		struct plist *e = n->ents.next;

		plist_del(e);
		hal_free(s, plist_entry(e, struct nest_ent, link));
	}
	while (!plist_empty(&n->chans)) {
		struct plist *c = n->chans.next;

		plist_del(c);
		hal_free(s, plist_entry(c, struct nest_chan, link));
	}
	n->host->env = 0;
	hal_free(s, n);
}

void hdfq_nested_task_create(struct hal_sched *s, struct hdfq_nested *n,
			     struct hal_task *t)
{
	struct nest_member *m = hal_zalloc(s, sizeof(*m));

	if (!m)
		return;
	m->t = t;
	plist_init(&m->glink);
	plist_init(&m->vlink);
	hal_task_set_data(t, m);
	if (top_vm(s, hal_task_vm(t)) < 0) {
		m->e = ent_new(s, n->host, t, hal_task_weight(t), -1, 0);
		if (m->e)
			plist_add_tail(&m->e->members, &m->glink);
	}
}

void hdfq_nested_task_exit(struct hal_sched *s, struct hdfq_nested *n,
			   struct hal_task *t)
{
	struct nest_member *m = hal_task_data(t);
	hal_u32 i;

	if (!m)
		return;
	hal_task_set_data(t, 0);
	/* a task gone (killed by one engine, say) frees the GPU for the
	 * others: every engine's drain gets a fresh stall clock, as dfq
	 * gives the other tasks after a kill */
	n->host->kill_clock = hal_now(s);
	for (i = 0; i < n->n_vms; i++)
		n->vms[i]->eng.kill_clock = hal_now(s);
	if (m->e)
		ent_leave(s, m->e, &m->glink, t, 0);
	if (m->ve)
		ent_leave(s, m->ve, &m->vlink, t, 1);
	hal_free(s, m);
}

void hdfq_nested_channel_create(struct hal_sched *s, struct hdfq_nested *n,
				struct hal_chan *c)
{
	struct hal_task *t = hal_chan_task(c);
	struct nest_member *m = hal_task_data(t);
	struct nest_chan *nc;
	struct dfq *geng;
	hal_s32 top;

	if (!m)
		return;
	nc = hal_zalloc(s, sizeof(*nc));
	if (!nc)
		return;
	plist_add_tail(&n->chans, &nc->link);
	hal_chan_set_data(c, nc);
	use(n, n->host);
	top = top_vm(s, hal_task_vm(t));
	if (top < 0) {
		if (m->e)
			dfq_chan_attach(s, m->e->dt, c); /* host engine */
		return;
	}
	nc->in_vm = 1;
	if (!m->ve) {
		m->ve = vm_entity(n, top);
		if (!m->ve)
			m->ve = ent_new(s, n->host, t, hal_vm_weight(s, top),
					top, 1);
		if (m->ve)
			plist_add_tail(&m->ve->members, &m->vlink);
	}
	if (m->ve)
		dfq_chan_attach(s, m->ve->dt, c);
	geng = vm_engine(n, top);
	if (!geng)
		return;
	if (!m->e) {
		/* the VM's own scheduler knows its processes: no hints */
		m->e = ent_new(s, geng, t, hal_task_weight(t), top, 0);
		if (m->e)
			plist_add_tail(&m->e->members, &m->glink);
	}
	if (m->e) {
		use(n, geng);
		dfq_chan_attach(s, m->e->dt, c);
		use(n, n->host);
	}
}

void hdfq_nested_channel_destroy(struct hal_sched *s, struct hdfq_nested *n,
				 struct hal_chan *c)
{
	struct nest_chan *nc = hal_chan_data(c);
	struct dfq *prev = n->env.cur;

	if (!nc)
		return;
	if (nc->guest_dc) {
		use(n, nc->geng);
		dfq_chan_detach(s, c);
	}
	use(n, n->host);
	if (nc->host_dc)
		dfq_chan_detach(s, c);
	use(n, prev);
	plist_del(&nc->link);
	hal_chan_set_data(c, 0);
	hal_free(s, nc);
}

/* ---- submissions and timers ------------------------------------------------ */

int hdfq_nested_submit(struct hal_sched *s, struct hdfq_nested *n,
		       struct hal_chan *c)
{
	struct nest_chan *nc = hal_chan_data(c);
	int v = GS_SUBMIT_ALLOW;

	if (!nc)
		return v;
	if (nc->guest_dc) {
		/* the guest's own trap comes first */
		use(n, nc->geng);
		v = dfq_submit(s, c);
	}
	use(n, n->host);
	if (v == GS_SUBMIT_HOLD || !nc->host_dc)
		return v;
	return dfq_submit(s, c);
}

void hdfq_nested_shadow_submit(struct hal_sched *s, struct hdfq_nested *n,
			       struct hal_chan *c)
{
	struct nest_chan *nc = hal_chan_data(c);

	if (!nc) {
		hal_shadow_disable(s, c);
		return;
	}
	if (nc->guest_dc) {
		/* the guest scheduler sees the write but can no longer hold
		 * it: it is in the host's shadow queue */
		use(n, nc->geng);
		(void)dfq_submit(s, c);
	}
	use(n, n->host);
	if (nc->host_dc)
		dfq_shadow_submit(s, c);
	else
		hal_shadow_disable(s, c);
}

void hdfq_nested_timer(struct hal_sched *s, struct hdfq_nested *n, hal_u32 id)
{
	hal_u32 k = id < 2 ? 0 : (id - 2) / 2;

	if (id >= 2 && k >= n->n_vms)
		return;
	use(n, id < 2 ? n->host : &n->vms[k]->eng);
	dfq_timer(s, id);
	use(n, n->host);
}
