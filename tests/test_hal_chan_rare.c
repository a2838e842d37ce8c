/* A channel handle's rare fields (struct hal_chan_rare: the shadow
 * queue, the fence_signal event, the HAL record number) are allocated
 * only by the policies and runs that use them, so that the 65,536 handles
 * of `gpusim bench`'s memory point stay small (issue 20, goal 3); a
 * handle without the block reads as an empty shadow queue. */
#include "tests/support/hal_sim_fixture.h"

#define THROTTLES                                                        \
	"duration: 5ms\nhost: {launch: 0, doorbell: 0, trap: 10us,"       \
	" spin_poll: 0}\n"                                                \
	"tasks:\n  - name: a\n    count: 3\n"                             \
	"    behavior: {throttle: {kernel: 100us}}\n"

/* The handle's size as measured when the block was split off (64 bytes
 * before): every task channel has one per scheduling level. */
#define HAL_CHAN_BYTES 48

static const struct gs_policy_ops plain_ops = {
	.name = "plain-probe",
};

struct shadow_probe {
	struct hal_chan *c;
	uint32_t submits;
};

/* Every channel goes to its shadow queue and stays there. */
static void shadow_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct shadow_probe *p = hal_priv(s);

	p->c = c;
	hal_shadow_enable(s, c);
}

static void shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct shadow_probe *p = hal_priv(s);
	(void)c;

	p->submits++;
}

static const struct gs_policy_ops shadow_ops = {
	.name = "shadow-probe",
	.priv_size = sizeof(struct shadow_probe),
	.channel_create = shadow_chan_create,
	.shadow_submit = shadow_submit,
};

static void test_handle_size(void **state)
{
	(void)state;
	assert_true(sizeof(struct hal_chan) <= HAL_CHAN_BYTES);
}

/* A policy with no shadow queue and no fence_signal op: no handle has a
 * block, and each reads as an empty queue. */
static void test_plain_policy_makes_no_block(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(THROTTLES, &plain_ops, &sc);
	uint32_t i;
	(void)state;

	gs_sim_run(sim, NULL);
	for (i = 0; i < sim->n_tasks; i++) {
		assert_true(sim->tasks[i].rounds > 0);
		assert_null(sim->tasks[i].chans[0].rare);
		assert_int_equal(hal_shadow_pending(&sim->sched,
						    &sim->tasks[i].chans[0]),
				 0);
	}
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* A shadowed channel has the block, which counts what its queue holds
 * (a throttle waits for its one command: one each). */
static void test_shadow_makes_block(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(THROTTLES, &shadow_ops, &sc);
	struct shadow_probe *p;
	uint32_t i;
	(void)state;

	gs_sim_run(sim, NULL);
	p = sim->sched.priv;
	assert_int_equal(p->submits, sim->n_tasks);
	for (i = 0; i < sim->n_tasks; i++) {
		struct hal_chan *c = &sim->tasks[i].chans[0];

		assert_non_null(c->rare);
		assert_int_equal(c->rare->queued, 1);
		assert_int_equal(hal_shadow_pending(&sim->sched, c), 1);
		assert_int_equal(hal_chan_submitted(&sim->sched, c), 0);
	}
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handle_size),
		cmocka_unit_test(test_plain_policy_makes_no_block),
		cmocka_unit_test(test_shadow_makes_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
