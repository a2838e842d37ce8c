// SPDX-License-Identifier: GPL-2.0
/* The kernel HAL, hardware side: status registers through readl() on the
 * port's BAR, fences and GP_PUT from the channel's memory, the poll loop
 * kthread, and the node services. */
#define pr_fmt(fmt) "gpusim: " fmt

#include <linux/errno.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include "gs_linux_priv.h"

/* Kepler-class PFIFO layout (GK1xx), after NVIDIA's published register
 * descriptions and nouveau. TO BE VERIFIED PER GPU: offsets, the engine
 * index of the copy engine and the ENGINE_STATUS stride (8 bytes here;
 * some driver versions used 4) differ between chips, and later families
 * moved these registers. A port for another GPU passes its own table.
 *
 * ENGINE_STATUS(e) = 0x2640 + 8 * e:
 *   11:0 ID (resident channel), 15:13 CTX_STATUS, 27:16 NEXT_ID, 31 BUSY;
 *   CTX_STATUS 0 invalid, 1 valid, 5 ctxsw load, 6 ctxsw save, 7 switch.
 * Channel RAM (PCCSR) CHANNEL(c) = 0x800004 + 8 * c:
 *   27:24 STATUS, 28 BUSY; STATUS 0 idle, 1-4 pending (variants),
 *   5 and 10 on PBDMA only, 6-9 and 11-14 on the engine (variants). */
#define GS_ES(st, flags) ((st) | (flags))

const struct gs_linux_regs gs_linux_kepler_regs = {
	.engine_status = { 0x2640, 0x2640 + 8 * 4 }, /* engine 4: CE0 */
	.es_cur_id_mask = 0x00000fff, .es_cur_id_shift = 0,
	.es_next_id_mask = 0x0fff0000, .es_next_id_shift = 16,
	.es_ctx_mask = 0x0000e000, .es_ctx_shift = 13,
	.es_busy_bit = 0x80000000,
	.es_ctx_map = {
		[0] = HAL_CTX_INVALID,
		[1] = GS_ES(HAL_CTX_VALID, GS_LINUX_ES_CUR),
		[5] = GS_ES(HAL_CTX_LOADING, GS_LINUX_ES_NEXT),
		[6] = GS_ES(HAL_CTX_SAVING, GS_LINUX_ES_CUR),
		[7] = GS_ES(HAL_CTX_SAVING, GS_LINUX_ES_CUR | GS_LINUX_ES_NEXT),
	},
	.chram_base = 0x800004, .chram_stride = 8,
	.chram_status_mask = 0x0f000000, .chram_status_shift = 24,
	.chram_busy_bit = 0x10000000,
	.chram_status_map = {
		[0] = HAL_CHRAM_IDLE,
		[1 ... 5] = HAL_CHRAM_PENDING,
		[6 ... 9] = HAL_CHRAM_ON_ENGINE,
		[10] = HAL_CHRAM_PENDING,
		[11 ... 14] = HAL_CHRAM_ON_ENGINE,
		[15] = HAL_CHRAM_IDLE,
	},
};
EXPORT_SYMBOL_GPL(gs_linux_kepler_regs);

/* ---- register reads --------------------------------------------------------- */

void hal_read_engine_status(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
			    struct hal_engine_status *out)
{
	const struct gs_linux_regs *r;
	u32 v;
	u8 m;

	out->cur_id = out->next_id = HAL_CHAN_NONE;
	out->ctx_status = HAL_CTX_INVALID;
	out->busy = 0;
	if (gpu >= s->n_gpus || engine > HAL_ENGINE_COPY)
		return;
	r = s->gpus[gpu].regs;
	v = readl(s->gpus[gpu].bar0 + r->engine_status[engine]);
	m = r->es_ctx_map[((v & r->es_ctx_mask) >> r->es_ctx_shift) & 7];
	out->ctx_status = m & GS_LINUX_ES_STATUS;
	out->busy = !!(v & r->es_busy_bit);
	if (m & GS_LINUX_ES_CUR)
		out->cur_id = (v & r->es_cur_id_mask) >> r->es_cur_id_shift;
	if (m & GS_LINUX_ES_NEXT)
		out->next_id = (v & r->es_next_id_mask) >> r->es_next_id_shift;
}

hal_u32 hal_read_chram(struct hal_sched *s, struct hal_chan *c)
{
	const struct gs_linux_regs *r = s->gpus[c->gpu].regs;
	u32 v = readl(s->gpus[c->gpu].bar0 + r->chram_base +
		      c->id * r->chram_stride);

	if (v & r->chram_busy_bit)
		return HAL_CHRAM_BUSY;
	return r->chram_status_map[((v & r->chram_status_mask) >>
				    r->chram_status_shift) & 15];
}

/* ---- fences and GP_PUT -------------------------------------------------------- */

/* The GPU's counter is 32 bits; the HAL's is 64. Unsigned subtraction
 * absorbs a wrap as long as it is read at least once per 2^32 requests. */
hal_u64 hal_fence_read(struct hal_sched *s, struct hal_chan *c)
{
	u32 v = READ_ONCE(*c->fence);

	c->fence_count += (u32)(v - c->fence_last);
	c->fence_last = v;
	return c->fence_count;
}

u32 gs_linux_read_put(const struct hal_chan *c)
{
	return c->gp_put ? READ_ONCE(*c->gp_put) : readl(c->gp_put_io);
}

/* GP_PUT is a ring index: the distance travelled since the last read is
 * added, which is exact as long as it is read before the ring wraps
 * (policies poll at least every few ms; rings hold thousands of entries). */
hal_u64 hal_chan_submitted(struct hal_sched *s, struct hal_chan *c)
{
	u32 put = gs_linux_read_put(c);

	c->put_count += (put + c->ring_entries - c->put_last) % c->ring_entries;
	c->put_last = put;
	return c->put_count;
}

/* ---- the poll loop ------------------------------------------------------------ */

static bool gs_status_eq(const struct hal_engine_status *a,
			 const struct hal_engine_status *b)
{
	return a->cur_id == b->cur_id && a->next_id == b->next_id &&
	       a->ctx_status == b->ctx_status && a->busy == b->busy;
}

/* One loop: busy-read the register until `until` or until the policy
 * starts another loop or stops this one (poll_gen moves). The first sample
 * is reported too, so the policy learns the state the loop starts in. */
static void gs_poll_run(struct hal_sched *s, u64 gen, u32 gpu, u32 engine,
			u64 until)
{
	struct hal_engine_status cur, prev;
	bool have_prev = false, ended = false;
	u64 now, samples = 0, changes = 0;

	while (!kthread_should_stop() && READ_ONCE(s->poll_gen) == gen) {
		now = ktime_get_ns();
		if (now >= until) {
			ended = true;
			break;
		}
		hal_read_engine_status(s, gpu, engine, &cur);
		samples++;
		if (!have_prev || !gs_status_eq(&cur, &prev)) {
			changes++;
			mutex_lock(&s->lock);
			if (s->poll_gen == gen && !s->dying &&
			    s->ops->poll_change)
				s->ops->poll_change(s, &cur, now);
			mutex_unlock(&s->lock);
			prev = cur;
			have_prev = true;
		}
		cond_resched();
	}
	mutex_lock(&s->lock);
	s->stats.poll_samples += samples;
	s->stats.poll_changes += changes;
	if (ended && s->poll_gen == gen) {
		spin_lock(&s->poll_lock);
		s->poll_active = false;
		spin_unlock(&s->poll_lock);
		if (!s->dying && s->ops->poll_end)
			s->ops->poll_end(s);
	}
	mutex_unlock(&s->lock);
}

static int gs_poll_thread(void *arg)
{
	struct hal_sched *s = arg;
	u32 gpu, engine;
	u64 gen, until;
	bool active;

	while (!kthread_should_stop()) {
		wait_event_interruptible(s->poll_wq, READ_ONCE(s->poll_active) ||
					 kthread_should_stop());
		spin_lock(&s->poll_lock);
		active = s->poll_active;
		gen = s->poll_gen;
		gpu = s->poll_gpu;
		engine = s->poll_engine;
		until = s->poll_until;
		spin_unlock(&s->poll_lock);
		if (active)
			gs_poll_run(s, gen, gpu, engine, until);
	}
	return 0;
}

int gs_linux_poll_init(struct hal_sched *s)
{
	struct task_struct *th;

	th = kthread_run(gs_poll_thread, s, "gpusim-poll-%s", s->ops->name);
	if (IS_ERR(th))
		return PTR_ERR(th);
	s->poll_thread = th;
	return 0;
}

void gs_linux_poll_fini(struct hal_sched *s)
{
	kthread_stop(s->poll_thread);
	s->poll_thread = NULL;
}

/* Called from policy callbacks, under the mutex: it only tells the thread
 * what to do, never waits for it (the thread may be waiting for the
 * mutex to deliver a sample). */
void hal_poll_start(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
		    hal_u64 until)
{
	spin_lock(&s->poll_lock);
	s->poll_gen++;
	s->poll_active = true;
	s->poll_gpu = gpu;
	s->poll_engine = engine;
	s->poll_until = until;
	spin_unlock(&s->poll_lock);
	wake_up(&s->poll_wq);
}

/* Ends the loop without poll_end: the policy asked for it. */
void hal_poll_stop(struct hal_sched *s)
{
	spin_lock(&s->poll_lock);
	s->poll_gen++;
	s->poll_active = false;
	spin_unlock(&s->poll_lock);
}

/* ---- node services ------------------------------------------------------------- */

hal_u32 hal_gpu_count(struct hal_sched *s)
{
	return s->n_gpus;
}

/* From the port's own utilisation counter; 0 (unknown) without one. */
hal_u64 hal_gpu_busy_ns(struct hal_sched *s, hal_u32 gpu)
{
	const struct gs_linux_gpu *g;

	if (gpu >= s->n_gpus)
		return 0;
	g = &s->gpus[gpu];
	return g->ops->busy_ns ? g->ops->busy_ns(g->port_gpu) : 0;
}

hal_u64 hal_engine_busy_ns(struct hal_sched *s, hal_u32 gpu, hal_u32 engine)
{
	const struct gs_linux_gpu *g;

	if (engine == HAL_ENGINE_COMPUTE)
		return hal_gpu_busy_ns(s, gpu);
	if (gpu >= s->n_gpus || engine != HAL_ENGINE_COPY)
		return 0;
	g = &s->gpus[gpu];
	return g->ops->copy_busy_ns ? g->ops->copy_busy_ns(g->port_gpu) : 0;
}

/* Moving a live process's GPU contexts to another GPU needs driver support
 * no port offers yet; node-level policies see the failure and keep the
 * task where it is. */
int hal_task_migrate(struct hal_sched *s, struct hal_task *t, hal_u32 gpu)
{
	return -EOPNOTSUPP;
}

/* The kernel sees fence waits only as sleeps it cannot attribute: unknown.
 * Node policies then read a task's demand from its launches alone. */
hal_u64 hal_task_sync_ns(struct hal_sched *s, const struct hal_task *t)
{
	return 0;
}

/* Memory sizes and footprints need the driver's allocator: unknown, so
 * node policies apply no memory limit. */
hal_u64 hal_gpu_memory(struct hal_sched *s, hal_u32 gpu)
{
	return 0;
}

hal_u64 hal_task_memory(struct hal_sched *s, const struct hal_task *t)
{
	return 0;
}
