/* hdfq (Fleig's hierarchical DFQ for VMs) against the scripted mock HAL.
 *
 * The weights themselves are tested in test_policy_vmtree.c and the shares
 * they give in configs/paper/fleig_*.yaml; here: which entities the
 * paravirtual hints make, how a guest entity is stopped (shadow channels,
 * the rest of its VM running on) while a host task is held at its trap,
 * how its queued submissions are let in and counted when it is sampled,
 * and the tree changing as tasks exit. Timer 0 is the engine's phase
 * timer, timer 1 its poll tick; sample 5ms, poll 1ms, first free run
 * until 25ms. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_hdfq;

#define MS MOCK_MS
#define PHASE 0

struct world {
	struct mock_hal *m;
	struct hal_task *h, *g1, *g2;
	struct hal_chan *ch, *c1, *c2;
};

/* A host task h and a VM with two guest tasks g1, g2; `hints` false: the
 * guest driver gives no ids. Each has one request in flight. */
static void world_open(struct world *w, int hints, const char *const *params)
{
	const int32_t parents[] = { -1 };
	int32_t vm = 0;

	w->m = mock_hal_new_vms(&gs_policy_hdfq, params, parents, 1, NULL);
	mock_advance(w->m, 0);
	w->h = mock_task_add(w->m, "h", 1);
	w->g1 = mock_task_add_in_vm(w->m, "g1", 1, vm);
	w->g2 = mock_task_add_in_vm(w->m, "g2", 1, vm);
	w->ch = mock_chan_add(w->m, w->h);
	w->c1 = mock_chan_add_guest(w->m, w->g1, hints ? 11 : 0);
	w->c2 = mock_chan_add_guest(w->m, w->g2, hints ? 12 : 0);
	assert_int_equal(mock_submit(w->m, w->ch), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(w->m, w->c1), MOCK_SUBMIT_DIRECT);
	assert_int_equal(mock_submit(w->m, w->c2), MOCK_SUBMIT_DIRECT);
}

/* The same at the first barrier (25ms). */
static void world_new(struct world *w, int hints, const char *const *params)
{
	world_open(w, hints, params);
	mock_advance(w->m, 25 * MS);
}

/* Finish what is outstanding everywhere and let the drain see it. */
static void drain(struct world *w)
{
	struct hal_chan *c[3] = { w->ch, w->c1, w->c2 };
	int i;

	for (i = 0; i < 3; i++)
		mock_complete(w->m, c[i], mock_submitted(w->m, c[i]) -
				  hal_fence_read(mock_sched(w->m), c[i]));
	mock_advance(w->m, mock_now(w->m) + 1 * MS);
}

/* End the current sample at its 5ms mark and let its last request
 * complete. */
static void end_sample(struct world *w, struct hal_chan *c)
{
	mock_advance(w->m, mock_timer_when(w->m, PHASE));
	mock_complete(w->m, c, mock_submitted(w->m, c) -
			       hal_fence_read(mock_sched(w->m), c));
	mock_advance(w->m, mock_now(w->m) + 1 * MS);
}

/* At the barrier both guests queue one more request; after the drain the
 * host task (the oldest entity) has its sample, one request long. */
static void both_guests_queue_then_host_sampled(struct world *w)
{
	assert_int_equal(mock_submit(w->m, w->c1), MOCK_SUBMIT_SHADOWED);
	assert_int_equal(mock_submit(w->m, w->c2), MOCK_SUBMIT_SHADOWED);
	drain(w);
	assert_int_equal(mock_submit(w->m, w->ch), GS_SUBMIT_ALLOW);
	end_sample(w, w->ch);
}

/* At the barrier the host task's doorbell is trapped (and its write
 * held), the guest tasks' channels are shadowed: their writes queue and
 * the tasks go on. */
static void test_barrier_traps_host_shadows_guests(void **state)
{
	struct world w;

	(void)state;
	world_new(&w, 1, NULL);
	assert_true(mock_trap_armed(w.m, w.ch));
	assert_false(mock_shadowed(w.m, w.ch));
	assert_true(mock_shadowed(w.m, w.c1));
	assert_true(mock_shadowed(w.m, w.c2));
	assert_false(mock_trap_armed(w.m, w.c1));

	/* g1 submits twice more: queued, not on the GPU, g1 not held */
	assert_int_equal(mock_submit(w.m, w.c1), MOCK_SUBMIT_SHADOWED);
	assert_int_equal(mock_submit(w.m, w.c1), MOCK_SUBMIT_SHADOWED);
	assert_int_equal(mock_submitted(w.m, w.c1), 1);
	assert_int_equal(hal_shadow_pending(mock_sched(w.m), w.c1), 2);
	assert_false(mock_held(w.m, w.g1));
	mock_hal_free(w.m);
}

/* Sampling a guest entity forwards what it queued, counted as its first
 * requests, and traps its channel to count the rest while its VM sibling
 * stays shadowed; at the end of its sample it is shadowed again. */
static void test_guest_sample_forwards_queue(void **state)
{
	struct world w;

	(void)state;
	world_new(&w, 1, NULL);
	assert_int_equal(mock_submit(w.m, w.c1), MOCK_SUBMIT_SHADOWED);
	drain(&w);
	/* h is sampled first (its entity is the oldest) */
	assert_int_equal(mock_submit(w.m, w.ch), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submitted(w.m, w.c1), 1); /* still queued */
	end_sample(&w, w.ch);

	/* g1's sample: its queued request went to the GPU */
	assert_int_equal(mock_submitted(w.m, w.c1), 2);
	assert_int_equal(hal_shadow_pending(mock_sched(w.m), w.c1), 0);
	assert_false(mock_shadowed(w.m, w.c1));
	assert_true(mock_trap_armed(w.m, w.c1));
	assert_true(mock_shadowed(w.m, w.c2));
	mock_complete(w.m, w.c1, 1);
	assert_int_equal(mock_submit(w.m, w.c1), GS_SUBMIT_ALLOW);
	assert_int_equal(mock_submitted(w.m, w.c1), 3);

	end_sample(&w, w.c1);
	assert_true(mock_shadowed(w.m, w.c1));
	assert_int_equal(mock_submit(w.m, w.c1), MOCK_SUBMIT_SHADOWED);
	assert_false(mock_held(w.m, w.g1));
	mock_hal_free(w.m);
}

/* A sample forwards at most sample_requests of the queue (Fleig 4.3.2);
 * the rest stays shadowed and the sample ends at once. */
static void test_guest_sample_forwards_at_most_the_limit(void **state)
{
	const char *params[] = { "sample_requests=2", NULL };
	struct world w;
	int i;

	(void)state;
	world_new(&w, 1, params);
	for (i = 0; i < 3; i++)
		assert_int_equal(mock_submit(w.m, w.c2), MOCK_SUBMIT_SHADOWED);
	drain(&w);
	assert_int_equal(mock_submit(w.m, w.ch), GS_SUBMIT_ALLOW);
	end_sample(&w, w.ch);
	end_sample(&w, w.c1);
	/* g2 gets 2 of its 3 in, the third waits */
	assert_int_equal(mock_submitted(w.m, w.c2), 3);
	assert_int_equal(hal_shadow_pending(mock_sched(w.m), w.c2), 1);
	assert_true(mock_shadowed(w.m, w.c2));
	mock_hal_free(w.m);
}

/* The free run lets everybody go: shadows off (what queued is
 * forwarded), traps off, the held host task released. */
static void test_free_run_forwards_and_releases(void **state)
{
	struct world w;
	struct hal_chan *c[3];
	int i;

	(void)state;
	world_new(&w, 1, NULL);
	c[0] = w.ch;
	c[1] = w.c1;
	c[2] = w.c2;
	/* the host task writes again and is held while draining */
	mock_complete(w.m, w.ch, 1);
	assert_int_equal(mock_submit(w.m, w.ch), GS_SUBMIT_HOLD);
	assert_true(mock_held(w.m, w.h));
	/* h, g1, g2 sampled in turn with no further requests; then the
	 * decision and the free run */
	while (mock_now(w.m) < 60 * MS && mock_trap_armed(w.m, w.ch)) {
		for (i = 0; i < 3; i++)
			mock_complete(w.m, c[i], mock_submitted(w.m, c[i]) -
				      hal_fence_read(mock_sched(w.m), c[i]));
		mock_advance(w.m, mock_now(w.m) + 1 * MS);
	}
	assert_false(mock_trap_armed(w.m, w.ch));
	assert_false(mock_held(w.m, w.h));
	assert_false(mock_shadowed(w.m, w.c1));
	assert_false(mock_shadowed(w.m, w.c2));
	assert_int_equal(mock_submit(w.m, w.c1), MOCK_SUBMIT_DIRECT);
	mock_hal_free(w.m);
}

/* Without hints the VM is one entity: sampling it lets both of its tasks'
 * channels in together; a task of it exiting leaves the other scheduled. */
static void test_hintless_vm_is_one_entity(void **state)
{
	struct world w;

	(void)state;
	world_new(&w, 0, NULL);
	both_guests_queue_then_host_sampled(&w);
	/* the VM's sample: both queues forwarded at once */
	assert_int_equal(mock_submitted(w.m, w.c1), 2);
	assert_int_equal(mock_submitted(w.m, w.c2), 2);
	assert_true(mock_trap_armed(w.m, w.c1));
	assert_true(mock_trap_armed(w.m, w.c2));

	/* g1 (the task the entity reports on) exits; g2 goes on in it */
	mock_task_exit(w.m, w.g1);
	mock_complete(w.m, w.c2, 1);
	assert_int_equal(mock_submit(w.m, w.c2), GS_SUBMIT_ALLOW);
	end_sample(&w, w.c2);
	/* the VM was sampled last: the free run lets it go */
	assert_false(mock_shadowed(w.m, w.c2));
	assert_int_equal(mock_submit(w.m, w.c2), MOCK_SUBMIT_DIRECT);
	mock_task_exit(w.m, w.g2);
	mock_task_exit(w.m, w.h);
	mock_hal_free(w.m);
}

/* With hints each guest task is its own entity: g1 and g2 are sampled
 * one after the other, each alone. */
static void test_hints_make_one_entity_per_guest_task(void **state)
{
	struct world w;

	(void)state;
	world_new(&w, 1, NULL);
	both_guests_queue_then_host_sampled(&w);
	assert_int_equal(mock_submitted(w.m, w.c1), 2);
	assert_int_equal(mock_submitted(w.m, w.c2), 1); /* g2 waits its turn */
	assert_true(mock_shadowed(w.m, w.c2));
	end_sample(&w, w.c1);
	assert_int_equal(mock_submitted(w.m, w.c2), 2);
	assert_true(mock_shadowed(w.m, w.c1));
	mock_hal_free(w.m);
}

/* With LoGA accounting nobody is sampled: at the first decision all run
 * free, unshadowed. */
static void test_loga_accounting_runs_free(void **state)
{
	const char *params[] = { "loga=true", NULL };
	struct world w;

	(void)state;
	world_new(&w, 1, params);
	assert_false(mock_shadowed(w.m, w.c1));
	assert_false(mock_trap_armed(w.m, w.ch));
	assert_int_equal(mock_submit(w.m, w.c1), MOCK_SUBMIT_DIRECT);
	mock_hal_free(w.m);
}

/* Nested mode: the host knows nothing of guest tasks. Hints or not, the
 * VM is one entity: its sample lets both tasks' queues in together, and
 * what it is charged is not reported on its tasks (the VM's own
 * scheduler, run by the environment, reports on them). */
static void test_nested_vm_is_one_entity_whatever_its_hints(void **state)
{
	const char *params[] = { "nested=true", NULL };
	struct world w;

	(void)state;
	world_new(&w, 1, params);
	both_guests_queue_then_host_sampled(&w);
	assert_int_equal(mock_submitted(w.m, w.c1), 2);
	assert_int_equal(mock_submitted(w.m, w.c2), 2);
	end_sample(&w, w.c1);
	mock_complete(w.m, w.c2, 1);
	mock_advance(w.m, mock_now(w.m) + 10 * MS);
	assert_true(mock_accounted(w.m, w.h) > 0);
	assert_int_equal(mock_accounted(w.m, w.g1), 0);
	assert_int_equal(mock_accounted(w.m, w.g2), 0);
	mock_hal_free(w.m);
}

/* Nested mode needs no sampling of its own any more: with LoGA's
 * accounting it initialises and lets the VM run free at first. */
static void test_nested_with_loga_runs(void **state)
{
	const char *params[] = { "nested=true", "loga=true", NULL };
	struct world w;

	(void)state;
	world_new(&w, 1, params);
	assert_false(mock_shadowed(w.m, w.c1));
	assert_false(mock_shadowed(w.m, w.c2));
	assert_int_equal(mock_submit(w.m, w.c1), MOCK_SUBMIT_DIRECT);
	mock_hal_free(w.m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_barrier_traps_host_shadows_guests),
		cmocka_unit_test(test_guest_sample_forwards_queue),
		cmocka_unit_test(test_guest_sample_forwards_at_most_the_limit),
		cmocka_unit_test(test_free_run_forwards_and_releases),
		cmocka_unit_test(test_hintless_vm_is_one_entity),
		cmocka_unit_test(test_hints_make_one_entity_per_guest_task),
		cmocka_unit_test(test_loga_accounting_runs_free),
		cmocka_unit_test(test_nested_vm_is_one_entity_whatever_its_hints),
		cmocka_unit_test(test_nested_with_loga_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
