/* The scripted HAL behind tests/support/mock_hal.h: the HAL as the
 * policy sees it (hal.h), over the world mock_hal.c scripts. */
#include "tests/support/mock_hal_priv.h"

hal_u64 hal_now(struct hal_sched *s) { return s->m->now; }
void *hal_priv(struct hal_sched *s) { return s->priv; }
void *hal_zalloc(struct hal_sched *s, hal_u64 size) { (void)s; return g_malloc0(size); }
void hal_free(struct hal_sched *s, void *p) { (void)s; g_free(p); }

void hal_timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when)
{
	assert_true(id < HAL_MAX_TIMERS);
	s->timer_when[id] = when < s->m->now ? s->m->now : when;
}

void hal_timer_cancel(struct hal_sched *s, hal_u32 id)
{
	assert_true(id < HAL_MAX_TIMERS);
	s->timer_when[id] = MOCK_NEVER;
}

hal_u64 hal_param(struct hal_sched *s, hal_u32 idx)
{
	if (idx >= s->ops->n_params)
		fail_msg("policy %s asked for parameter %u of %u",
			 s->ops->name, idx, s->ops->n_params);
	return s->params[idx];
}

hal_u32 hal_task_id(const struct hal_task *t) { return t->id; }
const char *hal_task_name(const struct hal_task *t) { return t->name; }
hal_u32 hal_task_weight(const struct hal_task *t) { return t->weight; }
hal_u32 hal_task_priority(const struct hal_task *t) { return t->priority; }
hal_s32 hal_task_vm(const struct hal_task *t) { return t->vm; }
hal_u32 hal_task_gpu(const struct hal_task *t) { return t->gpu; }
void *hal_task_data(const struct hal_task *t) { return t->data; }
void hal_task_set_data(struct hal_task *t, void *data) { t->data = data; }
struct hal_task *hal_chan_task(const struct hal_chan *c) { return c->t; }
hal_u32 hal_chan_id(const struct hal_chan *c) { return c->id; }
hal_u32 hal_chan_gpu(const struct hal_chan *c) { return c->t->gpu; }
hal_u32 hal_chan_guest_id(const struct hal_chan *c) { return c->guest_id; }
void *hal_chan_data(const struct hal_chan *c) { return c->data; }
void hal_chan_set_data(struct hal_chan *c, void *data) { c->data = data; }

struct hal_chan *hal_chan_lookup(struct hal_sched *s, hal_u32 gpu, hal_u32 id)
{
	struct mock_hal *m = s->m;

	if (id >= m->n_chans || !m->chans[id].open ||
	    m->chans[id].t->gpu != gpu)
		return NULL;
	return &m->chans[id];
}

hal_u32 hal_vm_count(struct hal_sched *s) { return s->m->n_vms; }
hal_s32 hal_vm_parent(struct hal_sched *s, hal_s32 vm) { return s->m->vm_parent[vm]; }
hal_u32 hal_vm_weight(struct hal_sched *s, hal_s32 vm) { return s->m->vm_weight[vm]; }

void hal_trap_arm(struct hal_sched *s, struct hal_chan *c) { (void)s; c->trap = true; }
void hal_trap_disarm(struct hal_sched *s, struct hal_chan *c) { (void)s; c->trap = false; }

void hal_task_release(struct hal_sched *s, struct hal_task *t)
{
	(void)s;
	if (!t->held)
		return;
	t->held = false;
	t->releases++;
	t->held_chan->submitted++;
	t->held_chan = NULL;
}

int hal_task_held(const struct hal_task *t) { return t->held; }

void hal_shadow_enable(struct hal_sched *s, struct hal_chan *c) { (void)s; c->shadow = true; }

void hal_shadow_disable(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	c->submitted += c->shadow_queued;
	c->shadow_queued = 0;
	c->shadow_head = 0;
	c->shadow = false;
}

hal_u32 hal_shadow_pending(struct hal_sched *s, struct hal_chan *c) { (void)s; return c->shadow_queued; }
hal_u64 hal_shadow_peek_hint(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return c->shadow_queued ? c->next_hint : 0;
}

void mock_set_next_hint(struct mock_hal *m, struct hal_chan *c,
			uint64_t ns, uint32_t occupancy_pm)
{
	(void)m;
	c->next_hint = ns;
	c->next_occupancy = occupancy_pm;
}

hal_u32 hal_shadow_peek_occupancy(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return c->shadow_queued ? c->next_occupancy : 0;
}

hal_u32 hal_shadow_peek_class(struct hal_sched *s, struct hal_chan *c)
{
	(void)s;
	return c->shadow_queued ? c->shadow_cls[c->shadow_head] : 0;
}

void hal_shadow_forward(struct hal_sched *s, struct hal_chan *c, hal_u32 n)
{
	(void)s;
	assert_true(n <= c->shadow_queued);
	c->shadow_queued -= n;
	c->shadow_head = (c->shadow_head + n) % MOCK_MAX_QUEUED;
	c->submitted += n;
}

void hal_read_engine_status(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
			    struct hal_engine_status *out)
{
	assert_true(gpu < MOCK_MAX_GPUS && engine < 2);
	s->m->mmio_reads++;
	*out = s->m->status[gpu][engine];
}

hal_u32 hal_read_chram(struct hal_sched *s, struct hal_chan *c)
{
	s->m->mmio_reads++;
	return c->chram;
}

hal_u64 hal_fence_read(struct hal_sched *s, struct hal_chan *c) { (void)s; return c->fence; }
hal_u64 hal_chan_submitted(struct hal_sched *s, struct hal_chan *c) { (void)s; return c->submitted; }

void hal_poll_start(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
		    hal_u64 until)
{
	(void)gpu;
	(void)engine;
	s->m->poll_active = true;
	s->m->poll_until = until;
}

void hal_poll_stop(struct hal_sched *s) { s->m->poll_active = false; }

void hal_task_kill(struct hal_sched *s, struct hal_task *t, const char *why)
{
	(void)why;
	t->killed = true;
	mock_task_exit(s->m, t);
}

void hal_account(struct hal_sched *s, struct hal_task *t, hal_u64 gpu_ns) { (void)s; t->accounted += gpu_ns; }
void hal_set_vtime(struct hal_sched *s, struct hal_task *t, hal_u64 vtime) { (void)s; t->vtime = vtime; }

void hal_trace_phase(struct hal_sched *s, const char *name, hal_u64 start,
		     hal_u64 end)
{
	gpointer n = g_hash_table_lookup(s->m->phases, name);

	assert_true(start <= end);
	g_hash_table_replace(s->m->phases, g_strdup(name),
			     GUINT_TO_POINTER(GPOINTER_TO_UINT(n) + 1));
}

void hal_cpu_charge(struct hal_sched *s, hal_u64 ns) { s->m->cpu_ns += ns; }

/* A policy reached a state its logic rules out: a failed test, unless
 * the test provokes it on purpose (mock_expect_warnings). */
void hal_warn(struct hal_sched *s, const char *file, int line,
	      const char *cond)
{
	s->m->warnings++;
	if (!s->m->warnings_expected)
		fail_msg("%s:%d: WARN_ON(%s)", file, line, cond);
}

void mock_expect_warnings(struct mock_hal *m) { m->warnings_expected = true; }
uint32_t mock_warnings(const struct mock_hal *m) { return m->warnings; }

void hal_log(struct hal_sched *s, const char *fmt, ...)
{
	(void)s;
	(void)fmt;
}

hal_u64 hal_random(struct hal_sched *s)
{
	/* xorshift64: deterministic for tests */
	uint64_t x = s->m->rng;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	s->m->rng = x;
	return x;
}

hal_u32 hal_gpu_count(struct hal_sched *s) { return s->m->n_gpus; }
hal_u64 hal_gpu_busy_ns(struct hal_sched *s, hal_u32 gpu) { return s->m->gpu_busy[gpu]; }
hal_u64 hal_engine_busy_ns(struct hal_sched *s, hal_u32 gpu, hal_u32 engine)
{
	return engine == HAL_ENGINE_COMPUTE ? s->m->gpu_busy[gpu]
					    : s->m->copy_busy[gpu];
}

int hal_task_migrate(struct hal_sched *s, struct hal_task *t, hal_u32 gpu)
{
	if (gpu >= s->m->n_gpus)
		return -1;
	if (gpu != t->gpu)
		t->migrations++;
	t->gpu = gpu;
	return 0;
}

hal_u64 hal_task_sync_ns(struct hal_sched *s, const struct hal_task *t)
{
	(void)s;
	return t->sync_ns;
}

void mock_task_set_sync(struct mock_hal *m, struct hal_task *t,
			uint64_t sync_ns)
{
	(void)m;
	t->sync_ns = sync_ns;
}

hal_u64 hal_gpu_memory(struct hal_sched *s, hal_u32 gpu)
{
	(void)gpu;
	return s->m->gpu_memory;
}

hal_u64 hal_task_memory(struct hal_sched *s, const struct hal_task *t)
{
	(void)s;
	return t->memory;
}

void mock_set_gpu_memory(struct mock_hal *m, uint64_t bytes)
{
	m->gpu_memory = bytes;
}

void mock_set_gpu_count(struct mock_hal *m, uint32_t n)
{
	assert_true(n >= 1 && n <= MOCK_MAX_GPUS);
	m->n_gpus = n;
}

/* ---- command contents and estimates (GERM's heuristics) ------------------ */

void mock_set_next_content(struct mock_hal *m, struct hal_chan *c,
			   const struct hal_cmd_content *content)
{
	(void)m;
	c->next_content = *content;
}

int hal_shadow_peek_content(struct hal_sched *s, struct hal_chan *c,
			    struct hal_cmd_content *out)
{
	(void)s;
	*out = (struct hal_cmd_content){ 0 };
	if (!c->shadow_queued)
		return 0;
	*out = c->shadow_content[c->shadow_head];
	return 1;
}

void hal_note_estimate(struct hal_sched *s, struct hal_chan *c,
		       hal_u32 kind, hal_u64 est)
{
	struct mock_hal *m = s->m;

	assert_true(c->shadow_queued > 0);
	assert_true(kind < HAL_EST_KINDS);
	m->estimates[kind]++;
	m->last_estimate = est;
	m->last_estimate_kind = kind;
}

/* The scripted tests read the policy's demands from its own state. */
void hal_note_demand(struct hal_sched *s, struct hal_task *t,
		     hal_u32 demand_pm)
{
	(void)s;
	(void)t;
	(void)demand_pm;
}

uint32_t mock_estimates(const struct mock_hal *m, uint32_t kind)
{
	return kind < HAL_EST_KINDS ? m->estimates[kind] : 0;
}

uint64_t mock_last_estimate(const struct mock_hal *m, uint32_t *kind)
{
	if (kind)
		*kind = m->last_estimate_kind;
	return m->last_estimate;
}
