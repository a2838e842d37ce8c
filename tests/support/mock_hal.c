/* The scripted HAL behind tests/support/mock_hal.h. */
#include <glib.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"
#include "policies/duration.h"
#include "policies/param_value.h"

#define MOCK_MAX_TASKS 64
#define MOCK_MAX_CHANS 256
#define MOCK_MAX_GPUS 8
#define MOCK_MAX_VMS 32
#define MOCK_MAX_QUEUED 1024 /* classes remembered per shadow queue */

struct hal_task {
	struct mock_hal *m;
	uint32_t id;
	char name[32];
	uint32_t weight;
	uint32_t priority;
	int32_t vm;
	uint32_t gpu;
	void *data;
	bool held;
	struct hal_chan *held_chan;
	uint32_t releases;
	bool killed;
	bool exited;
	uint64_t accounted;
	uint64_t vtime;
	uint32_t migrations;
	uint64_t sync_ns;
	uint64_t memory;
};

struct hal_chan {
	struct hal_task *t;
	uint32_t id;
	uint32_t guest_id;
	void *data;
	bool trap;
	bool shadow;
	bool open;
	uint32_t shadow_queued;
	uint8_t shadow_cls[MOCK_MAX_QUEUED]; /* class per queued command */
	uint32_t shadow_head;                /* index of the oldest */
	uint8_t next_cls;                    /* class of the next submissions */
	/* contents per queued command, and of the next submissions */
	struct hal_cmd_content shadow_content[MOCK_MAX_QUEUED];
	struct hal_cmd_content next_content;
	uint64_t next_hint;                  /* engine time of queued ones */
	uint32_t next_occupancy;             /* and their core share */
	uint64_t submitted;
	uint64_t fence;
	uint32_t chram;
};

struct hal_sched {
	struct mock_hal *m;
	const struct gs_policy_ops *ops;
	void *priv;
	uint64_t params[GS_MAX_PARAMS];
	uint64_t timer_when[HAL_MAX_TIMERS];
};

struct mock_hal {
	struct hal_sched s;
	uint64_t now;
	struct hal_task tasks[MOCK_MAX_TASKS];
	uint32_t n_tasks;
	struct hal_chan chans[MOCK_MAX_CHANS];
	uint32_t n_chans;
	struct hal_engine_status status[MOCK_MAX_GPUS][2];
	uint64_t gpu_busy[MOCK_MAX_GPUS];
	uint64_t copy_busy[MOCK_MAX_GPUS];
	uint64_t gpu_memory; /* every GPU's; 0: unknown */
	uint32_t n_gpus;
	int32_t vm_parent[MOCK_MAX_VMS];
	uint32_t vm_weight[MOCK_MAX_VMS];
	uint32_t n_vms;
	uint64_t mmio_reads;
	uint64_t cpu_ns;
	bool poll_active;
	uint64_t poll_until;
	GHashTable *phases; /* name -> count */
	uint64_t rng;
	uint32_t warnings;       /* HAL_WARN_ON reports */
	bool warnings_expected;  /* else the first one fails the test */
	uint32_t estimates[HAL_EST_KINDS]; /* hal_note_estimate calls */
	uint64_t last_estimate;
	uint32_t last_estimate_kind;
	uint32_t next_priority;  /* the next task's, + 1; 0: normal */
};

/* "25us" -> ns (the scenarios' parser); "true"/"false"; plain
 * integers. */
static uint64_t parse_value(const char *v, uint8_t type)
{
	char *end;
	hal_u64 n;

	if (type == GS_PARAM_DURATION) {
		if (gs_duration_parse(v, 0, &n) != GS_DUR_OK)
			fail_msg("mock_hal: bad duration '%s'", v);
		return n;
	}
	if (type == GS_PARAM_BOOL) {
		if (!strcmp(v, "true"))
			return 1;
		if (!strcmp(v, "false"))
			return 0;
		fail_msg("mock_hal: bad boolean '%s'", v);
	}
	n = g_ascii_strtoull(v, &end, 10);
	if (end == v || *end)
		fail_msg("mock_hal: bad number '%s'", v);
	return n;
}

/* An instance with its parameters set, before ops->init. */
static struct mock_hal *mock_create(const struct gs_policy_ops *ops,
				    const char *const *params)
{
	struct mock_hal *m = g_new0(struct mock_hal, 1);
	uint32_t i, g;

	m->s.m = m;
	m->s.ops = ops;
	m->s.priv = ops->priv_size ? g_malloc0(ops->priv_size) : NULL;
	m->n_gpus = 1;
	m->rng = 0x9e3779b97f4a7c15ULL;
	m->phases = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  NULL);
	for (i = 0; i < HAL_MAX_TIMERS; i++)
		m->s.timer_when[i] = MOCK_NEVER;
	for (g = 0; g < MOCK_MAX_GPUS; g++)
		for (i = 0; i < 2; i++)
			m->status[g][i] = (struct hal_engine_status){
				HAL_CHAN_NONE, HAL_CHAN_NONE, HAL_CTX_INVALID, 0 };
	if (gs_param_defaults(ops, m->s.params) < 0)
		fail_msg("mock_hal: %s has a malformed default", ops->name);
	for (; params && *params; params++) {
		const char *eq = strchr(*params, '=');
		char *name;
		int idx;

		assert_non_null(eq);
		name = g_strndup(*params, (gsize)(eq - *params));
		idx = gs_policy_param_index(ops, name);
		if (idx < 0)
			fail_msg("mock_hal: %s has no parameter '%s'",
				 ops->name, name);
		m->s.params[idx] = parse_value(eq + 1, ops->params[idx].type);
		g_free(name);
	}
	return m;
}

struct mock_hal *mock_hal_new(const struct gs_policy_ops *ops,
			      const char *const *params)
{
	struct mock_hal *m = mock_create(ops, params);

	if (ops->init)
		assert_int_equal(ops->init(&m->s), 0);
	return m;
}

struct mock_hal *mock_hal_new_vms(const struct gs_policy_ops *ops,
				  const char *const *params,
				  const int32_t *parents, uint32_t n_vms,
				  int *init_rc)
{
	struct mock_hal *m = mock_create(ops, params);
	uint32_t i;
	int rc = 0;

	for (i = 0; i < n_vms; i++)
		mock_vm_add(m, parents[i], 1);
	if (ops->init)
		rc = ops->init(&m->s);
	if (init_rc)
		*init_rc = rc;
	else
		assert_int_equal(rc, 0);
	return m;
}

void mock_hal_free(struct mock_hal *m)
{
	uint32_t i;

	/* tasks still alive exit first, as at the end of a simulation */
	for (i = 0; i < m->n_tasks; i++)
		if (!m->tasks[i].exited)
			mock_task_exit(m, &m->tasks[i]);
	if (m->s.ops->fini)
		m->s.ops->fini(&m->s);
	g_hash_table_destroy(m->phases);
	g_free(m->s.priv);
	g_free(m);
}

struct hal_sched *mock_sched(struct mock_hal *m)
{
	return &m->s;
}

struct hal_task *mock_task_add(struct mock_hal *m, const char *name,
			       uint32_t weight)
{
	return mock_task_add_in_vm(m, name, weight, -1);
}

struct hal_task *mock_task_add_in_vm(struct mock_hal *m, const char *name,
				     uint32_t weight, int32_t vm)
{
	return mock_task_add_full(m, name, weight, vm, 0);
}

struct hal_task *mock_task_add_with_memory(struct mock_hal *m,
					   const char *name, uint64_t memory)
{
	return mock_task_add_full(m, name, 1, -1, memory);
}

struct hal_task *mock_task_add_full(struct mock_hal *m, const char *name,
				    uint32_t weight, int32_t vm,
				    uint64_t memory)
{
	struct hal_task *t;

	assert_true(m->n_tasks < MOCK_MAX_TASKS);
	t = &m->tasks[m->n_tasks];
	t->m = m;
	t->id = m->n_tasks++;
	g_strlcpy(t->name, name, sizeof(t->name));
	t->weight = weight ? weight : 1;
	t->priority = m->next_priority ? m->next_priority - 1
				       : HAL_PRIO_NORMAL;
	m->next_priority = 0;
	t->vm = vm;
	t->memory = memory;
	if (m->s.ops->task_create)
		m->s.ops->task_create(&m->s, t);
	return t;
}

void mock_set_next_priority(struct mock_hal *m, uint32_t priority)
{
	assert_true(priority < HAL_PRIO_COUNT);
	m->next_priority = priority + 1;
}

void mock_task_set_vm(struct mock_hal *m, struct hal_task *t, int32_t vm)
{
	(void)m;
	t->vm = vm;
}

struct hal_chan *mock_chan_add(struct mock_hal *m, struct hal_task *t)
{
	return mock_chan_add_guest(m, t, HAL_GUEST_NONE);
}

struct hal_chan *mock_chan_add_guest(struct mock_hal *m, struct hal_task *t,
				     uint32_t guest_id)
{
	struct hal_chan *c;

	assert_true(m->n_chans < MOCK_MAX_CHANS);
	c = &m->chans[m->n_chans];
	c->t = t;
	c->guest_id = guest_id;
	c->id = m->n_chans++;
	c->open = true;
	if (m->s.ops->channel_create)
		m->s.ops->channel_create(&m->s, c);
	return c;
}

void mock_task_exit(struct mock_hal *m, struct hal_task *t)
{
	uint32_t i;

	for (i = 0; i < m->n_chans; i++) {
		struct hal_chan *c = &m->chans[i];

		if (c->t != t || !c->open)
			continue;
		if (m->s.ops->channel_destroy)
			m->s.ops->channel_destroy(&m->s, c);
		c->open = false;
	}
	if (m->s.ops->task_exit)
		m->s.ops->task_exit(&m->s, t);
	t->exited = true;
}

int32_t mock_vm_add(struct mock_hal *m, int32_t parent, uint32_t weight)
{
	assert_true(m->n_vms < MOCK_MAX_VMS);
	m->vm_parent[m->n_vms] = parent;
	m->vm_weight[m->n_vms] = weight ? weight : 1;
	return (int32_t)m->n_vms++;
}

int mock_submit(struct mock_hal *m, struct hal_chan *c)
{
	int verdict;

	assert_true(c->open);
	if (c->t->held)
		return MOCK_SUBMIT_HELD;
	if (c->shadow) {
		assert_true(c->shadow_queued < MOCK_MAX_QUEUED);
		c->shadow_cls[(c->shadow_head + c->shadow_queued) %
			      MOCK_MAX_QUEUED] = c->next_cls;
		c->shadow_content[(c->shadow_head + c->shadow_queued) %
				  MOCK_MAX_QUEUED] = c->next_content;
		c->shadow_queued++;
		if (m->s.ops->shadow_submit)
			m->s.ops->shadow_submit(&m->s, c);
		return MOCK_SUBMIT_SHADOWED;
	}
	if (!c->trap) {
		c->submitted++;
		return MOCK_SUBMIT_DIRECT;
	}
	assert_non_null(m->s.ops->submit);
	verdict = m->s.ops->submit(&m->s, c);
	if (verdict == GS_SUBMIT_ALLOW) {
		c->submitted++;
	} else {
		assert_int_equal(verdict, GS_SUBMIT_HOLD);
		c->t->held = true;
		c->t->held_chan = c;
	}
	return verdict;
}

void mock_complete(struct mock_hal *m, struct hal_chan *c, uint64_t n)
{
	c->fence += n;
	assert_true(c->fence <= c->submitted);
	if (n && m->s.ops->fence_signal)
		m->s.ops->fence_signal(&m->s, c, (hal_u32)n);
}

void mock_set_next_class(struct mock_hal *m, struct hal_chan *c, uint8_t cls)
{
	(void)m;
	assert_true(cls <= 7);
	c->next_cls = cls;
}

void mock_set_engine_status(struct mock_hal *m, uint32_t gpu, uint32_t engine,
			    const struct hal_engine_status *st)
{
	assert_true(gpu < MOCK_MAX_GPUS && engine < 2);
	m->status[gpu][engine] = *st;
}

void mock_set_chram(struct mock_hal *m, struct hal_chan *c, uint32_t status)
{
	(void)m;
	c->chram = status;
}

void mock_set_gpu_busy(struct mock_hal *m, uint32_t gpu, uint64_t busy_ns)
{
	assert_true(gpu < MOCK_MAX_GPUS);
	if (gpu >= m->n_gpus)
		m->n_gpus = gpu + 1;
	m->gpu_busy[gpu] = busy_ns;
}

void mock_set_copy_busy(struct mock_hal *m, uint32_t gpu, uint64_t busy_ns)
{
	assert_true(gpu < MOCK_MAX_GPUS);
	m->copy_busy[gpu] = busy_ns;
}

void mock_advance(struct mock_hal *m, uint64_t t)
{
	assert_true(t >= m->now);
	for (;;) {
		uint32_t i, best = HAL_MAX_TIMERS;

		for (i = 0; i < HAL_MAX_TIMERS; i++)
			if (m->s.timer_when[i] <= t &&
			    (best == HAL_MAX_TIMERS ||
			     m->s.timer_when[i] < m->s.timer_when[best]))
				best = i;
		if (best == HAL_MAX_TIMERS)
			break;
		if (m->s.timer_when[best] > m->now)
			m->now = m->s.timer_when[best];
		m->s.timer_when[best] = MOCK_NEVER;
		assert_non_null(m->s.ops->timer);
		m->s.ops->timer(&m->s, best);
	}
	m->now = t;
}

uint64_t mock_now(struct mock_hal *m) { return m->now; }
bool mock_trap_armed(struct mock_hal *m, struct hal_chan *c) { (void)m; return c->trap; }
bool mock_shadowed(struct mock_hal *m, struct hal_chan *c) { (void)m; return c->shadow; }
bool mock_held(struct mock_hal *m, struct hal_task *t) { (void)m; return t->held; }
uint32_t mock_releases(struct mock_hal *m, struct hal_task *t) { (void)m; return t->releases; }
bool mock_killed(struct mock_hal *m, struct hal_task *t) { (void)m; return t->killed; }
uint64_t mock_submitted(struct mock_hal *m, struct hal_chan *c) { (void)m; return c->submitted; }
uint64_t mock_accounted(struct mock_hal *m, struct hal_task *t) { (void)m; return t->accounted; }
uint64_t mock_vtime(struct mock_hal *m, struct hal_task *t) { (void)m; return t->vtime; }
uint64_t mock_timer_when(struct mock_hal *m, uint32_t id) { return m->s.timer_when[id]; }
uint64_t mock_mmio_reads(struct mock_hal *m) { return m->mmio_reads; }
uint64_t mock_cpu_ns(struct mock_hal *m) { return m->cpu_ns; }
uint32_t mock_migrations(struct mock_hal *m, struct hal_task *t) { (void)m; return t->migrations; }

uint32_t mock_phases(struct mock_hal *m, const char *name)
{
	return GPOINTER_TO_UINT(g_hash_table_lookup(m->phases, name));
}

bool mock_poll_active(struct mock_hal *m, uint64_t *until)
{
	if (until)
		*until = m->poll_until;
	return m->poll_active;
}

/* ---- the HAL as the policy sees it ---------------------------------- */

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
