/* policies/vtime.c: the usage of a task that is idle at the decision is
 * charged too (rule 1), and with nobody active the system vtime follows
 * the tasks that were charged (rule 2). Found by seed 732 under dfq on
 * volta: a task idle at every barrier, in step with the free runs, was
 * never charged and took 0.70 of the GPU in one task order, 0.19 in the
 * other. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "policies/vtime.h"

#define MS 1000000ULL

/* One epoch: usage and activity per task, then the deny decision for an
 * interval of `interval`. */
static void epoch(struct vt_sys *sys, struct vt_task *t, unsigned n,
		  const uint64_t *usage, const uint8_t *active,
		  uint64_t interval)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		t[i].usage = usage[i];
		t[i].active = active[i];
	}
	vt_epoch_end(sys);
	vt_decide(sys, interval, 1);
}

static void add_tasks(struct vt_sys *sys, struct vt_task *t, unsigned n)
{
	unsigned i;

	vt_init(sys);
	for (i = 0; i < n; i++)
		vt_task_add(sys, &t[i], 1);
}

/* b used 25 ms of every free run but is idle at every decision; a, busy
 * at each, used 5 ms. b must lead, and be denied once it leads by the
 * interval. */
static void test_idle_at_decision_is_charged(void **state)
{
	struct vt_sys sys;
	struct vt_task t[2];
	const uint64_t usage[2] = { 5 * MS, 25 * MS };
	const uint8_t active[2] = { 1, 0 };

	(void)state;
	add_tasks(&sys, t, 2);
	epoch(&sys, t, 2, usage, active, 30 * MS);
	assert_int_equal(t[0].vtime, 5 * MS);
	assert_int_equal(t[1].vtime, 25 * MS);
	assert_int_equal(sys.vtime, 5 * MS); /* only a sets it */
	assert_false(t[1].denied);           /* 20 ms ahead */
	epoch(&sys, t, 2, usage, active, 30 * MS);
	assert_int_equal(t[1].vtime, 50 * MS);
	assert_int_equal(sys.vtime, 10 * MS);
	assert_true(t[1].denied);            /* 40 ms ahead */
	assert_false(t[0].denied);
}

/* An idle task with no usage is still pulled forward, whatever it was
 * charged before: idleness builds no credit. */
static void test_idle_without_usage_pulled_forward(void **state)
{
	struct vt_sys sys;
	struct vt_task t[2];
	const uint64_t usage[2] = { 8 * MS, 0 };
	const uint8_t active[2] = { 1, 0 };

	(void)state;
	add_tasks(&sys, t, 2);
	epoch(&sys, t, 2, usage, active, 30 * MS);
	assert_int_equal(t[1].vtime, 8 * MS);
	assert_int_equal(sys.vtime, 8 * MS);
}

/* A lone task idle at every decision (its work done just before each):
 * its charge moves the system vtime with it, so it never leads and is
 * never denied (no other task to be fair to). */
static void test_lone_idle_task_not_denied(void **state)
{
	struct vt_sys sys;
	struct vt_task t[1];
	const uint64_t usage[1] = { 25 * MS };
	const uint8_t active[1] = { 0 };
	unsigned i;

	(void)state;
	add_tasks(&sys, t, 1);
	for (i = 0; i < 4; i++) {
		epoch(&sys, t, 1, usage, active, 10 * MS);
		assert_int_equal(sys.vtime, t[0].vtime);
		assert_false(t[0].denied);
	}
	assert_int_equal(sys.vtime, 100 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_at_decision_is_charged),
		cmocka_unit_test(test_idle_without_usage_pulled_forward),
		cmocka_unit_test(test_lone_idle_task_not_denied),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
