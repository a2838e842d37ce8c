/* The engine of loga (status-register accounting with DFQ's vtime and
 * deny rule, see loga.c), shared with hdfq. Its state is a struct loga
 * of its own (acct_engine.h: struct acct_run), passed to the functions
 * below; its parameters are LOGA_PHASE_PARAM_DESCS,
 * LOGA_METRIC_PARAM_DESCS and an `account_only` boolean. */
#ifndef GS_POLICY_LOGA_H
#define GS_POLICY_LOGA_H

#include "acct_engine.h"
#include "hal.h"
#include "policy.h"
#include "util.h"
#include "vtime.h"

enum loga_timer { LOGA_TIMER_WAKE = 0 };

enum loga_state {
	LOGA_IDLE = 0,  /* no channel: waiting for one */
	LOGA_POLL = 1,  /* the poll loop runs */
	LOGA_SLEEP = 2, /* the non-poll phase */
};

/* The GPU the poll loop watches. */
#define LOGA_GPU 0

struct loga_task;

struct loga_chan {
	struct acct_chan ac; /* in loga_task.chans */
	struct loga_task *lt;
	hal_u8 on_gpu;     /* on the polled GPU: counts as occupied */
	hal_u8 measured;   /* seen on the polled engine in some poll phase */
};

/* A scheduling entity: a task, or for hdfq a guest task or a VM without
 * hints (several tasks; `t` is the one its figures are reported on). */
struct loga_task {
	struct vt_task vt;   /* links the task into loga.vt.tasks */
	struct hal_task *t;
	hal_u8 shadow_gate;  /* denied by shadowing its channels (a VM task,
			      * Fleig 3.3.2) instead of holding it at a
			      * trapped doorbell */
	hal_u8 unreported;   /* its figures are not published (hdfq's
			      * nested mode: a VM's own scheduler reports
			      * on its tasks) */
	struct plist chans;  /* struct loga_chan, by ac.link */
	hal_u64 poll_ns;     /* measured in the current poll phase */
	hal_u32 segments;    /* segments closed in it */
};

struct loga {
	struct vt_sys vt;
	hal_u32 state;
	hal_u32 n_chans;         /* occupied channels on the polled GPU */
	hal_u64 phase_start;
	hal_u64 epoch_start;     /* the previous decision */
	/* the open segment: owner channel (0: nobody) since seg_start */
	struct loga_chan *seg;
	hal_u64 seg_start;
	hal_u8 idle_seen;        /* the engine worked for nobody for a while
				  * in this poll phase */
	/* parameters */
	hal_u64 event_t;
	hal_u32 event_x;
	hal_u8 randomize, account_only, mean_segment;
};

/* loga's parameters (loga's and hdfq's tables); event_X multiplies the
 * poll phase, hence its bound. Each block is placed at `base` in the
 * table, its entries at base + their offset in the block; a policy that
 * runs loga's code tells it where each one sits (struct loga_slots). */
enum loga_phase_param { LOGA_P_EVENT_T, LOGA_P_EVENT_X, LOGA_P_RANDOMIZE,
			LOGA_N_PHASE_PARAMS };
enum loga_metric_param { LOGA_P_MEAN_SEGMENT, LOGA_N_METRIC_PARAMS };
#define LOGA_PHASE_PARAM_DESCS(base) \
	[(base) + LOGA_P_EVENT_T] = { "event_T", GS_PARAM_DURATION, "1ms", \
	  "poll phase per occupied channel", 0 }, \
	[(base) + LOGA_P_EVENT_X] = { "event_X", GS_PARAM_UINT, "5", \
	  "non-poll phase = event_X x the poll phase (0: poll all the time)", 1000 }, \
	[(base) + LOGA_P_RANDOMIZE] = { "randomize", GS_PARAM_BOOL, "false", \
	  "draw both phase lengths uniformly from [mean/2, 3 mean/2)", 0 },
#define LOGA_METRIC_PARAM_DESCS(base) \
	[(base) + LOGA_P_MEAN_SEGMENT] = { "mean_segment", GS_PARAM_BOOL, "false", \
	  "vtime by mean time between context switches (LoGA-CL) instead " \
	  "of total time per poll phase", 0 },

/* loga as a policy of its own (acct_engine.h: ACCT_OWN_OPS). */
extern const struct gs_policy_ops gs_policy_loga;

/* Indices of loga's parameters in the table of the policy running it. */
struct loga_slots {
	hal_u32 event_t, event_x, randomize, account_only, mean_segment;
};

/* Initialise the engine's state l (zeroed) from the policy's parameters,
 * found at `slots`; the rest of the engine is called through
 * loga_acct_engine (acct_engine.h). */
int loga_init(struct hal_sched *s, struct loga *l,
	      const struct loga_slots *slots);

#endif
