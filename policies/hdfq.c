/* hdfq: weighted hierarchical Disengaged Fair Queueing for virtual
 * machines (Fleig, "GPU scheduling for virtual machines", 2017, 3.3).
 *
 * The scheduling entities form a tree: the host at the root, VMs (nested)
 * below it, and the leaves the scheduler runs: host tasks, the guest tasks
 * of a VM, told apart by the paravirtual hint its guest driver gives with
 * each channel (hal_chan_guest_id; the VM's channels all belong to one
 * host process), or a whole VM that gives no hints (one entity). Each leaf
 * gets its share of the GPU by formula 3.1 generalised to user weights
 * (policies/vmtree.h), recomputed whenever a leaf comes or goes, and the
 * DFQ engine (dfq.h: barrier, drain, sample, free run, vtime and deny)
 * runs over the leaves with vtime weights in proportion to those shares:
 * the tree is linearised, as in the thesis.
 *
 * How an entity is stopped (Fleig 3.3.2). A host task is held at its
 * trapped doorbell, as in dfq. A VM's process runs the VM's vCPUs, so
 * holding it would stop the whole VM; a guest entity's channels are
 * switched to shadow channels instead: its submissions queue in software
 * (every one is seen, at the VM's `trap` cost, and counted while it is
 * sampled) and are forwarded when it is let go, so the rest of its VM
 * keeps running. Sampling forwards at most `sample_requests` of what
 * queued (Fleig 4.3.2: resubmission counted, the rest kept shadowed).
 *
 * Decisions:
 * - Entities are created when a task appears (host) or opens its first
 *   channel (guest: the thesis creates the entity at the first channel
 *   allocation with a new guest id). A guest task whose channels carry
 *   different ids belongs to the entity of its first channel.
 * - A hint-less VM is one entity of user weight 1 holding all its tasks;
 *   its figures (accounted time, vtime) are reported on one of them, the
 *   host's view of "the VM's process".
 * - vtime weights are in proportion to the shares (vmtree_vt_weight);
 *   vtime.h normalises them over the entities that have had work, so a
 *   host task among equals has weight 1, and an entity that never
 *   submits (an idle task beside a VM) changes no lead.
 * - `account_only` (dfq's parameter): sample and account as usual but
 *   deny nobody, the thesis's overhead measurement (5.3: "ignore the
 *   scheduling decision").
 * - `loga: true`: the same tree and gates over LoGA's engine (loga.h):
 *   accounting by status-register polling, no exclusive samples.
 * - `nested: true`: Fleig's decentralised design (3.4): the host knows
 *   nothing of guest tasks; each top-level VM is one entity on the host
 *   (its user weight the VM's, all its tasks and nested VMs' tasks in
 *   it), stopped by its shadow channels. What goes on inside a VM is the
 *   VM's own scheduler's business: the environment runs it (a VM's
 *   `scheduler:` in the simulator, the guest's own module in a real
 *   VM); without one the VM's tasks share its part in the GPU's own
 *   order. The entity's figures are not reported on its tasks (the host
 *   cannot split them; a VM's scheduler reports its own).
 *
 * Priority (hal_task_priority): ignored; the VM tree's user weights set
 * the shares.
 */
#include "acct_engine.h"
#include "dfq.h"
#include "loga.h"
#include "vmtree.h"

struct hdfq_entity;

/* hal_task_data of a task under hdfq. */
struct hdfq_member {
	struct plist link;       /* in hdfq_entity.members */
	struct hal_task *t;
	struct hdfq_entity *e;   /* 0 until bound (guest: first channel) */
};

struct hdfq_entity {
	struct plist link;       /* in hdfq.entities */
	void *rec;               /* the engine's record of it */
	struct vt_task *vt;      /* its virtual time, in rec */
	struct plist members;    /* struct hdfq_member */
	hal_s32 vm;              /* VMT_ROOT: a host task */
	hal_s32 at;              /* where its leaf is in the tree: vm, or
				  * the root for a nested-mode VM entity */
	hal_u32 guest;           /* guest task id, HAL_GUEST_NONE: none */
	hal_u32 weight;          /* user weight in its VM */
};

struct hdfq {
	struct acct_run run;     /* dfq's or loga's engine, and its state */
	hal_u8 loga;             /* accounting by LoGA, not DFQ sampling */
	hal_u8 nested;           /* each top-level VM one entity */
	struct vmtree tree;
	struct plist entities;   /* struct hdfq_entity */
};

/* dfq's parameters first (dfq's code reads them where dfq's own table
 * has them), then loga's blocks, then hdfq's own. */
enum {
	HDFQ_LOGA_PHASE_BASE = DFQ_N_PARAMS,
	HDFQ_LOGA_METRIC_BASE = HDFQ_LOGA_PHASE_BASE + LOGA_N_PHASE_PARAMS,
	HDFQ_P_LOGA = HDFQ_LOGA_METRIC_BASE + LOGA_N_METRIC_PARAMS,
	HDFQ_P_NESTED,
	HDFQ_N_PARAMS
};

static const struct gs_param_desc hdfq_params[] = {
	DFQ_PARAM_DESCS
	LOGA_PHASE_PARAM_DESCS(HDFQ_LOGA_PHASE_BASE)
	LOGA_METRIC_PARAM_DESCS(HDFQ_LOGA_METRIC_BASE)
	[HDFQ_P_LOGA] = { "loga", GS_PARAM_BOOL, "false",
	  "account by polling the engine status register (LoGA, with the "
	  "event_T/event_X phases) instead of DFQ's exclusive sampling", 0 },
	[HDFQ_P_NESTED] = { "nested", GS_PARAM_BOOL, "false",
	  "the host schedules each top-level VM as one entity, knowing "
	  "nothing of its tasks; a VM's own scheduler (its `scheduler:`) "
	  "shares the VM's part among them (Fleig 3.4)", 0 },
};
_Static_assert(sizeof(hdfq_params) / sizeof(hdfq_params[0]) == HDFQ_N_PARAMS,
	       "one descriptor per index");

/* loga's parameters in hdfq's table; account_only is dfq's, one switch
 * for both engines. */
static const struct loga_slots hdfq_loga_slots = {
	.event_t = HDFQ_LOGA_PHASE_BASE + LOGA_P_EVENT_T,
	.event_x = HDFQ_LOGA_PHASE_BASE + LOGA_P_EVENT_X,
	.randomize = HDFQ_LOGA_PHASE_BASE + LOGA_P_RANDOMIZE,
	.account_only = DFQ_P_ACCOUNT_ONLY,
	.mean_segment = HDFQ_LOGA_METRIC_BASE + LOGA_P_MEAN_SEGMENT,
};

static struct hdfq *hdfq_of(struct hal_sched *s)
{
	return hal_priv(s);
}

static struct hdfq_entity *entity_of(struct plist *pos)
{
	return plist_entry(pos, struct hdfq_entity, link);
}

/* The tree changed: every entity's vtime weight follows its new share. */
static void reweigh(struct hal_sched *s)
{
	struct hdfq *h = hdfq_of(s);
	struct plist *pos;

	plist_for_each(pos, &h->entities) {
		struct hdfq_entity *e = entity_of(pos);

		vt_task_set_weight_fp(e->vt,
				      vmtree_vt_weight(&h->tree, e->at,
						       e->weight));
	}
}

static struct hdfq_entity *entity_new(struct hal_sched *s, struct hal_task *t,
				      hal_s32 vm, hal_u32 guest,
				      hal_u32 weight)
{
	struct hdfq *h = hdfq_of(s);
	struct hdfq_entity *e = hal_zalloc(s, sizeof(*e));
	/* nested: a VM entity is a child of the host's, unreported */
	hal_u8 vm_entity = h->nested && vm != VMT_ROOT;

	if (!e)
		return 0;
	e->rec = h->run.eng->entity_new(s, h->run.st, t, weight,
					vm != VMT_ROOT, vm_entity);
	if (!e->rec) {
		hal_free(s, e);
		return 0;
	}
	e->vt = h->run.eng->entity_vt(e->rec);
	e->vm = vm;
	e->at = vm_entity ? VMT_ROOT : vm;
	e->guest = guest;
	e->weight = weight;
	plist_init(&e->members);
	plist_add_tail(&h->entities, &e->link);
	vmtree_leaf_add(&h->tree, e->at, weight);
	reweigh(s);
	return e;
}

/* The top-level VM that vm is in (vm itself if it is one). */
static hal_s32 top_vm(struct hal_sched *s, hal_s32 vm)
{
	hal_u32 depth = 0;

	while (vm >= 0 && hal_vm_parent(s, vm) >= 0 &&
	       depth++ < hal_vm_count(s))
		vm = hal_vm_parent(s, vm);
	return vm;
}

/* The entity of a guest's channel: the one with its VM and guest id (for
 * a VM without hints, the VM's only one). */
static struct hdfq_entity *guest_entity(struct hal_sched *s, hal_s32 vm,
					hal_u32 guest)
{
	struct plist *pos;

	plist_for_each(pos, &hdfq_of(s)->entities) {
		struct hdfq_entity *e = entity_of(pos);

		if (e->vm == vm && e->guest == guest)
			return e;
	}
	return 0;
}

static void member_bind(struct hdfq_member *m, struct hdfq_entity *e)
{
	m->e = e;
	plist_add_tail(&e->members, &m->link);
}

/* The entity's last task is gone. */
static void entity_free(struct hal_sched *s, struct hdfq_entity *e)
{
	struct hdfq *h = hdfq_of(s);

	h->run.eng->entity_free(s, h->run.st, e->rec);
	vmtree_leaf_del(&h->tree, e->at, e->weight);
	plist_del(&e->link);
	hal_free(s, e);
	reweigh(s);
}

/* ---- ops ---------------------------------------------------------------- */

static int hdfq_init(struct hal_sched *s)
{
	struct hdfq *h = hdfq_of(s);
	struct dfq *d;

	plist_init(&h->entities);
	h->loga = (hal_u8)hal_param(s, HDFQ_P_LOGA);
	h->nested = (hal_u8)hal_param(s, HDFQ_P_NESTED);
	if (vmtree_init(s, &h->tree) < 0)
		return -1;
	if (h->loga) {
		struct loga *l = acct_run_start(s, &h->run, &loga_acct_engine);

		return l ? loga_init(s, l, &hdfq_loga_slots) : -1;
	}
	d = acct_run_start(s, &h->run, &dfq_acct_engine);
	if (!d || dfq_init(s, d) < 0)
		return -1;
	/* the exclusive samples are GPU time given out equally; charging
	 * them keeps the weighted shares (dfq leaves them out) */
	d->charge_sample = 1;
	return 0;
}

/* The engine's phase in progress, up to now (ops.trace_open). */
static void hdfq_trace_open(struct hal_sched *s)
{
	acct_run_trace_open(s, &hdfq_of(s)->run);
}

static void hdfq_fini(struct hal_sched *s)
{
	struct hdfq *h = hdfq_of(s);

	/* the engine frees its records; members go with their tasks */
	acct_run_stop(s, &h->run);
	while (!plist_empty(&h->entities)) {
		struct hdfq_entity *e = entity_of(h->entities.next);

		while (!plist_empty(&e->members)) {
			struct plist *m = e->members.next;

			plist_del(m);
			plist_entry(m, struct hdfq_member, link)->e = 0;
		}
		plist_del(&e->link);
		hal_free(s, e);
	}
	vmtree_fini(s, &h->tree);
}

static void hdfq_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct hdfq_member *m;

	m = hal_zalloc(s, sizeof(*m));
	if (!m)
		return;
	m->t = t;
	plist_init(&m->link);
	hal_task_set_data(t, m);
	if (hal_task_vm(t) < 0) {
		struct hdfq_entity *e = entity_new(s, t, VMT_ROOT,
						   HAL_GUEST_NONE,
						   hal_task_weight(t));

		if (e)
			member_bind(m, e);
	}
}

static void hdfq_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct hdfq_member *m = hal_task_data(t);
	struct hdfq_entity *e;

	if (!m)
		return;
	e = m->e;
	hal_task_set_data(t, 0);
	if (e) {
		plist_del(&m->link);
		if (plist_empty(&e->members))
			entity_free(s, e);
		else if (hdfq_of(s)->run.eng->reporter(e->rec) == t)
			/* report on a task that is still there */
			hdfq_of(s)->run.eng->set_reporter(
				e->rec, plist_entry(e->members.next,
						    struct hdfq_member,
						    link)->t);
	}
	hal_free(s, m);
}

static void hdfq_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	struct hdfq *h = hdfq_of(s);
	struct hal_task *t = hal_chan_task(c);
	struct hdfq_member *m = hal_task_data(t);

	if (!m)
		return;
	if (!m->e) {
		hal_s32 vm = hal_task_vm(t);
		hal_u32 guest = hal_chan_guest_id(c);
		hal_u32 weight = guest == HAL_GUEST_NONE
					 ? 1 : hal_task_weight(t);
		struct hdfq_entity *e;

		if (h->nested) {
			/* the whole top-level VM, with its weight */
			vm = top_vm(s, vm);
			guest = HAL_GUEST_NONE;
			weight = hal_vm_weight(s, vm);
		}
		e = guest_entity(s, vm, guest);
		if (!e)
			e = entity_new(s, t, vm, guest, weight);
		if (!e)
			return;
		member_bind(m, e);
	}
	h->run.eng->chan_attach(s, h->run.st, m->e->rec, c);
}

/* The rest goes to the engine. */
static void hdfq_channel_destroy(struct hal_sched *s, struct hal_chan *c)
{
	acct_run_channel_destroy(s, &hdfq_of(s)->run, c);
}

static int hdfq_submit(struct hal_sched *s, struct hal_chan *c)
{
	return acct_run_submit(s, &hdfq_of(s)->run, c);
}

static void hdfq_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	acct_run_shadow_submit(s, &hdfq_of(s)->run, c);
}

static void hdfq_timer(struct hal_sched *s, hal_u32 id)
{
	acct_run_timer(s, &hdfq_of(s)->run, id);
}

static void hdfq_poll_change(struct hal_sched *s,
			     const struct hal_engine_status *st, hal_u64 when)
{
	acct_run_poll_change(s, &hdfq_of(s)->run, st, when);
}

static void hdfq_poll_end(struct hal_sched *s)
{
	acct_run_poll_end(s, &hdfq_of(s)->run);
}

const struct gs_policy_ops gs_policy_hdfq = {
	.name = "hdfq",
	.summary = "hierarchical DFQ for VMs (Fleig 3.3): DFQ over a tree of "
		   "host tasks, guest tasks (paravirtual hints) and VMs, with "
		   "weights from the tree; guest tasks held by shadow channels",
	.priority = "ignored (user weights of the VM tree only)",
	.params = hdfq_params,
	.n_params = sizeof(hdfq_params) / sizeof(hdfq_params[0]),
	.priv_size = sizeof(struct hdfq),
	.init = hdfq_init,
	.fini = hdfq_fini,
	.trace_open = hdfq_trace_open,
	.task_create = hdfq_task_create,
	.task_exit = hdfq_task_exit,
	.channel_create = hdfq_channel_create,
	.channel_destroy = hdfq_channel_destroy,
	.submit = hdfq_submit,
	.shadow_submit = hdfq_shadow_submit,
	.timer = hdfq_timer,
	.poll_change = hdfq_poll_change,
	.poll_end = hdfq_poll_end,
};
