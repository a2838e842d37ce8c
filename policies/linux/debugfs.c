// SPDX-License-Identifier: GPL-2.0
/* What the simulator writes to summary.json, the kernel shows in
 * debugfs: /sys/kernel/debug/gpusim/<instance>-<policy>/stats lists the
 * instance's counters and, per task, the GPU time the policy accounted
 * and its virtual time. Read under the instance mutex: a consistent
 * snapshot, at the cost of briefly delaying the policy. gpusim/live
 * counts the module's live objects, for leak checks. */
#include <linux/debugfs.h>
#include <linux/pid.h>
#include <linux/seq_file.h>

#include "gs_linux_priv.h"

static int gs_stats_show(struct seq_file *m, void *unused)
{
	struct hal_sched *s = m->private;
	const struct gs_linux_stats *st = &s->stats;
	struct hal_task *t;

	mutex_lock(&s->lock);
	seq_printf(m, "policy %s\ngpus %u\n", s->ops->name, s->n_gpus);
	seq_printf(m, "traps %llu\nholds %llu\nkills %llu\n", st->traps,
		   st->holds, st->kills);
	seq_printf(m, "timer_fires %llu\npoll_samples %llu\npoll_changes %llu\n",
		   st->timer_fires, st->poll_samples, st->poll_changes);
	seq_printf(m, "shadow_queued %llu\nshadow_forwarded %llu\n",
		   st->shadow_queued, st->shadow_forwarded);
	seq_printf(m, "phases %llu\ncpu_charge_ns %llu\n", st->phases,
		   st->cpu_charge_ns);
	seq_printf(m, "warnings %llu\n", st->warnings);
	seq_puts(m, "task pid name weight vm gpu accounted_ns vtime held killed\n");
	list_for_each_entry(t, &s->tasks, node)
		seq_printf(m, "%u %d %s %u %d %u %llu %llu %d %d\n", t->id,
			   pid_nr(t->pid), t->name, t->weight, t->vm, t->gpu,
			   t->accounted_ns, t->vtime, t->held, t->killed);
	mutex_unlock(&s->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gs_stats);

void gs_linux_debugfs_add(struct hal_sched *s)
{
	char name[48];

	snprintf(name, sizeof(name), "%d-%s", s->slot, s->ops->name);
	s->debugfs = debugfs_create_dir(name, gs_linux_debugfs_root());
	debugfs_create_file("stats", 0444, s->debugfs, s, &gs_stats_fops);
}

/* gpusim/live: the module's live objects (struct gs_linux_live). */
static int gs_live_show(struct seq_file *m, void *unused)
{
	const struct gs_linux_live *l = &gs_linux_live;

	seq_printf(m, "instances %d\ntasks %d\nchannels %d\n",
		   atomic_read(&l->instances), atomic_read(&l->tasks),
		   atomic_read(&l->chans));
	seq_printf(m, "timers_armed %d\nheld %d\nqueued %d\nblocks %d\n",
		   atomic_read(&l->timers), atomic_read(&l->held),
		   atomic_read(&l->queued), atomic_read(&l->blocks));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(gs_live);

void gs_linux_debugfs_live(struct dentry *root)
{
	debugfs_create_file("live", 0444, root, NULL, &gs_live_fops);
}

/* Waits for readers in progress, so the instance can be freed after. */
void gs_linux_debugfs_remove(struct hal_sched *s)
{
	debugfs_remove(s->debugfs);
	s->debugfs = NULL;
}
