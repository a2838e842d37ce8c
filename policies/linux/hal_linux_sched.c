// SPDX-License-Identifier: GPL-2.0
/* The kernel HAL, instance side: creating and destroying a policy
 * instance, the mutex that serialises it, timers, memory, parameters and
 * the reporting calls (which have no results writer here: they feed the
 * debugfs counters and pr_debug). */
#define pr_fmt(fmt) "gpusim: " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/version.h>

#include "gs_linux_priv.h"

/* ---- time and timers ---------------------------------------------------- */

/* CLOCK_MONOTONIC, the clock the hrtimers below run on. */
hal_u64 hal_now(struct hal_sched *s)
{
	return ktime_get_ns();
}

/* Hard-irq context: never call into the policy here, only mark the timer
 * and let the instance's workqueue deliver it under the mutex. */
static enum hrtimer_restart gs_timer_fn(struct hrtimer *hr)
{
	struct hal_timer_slot *ts = container_of(hr, struct hal_timer_slot, hr);
	struct hal_sched *s = ts->s;

	atomic_dec(&gs_linux_live.timers);
	set_bit(ts - s->timers, &s->timer_fired);
	queue_work(s->wq, &s->timer_work);
	return HRTIMER_NORESTART;
}

/* Arming and cancelling happen under the mutex and clear the fired bit
 * after hrtimer_cancel(), so an expiry that raced with a re-arm or a
 * cancel is never delivered. Ids that expired together run in id order. */
static void gs_timer_work(struct work_struct *w)
{
	struct hal_sched *s = container_of(w, struct hal_sched, timer_work);
	u32 id;

	mutex_lock(&s->lock);
	for (id = 0; id < HAL_MAX_TIMERS && !s->dying; id++) {
		if (!test_and_clear_bit(id, &s->timer_fired))
			continue;
		s->stats.timer_fires++;
		if (s->ops->timer)
			s->ops->timer(s, id);
	}
	mutex_unlock(&s->lock);
}

/* hrtimer_cancel() is 1 when it took the timer off the queue before it
 * expired: then gs_timer_fn will not run and count it out. */
static void gs_timer_stop(struct hal_sched *s, u32 id)
{
	if (hrtimer_cancel(&s->timers[id].hr))
		atomic_dec(&gs_linux_live.timers);
}

static void gs_timer_setup(struct hrtimer *hr)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(hr, gs_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
#else
	hrtimer_init(hr, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hr->function = gs_timer_fn;
#endif
}

void hal_timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when)
{
	if (WARN_ON_ONCE(id >= HAL_MAX_TIMERS))
		return;
	gs_timer_stop(s, id);
	clear_bit(id, &s->timer_fired);
	if (when > KTIME_MAX)
		when = KTIME_MAX;
	/* A time in the past expires at once, as the HAL promises. */
	atomic_inc(&gs_linux_live.timers);
	hrtimer_start(&s->timers[id].hr, ns_to_ktime(when), HRTIMER_MODE_ABS);
}

void hal_timer_cancel(struct hal_sched *s, hal_u32 id)
{
	if (WARN_ON_ONCE(id >= HAL_MAX_TIMERS))
		return;
	gs_timer_stop(s, id);
	clear_bit(id, &s->timer_fired);
}

/* ---- memory, private state, parameters ---------------------------------- */

/* Policy calls run in process context under a mutex, so allocations may
 * sleep; kvzalloc lets a large table fall back to vmalloc. */
void *hal_zalloc(struct hal_sched *s, hal_u64 size)
{
	void *p;

	if (size > INT_MAX)
		return NULL;
	p = kvzalloc(size, GFP_KERNEL);
	if (p)
		atomic_inc(&gs_linux_live.blocks);
	return p;
}

void hal_free(struct hal_sched *s, void *p)
{
	if (p)
		atomic_dec(&gs_linux_live.blocks);
	kvfree(p);
}

void *hal_priv(struct hal_sched *s)
{
	return s->priv;
}

hal_u64 hal_param(struct hal_sched *s, hal_u32 idx)
{
	if (HAL_WARN_ON(s, idx >= s->ops->n_params))
		return 0;
	return s->params[idx];
}

/* ---- reporting ------------------------------------------------------------ */

void hal_account(struct hal_sched *s, struct hal_task *t, hal_u64 gpu_ns)
{
	t->accounted_ns += gpu_ns;
}

void hal_set_vtime(struct hal_sched *s, struct hal_task *t, hal_u64 vtime)
{
	t->vtime = vtime;
}

/* No tracepoint: a count in debugfs and a dynamic-debug line. */
void hal_trace_phase(struct hal_sched *s, const char *name, hal_u64 start,
		     hal_u64 end)
{
	s->stats.phases++;
	pr_debug("%s: phase %s %llu..%llu ns\n", s->ops->name, name, start, end);
}

/* The kernel's CPU time is real and shows in the threads' own times; what
 * a policy adds by hand is kept as a counter. */
void hal_cpu_charge(struct hal_sched *s, hal_u64 ns)
{
	s->stats.cpu_charge_ns += ns;
}

/* Reached once per call site (HAL_WARN_ON in hal_impl.h keeps the
 * kernel's once-flag): WARN_ON_ONCE's report, with the policy named. */
void hal_warn(struct hal_sched *s, const char *file, int line,
	      const char *cond)
{
	s->stats.warnings++;
	WARN(1, "gpusim: %s: %s:%d: WARN_ON(%s)\n", s->ops->name, file, line,
	     cond);
}

void hal_log(struct hal_sched *s, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_debug("%s: %pV\n", s->ops->name, &vaf);
	va_end(args);
}

hal_u64 hal_random(struct hal_sched *s)
{
	return get_random_u64();
}

/* ---- instances -------------------------------------------------------------- */

static int gs_check_gpus(const struct gs_linux_sched_args *a)
{
	u32 i;

	if (!a->gpus || !a->n_gpus || a->n_gpus > GS_LINUX_MAX_GPUS)
		return -EINVAL;
	for (i = 0; i < a->n_gpus; i++)
		if (!a->gpus[i].bar0 || !a->gpus[i].ops ||
		    !a->gpus[i].ops->doorbell_protect)
			return -EINVAL;
	return 0;
}

static void gs_sched_free(struct hal_sched *s)
{
	if (s->poll_thread)
		gs_linux_poll_fini(s);
	if (s->wq)
		destroy_workqueue(s->wq);
	if (s->slot >= 0)
		gs_linux_instance_remove(s);
	xa_destroy(&s->chans);
	ida_destroy(&s->task_ids);
	kfree(s->priv);
	kfree(s);
	atomic_dec(&gs_linux_live.instances);
}

struct hal_sched *gs_linux_sched_create(const struct gs_linux_sched_args *a)
{
	const char *name = a->policy ? a->policy : gs_linux_default_policy();
	const struct gs_policy_ops *ops = gs_policy_find(name);
	const char *params;
	struct hal_sched *s;
	u32 i;
	int err;

	if (!ops) {
		pr_err("no policy '%s'\n", name);
		return ERR_PTR(-ENOENT);
	}
	err = gs_check_gpus(a);
	if (err)
		return ERR_PTR(err);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	atomic_inc(&gs_linux_live.instances);
	s->ops = ops;
	s->slot = -1;
	mutex_init(&s->lock);
	INIT_LIST_HEAD(&s->tasks);
	ida_init(&s->task_ids);
	xa_init(&s->chans);
	spin_lock_init(&s->poll_lock);
	init_waitqueue_head(&s->poll_wq);
	INIT_WORK(&s->timer_work, gs_timer_work);
	for (i = 0; i < a->n_gpus; i++) {
		s->gpus[i] = a->gpus[i];
		if (!s->gpus[i].regs)
			s->gpus[i].regs = &gs_linux_kepler_regs;
	}
	s->n_gpus = a->n_gpus;
	for (i = 0; i < HAL_MAX_TIMERS; i++) {
		s->timers[i].s = s;
		gs_timer_setup(&s->timers[i].hr);
	}

	/* params= belongs to the policy= policy; an instance of another
	 * policy without its own string gets that policy's defaults. */
	params = a->params;
	if (!params)
		params = ops == gs_policy_find(gs_linux_default_policy()) ?
			 gs_linux_default_params() : "";
	err = gs_linux_parse_params(ops, params, s->params);
	if (err)
		goto fail;
	err = -ENOMEM;
	if (ops->priv_size) {
		s->priv = kzalloc(ops->priv_size, GFP_KERNEL);
		if (!s->priv)
			goto fail;
	}
	s->wq = alloc_ordered_workqueue("gpusim-%s", WQ_HIGHPRI, ops->name);
	if (!s->wq)
		goto fail;
	err = gs_linux_poll_init(s);
	if (err)
		goto fail;
	err = gs_linux_instance_add(s);
	if (err)
		goto fail;

	mutex_lock(&s->lock);
	err = ops->init ? ops->init(s) : 0;
	if (err)
		s->dying = true;
	mutex_unlock(&s->lock);
	if (err) {
		pr_err("%s: init failed (%d)\n", ops->name, err);
		for (i = 0; i < HAL_MAX_TIMERS; i++)
			gs_timer_stop(s, i);
		goto fail;
	}
	gs_linux_debugfs_add(s);
	pr_info("%s: instance %d on %u GPU(s)\n", ops->name, s->slot,
		s->n_gpus);
	return s;
fail:
	gs_sched_free(s);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(gs_linux_sched_create);

void gs_linux_sched_destroy(struct hal_sched *s)
{
	u32 i;

	if (IS_ERR_OR_NULL(s))
		return;
	WARN_ON(!list_empty(&s->tasks));
	gs_linux_debugfs_remove(s);
	/* fini and `dying` in one critical section: no timer or poll sample
	 * reaches the policy after its fini. */
	mutex_lock(&s->lock);
	if (s->ops->fini)
		s->ops->fini(s);
	s->dying = true;
	hal_poll_stop(s);
	mutex_unlock(&s->lock);
	for (i = 0; i < HAL_MAX_TIMERS; i++)
		gs_timer_stop(s, i);
	pr_info("%s: instance %d destroyed\n", s->ops->name, s->slot);
	gs_sched_free(s); /* flushes the workqueue, stops the poll thread */
}
EXPORT_SYMBOL_GPL(gs_linux_sched_destroy);

int gs_linux_vm_add(struct hal_sched *s, s32 parent, u32 weight)
{
	int vm = -ENOSPC;

	mutex_lock(&s->lock);
	if (parent < -1 || parent >= (s32)s->n_vms) {
		vm = -EINVAL;
	} else if (s->n_vms < GS_LINUX_MAX_VMS) {
		vm = s->n_vms++;
		s->vm_parent[vm] = parent;
		s->vm_weight[vm] = weight ? weight : 1;
	}
	mutex_unlock(&s->lock);
	return vm;
}
EXPORT_SYMBOL_GPL(gs_linux_vm_add);

hal_u32 hal_vm_count(struct hal_sched *s)
{
	return s->n_vms;
}

hal_s32 hal_vm_parent(struct hal_sched *s, hal_s32 vm)
{
	return vm >= 0 && vm < (s32)s->n_vms ? s->vm_parent[vm] : -1;
}

hal_u32 hal_vm_weight(struct hal_sched *s, hal_s32 vm)
{
	return vm >= 0 && vm < (s32)s->n_vms ? s->vm_weight[vm] : 1;
}
