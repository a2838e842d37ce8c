/* Shares of the GPU for the VM tree of scheduling entities: see vmtree.h. */
#include "vmtree.h"
#include "vtime.h"

static struct vmt_node *node(struct vmtree *t, hal_s32 vm)
{
	return vm == VMT_ROOT ? &t->root : &t->vm[vm];
}

static int vm_valid(const struct vmtree *t, hal_s32 vm)
{
	return vm == VMT_ROOT || (vm >= 0 && (hal_u32)vm < t->n_vms);
}

int vmtree_init(struct hal_sched *s, struct vmtree *t)
{
	hal_u32 i, n = hal_vm_count(s);

	t->n_vms = 0;
	t->vm = 0;
	t->root.parent = VMT_ROOT;
	t->root.weight = 1;
	t->root.leaves = t->root.children = 0;
	t->root.child_sum = 0;
	t->root.share = VMT_ONE;
	t->dirty = 0;
	if (!n)
		return 0;
	t->vm = hal_zalloc(s, (hal_u64)n * sizeof(*t->vm));
	if (!t->vm)
		return -1;
	t->n_vms = n;
	for (i = 0; i < n; i++) {
		hal_s32 p = hal_vm_parent(s, (hal_s32)i);
		hal_u32 w = hal_vm_weight(s, (hal_s32)i);

		/* parents first: shares are computed in index order */
		if (p != VMT_ROOT && (p < 0 || (hal_u32)p >= i)) {
			vmtree_fini(s, t);
			return -1;
		}
		t->vm[i].parent = p;
		t->vm[i].weight = w ? w : 1;
	}
	return 0;
}

void vmtree_fini(struct hal_sched *s, struct vmtree *t)
{
	if (t->vm)
		hal_free(s, t->vm);
	t->vm = 0;
	t->n_vms = 0;
}

/* One more (or one fewer, delta -1) leaf below `vm`: a VM that gains its
 * first leaf becomes a child of its parent, one that loses its last
 * leaf stops being one. */
static void count_leaf(struct vmtree *t, hal_s32 vm, int delta)
{
	while (vm != VMT_ROOT) {
		struct vmt_node *n = node(t, vm);
		struct vmt_node *p = node(t, n->parent);

		if (delta > 0) {
			if (n->leaves++)
				break;
			p->children++;
			p->child_sum += n->weight;
		} else {
			if (--n->leaves)
				break;
			p->children--;
			p->child_sum -= n->weight;
		}
		vm = n->parent;
	}
	/* the loop stops early once an ancestor already had leaves; the
	 * counts above it are about VMs, not leaves, and stay right */
}

void vmtree_leaf_add(struct vmtree *t, hal_s32 vm, hal_u32 weight)
{
	struct vmt_node *n;

	if (!vm_valid(t, vm))
		vm = VMT_ROOT;
	n = node(t, vm);
	n->children++;
	n->child_sum += weight ? weight : 1;
	count_leaf(t, vm, 1);
	t->dirty = 1;
}

void vmtree_leaf_del(struct vmtree *t, hal_s32 vm, hal_u32 weight)
{
	struct vmt_node *n;
	hal_u32 w = weight ? weight : 1;

	if (!vm_valid(t, vm))
		vm = VMT_ROOT;
	n = node(t, vm);
	if (!n->children || n->child_sum < w)
		return; /* unpaired: a policy bug, ignored */
	n->children--;
	n->child_sum -= w;
	count_leaf(t, vm, -1);
	t->dirty = 1;
}

static void recompute(struct vmtree *t)
{
	hal_u32 i;

	for (i = 0; i < t->n_vms; i++) {
		struct vmt_node *n = &t->vm[i];
		struct vmt_node *p = node(t, n->parent);

		n->share = n->leaves && p->child_sum
				   ? hal_mul_div64(p->share, n->weight,
						   p->child_sum)
				   : 0;
	}
	t->dirty = 0;
}

hal_u64 vmtree_share(struct vmtree *t, hal_s32 vm, hal_u32 weight)
{
	struct vmt_node *n;

	if (!vm_valid(t, vm))
		vm = VMT_ROOT;
	if (t->dirty)
		recompute(t);
	n = node(t, vm);
	if (!n->child_sum)
		return 0;
	return hal_mul_div64(n->share, weight ? weight : 1, n->child_sum);
}

hal_u64 vmtree_vt_weight(struct vmtree *t, hal_s32 vm, hal_u32 weight)
{
	hal_u64 share = vmtree_share(t, vm, weight);
	hal_u64 w;

	if (!t->root.children)
		return VT_WEIGHT_ONE;
	/* share x c(root), from VMT fixed point to vtime's, rounded to the
	 * nearest (1/3 x 3 is 1, not 1 - 2^-16) */
	w = hal_mul_div64(share, (hal_u64)t->root.children * VT_WEIGHT_ONE * 2,
			  VMT_ONE);
	w = (w + 1) >> 1;
	return w ? w : 1;
}

hal_u32 vmtree_children(const struct vmtree *t, hal_s32 vm)
{
	if (!vm_valid(t, vm))
		vm = VMT_ROOT;
	return vm == VMT_ROOT ? t->root.children : t->vm[vm].children;
}
