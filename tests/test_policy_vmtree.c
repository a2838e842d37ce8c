/* Unit tests of policies/vmtree.c: GPU shares of the scheduling entities
 * of a VM tree (Fleig formula 3.1 with user weights), for trees whose
 * leaves come and go. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "policies/vmtree.h"
#include "policies/vtime.h"
#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_direct;

/* A share within 2^-24 of num/den of the GPU (fixed-point rounding). */
#define assert_share(tree, vm, w, num, den)                                  \
	assert_in_range(vmtree_share((tree), (vm), (w)),                     \
			(VMT_ONE / (den)) * (num) - 256,                     \
			(VMT_ONE / (den)) * (num) + 256)

struct fixture {
	struct mock_hal *m;
	struct vmtree t;
};

static int setup(void **state)
{
	struct fixture *f = test_calloc(1, sizeof(*f));

	f->m = mock_hal_new(&gs_policy_direct, NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	vmtree_fini(mock_sched(f->m), &f->t);
	mock_hal_free(f->m);
	test_free(f);
	return 0;
}

static void init_tree(struct fixture *f)
{
	assert_int_equal(vmtree_init(mock_sched(f->m), &f->t), 0);
}

/* Fig. 3.5: vm1{t1}, vm2{t2, t3}: 1/2, 1/4, 1/4; formula 3.1 weights 1,
 * 2, 2, i.e. vtime weights 1, 1/2, 1/2. */
static void test_fig_3_5(void **state)
{
	struct fixture *f = *state;
	int32_t vm1 = mock_vm_add(f->m, -1, 1), vm2 = mock_vm_add(f->m, -1, 1);

	init_tree(f);
	vmtree_leaf_add(&f->t, vm1, 1);
	vmtree_leaf_add(&f->t, vm2, 1);
	vmtree_leaf_add(&f->t, vm2, 1);
	assert_share(&f->t, vm1, 1, 1, 2);
	assert_share(&f->t, vm2, 1, 1, 4);
	assert_int_equal(vmtree_vt_weight(&f->t, vm1, 1), VT_WEIGHT_ONE);
	assert_int_equal(vmtree_vt_weight(&f->t, vm2, 1), VT_WEIGHT_ONE / 2);
	assert_int_equal(vmtree_children(&f->t, VMT_ROOT), 2);
	assert_int_equal(vmtree_children(&f->t, vm2), 2);
}

/* host{t0, vmA{t1, vmB{t2, t3}}}: 1/2, 1/4, 1/8, 1/8. */
static void test_three_levels(void **state)
{
	struct fixture *f = *state;
	int32_t a = mock_vm_add(f->m, -1, 1), b = mock_vm_add(f->m, a, 1);

	init_tree(f);
	vmtree_leaf_add(&f->t, VMT_ROOT, 1);
	vmtree_leaf_add(&f->t, a, 1);
	vmtree_leaf_add(&f->t, b, 1);
	vmtree_leaf_add(&f->t, b, 1);
	assert_share(&f->t, VMT_ROOT, 1, 1, 2);
	assert_share(&f->t, a, 1, 1, 4);
	assert_share(&f->t, b, 1, 1, 8);
	/* formula 3.1: w(t2) = w(vmB) c(vmB) = w(vmA) c(vmA) c(vmB) = 4 */
	assert_int_equal(vmtree_vt_weight(&f->t, b, 1), VT_WEIGHT_ONE / 4);
	assert_int_equal(vmtree_vt_weight(&f->t, VMT_ROOT, 1), VT_WEIGHT_ONE);
}

/* User weights: a node's share of its parent is its weight over the sum
 * of its siblings' weights, at every level. */
static void test_user_weights(void **state)
{
	struct fixture *f = *state;
	int32_t big = mock_vm_add(f->m, -1, 2), small = mock_vm_add(f->m, -1, 1);

	init_tree(f);
	vmtree_leaf_add(&f->t, big, 1);
	vmtree_leaf_add(&f->t, small, 1);
	assert_share(&f->t, big, 1, 2, 3);
	assert_share(&f->t, small, 1, 1, 3);
	/* relative to the mean top-level share (1/2): 4/3 and 2/3 */
	assert_in_range(vmtree_vt_weight(&f->t, big, 1),
			VT_WEIGHT_ONE * 4 / 3 - 1, VT_WEIGHT_ONE * 4 / 3 + 1);
	/* task weights inside a VM: 3:1 of the small VM's third */
	vmtree_leaf_del(&f->t, small, 1);
	vmtree_leaf_add(&f->t, small, 3);
	vmtree_leaf_add(&f->t, small, 1);
	assert_share(&f->t, small, 3, 1, 4);
	assert_share(&f->t, small, 1, 1, 12);
	assert_share(&f->t, big, 1, 2, 3);
}

/* Leaves that exit, are killed or start late: shares follow the tree of
 * present leaves; an empty VM takes nothing. */
static void test_tree_changes(void **state)
{
	struct fixture *f = *state;
	int32_t vm1 = mock_vm_add(f->m, -1, 1), vm2 = mock_vm_add(f->m, -1, 1);
	int32_t inner = mock_vm_add(f->m, vm2, 1);

	init_tree(f);
	/* nothing present yet: no share anywhere, weight 1 */
	assert_int_equal(vmtree_share(&f->t, vm1, 1), 0);
	assert_int_equal(vmtree_vt_weight(&f->t, vm1, 1), VT_WEIGHT_ONE);

	vmtree_leaf_add(&f->t, vm1, 1);
	assert_share(&f->t, vm1, 1, 1, 1); /* alone: all of it */
	vmtree_leaf_add(&f->t, vm2, 1);
	vmtree_leaf_add(&f->t, vm2, 1);
	assert_share(&f->t, vm2, 1, 1, 4);

	/* a task starts late in the nested VM: vm2's half splits in 3 */
	vmtree_leaf_add(&f->t, inner, 1);
	assert_share(&f->t, vm2, 1, 1, 6);
	assert_share(&f->t, inner, 1, 1, 6);
	assert_share(&f->t, vm1, 1, 1, 2);
	assert_int_equal(vmtree_children(&f->t, vm2), 3);

	/* one of vm2's tasks exits: 1/4 each again */
	vmtree_leaf_del(&f->t, vm2, 1);
	assert_share(&f->t, vm2, 1, 1, 4);
	assert_share(&f->t, inner, 1, 1, 4);

	/* vm1's only task is killed: vm1 no longer counts */
	vmtree_leaf_del(&f->t, vm1, 1);
	assert_int_equal(vmtree_children(&f->t, VMT_ROOT), 1);
	assert_share(&f->t, vm2, 1, 1, 2);
	assert_share(&f->t, inner, 1, 1, 2);

	/* the nested VM empties; then a host task arrives */
	vmtree_leaf_del(&f->t, inner, 1);
	assert_int_equal(vmtree_children(&f->t, vm2), 1);
	assert_share(&f->t, vm2, 1, 1, 1);
	vmtree_leaf_add(&f->t, VMT_ROOT, 1);
	assert_share(&f->t, VMT_ROOT, 1, 1, 2);
	assert_share(&f->t, vm2, 1, 1, 2);
	assert_int_equal(vmtree_vt_weight(&f->t, vm2, 1), VT_WEIGHT_ONE);

	/* everything leaves: the counts go back to zero */
	vmtree_leaf_del(&f->t, VMT_ROOT, 1);
	vmtree_leaf_del(&f->t, vm2, 1);
	assert_int_equal(vmtree_children(&f->t, VMT_ROOT), 0);
	assert_int_equal(vmtree_children(&f->t, vm2), 0);
	assert_int_equal(vmtree_share(&f->t, vm2, 1), 0);
}

/* A chain of ten VMs, each with one task and the next VM: every level
 * halves, down to the last VM's only task with 1/2^10 (vtime weight 1/2^9
 * against the host's task). */
static void test_deep_chain(void **state)
{
	struct fixture *f = *state;
	int32_t vm = -1;
	int i;

	for (i = 0; i < 10; i++)
		vm = mock_vm_add(f->m, vm, 1);
	init_tree(f);
	for (i = -1; i < 10; i++)
		vmtree_leaf_add(&f->t, i, 1);
	assert_share(&f->t, 9, 1, 1, 1024);
	assert_share(&f->t, 8, 1, 1, 1024);
	assert_share(&f->t, 0, 1, 1, 4);
	assert_share(&f->t, VMT_ROOT, 1, 1, 2);
	assert_int_equal(vmtree_vt_weight(&f->t, 9, 1), VT_WEIGHT_ONE / 512);
}

/* A parent numbered after its child is refused (shares are computed in
 * index order); an unknown VM index counts as the host. */
static void test_bad_tree_and_unknown_vm(void **state)
{
	struct fixture *f = *state;

	mock_vm_add(f->m, 1, 1);
	mock_vm_add(f->m, -1, 1);
	assert_int_equal(vmtree_init(mock_sched(f->m), &f->t), -1);
	assert_null(f->t.vm);

	f->t.n_vms = 0;
	vmtree_leaf_add(&f->t, 7, 1);
	assert_int_equal(vmtree_children(&f->t, VMT_ROOT), 1);
	vmtree_leaf_del(&f->t, 7, 1);
	assert_int_equal(vmtree_children(&f->t, VMT_ROOT), 0);
	/* an unpaired delete changes nothing */
	vmtree_leaf_del(&f->t, VMT_ROOT, 1);
	assert_int_equal(vmtree_children(&f->t, VMT_ROOT), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fig_3_5, setup, teardown),
		cmocka_unit_test_setup_teardown(test_three_levels, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_user_weights, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_tree_changes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_deep_chain, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_tree_and_unknown_vm,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
