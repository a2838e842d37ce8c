// SPDX-License-Identifier: GPL-2.0
/* The kernel HAL, process side: tasks and channels as the driver port
 * reports them, doorbell traps, holding and releasing a faulting thread,
 * shadow queues and killing a task. */
#define pr_fmt(fmt) "gpusim: " fmt

#include <linux/err.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "gs_linux_priv.h"

/* ---- tasks ---------------------------------------------------------------- */

static void gs_task_release(struct kref *ref)
{
	struct hal_task *t = container_of(ref, struct hal_task, ref);

	put_pid(t->pid);
	kfree(t);
	atomic_dec(&gs_linux_live.tasks);
}

void gs_linux_task_put(struct hal_task *t)
{
	kref_put(&t->ref, gs_task_release);
}

struct hal_task *gs_linux_task_create(struct hal_sched *s,
				      const struct gs_linux_task_args *a)
{
	struct task_struct *ts;
	struct hal_task *t;
	int id;

	if (a && (a->gpu >= s->n_gpus || a->vm < -1 ||
		  a->vm >= (s32)READ_ONCE(s->n_vms)))
		return ERR_PTR(-EINVAL);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	id = ida_alloc(&s->task_ids, GFP_KERNEL);
	if (id < 0) {
		kfree(t);
		return ERR_PTR(id);
	}
	atomic_inc(&gs_linux_live.tasks);
	kref_init(&t->ref);
	t->s = s;
	t->id = id;
	INIT_LIST_HEAD(&t->chans);
	init_waitqueue_head(&t->wq);
	t->pid = a && a->pid ? get_pid(a->pid) :
		 get_task_pid(current, PIDTYPE_TGID);
	t->weight = a && a->weight ? a->weight : 1;
	t->priority = a && a->priority < HAL_PRIO_COUNT ? a->priority
							: HAL_PRIO_NORMAL;
	t->vm = a ? a->vm : -1;
	t->gpu = a ? a->gpu : 0;
	ts = get_pid_task(t->pid, PIDTYPE_TGID);
	if (ts) {
		get_task_comm(t->name, ts);
		put_task_struct(ts);
	}

	mutex_lock(&s->lock);
	list_add_tail(&t->node, &s->tasks);
	if (s->ops->task_create)
		s->ops->task_create(s, t);
	mutex_unlock(&s->lock);
	return t;
}
EXPORT_SYMBOL_GPL(gs_linux_task_create);

void gs_linux_task_exit(struct hal_task *t)
{
	struct hal_sched *s = t->s;
	struct hal_chan *c, *n;

	/* A port that forgot a channel: tear it down rather than leak it. */
	list_for_each_entry_safe(c, n, &t->chans, node) {
		WARN_ONCE(1, "gpusim: task %u exits with channel %u open\n",
			  t->id, c->id);
		gs_linux_chan_destroy(c);
	}
	mutex_lock(&s->lock);
	if (s->ops->task_exit)
		s->ops->task_exit(s, t);
	list_del(&t->node);
	WRITE_ONCE(t->exited, true);
	WRITE_ONCE(t->held, false);
	mutex_unlock(&s->lock);
	wake_up_all(&t->wq);
	ida_free(&s->task_ids, t->id);
	gs_linux_task_put(t); /* a thread still in a fault holds its own ref */
}
EXPORT_SYMBOL_GPL(gs_linux_task_exit);

hal_u32 hal_task_id(const struct hal_task *t)
{
	return t->id;
}

const char *hal_task_name(const struct hal_task *t)
{
	return t->name;
}

hal_u32 hal_task_weight(const struct hal_task *t)
{
	return t->weight;
}

hal_u32 hal_task_priority(const struct hal_task *t)
{
	return t->priority;
}

hal_s32 hal_task_vm(const struct hal_task *t)
{
	return t->vm;
}

hal_u32 hal_task_gpu(const struct hal_task *t)
{
	return t->gpu;
}

void *hal_task_data(const struct hal_task *t)
{
	return t->data;
}

void hal_task_set_data(struct hal_task *t, void *data)
{
	t->data = data;
}

/* ---- channels --------------------------------------------------------------- */

struct hal_chan *gs_linux_chan_create(struct hal_task *t,
				      const struct gs_linux_chan_args *a)
{
	struct hal_sched *s = t->s;
	struct hal_chan *c;
	int err;

	if (a->gpu >= s->n_gpus || a->chid > GS_MAX_CHID || !a->fence ||
	    !a->gp_put == !a->gp_put_io || !a->ring_entries)
		return ERR_PTR(-EINVAL);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	atomic_inc(&gs_linux_live.chans);
	c->t = t;
	c->id = a->chid;
	c->gpu = a->gpu;
	c->guest_id = a->guest_id;
	c->port_chan = a->port_chan;
	c->fence = a->fence;
	c->gp_put = a->gp_put;
	c->gp_put_io = a->gp_put_io;
	c->ring_entries = a->ring_entries;
	/* Counts start at zero: nothing is outstanding at creation. */
	c->fence_last = READ_ONCE(*a->fence);
	c->put_last = gs_linux_read_put(c);

	mutex_lock(&s->lock);
	err = xa_insert(&s->chans, gs_chan_key(c->gpu, c->id), c, GFP_KERNEL);
	if (!err) {
		list_add_tail(&c->node, &t->chans);
		if (s->ops->channel_create)
			s->ops->channel_create(s, c);
	}
	mutex_unlock(&s->lock);
	if (err) {
		kfree(c);
		atomic_dec(&gs_linux_live.chans);
		return ERR_PTR(err);
	}
	return c;
}
EXPORT_SYMBOL_GPL(gs_linux_chan_create);

/* Whatever sits in a shadow queue is dropped: the channel is going away. */
void gs_linux_chan_destroy(struct hal_chan *c)
{
	struct hal_sched *s = c->t->s;

	mutex_lock(&s->lock);
	if (s->ops->channel_destroy)
		s->ops->channel_destroy(s, c);
	xa_erase(&s->chans, gs_chan_key(c->gpu, c->id));
	list_del(&c->node);
	atomic_sub(c->shq_len, &gs_linux_live.queued);
	mutex_unlock(&s->lock);
	kfree(c);
	atomic_dec(&gs_linux_live.chans);
}
EXPORT_SYMBOL_GPL(gs_linux_chan_destroy);

void gs_linux_fence_signal(struct hal_chan *c, u32 n)
{
	struct hal_sched *s = c->t->s;

	mutex_lock(&s->lock);
	if (s->ops->fence_signal && n)
		s->ops->fence_signal(s, c, n);
	mutex_unlock(&s->lock);
}
EXPORT_SYMBOL_GPL(gs_linux_fence_signal);

struct hal_task *hal_chan_task(const struct hal_chan *c)
{
	return c->t;
}

hal_u32 hal_chan_id(const struct hal_chan *c)
{
	return c->id;
}

hal_u32 hal_chan_gpu(const struct hal_chan *c)
{
	return c->gpu;
}

hal_u32 hal_chan_guest_id(const struct hal_chan *c)
{
	return c->guest_id;
}

void *hal_chan_data(const struct hal_chan *c)
{
	return c->data;
}

void hal_chan_set_data(struct hal_chan *c, void *data)
{
	c->data = data;
}

struct hal_chan *hal_chan_lookup(struct hal_sched *s, hal_u32 gpu, hal_u32 id)
{
	if (gpu >= s->n_gpus || id > GS_MAX_CHID)
		return NULL;
	return xa_load(&s->chans, gs_chan_key(gpu, id));
}

/* ---- doorbell traps, hold and release --------------------------------------- */

/* The page stays protected while either the trap or the shadow queue
 * needs to see the writes. */
static void gs_chan_protect(struct hal_sched *s, struct hal_chan *c,
			    bool was)
{
	bool now = c->trapped || c->shadow;

	if (now != was)
		s->gpus[c->gpu].ops->doorbell_protect(c->port_chan, now);
}

void hal_trap_arm(struct hal_sched *s, struct hal_chan *c)
{
	bool was = c->trapped || c->shadow;

	WRITE_ONCE(c->trapped, true);
	gs_chan_protect(s, c, was);
}

void hal_trap_disarm(struct hal_sched *s, struct hal_chan *c)
{
	bool was = c->trapped || c->shadow;

	WRITE_ONCE(c->trapped, false);
	gs_chan_protect(s, c, was);
}

bool gs_linux_chan_trapped(const struct hal_chan *c)
{
	return READ_ONCE(c->trapped) || READ_ONCE(c->shadow);
}
EXPORT_SYMBOL_GPL(gs_linux_chan_trapped);

void hal_task_release(struct hal_sched *s, struct hal_task *t)
{
	if (!t->held)
		return;
	WRITE_ONCE(t->held, false);
	wake_up_all(&t->wq);
}

int hal_task_held(const struct hal_task *t)
{
	return READ_ONCE(t->held);
}

static void gs_shadow_push(struct hal_chan *c, u32 put)
{
	/* Full: a later GP_PUT covers the earlier ones, so the newest slot
	 * is overwritten (pending then counts one less submission). */
	if (c->shq_len == GS_SHADOW_SLOTS) {
		c->shq[(c->shq_head + c->shq_len - 1) % GS_SHADOW_SLOTS] = put;
	} else {
		c->shq[(c->shq_head + c->shq_len++) % GS_SHADOW_SLOTS] = put;
		atomic_inc(&gs_linux_live.queued);
	}
}

enum gs_linux_doorbell gs_linux_doorbell_fault(struct hal_chan *c, u32 put)
{
	struct hal_task *t = c->t;
	struct hal_sched *s = t->s;
	int verdict = GS_SUBMIT_ALLOW;
	bool killed;

	mutex_lock(&s->lock);
	if (t->killed || t->exited) {
		mutex_unlock(&s->lock);
		return GS_LINUX_DB_KILLED;
	}
	if (c->shadow) {
		gs_shadow_push(c, put);
		s->stats.shadow_queued++;
		if (s->ops->shadow_submit)
			s->ops->shadow_submit(s, c);
		mutex_unlock(&s->lock);
		return GS_LINUX_DB_QUEUED;
	}
	if (c->trapped) {
		s->stats.traps++;
		if (s->ops->submit)
			verdict = s->ops->submit(s, c);
	}
	if (verdict == GS_SUBMIT_HOLD) {
		s->stats.holds++;
		WRITE_ONCE(t->held, true);
		kref_get(&t->ref); /* t outlives a task_exit while we sleep */
	}
	mutex_unlock(&s->lock);
	if (verdict != GS_SUBMIT_HOLD)
		return GS_LINUX_DB_WRITE;

	/* Killable: a held task must still die when hal_task_kill (or the
	 * user) sends SIGKILL. */
	atomic_inc(&gs_linux_live.held);
	killed = wait_event_killable(t->wq, !READ_ONCE(t->held) ||
				     READ_ONCE(t->killed) ||
				     READ_ONCE(t->exited)) != 0;
	atomic_dec(&gs_linux_live.held);
	killed |= READ_ONCE(t->killed) || READ_ONCE(t->exited);
	gs_linux_task_put(t);
	return killed ? GS_LINUX_DB_KILLED : GS_LINUX_DB_WRITE;
}
EXPORT_SYMBOL_GPL(gs_linux_doorbell_fault);

/* ---- shadow queues --------------------------------------------------------- */

void hal_shadow_enable(struct hal_sched *s, struct hal_chan *c)
{
	bool was = c->trapped || c->shadow;

	/* Without a way to publish GP_PUT later, queued work would be lost. */
	if (!s->gpus[c->gpu].ops->doorbell_write) {
		pr_warn_once("%s: shadow queues need hw_ops->doorbell_write\n",
			     s->ops->name);
		return;
	}
	WRITE_ONCE(c->shadow, true);
	gs_chan_protect(s, c, was);
}

void hal_shadow_forward(struct hal_sched *s, struct hal_chan *c, hal_u32 n)
{
	u32 last;

	if (n > c->shq_len)
		n = c->shq_len;
	if (!n)
		return;
	last = c->shq[(c->shq_head + n - 1) % GS_SHADOW_SLOTS];
	c->shq_head = (c->shq_head + n) % GS_SHADOW_SLOTS;
	c->shq_len -= n;
	atomic_sub(n, &gs_linux_live.queued);
	s->stats.shadow_forwarded += n;
	/* Publishing the newest forwarded GP_PUT publishes all before it. */
	s->gpus[c->gpu].ops->doorbell_write(c->port_chan, last);
}

void hal_shadow_disable(struct hal_sched *s, struct hal_chan *c)
{
	bool was = c->trapped || c->shadow;

	if (!c->shadow)
		return;
	hal_shadow_forward(s, c, c->shq_len);
	WRITE_ONCE(c->shadow, false);
	gs_chan_protect(s, c, was);
}

hal_u32 hal_shadow_pending(struct hal_sched *s, struct hal_chan *c)
{
	return c->shq_len;
}

/* The kernel cannot know a queued command's engine time. */
hal_u64 hal_shadow_peek_hint(struct hal_sched *s, struct hal_chan *c)
{
	return 0;
}

/* No class without a driver hook: a port would classify the oldest queued
 * command from its pushbuffer (GERM's heuristics). Class 0 makes a policy
 * keep one running average per task. */
hal_u32 hal_shadow_peek_class(struct hal_sched *s, struct hal_chan *c)
{
	return 0;
}

/* Kernel launch geometry is in the pushbuffer's launch descriptor, which
 * no port decodes yet: unknown. */
hal_u32 hal_shadow_peek_occupancy(struct hal_sched *s, struct hal_chan *c)
{
	return 0;
}

/* A group's texture bytes, swaps and vertices are known to the user-level
 * driver (GERM 4.7.1 passes them down with the group); no port decodes
 * them yet: unknown, and a policy falls back to its class averages. */
int hal_shadow_peek_content(struct hal_sched *s, struct hal_chan *c,
			    struct hal_cmd_content *out)
{
	*out = (struct hal_cmd_content){ 0 };
	return 0;
}

/* The kernel does not know a command's true length to compare with. */
void hal_note_estimate(struct hal_sched *s, struct hal_chan *c,
		       hal_u32 kind, hal_u64 est)
{
}

/* Nothing to compare a demand estimate with in the kernel. */
void hal_note_demand(struct hal_sched *s, struct hal_task *t,
		     hal_u32 demand_pm)
{
}

/* ---- killing --------------------------------------------------------------- */

/* SIGKILL to the whole process. Its channels are torn down by the
 * driver's normal exit path (release() -> gs_linux_chan_destroy and
 * gs_linux_task_exit); a thread held at a doorbell wakes up at once. */
void hal_task_kill(struct hal_sched *s, struct hal_task *t, const char *why)
{
	if (t->killed)
		return;
	pr_warn("%s: killing task %u (%s, pid %d): %s\n", s->ops->name, t->id,
		t->name, pid_nr(t->pid), why);
	WRITE_ONCE(t->killed, true);
	s->stats.kills++;
	kill_pid(t->pid, SIGKILL, 1);
	wake_up_all(&t->wq);
}
