/* policies/hal.h in the simulator (see hal_sim.c): the policy's view of
 * tasks, channels and the VM tree, submission control (traps, holds,
 * shadow queues), killing tasks and the node-level services. */
#include <glib.h>
#include <math.h>

#include "sim/host/policy_call.h"
#include "sim/host/record_hal.h"
#include "sim/host/sim_internal.h"

/* ---- tasks and channels ------------------------------------------------ */

/* The handle of host channel handle hc at instance s's level, or NULL
 * when s does not schedule its task (another VM's channel). */
static struct hal_chan *gs_hal_chan_at(struct hal_sched *s,
				       struct hal_chan *hc)
{
	const struct gs_task *t;
	uint32_t k, chan;

	if (!hc || s == &s->sim->sched)
		return hc;
	t = hc->task;
	chan = (uint32_t)(hc - t->chans);
	for (k = 0; k < t->n_levels; k++)
		if (gs_task_level_of(t, k).s == s)
			return &gs_task_level_of(t, k).chans[chan];
	return NULL;
}

/* A query about task t of instance t->s, recorded with its answer. */
static hal_u64 task_query(const struct hal_task *t, const char *name,
			  char okind, hal_u64 v)
{
	char ok[2] = { okind, 0 };

	GS_REC(t->s, name, "t", GS_RV(gs_hal_rec_task(t)), ok, GS_RV(v));
	return v;
}

static hal_u64 chan_query(const struct hal_chan *c, const char *name,
			  char okind, hal_u64 v)
{
	char ok[2] = { okind, 0 };

	GS_REC(c->owner->s, name, "c", GS_RV(gs_hal_rec_chan(c)), ok,
	       GS_RV(v));
	return v;
}

hal_u32 hal_task_id(const struct hal_task *t)
{
	return (hal_u32)task_query(t, "hal_task_id", 'u', gs_task_index(t->task));
}

const char *hal_task_name(const struct hal_task *t)
{
	task_query(t, "hal_task_name", 's', (uintptr_t)t->task->name);
	return t->task->name;
}

hal_u32 hal_task_weight(const struct hal_task *t)
{
	return (hal_u32)task_query(t, "hal_task_weight", 'u',
				   t->task->cfg->weight);
}

hal_u32 hal_task_priority(const struct hal_task *t)
{
	return (hal_u32)task_query(t, "hal_task_priority", 'u',
				   t->task->cfg->priority);
}
/* A VM index as instance s sees it: its own VM is where its tasks are
 * (-1, the "host" of a guest kernel), the VMs below it numbered from 0. */
static hal_s32 vm_view(const struct hal_sched *s, int32_t vm)
{
	return vm == s->vm ? -1 : vm - (s->vm + 1);
}

hal_s32 hal_task_vm(const struct hal_task *t)
{
	return (hal_s32)task_query(t, "hal_task_vm", 'i',
				   (hal_u64)vm_view(t->s, t->task->cfg->vm));
}

hal_u32 hal_task_gpu(const struct hal_task *t)
{
	return (hal_u32)task_query(t, "hal_task_gpu", 'u', t->task->gpu);
}

void *hal_task_data(const struct hal_task *t) { return t->data; }
void hal_task_set_data(struct hal_task *t, void *data) { t->data = data; }
struct hal_task *hal_chan_task(const struct hal_chan *c)
{
	GS_REC(c->owner->s, "hal_chan_task", "c", GS_RV(gs_hal_rec_chan(c)),
	       "t", GS_RV(gs_hal_rec_task(c->owner)));
	return c->owner;
}

hal_u32 hal_chan_id(const struct hal_chan *c)
{
	return (hal_u32)chan_query(c, "hal_chan_id", 'u', c->ch->id);
}

hal_u32 hal_chan_gpu(const struct hal_chan *c)
{
	return (hal_u32)chan_query(c, "hal_chan_gpu", 'u', c->ch->gpu->index);
}

void *hal_chan_data(const struct hal_chan *c) { return c->data; }
void hal_chan_set_data(struct hal_chan *c, void *data) { c->data = data; }

struct hal_chan *hal_chan_lookup(struct hal_sched *s, hal_u32 gpu, hal_u32 id)
{
	struct gs_sim *sim = s->sim;
	struct hal_chan *c = NULL;
	struct gs_channel *ch;

	if (gpu < sim->n_gpus && id < sim->gpus[gpu]->cfg.max_channels) {
		ch = &sim->gpus[gpu]->channels[id];
		c = ch->open ? gs_hal_chan_at(s, ch->owner) : NULL;
	}
	GS_REC(s, "hal_chan_lookup", "uu", GS_RV(gpu, id), "c",
	       GS_RV(gs_hal_rec_chan(c)));
	return c;
}

/* Guest task ids: what a VM's guest driver would pass at channel
 * allocation. The simulator uses the task's index + 1, unique in the VM
 * and constant, as the thesis's guest pid. */
hal_u32 hal_chan_guest_id(const struct hal_chan *c)
{
	int32_t vm = c->task->cfg->vm;

	/* a VM's own scheduler knows its processes: no hints needed */
	hal_u32 id = vm == c->owner->s->vm || !c->task->sim->sc->vms[vm].hints
			     ? HAL_GUEST_NONE : gs_task_index(c->task) + 1;

	return (hal_u32)chan_query(c, "hal_chan_guest_id", 'u', id);
}

static hal_u32 vm_count(const struct hal_sched *s)
{
	return s->vm_end - (uint32_t)(s->vm + 1);
}

hal_u32 hal_vm_count(struct hal_sched *s)
{
	GS_REC(s, "hal_vm_count", NULL, NULL, "u", GS_RV(vm_count(s)));
	return vm_count(s);
}

/* VM `vm` of s's view as a scenario VM index, or -1 if out of range. */
static int32_t vm_global(const struct hal_sched *s, hal_s32 vm)
{
	return vm >= 0 && (hal_u32)vm < vm_count(s)
		       ? vm + s->vm + 1 : -1;
}

hal_s32 hal_vm_parent(struct hal_sched *s, hal_s32 vm)
{
	int32_t g = vm_global(s, vm);
	hal_s32 p = g < 0 ? -1 : vm_view(s, s->sim->sc->vms[g].parent);

	GS_REC(s, "hal_vm_parent", "i", GS_RV((hal_u64)vm), "i",
	       GS_RV((hal_u64)p));
	return p;
}

hal_u32 hal_vm_weight(struct hal_sched *s, hal_s32 vm)
{
	int32_t g = vm_global(s, vm);
	hal_u32 w = g < 0 ? 1 : s->sim->sc->vms[g].weight;

	GS_REC(s, "hal_vm_weight", "i", GS_RV((hal_u64)vm), "u", GS_RV(w));
	return w;
}

/* ---- submission control ------------------------------------------------ */

void hal_trap_arm(struct hal_sched *s, struct hal_chan *c)
{
	GS_REC(s, "hal_trap_arm", "c", GS_RV(gs_hal_rec_chan(c)), NULL, NULL);
	c->trap_armed = true;
}

void hal_trap_disarm(struct hal_sched *s, struct hal_chan *c)
{
	GS_REC(s, "hal_trap_disarm", "c", GS_RV(gs_hal_rec_chan(c)), NULL,
	       NULL);
	c->trap_armed = false;
}

/* Held by this handle's level (another level's hold is not its own). */
static int task_held(const struct hal_task *t)
{
	return t->task->state == GS_TASK_HELD &&
	       t->task->held_level == t->level;
}

int hal_task_held(const struct hal_task *t)
{
	return (int)task_query(t, "hal_task_held", 'u',
			       (hal_u64)task_held(t));
}

void hal_task_release(struct hal_sched *s, struct hal_task *t)
{
	GS_REC(s, "hal_task_release", "t", GS_RV(gs_hal_rec_task(t)), NULL,
	       NULL);
	if (task_held(t))
		gs_task_release(t->task);
}

/* Switching a VM task's channel to or from its shadow copies its control
 * registers and remaps it: the VM's `shadow_copy`, policy CPU time. A
 * host task's software queue (GERM) costs nothing to switch. */
static void charge_shadow_switch(struct hal_sched *s, struct hal_chan *c)
{
	int32_t vm = c->task->cfg->vm;

	if (vm >= 0)
		gs_policy_charge(s, s->sim->sc->vms[vm].shadow_copy);
}

void hal_shadow_enable(struct hal_sched *s, struct hal_chan *c)
{
	GS_REC(s, "hal_shadow_enable", "c", GS_RV(gs_hal_rec_chan(c)), NULL,
	       NULL);
	if (!c->shadow) {
		charge_shadow_switch(s, c);
		gs_hal_chan_rare(c)->shadow_since = s->sim->q.now;
	}
	c->shadow = true;
}

void hal_shadow_disable(struct hal_sched *s, struct hal_chan *c)
{
	GS_REC(s, "hal_shadow_disable", "c", GS_RV(gs_hal_rec_chan(c)), NULL,
	       NULL);
	if (c->shadow) {
		charge_shadow_switch(s, c);
		if (s == &s->sim->sched)
			c->task->host_shadowed_ns += s->sim->q.now -
						     c->rare->shadow_since;
	}
	c->shadow = false;
	gs_task_forward(c, gs_hal_chan_queued(c));
}

hal_u32 hal_shadow_pending(struct hal_sched *s, struct hal_chan *c)
{
	GS_REC(s, "hal_shadow_pending", "c", GS_RV(gs_hal_rec_chan(c)), "u",
	       GS_RV(gs_hal_chan_queued(c)));
	return gs_hal_chan_queued(c);
}

/* The oldest command of c's level's queue: the outer levels' queues hold
 * older ones (unpublished commands are in order, outermost first). */
static const struct gs_cmd *shadow_head(const struct hal_chan *c)
{
	const struct gs_task *t = c->task;
	/* released past the credit limit: older than any queue's */
	uint32_t k, before = gs_chan_credit_held(c->ch), chan;

	if (!gs_hal_chan_queued(c))
		return NULL;
	chan = (uint32_t)(c - gs_task_level_of(t, c->owner->level).chans);
	for (k = c->owner->level + 1; k < t->n_levels; k++)
		before += gs_hal_chan_queued(&gs_task_level_of(t, k).chans[chan]);
	return gs_chan_unpublished_at(c->ch, before);
}

hal_u64 hal_shadow_peek_hint(struct hal_sched *s, struct hal_chan *c)
{
	const struct gs_cmd *head = shadow_head(c);
	hal_u64 v = head ? head->duration : 0;

	GS_REC(s, "hal_shadow_peek_hint", "c", GS_RV(gs_hal_rec_chan(c)), "u",
	       GS_RV(v));
	return v;
}

hal_u32 hal_shadow_peek_class(struct hal_sched *s, struct hal_chan *c)
{
	const struct gs_cmd *head = shadow_head(c);
	hal_u32 v = head ? head->cls : 0;

	GS_REC(s, "hal_shadow_peek_class", "c", GS_RV(gs_hal_rec_chan(c)),
	       "u", GS_RV(v));
	return v;
}

int hal_shadow_peek_content(struct hal_sched *s, struct hal_chan *c,
			    struct hal_cmd_content *out)
{
	const struct gs_cmd *head = shadow_head(c);

	*out = (struct hal_cmd_content){ 0 };
	if (head) {
		out->texture_bytes = head->content.texture_bytes;
		out->swaps = head->content.swaps;
		out->vertices = head->content.vertices;
		out->cmd_bytes = head->content.cmd_bytes;
	}
	GS_REC(s, "hal_shadow_peek_content", "c", GS_RV(gs_hal_rec_chan(c)),
	       "uuuuu", GS_RV(head != NULL, out->texture_bytes, out->swaps,
			      out->vertices, out->cmd_bytes));
	return head != NULL;
}

/* The relative error of the estimate against the queued command's true
 * engine time, gathered per kind for the run's metrics. */
void hal_note_estimate(struct hal_sched *s, struct hal_chan *c,
		       hal_u32 kind, hal_u64 est)
{
	const struct gs_cmd *head = shadow_head(c);
	struct gs_estimate_stats *st;
	double err;

	GS_REC(s, "hal_note_estimate", "cuu",
	       GS_RV(gs_hal_rec_chan(c), kind, est), NULL, NULL);
	if (!head || !head->duration || kind >= HAL_EST_KINDS)
		return;
	st = &s->sim->estimates[kind];
	err = fabs((double)est - (double)head->duration) /
	      (double)head->duration;
	st->n++;
	st->sum_error += err;
	if (err > st->max_error)
		st->max_error = err;
}

hal_u32 hal_shadow_peek_occupancy(struct hal_sched *s, struct hal_chan *c)
{
	hal_u32 v = !shadow_head(c) ? 0
		    : c->ch->occupancy_pm ? c->ch->occupancy_pm : 1000;

	GS_REC(s, "hal_shadow_peek_occupancy", "c", GS_RV(gs_hal_rec_chan(c)),
	       "u", GS_RV(v));
	return v;
}

/* Forwarding a VM task's shadowed commands is one write of IB_PUT to the
 * real channel for all of them (Fleig 4.3.2: "copy IB_PUT to the GPU",
 * or on a partial forward "only increases IB_PUT on the GPU by the number
 * of kernels permitted"): one `host.doorbell` MMIO write, policy CPU
 * time. The fake resubmission of each command through the tracking
 * callbacks (same section) is the policy's own shadow_submit/submit call,
 * whose cost the thesis does not give. A host task's software queue
 * (GERM's, DCUDA's library) is charged nothing here, as before. */
void hal_shadow_forward(struct hal_sched *s, struct hal_chan *c, hal_u32 n)
{
	GS_REC(s, "hal_shadow_forward", "cu", GS_RV(gs_hal_rec_chan(c), n),
	       NULL, NULL);
	if (c->task->cfg->vm >= 0 && n && gs_hal_chan_queued(c))
		gs_policy_charge(s, s->sim->sc->host.doorbell);
	gs_task_forward(c, n);
}

/* ---- acting on tasks --------------------------------------------------- */

void hal_task_kill(struct hal_sched *s, struct hal_task *t, const char *why)
{
	GS_REC(s, "hal_task_kill", "ts",
	       GS_RV(gs_hal_rec_task(t), (uintptr_t)why), NULL, NULL);
	/* a task in a VM below the caller: the VM decides (vm_kill.c) */
	gs_vm_kill_task(s, t->task, why);
}

/* ---- node-level services ----------------------------------------------- */

hal_u32 hal_gpu_count(struct hal_sched *s)
{
	GS_REC(s, "hal_gpu_count", NULL, NULL, "u", GS_RV(s->sim->n_gpus));
	return s->sim->n_gpus;
}

/* kernels sharing the cores: time any of them ran, as the GPU's
 * utilisation counter (nvidia-smi) reports it */
static hal_u64 compute_busy(struct hal_sched *s, hal_u32 gpu)
{
	return gs_gpu_compute_active_now(s->sim->gpus[gpu]);
}

hal_u64 hal_gpu_busy_ns(struct hal_sched *s, hal_u32 gpu)
{
	hal_u64 v = compute_busy(s, gpu);

	GS_REC(s, "hal_gpu_busy_ns", "u", GS_RV(gpu), "u", GS_RV(v));
	return v;
}

hal_u64 hal_engine_busy_ns(struct hal_sched *s, hal_u32 gpu, hal_u32 engine)
{
	const struct gs_gpu *g = s->sim->gpus[gpu];
	hal_u64 v = 0;

	if (engine == HAL_ENGINE_COMPUTE)
		v = compute_busy(s, gpu);
	else if (engine == HAL_ENGINE_COPY && g->cfg.copy_engine)
		v = gs_engine_busy_now(&g->engines[GS_ENGINE_COPY]);
	GS_REC(s, "hal_engine_busy_ns", "uu", GS_RV(gpu, engine), "u",
	       GS_RV(v));
	return v;
}

static int task_migrate(struct hal_sched *s, struct hal_task *t, hal_u32 gpu)
{
	struct gs_task *task = t->task;

	/* a VM's scheduler cannot move its tasks off the VM's GPU */
	if (s->vm >= 0 || gpu >= s->sim->n_gpus ||
	    task->state == GS_TASK_DONE ||
	    task->state == GS_TASK_KILLED)
		return -1;
	if (!task->channels_open && !task->resident) {
		/* from task_create: placement, free */
		task->gpu = gpu;
		return 0;
	}
	/* host.c moves it at its next launch with nothing outstanding */
	/* several GPUs: the node is reported, gs_task_node is there */
	gs_task_node(task)->migrate_to = gpu == task->gpu ? GS_GPU_AUTO : gpu;
	return 0;
}

int hal_task_migrate(struct hal_sched *s, struct hal_task *t, hal_u32 gpu)
{
	int rc = task_migrate(s, t, gpu);

	GS_REC(s, "hal_task_migrate", "tu", GS_RV(gs_hal_rec_task(t), gpu),
	       "i", GS_RV((hal_u64)(int64_t)rc));
	return rc;
}

hal_u64 hal_task_sync_ns(struct hal_sched *s, const struct hal_task *t)
{
	hal_u64 v = gs_task_sync_now(t->task);

	GS_REC(s, "hal_task_sync_ns", "t", GS_RV(gs_hal_rec_task(t)), "u",
	       GS_RV(v));
	return v;
}

hal_u64 hal_gpu_memory(struct hal_sched *s, hal_u32 gpu)
{
	GS_REC(s, "hal_gpu_memory", "u", GS_RV(gpu), "u",
	       GS_RV(s->sim->sc->gpu_memory));
	return s->sim->sc->gpu_memory;
}

hal_u64 hal_task_memory(struct hal_sched *s, const struct hal_task *t)
{
	GS_REC(s, "hal_task_memory", "t", GS_RV(gs_hal_rec_task(t)), "u",
	       GS_RV(t->task->cfg->memory_bytes));
	return t->task->cfg->memory_bytes;
}
