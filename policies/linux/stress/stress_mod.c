// SPDX-License-Identifier: GPL-2.0
/* gpusim_stress.ko: drives ONE policy instance of gpusim_policies.ko
 * through its glue API (gs_linux.h) from several kernel threads at once,
 * as a driver port under load would: processes come and go, open and
 * close channels, ring protected doorbells (and sleep there when the
 * policy holds them), while a fake GPU completes their work and signals
 * fences and the instance's own hrtimers fire in between. The replay of
 * make ktest is serial; this is where the kernel HAL's locking, its
 * sleeping doorbell path and its timers meet for real.
 *
 *   echo "timeslice 2000 4" > /sys/kernel/debug/gpusim_stress/run
 *   cat /sys/kernel/debug/gpusim_stress/result
 *   ok 1 - timeslice: 4 threads, 2000 ms: 310 tasks, ... 0 woken by signal
 *
 * `run` takes POLICY MS THREADS and runs synchronously. The checks that
 * matter are made outside: no oops or WARN in the kernel log, and
 * /sys/kernel/debug/gpusim/live back to zero after the instance is gone
 * (scripts/ktest_check.sh). `not ok` here means the instance could not
 * be created or a thread had to be woken by a signal to finish.
 *
 * The "GPU" is memory: one zeroed region stands for BAR0 (registers read
 * as idle), and each channel's fence and GP_PUT are words in its struct.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

/* The instance's own counters (holds, timer expiries) are read from its
 * struct at the end of a run: a test's privilege. */
#include "gs_linux_priv.h"

#define ST_MAX_THREADS 16
#define ST_CHANS 4          /* channels per process at most */
#define ST_RING 64          /* GPFIFO entries per channel */
#define ST_GPUS 2
#define ST_VMS 2
/* Kepler's channel RAM ends at 0x800004 + 8 * chid (gs_linux_kepler_regs):
 * room for every chid a worker can use. */
#define ST_BAR_SIZE (0x800004 + 8 * ST_MAX_THREADS * ST_CHANS + 4096)
/* How long the workers get to wind down (release held threads, close
 * their channels) before a signal wakes them. */
#define ST_DRAIN_MS 3000

struct st_chan {
	struct hal_chan *gs;
	spinlock_t lock;     /* published, gp_put: a hook and the worker */
	bool protect;        /* set by doorbell_protect, under the mutex */
	u64 submitted;       /* GP_PUT values the process wrote */
	u64 published;       /* of them, reached the GPU */
	u64 completed;       /* of them, done: the fence */
	u32 fence, gp_put;   /* what the HAL reads */
};

struct st_counts {
	u64 tasks, chans, doorbells, faults, queued, killed;
};

struct st_worker {
	struct task_struct *thread;
	struct completion done;
	u32 index;
	struct mutex lock;   /* chans[]: the worker and the GPU thread */
	struct hal_task *task;
	u32 gpu;             /* the task's, its channels' */
	struct st_chan *chans[ST_CHANS];
	struct st_counts n;
	u64 rng;
};

static struct {
	struct mutex lock;   /* one run at a time */
	struct dentry *dir;
	char result[320];
	unsigned int runs;
	struct hal_sched *s;
	bool stop, gpu_stop;
	struct st_worker w[ST_MAX_THREADS];
	u32 threads;
	struct task_struct *gpu_thread;
	struct completion gpu_done;
	u64 gpu_signals;
} st = { .lock = __MUTEX_INITIALIZER(st.lock) };

/* xorshift64: each worker's choices, cheap and without a lock. */
static u32 st_rand(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (u32)(*x >> 32);
}

/* ---- the port's hooks (called under the instance mutex) ---------------- */

static void st_doorbell_protect(void *port_chan, bool protect)
{
	struct st_chan *c = port_chan;

	WRITE_ONCE(c->protect, protect);
}

/* A shadow queue forwards: `put` reaches the GPU. Unwrapped by ring
 * distance from what was published before. */
static void st_doorbell_write(void *port_chan, u32 put)
{
	struct st_chan *c = port_chan;

	spin_lock(&c->lock);
	c->published += (put - c->published) % ST_RING;
	if (c->published > c->submitted)
		c->published = c->submitted;
	c->gp_put = put;
	spin_unlock(&c->lock);
}

static const struct gs_linux_hw_ops st_hw = {
	.doorbell_protect = st_doorbell_protect,
	.doorbell_write = st_doorbell_write,
};

/* ---- a process ---------------------------------------------------------- */

static void st_chan_close(struct st_worker *w, u32 i)
{
	struct st_chan *c = w->chans[i];

	mutex_lock(&w->lock);
	w->chans[i] = NULL;
	mutex_unlock(&w->lock);
	gs_linux_chan_destroy(c->gs);
	kfree(c);
}

static void st_chan_open(struct st_worker *w, u32 i)
{
	struct st_chan *c = kzalloc(sizeof(*c), GFP_KERNEL);
	struct gs_linux_chan_args a = {
		.chid = w->index * ST_CHANS + i,
		.gpu = w->gpu,
		.ring_entries = ST_RING,
	};

	if (!c)
		return;
	spin_lock_init(&c->lock);
	a.port_chan = c;
	a.fence = &c->fence;
	a.gp_put = &c->gp_put;
	a.guest_id = st_rand(&w->rng) % 3;
	c->gs = gs_linux_chan_create(w->task, &a);
	if (IS_ERR(c->gs)) {
		kfree(c);
		return;
	}
	w->n.chans++;
	mutex_lock(&w->lock);
	w->chans[i] = c;
	mutex_unlock(&w->lock);
}

/* The process exits: its channels first, as a driver's release() does. */
static void st_task_exit(struct st_worker *w)
{
	u32 i;

	for (i = 0; i < ST_CHANS; i++)
		if (w->chans[i])
			st_chan_close(w, i);
	gs_linux_task_exit(w->task);
	w->task = NULL;
	flush_signals(current); /* a policy's kill, now handled */
}

static void st_task_open(struct st_worker *w)
{
	struct gs_linux_task_args a = {
		.weight = 1 + st_rand(&w->rng) % 4,
		.priority = HAL_PRIO_NORMAL,
		.vm = (s32)(st_rand(&w->rng) % (ST_VMS + 1)) - 1,
		.gpu = st_rand(&w->rng) % ST_GPUS,
	};
	struct hal_task *t = gs_linux_task_create(st.s, &a);

	if (IS_ERR(t))
		return;
	w->task = t;
	w->gpu = a.gpu;
	w->n.tasks++;
}

/* The process writes GP_PUT: through the fault handler while the page is
 * protected (where a HOLD puts this thread to sleep), else straight. */
static void st_doorbell(struct st_worker *w, struct st_chan *c)
{
	u32 put;

	if (c->submitted - READ_ONCE(c->completed) >= ST_RING - 1)
		return; /* ring full */
	put = (u32)(c->submitted + 1) % ST_RING;
	w->n.doorbells++;
	if (READ_ONCE(c->protect)) {
		w->n.faults++;
		switch (gs_linux_doorbell_fault(c->gs, put)) {
		case GS_LINUX_DB_KILLED:
			w->n.killed++;
			st_task_exit(w);
			return;
		case GS_LINUX_DB_QUEUED:
			w->n.queued++;
			spin_lock(&c->lock);
			c->submitted++;
			spin_unlock(&c->lock);
			return;
		case GS_LINUX_DB_WRITE:
			break;
		}
	}
	spin_lock(&c->lock);
	c->submitted++;
	c->published = c->submitted;
	c->gp_put = put;
	spin_unlock(&c->lock);
}

static void st_step(struct st_worker *w)
{
	u32 r = st_rand(&w->rng) % 100, i = st_rand(&w->rng) % ST_CHANS;

	/* Processes live for about a thousand steps and channels for about
	 * a hundred, so that policies see competing tasks long enough to
	 * hold some of them. */
	if (!w->task) {
		st_task_open(w);
	} else if (r < 4) {
		if (!w->chans[i])
			st_chan_open(w, i);
	} else if (r < 5) {
		if (w->chans[i])
			st_chan_close(w, i);
	} else if (r < 6 && st_rand(&w->rng) % 8 == 0) {
		st_task_exit(w);
	} else if (r < 8) {
		usleep_range(50, 200); /* let timers and the GPU run */
	} else if (w->chans[i]) {
		st_doorbell(w, w->chans[i]);
	}
}

static int st_worker_fn(void *data)
{
	struct st_worker *w = data;

	/* A policy's hal_task_kill sends SIGKILL to this thread, as to a
	 * process: let it arrive, so a held fault wakes up killed. */
	allow_signal(SIGKILL);
	while (!READ_ONCE(st.stop)) {
		st_step(w);
		cond_resched();
	}
	if (w->task)
		st_task_exit(w);
	kthread_complete_and_exit(&w->done, 0);
}

/* ---- the GPU: completes published work, signals fences ------------------ */

static void st_gpu_chan(struct st_chan *c, u64 *rng)
{
	u64 ready;
	u32 n;

	spin_lock(&c->lock);
	ready = c->published - c->completed;
	n = ready ? 1 + st_rand(rng) % (u32)min_t(u64, ready, 3) : 0;
	c->completed += n;
	WRITE_ONCE(c->fence, (u32)c->completed);
	spin_unlock(&c->lock);
	if (n) {
		gs_linux_fence_signal(c->gs, n);
		st.gpu_signals++;
	}
}

static int st_gpu_fn(void *data)
{
	u64 rng = 0x9e3779b97f4a7c15ull;
	u32 i, j;

	while (!READ_ONCE(st.gpu_stop)) {
		for (i = 0; i < st.threads; i++) {
			struct st_worker *w = &st.w[i];

			mutex_lock(&w->lock);
			for (j = 0; j < ST_CHANS; j++)
				if (w->chans[j])
					st_gpu_chan(w->chans[j], &rng);
			mutex_unlock(&w->lock);
		}
		usleep_range(100, 300);
	}
	kthread_complete_and_exit(&st.gpu_done, 0);
}

/* ---- a run ---------------------------------------------------------------- */

/* Waits for the workers to finish; one still asleep after the drain time
 * (held, never released) gets SIGKILL, as a stuck process would from its
 * user. Returns how many needed it. */
static u32 st_drain(void)
{
	unsigned long end = jiffies + msecs_to_jiffies(ST_DRAIN_MS);
	u32 i, woken = 0;

	for (i = 0; i < st.threads; i++) {
		struct st_worker *w = &st.w[i];
		long left = (long)(end - jiffies);

		if (left < 1)
			left = 1;
		if (!wait_for_completion_timeout(&w->done, left)) {
			send_sig(SIGKILL, w->thread, 1);
			wait_for_completion(&w->done);
			woken++;
		}
		put_task_struct(w->thread);
	}
	return woken;
}

/* The GPU first, so no worker can wait on a GPU that never started. A
 * worker that cannot be created leaves the run with fewer (st.threads). */
static int st_start_threads(u32 threads)
{
	u32 i;

	st.stop = false;
	st.gpu_stop = false;
	st.gpu_signals = 0;
	st.threads = 0;
	init_completion(&st.gpu_done);
	st.gpu_thread = kthread_run(st_gpu_fn, NULL, "gpusim-stgpu");
	if (IS_ERR(st.gpu_thread))
		return PTR_ERR(st.gpu_thread);
	for (i = 0; i < threads; i++) {
		struct st_worker *w = &st.w[i];

		memset(w, 0, sizeof(*w));
		w->index = i;
		w->rng = 0x2545f4914f6cdd1dull * (i + 1);
		mutex_init(&w->lock);
		init_completion(&w->done);
		w->thread = kthread_create(st_worker_fn, w, "gpusim-st%u", i);
		if (IS_ERR(w->thread))
			break;
		get_task_struct(w->thread);
		st.threads++;
	}
	for (i = 0; i < st.threads; i++)
		wake_up_process(st.w[i].thread);
	return 0;
}

static void st_run(const char *policy, u32 ms, u32 threads)
{
	struct gs_linux_gpu gpus[ST_GPUS];
	struct gs_linux_sched_args a = { .policy = policy, .gpus = gpus,
					 .n_gpus = ST_GPUS };
	struct st_counts sum = { 0 };
	struct gs_linux_stats is;
	void *bar = vzalloc(ST_BAR_SIZE);
	u32 i, woken = 0;
	int err;

	st.runs++;
	if (!bar) {
		snprintf(st.result, sizeof(st.result), "not ok %u - %s: no memory\n",
			 st.runs, policy);
		return;
	}
	for (i = 0; i < ST_GPUS; i++)
		gpus[i] = (struct gs_linux_gpu){ .bar0 = (void __iomem *)bar,
						 .ops = &st_hw };
	st.s = gs_linux_sched_create(&a);
	if (IS_ERR(st.s)) {
		snprintf(st.result, sizeof(st.result),
			 "not ok %u - %s: instance not created (%ld)\n",
			 st.runs, policy, PTR_ERR(st.s));
		vfree(bar);
		return;
	}
	for (i = 0; i < ST_VMS; i++)
		gs_linux_vm_add(st.s, -1, i + 1);

	err = st_start_threads(threads);
	if (!err) {
		msleep(ms);
		WRITE_ONCE(st.stop, true);
		woken = st_drain();
		WRITE_ONCE(st.gpu_stop, true);
		wait_for_completion(&st.gpu_done);
	}
	mutex_lock(&st.s->lock);
	is = st.s->stats;
	mutex_unlock(&st.s->lock);
	gs_linux_sched_destroy(st.s);
	st.s = NULL;
	vfree(bar);
	if (err || st.threads < threads) {
		snprintf(st.result, sizeof(st.result),
			 "not ok %u - %s: %u of %u threads started (%d)\n",
			 st.runs, policy, st.threads, threads, err);
		return;
	}

	for (i = 0; i < threads; i++) {
		const struct st_counts *n = &st.w[i].n;

		sum.tasks += n->tasks;
		sum.chans += n->chans;
		sum.doorbells += n->doorbells;
		sum.faults += n->faults;
		sum.queued += n->queued;
		sum.killed += n->killed;
	}
	snprintf(st.result, sizeof(st.result),
		 "%s %u - %s: %u threads, %u ms: %llu tasks, %llu channels, "
		 "%llu doorbells, %llu faults, %llu holds, %llu queued, "
		 "%llu killed, %llu fence signals, %llu timer fires, "
		 "%u woken by signal\n",
		 woken ? "not ok" : "ok", st.runs, policy, threads, ms,
		 sum.tasks, sum.chans, sum.doorbells, sum.faults, is.holds,
		 sum.queued, sum.killed, st.gpu_signals, is.timer_fires, woken);
}

static ssize_t st_run_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[64], policy[32];
	u32 ms, threads;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%31s %u %u", policy, &ms, &threads) != 3 ||
	    !threads || threads > ST_MAX_THREADS || ms > 600000)
		return -EINVAL;
	mutex_lock(&st.lock);
	st_run(policy, ms, threads);
	pr_info("gpusim_stress: %s", st.result);
	mutex_unlock(&st.lock);
	return count;
}

static ssize_t st_result_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&st.lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, st.result,
				      strlen(st.result));
	mutex_unlock(&st.lock);
	return ret;
}

static const struct file_operations st_run_fops = {
	.owner = THIS_MODULE,
	.write = st_run_write,
	.llseek = no_llseek,
};

static const struct file_operations st_result_fops = {
	.owner = THIS_MODULE,
	.read = st_result_read,
	.llseek = no_llseek,
};

static int __init st_init(void)
{
	st.dir = debugfs_create_dir("gpusim_stress", NULL);
	debugfs_create_file("run", 0200, st.dir, NULL, &st_run_fops);
	debugfs_create_file("result", 0400, st.dir, NULL, &st_result_fops);
	return 0;
}

static void __exit st_exit(void)
{
	debugfs_remove_recursive(st.dir);
}

module_init(st_init);
module_exit(st_exit);
MODULE_DESCRIPTION("gpusim: concurrent stress of one policy instance's glue API");
MODULE_LICENSE("GPL");
