/* `gpusim run --record-hal FILE`: every call across the HAL seam of the
 * run's policy instances, in the line format of
 * policies/replay/hal_record.h (docs/hal-record.md). The caller owns a
 * struct gs_hal_record and passes it in gs_sim_options.hal_record; the
 * run's instances write their sections into it (the standalone runs
 * record nothing); gs_hal_record_text gives the whole record after. */
#ifndef GS_RECORD_HAL_H
#define GS_RECORD_HAL_H

#include <glib.h>
#include <stdint.h>

#include "policies/hal.h"

struct gs_hal_record;
typedef struct gs_hal_record gs_hal_record;
struct gs_hal_record *gs_hal_record_new(void);
void gs_hal_record_free(struct gs_hal_record *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(gs_hal_record, gs_hal_record_free)
/* The record: a header line, a comment naming the scenario (`about`),
 * then each instance's section (a new string, the caller frees it). */
char *gs_hal_record_text(const struct gs_hal_record *r, const char *about);

/* ---- an instance's params= string (record_hal_params.c) -------------- */

struct gs_policy_ops;
/* The kernel module's params= string that gives an instance of ops the
 * values `values` (hal_param's answers): "name=value,..." of each
 * parameter not at its default, durations in the largest exact unit
 * ("30ms"), integers in decimal, booleans true/false; "" when all are
 * defaults. A new string. */
char *gs_hal_rec_params_text(const struct gs_policy_ops *ops,
			     const hal_u64 *values);
/* Parses a params= string as the kernel module does (policies/linux/
 * params.c), for gpusim replay: values[i] for ops->params[i], defaults
 * where not given. 0, or -1 when a name or a value is refused. */
int gs_hal_rec_params_parse(const struct gs_policy_ops *ops,
			    const char *text, hal_u64 *values);

/* ---- the simulator's side (hal_sim*.c, policy_call.c) ----------------- */

/* Starts the section of instance s (its policy and VM known). */
void gs_hal_rec_attach(struct gs_hal_record *r, struct hal_sched *s);
/* Whether s records now: a policy call of s is in progress. Calls the
 * simulator makes for its own needs outside an op are not the policy's. */
gboolean gs_hal_rec_on(const struct hal_sched *s);
/* One HAL call of the policy (kinds as in hal_record.h). */
void gs_hal_rec_call(struct hal_sched *s, const char *name, const char *kinds,
		     const hal_u64 *args, const char *okinds,
		     const hal_u64 *outs);
/* The op line, before the policy is called ("op TIME NAME ARGS"), and
 * the line after it returns ("end", or "ret V" when `answers`). */
void gs_hal_rec_op(struct hal_sched *s, const char *op, const char *kinds,
		   const hal_u64 *args);
void gs_hal_rec_op_end(struct hal_sched *s, gboolean answers, int64_t ret);
/* The record's number of a handle: made anew by task_create and
 * channel_create (so a channel a migration recreates is a new one). */
uint32_t gs_hal_rec_new_task(struct hal_sched *s, struct hal_task *t);
uint32_t gs_hal_rec_new_chan(struct hal_sched *s, struct hal_chan *c);
hal_u64 gs_hal_rec_task(const struct hal_task *t);
hal_u64 gs_hal_rec_chan(const struct hal_chan *c);

/* GS_REC(s, name, kinds, args, okinds, outs) with args/outs written as
 * GS_RV(a, b, ...); a no-op unless s records. */
#define GS_RV(...) ((const hal_u64[]){ __VA_ARGS__ })
#define GS_REC(s, name, kinds, args, okinds, outs)                        \
	do {                                                               \
		if (gs_hal_rec_on(s))                                      \
			gs_hal_rec_call((s), (name), (kinds), (args),      \
					(okinds), (outs));                 \
	} while (0)

#endif
