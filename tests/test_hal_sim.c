/* The simulator's HAL, driven by probe policies defined here: traps and
 * holds reach the task model, timers fire at their times, shadow queues
 * forward in order, kills are deferred and leave the other tasks
 * running, and a VM's scheduler gates before the host's policy (the poll
 * loop: test_hal_sim_poll.c; invariants and phases at the end of a run:
 * test_hal_sim_run.c). */
#include "tests/support/hal_sim_fixture.h"

/* ---- probe 1: hold every submission, release after 1 ms -------------- */

struct hold_probe {
	struct hal_task *held[4];
	uint32_t n_held;
	uint32_t submits;
};

static void hold_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	hal_trap_arm(s, c);
}

static int hold_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct hold_probe *p = hal_priv(s);

	p->submits++;
	p->held[p->n_held++ % 4] = hal_chan_task(c);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
	return GS_SUBMIT_HOLD;
}

static void hold_timer(struct hal_sched *s, hal_u32 id)
{
	struct hold_probe *p = hal_priv(s);
	(void)id;

	hal_task_release(s, p->held[(p->n_held - 1) % 4]);
}

static const struct gs_policy_ops hold_ops = {
	.name = "hold-probe",
	.priv_size = sizeof(struct hold_probe),
	.channel_create = hold_chan_create,
	.submit = hold_submit,
	.timer = hold_timer,
};

static void test_held_submission_waits_for_release(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 10500us\nhost: {launch: 0, doorbell: 0, trap: 10us,"
		" spin_poll: 0, policy_wakeup: 3us}\n"
		"tasks:\n  - name: a\n    behavior: {throttle: {kernel: 100us}}\n",
		&hold_ops, &sc);
	struct hold_probe *p;
	(void)state;

	gs_sim_run(sim, NULL);
	p = sim->sched.priv;
	/* each request: held 1 ms, then trap 10us, then 25us switch (first
	 * only) + 100us: ~1.11 ms per round */
	assert_int_equal(sim->tasks[0].rounds, 9);
	assert_int_equal(p->submits, 10);
	/* one timer wake-up per release, 3us each */
	assert_int_equal(sim->policy_cpu, 9 * 3000 + 3000 * 0);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe 1b: shadow the channel of a held task, then release it ----- */

struct reshadow_probe {
	struct hal_chan *c;
	uint32_t shadowed;
};

static int reshadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct reshadow_probe *p = hal_priv(s);

	p->c = c;
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
	return GS_SUBMIT_HOLD;
}

static void reshadow_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct reshadow_probe *p = hal_priv(s);

	(void)c;
	p->shadowed++;
}

static void reshadow_timer(struct hal_sched *s, hal_u32 id)
{
	struct reshadow_probe *p = hal_priv(s);
	(void)id;

	hal_shadow_enable(s, p->c);
	hal_task_release(s, hal_chan_task(p->c));
}

static const struct gs_policy_ops reshadow_ops = {
	.name = "reshadow-probe",
	.priv_size = sizeof(struct reshadow_probe),
	.channel_create = hold_chan_create,
	.submit = reshadow_submit,
	.shadow_submit = reshadow_shadow_submit,
	.timer = reshadow_timer,
};

/* A held write released after its channel went to its shadow is repeated
 * against the shadow: it is queued, not published (a VM shadowed by the
 * host while a scheduler inside it held the task). */
static void test_released_write_lands_in_new_shadow(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 5ms\nhost: {launch: 0, doorbell: 0, trap: 10us,"
		" spin_poll: 0}\n"
		"tasks:\n  - name: a\n    behavior: {throttle: {kernel: 100us}}\n",
		&reshadow_ops, &sc);
	struct reshadow_probe *p;
	(void)state;

	gs_sim_run(sim, NULL);
	p = sim->sched.priv;
	assert_int_equal(p->shadowed, 1);
	assert_int_equal(hal_shadow_pending(&sim->sched, p->c), 1);
	assert_int_equal(hal_chan_submitted(&sim->sched, p->c), 0);
	assert_int_equal(sim->tasks[0].rounds, 0);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe 2: kill the first task at 5 ms ---------------------------- */

struct kill_probe {
	struct hal_task *first;
};

static void kill_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct kill_probe *p = hal_priv(s);

	if (!p->first) {
		p->first = t;
		hal_timer_arm(s, 1, 5000000);
	}
}

static void kill_timer(struct hal_sched *s, hal_u32 id)
{
	struct kill_probe *p = hal_priv(s);
	(void)id;

	hal_task_kill(s, p->first, "probe");
}

static const struct gs_policy_ops kill_ops = {
	.name = "kill-probe",
	.priv_size = sizeof(struct kill_probe),
	.task_create = kill_task_create,
	.timer = kill_timer,
};

static void test_kill_leaves_others_running(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 20ms\ntasks:\n"
		"  - name: endless\n    behavior: {throttle: {kernel: 100s}}\n"
		"  - name: other\n    behavior: {throttle: {kernel: 100us}}\n",
		&kill_ops, &sc);
	struct gs_results r;
	(void)state;

	gs_results_init(&r);
	gs_sim_run(sim, NULL);
	gs_sim_collect(sim, &r);
	assert_true(r.tasks[0].killed);
	assert_false(r.tasks[1].killed);
	assert_int_equal(sim->tasks[0].state, GS_TASK_KILLED);
	assert_int_equal(r.sim_time_ns, 20 * GS_NS_PER_MS);
	/* the endless kernel ran from the end of its context load until the
	 * kill and was charged for it; then the engine went to the other
	 * task, whose first command had waited behind it */
	/* launched after 5us, loaded in 25us */
	assert_int_equal(r.tasks[0].gpu_time_ns, 5 * GS_NS_PER_MS - 30000);
	assert_true(r.tasks[1].gpu_time_ns > 13 * GS_NS_PER_MS);
	assert_true(r.tasks[1].rounds > 100);
	gs_results_clear(&r);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe 3: shadow queue, forward one command per ms ---------------- */

struct shadow_probe {
	struct hal_chan *c;
	uint32_t queued;
};

static void shadow_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct shadow_probe *p = hal_priv(s);

	p->c = c;
	hal_shadow_enable(s, c);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
}

static void shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct shadow_probe *p = hal_priv(s);

	p->queued++;
	assert_int_equal(hal_shadow_peek_hint(s, c), 50000);
}

static void shadow_timer(struct hal_sched *s, hal_u32 id)
{
	struct shadow_probe *p = hal_priv(s);
	(void)id;

	if (hal_shadow_pending(s, p->c))
		hal_shadow_forward(s, p->c, 1);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
}

static const struct gs_policy_ops shadow_ops = {
	.name = "shadow-probe",
	.priv_size = sizeof(struct shadow_probe),
	.channel_create = shadow_chan_create,
	.shadow_submit = shadow_submit,
	.timer = shadow_timer,
};

static void test_shadow_queue_forwards_on_demand(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 10500us\ntasks:\n  - name: a\n    behavior:"
		" {throttle: {kernel: 50us}}\n",
		&shadow_ops, &sc);
	(void)state;

	gs_sim_run(sim, NULL);
	/* one command per forwarding tick: 10 in 10.5 ms, each 50us */
	assert_int_equal(sim->tasks[0].rounds, 10);
	assert_int_equal(sim->task_figs[0].gpu_time, 10 * 50000);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe 5: a VM's scheduler and the host's policy, both gating ---- */

/* The guest traps every write and holds the first for 2 ms; the host
 * traps and counts, and from 1 ms to 3 ms keeps the channel shadowed. */
struct level_probe {
	struct hal_chan *c;
	struct hal_task *t;
	uint64_t first_seen;   /* when this level first saw a write */
	uint32_t submits, shadowed;
};

static void level_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);

	p->c = c;
	p->t = hal_chan_task(c);
	hal_trap_arm(s, c);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
}

static int level_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);
	(void)c;

	if (!p->submits++)
		p->first_seen = hal_now(s);
	return GS_SUBMIT_ALLOW;
}

static void level_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);
	(void)c;

	p->shadowed++;
}

static void host_level_timer(struct hal_sched *s, hal_u32 id)
{
	struct level_probe *p = hal_priv(s);

	if (id == 0) {
		hal_shadow_enable(s, p->c);
		hal_timer_arm(s, 1, hal_now(s) + 2000000);
	} else {
		hal_shadow_disable(s, p->c);
	}
}

static int guest_level_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);

	if (level_submit(s, c) == GS_SUBMIT_ALLOW && p->submits > 1)
		return GS_SUBMIT_ALLOW;
	hal_timer_arm(s, 0, hal_now(s) + 2000000);
	return GS_SUBMIT_HOLD;
}

static void guest_level_timer(struct hal_sched *s, hal_u32 id)
{
	struct level_probe *p = hal_priv(s);
	(void)id;

	/* only its own hold is its to release */
	assert_true(hal_task_held(p->t));
	hal_task_release(s, p->t);
}

static void guest_level_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);

	p->c = c;
	p->t = hal_chan_task(c);
	hal_trap_arm(s, c);
}

static const struct gs_policy_ops host_level_ops = {
	.name = "host-level-probe",
	.priv_size = sizeof(struct level_probe),
	.channel_create = level_chan_create,
	.submit = level_submit,
	.shadow_submit = level_shadow_submit,
	.timer = host_level_timer,
};

static const struct gs_policy_ops guest_level_ops = {
	.name = "guest-level-probe",
	.priv_size = sizeof(struct level_probe),
	.channel_create = guest_level_chan_create,
	.submit = guest_level_submit,
	.timer = guest_level_timer,
};

/* The guest's gate acts first: its hold keeps the write from the host
 * (its trap sees nothing until the release). Released at 2 ms, the write
 * is repeated against the host's mapping, shadowed since 1 ms: it lands in
 * the host's shadow queue, not on the GPU, and goes out at 3 ms. The two
 * instances keep their own task handles, data and held state; the VM's
 * own tasks are on its "host" and it sees no VM tree. */
static void test_vm_scheduler_gates_before_the_host(void **state)
{
	struct gs_sim_options opt = { .policy_ops = &host_level_ops,
				      .guest_ops = &guest_level_ops };
	struct gs_scenario *sc = load(
		"duration: 5ms\nhost: {launch: 0, doorbell: 0, trap: 10us}\n"
		"vms: [{name: v, trap: 10us, scheduler: direct}]\n"
		"tasks:\n  - {name: a, vm: v, behavior: {throttle: "
		"{kernel: 100us}}}\n");
	GError *err = NULL;
	struct gs_sim *sim = gs_sim_new(sc, &opt, &err);
	struct level_probe *host, *guest;
	(void)state;

	assert_non_null(sim);
	assert_int_equal(sim->n_guests, 1);
	host = sim->sched.priv;
	guest = sim->guests[0].priv;
	gs_sim_run(sim, NULL);
	assert_int_equal(guest->first_seen, 0);
	assert_true(guest->t != host->t && guest->c != host->c);
	assert_int_equal(hal_task_vm(guest->t), -1);
	assert_int_equal(hal_task_vm(host->t), 0);
	assert_int_equal(hal_vm_count(&sim->guests[0]), 0);
	/* the held write reached the host's level only after the release,
	 * and then into its shadow queue (no host trap for it) */
	assert_int_equal(host->shadowed, 1);
	assert_true(host->first_seen >= 3000000);
	/* it ran after the host let it go at 3 ms: 3.0 + 0.1 ms, then the
	 * next rounds, each trapped at both levels (2 x 10us) */
	assert_true(sim->tasks[0].rounds >= 10);
	assert_true(guest->submits == host->submits + 1);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_submission_waits_for_release),
		cmocka_unit_test(test_released_write_lands_in_new_shadow),
		cmocka_unit_test(test_kill_leaves_others_running),
		cmocka_unit_test(test_shadow_queue_forwards_on_demand),
		cmocka_unit_test(test_vm_scheduler_gates_before_the_host),
	
	};

	return cmocka_run_group_tests_name("hal_sim", tests, NULL, NULL);
}
