/* What dfq's files share (dfq.c, dfq_entity.c, dfq_episode.c): the
 * functions each of them uses from another. Not for other policies: hdfq
 * uses dfq.h. */
#ifndef GS_POLICY_DFQ_PRIV_H
#define GS_POLICY_DFQ_PRIV_H

#include "acct_engine.h"
#include "dfq.h"
#include "engines.h"
#include "gate.h"

void dfq_timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when);
void dfq_timer_cancel(struct hal_sched *s, hal_u32 id);
struct dfq_chan *dfq_chan_get(struct hal_sched *s, struct hal_chan *c);
struct dfq_task *dfq_task_of(struct plist *pos);
hal_u64 dfq_task_submitted(struct hal_sched *s, struct dfq_task *dt);
hal_u64 dfq_chan_done(struct hal_sched *s, struct dfq_chan *dc);
hal_u64 dfq_task_done(struct hal_sched *s, struct dfq_task *dt);
hal_u64 dfq_task_outstanding(struct hal_sched *s, struct dfq_task *dt);
void dfq_note_held(struct hal_sched *s, struct dfq *d, struct hal_chan *c);
void dfq_chan_gate(struct hal_sched *s, struct dfq_task *dt,
		   struct hal_chan *c, int arm);
void dfq_task_set_traps(struct hal_sched *s, struct dfq_task *dt, int arm);
hal_u32 dfq_entity_waiting(struct hal_sched *s, struct dfq_task *dt);
hal_u32 dfq_let_waiting_in(struct hal_sched *s, struct dfq_task *dt,
			   hal_u32 limit);
void dfq_stop_sample_counting(struct hal_sched *s, struct dfq *d,
			      struct dfq_task *dt);
void dfq_observe(struct hal_sched *s, struct dfq_task *dt);
void dfq_trace(struct hal_sched *s, const char *name, hal_u64 start);
void dfq_kick(struct hal_sched *s);
struct hal_task *dfq_stuck_task(struct hal_sched *s, struct dfq_task *dt);
void dfq_kill_stuck(struct hal_sched *s, struct dfq_task *dt,
		    struct hal_task *t, const char *why);
int dfq_drained(struct hal_sched *s, struct dfq *d);
void dfq_timer(struct hal_sched *s, struct dfq *d, hal_u32 id);

#endif
