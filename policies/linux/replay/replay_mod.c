// SPDX-License-Identifier: GPL-2.0
/* gpusim_replay.ko: replays HAL records (docs/hal-record.md) with the
 * policies and the replay HAL of policies/replay/, built by the kernel's
 * compiler and flags, with the kernel's 64-bit math.
 *
 *   cat dfq.rec > /sys/kernel/debug/gpusim_replay/record
 *   cat /sys/kernel/debug/gpusim_replay/result
 *   ok 1 - 1 instance(s), 2444 op calls, 18218 HAL calls, 3 params
 *
 * Writing `record` appends to the record (opening it with O_TRUNC, as a
 * shell's `>` does, starts a new one). Opening `result` replays the
 * record, once, in process context: one KTAP line, `ok` or `not ok` with
 * the record's line and the first difference, also in the kernel log. */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "../../replay/replay.h"
#include "../../policy.h"

/* params.c's parser (gs_linux_priv.h would bring the kernel HAL's
 * structures, which this module does not link). */
int gs_linux_parse_params(const struct gs_policy_ops *ops, const char *text,
			  u64 *out);

/* A record larger than this is refused (the largest shipped scenario's
 * is 15 MB). */
#define GS_REPLAY_MAX_RECORD (256UL << 20)

static struct {
	struct mutex lock;
	char *buf;
	size_t len, cap;
	unsigned int runs;
	struct dentry *dir;
} gs_rp = { .lock = __MUTEX_INITIALIZER(gs_rp.lock) };

static void *gs_rp_zalloc(void *ctx, hal_u64 size)
{
	return kvzalloc(size, GFP_KERNEL);
}

static void gs_rp_free(void *ctx, void *p)
{
	kvfree(p);
}

/* The module's own parser of params= (../params.c), not the simulator's:
 * each hal_param answer of the record is checked against what it gives. */
static int gs_rp_parse_params(void *ctx, const struct gs_policy_ops *ops,
			      const char *text, hal_u64 *values)
{
	return gs_linux_parse_params(ops, text, values);
}

static const struct gs_replay_env gs_rp_env = {
	.zalloc = gs_rp_zalloc,
	.free = gs_rp_free,
	.parse_params = gs_rp_parse_params,
};

static int gs_rp_record_open(struct inode *inode, struct file *file)
{
	if (file->f_flags & O_TRUNC) {
		mutex_lock(&gs_rp.lock);
		gs_rp.len = 0;
		mutex_unlock(&gs_rp.lock);
	}
	return nonseekable_open(inode, file);
}

/* Grows the buffer by doubling, copying (no kvrealloc in every kernel
 * this builds against). */
static ssize_t gs_rp_record_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	ssize_t ret = count;

	mutex_lock(&gs_rp.lock);
	if (count > GS_REPLAY_MAX_RECORD - gs_rp.len) {
		ret = -EFBIG;
		goto out;
	}
	if (gs_rp.len + count > gs_rp.cap) {
		size_t cap = max_t(size_t, gs_rp.cap * 2, gs_rp.len + count);
		char *buf = kvmalloc(cap, GFP_KERNEL);

		if (!buf) {
			ret = -ENOMEM;
			goto out;
		}
		if (gs_rp.len)
			memcpy(buf, gs_rp.buf, gs_rp.len);
		kvfree(gs_rp.buf);
		gs_rp.buf = buf;
		gs_rp.cap = cap;
	}
	if (copy_from_user(gs_rp.buf + gs_rp.len, ubuf, count)) {
		ret = -EFAULT;
		goto out;
	}
	gs_rp.len += count;
out:
	mutex_unlock(&gs_rp.lock);
	return ret;
}

static int gs_rp_result_open(struct inode *inode, struct file *file)
{
	struct gs_replay_result *res = kzalloc(sizeof(*res), GFP_KERNEL);
	char *text = kzalloc(GS_REPLAY_MESSAGE + 128, GFP_KERNEL);
	unsigned int n;

	if (!res || !text) {
		kfree(res);
		kfree(text);
		return -ENOMEM;
	}
	mutex_lock(&gs_rp.lock);
	n = ++gs_rp.runs;
	if (gs_replay_run(gs_rp.buf, gs_rp.len, &gs_rp_env, res) == 0)
		snprintf(text, GS_REPLAY_MESSAGE + 128,
			 "ok %u - %llu instance(s), %llu op calls, %llu HAL calls, %llu params\n",
			 n, res->instances, res->ops, res->calls, res->params);
	else
		snprintf(text, GS_REPLAY_MESSAGE + 128,
			 "not ok %u - record line %llu: %s\n", n, res->line,
			 res->message);
	mutex_unlock(&gs_rp.lock);
	pr_info("gpusim_replay: %s", text);
	kfree(res);
	file->private_data = text;
	return nonseekable_open(inode, file);
}

static ssize_t gs_rp_result_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	const char *text = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, text, strlen(text));
}

static int gs_rp_result_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static const struct file_operations gs_rp_record_fops = {
	.owner = THIS_MODULE,
	.open = gs_rp_record_open,
	.write = gs_rp_record_write,
	.llseek = no_llseek,
};

static const struct file_operations gs_rp_result_fops = {
	.owner = THIS_MODULE,
	.open = gs_rp_result_open,
	.read = gs_rp_result_read,
	.release = gs_rp_result_release,
	.llseek = no_llseek,
};

static int __init gs_rp_init(void)
{
	gs_rp.dir = debugfs_create_dir("gpusim_replay", NULL);
	debugfs_create_file("record", 0200, gs_rp.dir, NULL,
			    &gs_rp_record_fops);
	debugfs_create_file("result", 0400, gs_rp.dir, NULL,
			    &gs_rp_result_fops);
	return 0;
}

static void __exit gs_rp_exit(void)
{
	debugfs_remove_recursive(gs_rp.dir);
	kvfree(gs_rp.buf);
}

module_init(gs_rp_init);
module_exit(gs_rp_exit);
MODULE_DESCRIPTION("gpusim: replay of HAL records through the policies");
MODULE_LICENSE("GPL");
