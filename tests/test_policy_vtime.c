/* Unit tests of policies/vtime.c, the virtual-time rules shared by dfq,
 * loga and hdfq (NEON 3.3 steps 1-3, LoGA 3.4). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "policies/vtime.h"

#define MS 1000000ULL

struct fixture {
	struct vt_sys sys;
	struct vt_task t[4];
};

static struct fixture *fx_new(unsigned n)
{
	static struct fixture f; /* tests run one at a time */
	unsigned i;

	vt_init(&f.sys);
	for (i = 0; i < n; i++)
		vt_task_add(&f.sys, &f.t[i], 1);
	return &f;
}

static unsigned epoch(struct fixture *f, unsigned n, const uint64_t *usage,
		      const uint8_t *active)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		f->t[i].usage = usage[i];
		f->t[i].active = active[i];
	}
	return vt_epoch_end(&f->sys);
}

/* DFQ's rule: avg_i * epoch / sum of averages. */
static void test_share_splits_epoch_by_request_size(void **state)
{
	(void)state;
	assert_int_equal(vt_share(300, 400, 25 * MS), 18750000);
	assert_int_equal(vt_share(100, 400, 25 * MS), 6250000);
	assert_int_equal(vt_share(5, 0, 25 * MS), 0);
	/* no overflow of the product: 2^40 * 2^40 / 2^41 */
	assert_int_equal(vt_share(1ULL << 40, 1ULL << 41, 1ULL << 40),
			 1ULL << 39);
}

static void test_active_advance_and_system_is_min(void **state)
{
	struct fixture *f = fx_new(3);
	const uint64_t u[3] = { 7 * MS, 3 * MS, 5 * MS };
	const uint8_t a[3] = { 1, 1, 1 };

	(void)state;
	epoch(f, 3, u, a);
	assert_int_equal(f->t[0].vtime, 7 * MS);
	assert_int_equal(f->t[1].vtime, 3 * MS);
	assert_int_equal(f->t[2].vtime, 5 * MS);
	assert_int_equal(f->sys.vtime, 3 * MS);
	assert_int_equal(f->t[0].usage, 0); /* consumed */
}

static void test_idle_does_not_set_min_and_is_pulled_forward(void **state)
{
	struct fixture *f = fx_new(3);
	const uint64_t u[3] = { 7 * MS, 3 * MS, 0 };
	const uint8_t a[3] = { 1, 1, 0 };

	(void)state;
	epoch(f, 3, u, a);
	/* task 2 sat at 0 but was idle: the minimum is task 1's */
	assert_int_equal(f->sys.vtime, 3 * MS);
	assert_int_equal(f->t[2].vtime, 3 * MS);
}

static void test_idle_ahead_keeps_its_vtime(void **state)
{
	struct fixture *f = fx_new(2);
	const uint64_t u1[2] = { 10 * MS, 1 * MS };
	const uint8_t a1[2] = { 1, 1 };
	const uint64_t u2[2] = { 0, 2 * MS };
	const uint8_t a2[2] = { 0, 1 };

	(void)state;
	epoch(f, 2, u1, a1);
	epoch(f, 2, u2, a2);
	assert_int_equal(f->t[0].vtime, 10 * MS);
	assert_int_equal(f->sys.vtime, 3 * MS);
}

static void test_no_active_task_leaves_system_vtime(void **state)
{
	struct fixture *f = fx_new(2);
	const uint64_t u1[2] = { 4 * MS, 2 * MS };
	const uint8_t a1[2] = { 1, 1 };
	const uint64_t u2[2] = { 0, 0 };
	const uint8_t a2[2] = { 0, 0 };

	(void)state;
	assert_int_equal(epoch(f, 2, u1, a1), 2);
	assert_int_equal(epoch(f, 2, u2, a2), 0);
	assert_int_equal(f->sys.vtime, 2 * MS);
	assert_int_equal(f->t[0].vtime, 4 * MS);
}

static void test_new_task_starts_at_system_vtime(void **state)
{
	struct fixture *f = fx_new(2);
	const uint64_t u[2] = { 9 * MS, 4 * MS };
	const uint8_t a[2] = { 1, 1 };

	(void)state;
	epoch(f, 2, u, a);
	vt_task_add(&f->sys, &f->t[2], 1);
	assert_int_equal(f->t[2].vtime, 4 * MS);
}

static void test_deny_at_interval_or_more(void **state)
{
	struct fixture *f = fx_new(3);
	const uint64_t u[3] = { 14 * MS, 4 * MS, 13 * MS };
	const uint8_t a[3] = { 1, 1, 1 };

	(void)state;
	epoch(f, 3, u, a);
	/* leads: 10ms, 0, 9ms against an interval of 10ms */
	assert_int_equal(vt_decide(&f->sys, 10 * MS, 1), 1);
	assert_true(f->t[0].denied);   /* exactly the interval: denied */
	assert_false(f->t[1].denied);
	assert_false(f->t[2].denied);
	assert_int_equal(vt_lead(&f->sys, &f->t[2]), 9 * MS);
	/* a shorter interval denies more; accounting-only denies nobody */
	assert_int_equal(vt_decide(&f->sys, 9 * MS, 1), 2);
	assert_int_equal(vt_decide(&f->sys, 9 * MS, 0), 0);
	assert_false(f->t[0].denied);
	assert_int_equal(vt_decide(&f->sys, 0, 1), 0);
}

static void test_weight_scales_advance(void **state)
{
	struct fixture *f = fx_new(0);

	(void)state;
	vt_task_add(&f->sys, &f->t[0], 1);
	vt_task_add(&f->sys, &f->t[1], 2);
	f->t[0].usage = 6 * MS;
	f->t[1].usage = 6 * MS;
	f->t[0].active = f->t[1].active = 1;
	vt_epoch_end(&f->sys);
	/* relative to the mean weight 1.5: 6 / (2/3) and 6 / (4/3) */
	assert_int_equal(f->t[0].vtime, 9 * MS);
	assert_int_equal(f->t[1].vtime, 4500000);
	assert_int_equal(f->sys.vtime, 4500000);
}

/* Only the ratio of weights matters: 1:2:4, 10:20:40 and 100:200:400
 * advance the same vtimes and deny the same tasks (vtime is compared with
 * an interval of real time; unnormalised, x100 weights advanced 100 times
 * less and nobody was ever denied). */
static void test_weight_scale_does_not_matter(void **state)
{
	static const hal_u32 scale[3] = { 1, 10, 100 };
	const uint64_t u[3] = { 10 * MS, 10 * MS, 10 * MS };
	const uint8_t a[3] = { 1, 1, 1 };
	uint64_t vt[3][3];
	unsigned k, i, denied[3];

	(void)state;
	for (k = 0; k < 3; k++) {
		struct fixture *f = fx_new(0);

		for (i = 0; i < 3; i++)
			vt_task_add(&f->sys, &f->t[i], scale[k] << i);
		epoch(f, 3, u, a);
		denied[k] = vt_decide(&f->sys, 10 * MS, 1);
		for (i = 0; i < 3; i++)
			vt[k][i] = f->t[i].vtime;
	}
	/* mean weight 7/3: 10 ms / (3/7), / (6/7), / (12/7); only the
	 * weight-1 task leads the slowest by an interval */
	assert_int_equal(vt[0][0], 70 * MS / 3);
	assert_int_equal(vt[0][2], 70 * MS / 12);
	assert_int_equal(denied[0], 1);
	for (k = 1; k < 3; k++) {
		assert_int_equal(denied[k], denied[0]);
		for (i = 0; i < 3; i++)
			assert_int_equal(vt[k][i], vt[0][i]);
	}
}

/* A hierarchy's fixed-point weight is used as given: hdfq normalises its
 * tree itself. */
static void test_fixed_point_weight_not_renormalised(void **state)
{
	struct fixture *f = fx_new(2);

	(void)state;
	vt_task_set_weight_fp(&f->t[0], VT_WEIGHT_ONE / 2);
	f->t[0].usage = f->t[1].usage = 4 * MS;
	f->t[0].active = f->t[1].active = 1;
	vt_epoch_end(&f->sys);
	assert_int_equal(f->t[0].vtime, 8 * MS);
	assert_int_equal(f->t[1].vtime, 4 * MS);
}

static void test_del_removes_from_min(void **state)
{
	struct fixture *f = fx_new(2);
	const uint64_t u[2] = { 8 * MS, 2 * MS };
	const uint8_t a[2] = { 1, 1 };

	(void)state;
	epoch(f, 2, u, a);
	vt_task_del(&f->t[1]);
	f->t[0].usage = 1 * MS;
	f->t[0].active = 1;
	vt_epoch_end(&f->sys);
	assert_int_equal(f->sys.vtime, 9 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_splits_epoch_by_request_size),
		cmocka_unit_test(test_active_advance_and_system_is_min),
		cmocka_unit_test(test_idle_does_not_set_min_and_is_pulled_forward),
		cmocka_unit_test(test_idle_ahead_keeps_its_vtime),
		cmocka_unit_test(test_no_active_task_leaves_system_vtime),
		cmocka_unit_test(test_new_task_starts_at_system_vtime),
		cmocka_unit_test(test_deny_at_interval_or_more),
		cmocka_unit_test(test_weight_scales_advance),
		cmocka_unit_test(test_weight_scale_does_not_matter),
		cmocka_unit_test(test_fixed_point_weight_not_renormalised),
		cmocka_unit_test(test_del_removes_from_min),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
