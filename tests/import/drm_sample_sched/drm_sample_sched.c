// SPDX-License-Identifier: GPL-2.0
/*
 * drm_sample_sched: a GPU-less driver of the kernel's DRM GPU scheduler
 * (gpu-sched.ko), so that its tracepoints fire in a virtual machine and
 * trace-cmd can record a real trace.dat of them (scripts/record_drm_sample.sh,
 * the sample of the drm-tracecmd importer).
 *
 * Two schedulers, "gfx_0.0.0" and "sdma0" (amdgpu's ring names). Writing
 * "RING COUNT MICROSECONDS" to /sys/module/drm_sample_sched/parameters/submit
 * pushes COUNT jobs on RING from the writing process (so the queue event
 * carries its pid and comm), each "running" for MICROSECONDS: run_job
 * returns a fence that an hrtimer signals then.
 */
#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <drm/gpu_scheduler.h>

struct sample_fence {
	struct dma_fence base;
	struct hrtimer timer;
};

struct sample_job {
	struct drm_sched_job base;
	u64 run_ns;
};

struct sample_ring {
	const char *name;
	struct drm_gpu_scheduler sched;
	struct drm_sched_entity entity;
	spinlock_t lock;
	u64 context;
	unsigned int seqno;
};

static struct sample_ring rings[] = { { .name = "gfx_0.0.0" },
				      { .name = "sdma0" } };

static const char *sample_fence_name(struct dma_fence *f)
{
	return "drm_sample_sched";
}

static const struct dma_fence_ops sample_fence_ops = {
	.get_driver_name = sample_fence_name,
	.get_timeline_name = sample_fence_name,
};

static enum hrtimer_restart sample_fence_signal(struct hrtimer *t)
{
	struct sample_fence *f = container_of(t, struct sample_fence, timer);

	dma_fence_signal(&f->base);
	dma_fence_put(&f->base);	/* the timer's reference */
	return HRTIMER_NORESTART;
}

static struct dma_fence *sample_run_job(struct drm_sched_job *sj)
{
	struct sample_job *job = container_of(sj, struct sample_job, base);
	struct sample_ring *ring = container_of(sj->sched, struct sample_ring,
					       sched);
	struct sample_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return ERR_PTR(-ENOMEM);
	dma_fence_init(&f->base, &sample_fence_ops, &ring->lock,
		       ring->context, ++ring->seqno);
	dma_fence_get(&f->base);	/* for the timer */
	hrtimer_init(&f->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	f->timer.function = sample_fence_signal;
	hrtimer_start(&f->timer, ns_to_ktime(job->run_ns), HRTIMER_MODE_REL);
	return &f->base;	/* the scheduler's reference */
}

static enum drm_gpu_sched_stat sample_timedout_job(struct drm_sched_job *sj)
{
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void sample_free_job(struct drm_sched_job *sj)
{
	drm_sched_job_cleanup(sj);
	kfree(container_of(sj, struct sample_job, base));
}

static const struct drm_sched_backend_ops sample_ops = {
	.run_job = sample_run_job,
	.timedout_job = sample_timedout_job,
	.free_job = sample_free_job,
};

static int sample_submit(const char *val, const struct kernel_param *kp)
{
	char name[32];
	unsigned int count, us, i, r;
	struct sample_ring *ring = NULL;

	if (sscanf(val, "%31s %u %u", name, &count, &us) != 3)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(rings); i++)
		if (!strcmp(rings[i].name, name))
			ring = &rings[i];
	if (!ring)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		struct sample_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

		if (!job)
			return -ENOMEM;
		job->run_ns = (u64)us * NSEC_PER_USEC;
		r = drm_sched_job_init(&job->base, &ring->entity, NULL);
		if (r) {
			kfree(job);
			return r;
		}
		drm_sched_job_arm(&job->base);
		drm_sched_entity_push_job(&job->base);
	}
	return 0;
}

static const struct kernel_param_ops submit_ops = { .set = sample_submit };
module_param_cb(submit, &submit_ops, NULL, 0200);

static int __init sample_init(void)
{
	unsigned int i;
	int r;

	for (i = 0; i < ARRAY_SIZE(rings); i++) {
		struct sample_ring *ring = &rings[i];
		struct drm_sched_init_args args = {
			.ops = &sample_ops,
			.credit_limit = 2,
			.timeout = MAX_SCHEDULE_TIMEOUT,
			.name = ring->name,
		};
		struct drm_gpu_scheduler *list[] = { &ring->sched };

		spin_lock_init(&ring->lock);
		ring->context = dma_fence_context_alloc(1);
		r = drm_sched_init(&ring->sched, &args);
		if (!r)
			r = drm_sched_entity_init(&ring->entity,
						  DRM_SCHED_PRIORITY_NORMAL,
						  list, 1, NULL);
		if (r)
			return r;
	}
	return 0;
}

module_init(sample_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("GPU-less DRM scheduler driver: its tracepoints fire");
