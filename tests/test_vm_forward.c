/* Fleig 4.3.2: forwarding a VM task's shadowed commands writes IB_PUT
 * once per forward (one `host.doorbell`, policy CPU time), however many
 * commands go; a host task's software queue is charged nothing. A probe
 * policy shadows the one channel and forwards one command per ms. */
#include "tests/support/hal_sim_fixture.h"

struct forward_probe {
	struct hal_chan *c;
};

static void probe_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct forward_probe *p = hal_priv(s);

	p->c = c;
	hal_shadow_enable(s, c);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
}

static void probe_timer(struct hal_sched *s, hal_u32 id)
{
	struct forward_probe *p = hal_priv(s);
	(void)id;

	if (hal_shadow_pending(s, p->c))
		hal_shadow_forward(s, p->c, 1);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
}

static const struct gs_policy_ops probe_ops = {
	.name = "forward-probe",
	.priv_size = sizeof(struct forward_probe),
	.channel_create = probe_chan_create,
	.timer = probe_timer,
};

/* policy CPU of ten forwards (10.5 ms), no other policy cost counted */
static uint64_t forward_cpu(const char *where)
{
	struct gs_scenario *sc;
	char *y = g_strdup_printf(
		"duration: 10500us\n"
		"host: {doorbell: 3us, policy_wakeup: 0}\n"
		"vms:\n  - {name: vm, shadow_copy: 0}\n"
		"tasks:\n  - name: a\n%s    behavior:"
		" {throttle: {kernel: 50us}}\n", where);
	struct gs_sim *sim = start(y, &probe_ops, &sc);
	uint64_t cpu;

	gs_sim_run(sim, NULL);
	assert_int_equal(sim->tasks[0].rounds, 10);
	cpu = sim->policy_cpu;
	gs_sim_free(sim);
	gs_scenario_free(sc);
	g_free(y);
	return cpu;
}

static void test_vm_forward_costs_one_doorbell(void **state)
{
	(void)state;
	assert_int_equal(forward_cpu("    vm: vm\n"), 10 * 3000);
}

static void test_host_queue_forward_costs_nothing(void **state)
{
	(void)state;
	assert_int_equal(forward_cpu(""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vm_forward_costs_one_doorbell),
		cmocka_unit_test(test_host_queue_forward_costs_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
