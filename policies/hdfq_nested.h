/* hdfq's nested mode (Fleig 3.4): the host schedules each top-level VM as
 * one entity; each VM runs its own scheduler (a DFQ engine with its own
 * sampling) over its guest tasks. See hdfq_nested.c. */
#ifndef GS_POLICY_HDFQ_NESTED_H
#define GS_POLICY_HDFQ_NESTED_H

#include "dfq.h"

/* At most this many top-level VMs get a scheduler of their own (each
 * engine takes two timers; the host's takes the first two). */
#define HDFQ_NESTED_MAX_VMS ((HAL_MAX_TIMERS - 2) / 2)

struct hdfq_nested;

/* `host` is the engine at the start of hal_priv. Returns 0, or -1 (out of
 * memory, or more top-level VMs than HDFQ_NESTED_MAX_VMS). */
int hdfq_nested_init(struct hal_sched *s, struct dfq *host,
		     struct hdfq_nested **out);
void hdfq_nested_fini(struct hal_sched *s, struct hdfq_nested *n);
void hdfq_nested_task_create(struct hal_sched *s, struct hdfq_nested *n,
			     struct hal_task *t);
void hdfq_nested_task_exit(struct hal_sched *s, struct hdfq_nested *n,
			   struct hal_task *t);
void hdfq_nested_channel_create(struct hal_sched *s, struct hdfq_nested *n,
				struct hal_chan *c);
void hdfq_nested_channel_destroy(struct hal_sched *s, struct hdfq_nested *n,
				 struct hal_chan *c);
int hdfq_nested_submit(struct hal_sched *s, struct hdfq_nested *n,
		       struct hal_chan *c);
void hdfq_nested_shadow_submit(struct hal_sched *s, struct hdfq_nested *n,
			       struct hal_chan *c);
void hdfq_nested_timer(struct hal_sched *s, struct hdfq_nested *n,
		       hal_u32 id);

#endif
