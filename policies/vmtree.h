/* Shares of the GPU for a tree of scheduling entities (Fleig, section
 * 3.3.4): the host at the root, VMs (nested) below it, and the leaves,
 * the entities a policy schedules (host tasks, guest tasks told apart by
 * paravirtual hints, or a whole VM without hints).
 *
 * Formula 3.1 gives an entity the weight w(n) = w(parent) x c(parent)
 * (c: number of children), 1 for the root's children, and each entity
 * 1/w of a host task's GPU time. Generalised to user weights u, a node's
 * share of its parent is u(n) / the sum of u over its siblings, so
 *
 *   share(root) = 1,  share(n) = share(p) x u(n) / sum_{m child of p} u(m)
 *
 * and with every u = 1 this is formula 3.1 (share = 1 / (c(root) x w)).
 * Only nodes with a present leaf below them count as children: a VM whose
 * tasks all exited, or whose tasks have not started, takes no share, so
 * the shares are recomputed when leaves come and go (vmtree_leaf_add /
 * _del, then vmtree_share). Fixed point, no recursion: VMs are numbered
 * so that a parent comes before its children (the loader's pre-order).
 */
#ifndef GS_POLICY_VMTREE_H
#define GS_POLICY_VMTREE_H

#include "hal.h"

/* Shares are fractions of the GPU in fixed point: VMT_ONE is all of it. */
#define VMT_SHIFT 32
#define VMT_ONE ((hal_u64)1 << VMT_SHIFT)

/* The root (the host) as a VM index. */
#define VMT_ROOT (-1)

struct vmt_node {
	hal_s32 parent;     /* VM index, VMT_ROOT for a top-level VM */
	hal_u32 weight;     /* user weight, >= 1 */
	hal_u32 leaves;     /* present leaves in its subtree */
	hal_u32 children;   /* present children (leaves and VMs) */
	hal_u64 child_sum;  /* sum of the user weights of present children */
	hal_u64 share;      /* of the GPU, VMT_ONE = all (vmtree_share) */
};

struct vmtree {
	hal_u32 n_vms;
	struct vmt_node *vm; /* n_vms nodes */
	struct vmt_node root;
	hal_u8 dirty;        /* leaves changed since the last vmtree_share */
};

/* Reads the tree from the HAL (hal_vm_count/parent/weight). Returns 0, or
 * -1 when out of memory or a parent does not come before its child. */
int vmtree_init(struct hal_sched *s, struct vmtree *t);
void vmtree_fini(struct hal_sched *s, struct vmtree *t);

/* A leaf of user weight `weight` (0 counts as 1) appears in / leaves `vm`
 * (VMT_ROOT: on the host). Add and del must pair with the same values. */
void vmtree_leaf_add(struct vmtree *t, hal_s32 vm, hal_u32 weight);
void vmtree_leaf_del(struct vmtree *t, hal_s32 vm, hal_u32 weight);

/* Share of the GPU of a present leaf of `weight` in `vm` (VMT_ONE = all):
 * the product of its ancestors' fractions. Recomputes the VMs' shares if
 * leaves came or went since the last call. */
hal_u64 vmtree_share(struct vmtree *t, hal_s32 vm, hal_u32 weight);

/* The leaf's weight for virtual time (vtime.h fixed point, VT_WEIGHT_ONE =
 * 1): its share relative to the root's average child, so that every leaf
 * directly on the host with user weight 1 among equals has weight 1 and a
 * guest task has 1/w of formula 3.1 (Fig. 3.5: t1 1, t2 and t3 1/2). */
hal_u64 vmtree_vt_weight(struct vmtree *t, hal_s32 vm, hal_u32 weight);

/* Number of present children of a VM (VMT_ROOT: of the host): c(n). */
hal_u32 vmtree_children(const struct vmtree *t, hal_s32 vm);

#endif
