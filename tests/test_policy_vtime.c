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

/* A hierarchy's fixed-point weights are normalised like user weights:
 * hdfq's tree sets 1/2 and 1, the mean 3/4 is 1. */
static void test_fixed_point_weight_normalised(void **state)
{
	struct fixture *f = fx_new(2);

	(void)state;
	vt_task_set_weight_fp(&f->t[0], VT_WEIGHT_ONE / 2);
	f->t[0].usage = f->t[1].usage = 4 * MS;
	f->t[0].active = f->t[1].active = 1;
	vt_epoch_end(&f->sys);
	assert_int_equal(f->t[0].vtime, 6 * MS);
	assert_int_equal(f->t[1].vtime, 3 * MS);
}

/* Two tasks of weights 3 and 1 compete for two epochs, alone or beside a
 * third of weight `idle_w` (user or fixed point) that never has work:
 * the third changes neither vtime nor decision. It did: the mean weight
 * took it in (7/3 instead of 2), so vtimes advanced slower against the
 * interval (gpusim generate --seed 412 --policy loga --preset kepler,
 * --seed 431 --policy hdfq). */
static void check_never_active_changes_nothing(int fixed_point)
{
	const uint64_t u[3] = { 6 * MS, 2 * MS, 0 };
	const uint8_t a[3] = { 1, 1, 0 };
	uint64_t vt[2][2];
	unsigned denied[2], k, i;

	for (k = 0; k < 2; k++) {
		struct fixture *f = fx_new(0);

		vt_task_add(&f->sys, &f->t[0], 3);
		vt_task_add(&f->sys, &f->t[1], 1);
		if (k)
			vt_task_add(&f->sys, &f->t[2], 3);
		if (fixed_point)
			for (i = 0; i < 2 + k; i++)
				vt_task_set_weight_fp(
					&f->t[i], (i == 1 ? 1 : 3) * VT_WEIGHT_ONE);
		epoch(f, 2 + k, u, a);
		epoch(f, 2 + k, u, a);
		denied[k] = vt_decide(&f->sys, 2 * MS, 1);
		for (i = 0; i < 2; i++)
			vt[k][i] = f->t[i].vtime;
	}
	/* mean weight 2: 6 ms / (3/2) = 4 ms, 2 ms / (1/2) = 4 ms a time */
	assert_int_equal(vt[0][0], 8 * MS);
	assert_int_equal(vt[0][1], 8 * MS);
	assert_int_equal(denied[0], 0);
	assert_int_equal(denied[1], denied[0]);
	for (i = 0; i < 2; i++)
		assert_int_equal(vt[1][i], vt[0][i]);
}

static void test_never_active_task_changes_nothing(void **state)
{
	(void)state;
	check_never_active_changes_nothing(0);
	check_never_active_changes_nothing(1);
}

/* A task that has had work counts in the mean even in an epoch it sleeps
 * through: the others advance at one rate whether it competes or not. */
static void test_sleeping_task_still_counts(void **state)
{
	struct fixture *f = fx_new(0);
	const uint64_t u[2] = { 3 * MS, 3 * MS };
	const uint8_t both[2] = { 1, 1 }, first[2] = { 1, 0 };

	(void)state;
	vt_task_add(&f->sys, &f->t[0], 1);
	vt_task_add(&f->sys, &f->t[1], 2);
	epoch(f, 2, u, both);  /* mean 3/2: 4.5 ms and 2.25 ms */
	epoch(f, 2, u, first); /* t1 sleeps: t0 still 3 ms / (2/3) */
	assert_int_equal(f->t[0].vtime, 9 * MS);
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
		cmocka_unit_test(test_fixed_point_weight_normalised),
		cmocka_unit_test(test_never_active_task_changes_nothing),
		cmocka_unit_test(test_sleeping_task_still_counts),
		cmocka_unit_test(test_del_removes_from_min),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
