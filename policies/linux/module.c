// SPDX-License-Identifier: GPL-2.0
/* gpusim_policies.ko: the gpusim policies and the kernel HAL, as a library
 * module for GPU driver ports (gs_linux.h). Loading it only checks the
 * module parameters; instances are created on demand by ports, and the
 * module keeps a small table of them (for debugfs names and to clean up
 * after a port that forgot to). The only global state is that table and
 * the counts of live objects (gs_linux_live).
 *
 *   insmod gpusim_policies.ko policy=timeslice params="slice=30ms,engaged=0"
 */
#define pr_fmt(fmt) "gpusim: " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#include "gs_linux_priv.h"

#define GS_LINUX_MAX_INSTANCES 16

static char *policy = "direct";
module_param(policy, charp, 0444);
MODULE_PARM_DESC(policy, "policy of instances a port creates without naming one (default: direct)");

static char *params = "";
module_param(params, charp, 0444);
MODULE_PARM_DESC(params, "policy parameters, \"name=value,...\"; durations take ns/us/ms/s (e.g. \"slice=30ms,engaged=1\")");

static DEFINE_MUTEX(gs_instances_lock);
static struct hal_sched *gs_instances[GS_LINUX_MAX_INSTANCES];
static struct dentry *gs_debugfs;
struct gs_linux_live gs_linux_live;

const char *gs_linux_default_policy(void)
{
	return policy;
}

const char *gs_linux_default_params(void)
{
	return params;
}

struct dentry *gs_linux_debugfs_root(void)
{
	return gs_debugfs;
}

int gs_linux_instance_add(struct hal_sched *s)
{
	int i, err = -ENOSPC;

	mutex_lock(&gs_instances_lock);
	for (i = 0; i < GS_LINUX_MAX_INSTANCES; i++) {
		if (!gs_instances[i]) {
			gs_instances[i] = s;
			s->slot = i;
			err = 0;
			break;
		}
	}
	mutex_unlock(&gs_instances_lock);
	return err;
}

void gs_linux_instance_remove(struct hal_sched *s)
{
	mutex_lock(&gs_instances_lock);
	if (s->slot >= 0 && gs_instances[s->slot] == s)
		gs_instances[s->slot] = NULL;
	mutex_unlock(&gs_instances_lock);
	s->slot = -1;
}

static void gs_list_policies(void)
{
	u32 i;

	for (i = 0; gs_policy_registry[i]; i++)
		pr_info("  %s: %s\n", gs_policy_registry[i]->name,
			gs_policy_registry[i]->summary);
}

/* Refuse to load with a policy or params that no instance could use, so
 * the mistake shows at insmod rather than when a GPU is opened. */
static int __init gs_linux_init(void)
{
	const struct gs_policy_ops *ops = gs_policy_find(policy);
	u64 values[GS_MAX_PARAMS];
	int err;

	if (!ops) {
		pr_err("unknown policy '%s'; built-in policies:\n", policy);
		gs_list_policies();
		return -EINVAL;
	}
	err = gs_linux_parse_params(ops, params, values);
	if (err)
		return err;
	gs_debugfs = debugfs_create_dir("gpusim", NULL);
	gs_linux_debugfs_live(gs_debugfs);
	pr_info("default policy %s, params \"%s\"\n", ops->name, params);
	return 0;
}

/* Ports hold references on this module while they use its symbols, so an
 * instance left here is a port bug: destroy it rather than leak it. */
static void __exit gs_linux_exit(void)
{
	int i;

	for (i = 0; i < GS_LINUX_MAX_INSTANCES; i++) {
		struct hal_sched *s = READ_ONCE(gs_instances[i]);

		if (s) {
			WARN(1, "gpusim: instance %d still alive at unload\n", i);
			gs_linux_sched_destroy(s);
		}
	}
	debugfs_remove(gs_debugfs);
}

module_init(gs_linux_init);
module_exit(gs_linux_exit);

MODULE_DESCRIPTION("gpusim GPU scheduling policies and their kernel HAL");
MODULE_LICENSE("GPL");
