/* The scripted HAL behind tests/support/mock_hal.h: the world the test
 * scripts (tasks, channels, submissions, the clock); the HAL's services
 * to the policy are mock_hal_services.c. */
#include "tests/support/mock_hal_priv.h"

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
