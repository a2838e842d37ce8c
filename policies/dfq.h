/* The engine of dfq (Disengaged Fair Queueing, see dfq.c), shared with
 * hdfq, which schedules entities of a VM tree with it. Its state is a
 * struct dfq of its own (acct_engine.h: struct acct_run), passed to the
 * functions below; its parameters are DFQ_PARAM_DESCS. */
#ifndef GS_POLICY_DFQ_H
#define GS_POLICY_DFQ_H

#include "acct_engine.h"
#include "hal.h"
#include "policy.h"
#include "util.h"
#include "vtime.h"

enum dfq_timer { DFQ_TIMER_PHASE = 0, DFQ_TIMER_POLL = 1 };

enum dfq_state {
	DFQ_FREE = 0,        /* disengaged free run */
	DFQ_DRAIN = 1,       /* barrier up, waiting for outstanding work */
	DFQ_SAMPLE = 2,      /* `cur` runs alone, its requests counted */
	DFQ_SAMPLE_WAIT = 3, /* cur's sample is over; wait for its requests */
};

#define DFQ_LABEL_LEN 48

struct dfq_task;

struct dfq_chan {
	struct acct_chan ac; /* in dfq_task.chans */
	struct dfq_task *dt; /* its scheduling entity */
	hal_u64 done_hint; /* requests known done from a held submission */
	hal_u8 dead;       /* its task is being killed: ignored */
};

/* A scheduling entity: a task, or for hdfq a guest task or a VM without
 * hints (several tasks; `t` is the one its figures are reported on). */
struct dfq_task {
	struct vt_task vt;      /* links the task into dfq.vt.tasks */
	struct hal_task *t;
	hal_u8 shadow_gate;     /* stopped by shadowing its channels (a VM
				 * task, Fleig 3.3.2) instead of holding it at
				 * a trapped doorbell */
	struct plist chans;     /* struct dfq_chan, by ac.link */
	hal_u64 snap_submitted; /* sum of submitted counts at free-run start */
	hal_u64 free_requests;  /* requests it published in the last free run */
	hal_u8 busy_at_barrier; /* outstanding or held work at the barrier */
	hal_u8 had_work;        /* requests since the free run began */
	hal_u8 ran_free;        /* allowed in the free run that just ended */
	hal_u8 sampled;         /* had its sample this episode */
	hal_u8 killed;          /* kill requested; its work is ignored */
	hal_u8 unreported;      /* its figures are not published (hdfq's
				 * nested host-level VM entity: the host has
				 * no view of the VM's tasks) */
	/* this episode's sample */
	hal_u64 s_start;
	hal_u32 s_requests;     /* requests it was allowed to submit */
	hal_u64 s_completed;    /* requests seen completed */
	hal_u64 s_busy;         /* ns with outstanding requests */
	hal_u64 s_fence;        /* sum of fences at the last observation */
	hal_u64 s_obs;          /* time of the last observation */
	hal_u64 s_out;          /* outstanding after the last observation */
	hal_u64 avg;            /* average request size; 0: no sample */
	char label[DFQ_LABEL_LEN]; /* "sample <task>" */
};

/* What an engine asks of a channel's gate: let its writes go, stop them
 * (trap and hold, or shadow), or trap them to count them (a shadow-gated
 * entity being sampled). */
enum dfq_gate { DFQ_GATE_GO = 0, DFQ_GATE_STOP = 1, DFQ_GATE_COUNT = 2 };

struct dfq {
	struct vt_sys vt;
	hal_u32 state;
	struct dfq_task *cur;   /* sampled task (SAMPLE, SAMPLE_WAIT) */
	hal_u64 episode_start;  /* barrier time */
	hal_u64 free_start;
	hal_u64 free_prev;      /* length of the free run that just ended */
	hal_u64 kill_clock;     /* the drain's stall clock: its start, or the
				 * last kill (others get a fresh one then) */
	/* parameters */
	hal_u64 poll, sample, kill_after;
	hal_u64 free_fixed;     /* `free_run`: fixed length; 0: by factor */
	hal_u32 sample_requests, factor;
	hal_u8 account_only, measured, check_chram, by_count, status_at_barrier;
	hal_u8 status_wait;     /* in the one-poll look after an empty drain */
	/* set by an embedding policy: the GPU time a task used in its
	 * exclusive sample also advances its vtime (dfq: it does not) */
	hal_u8 charge_sample;
};

/* dfq's parameters, for a policy's gs_param_desc array (dfq's and
 * hdfq's), where they come first: dfq's code reads them at these indices
 * in either table. sample_requests and free_run_factor multiply
 * durations, hence their bounds. */
enum dfq_param {
	DFQ_P_POLL,
	DFQ_P_SAMPLE,
	DFQ_P_SAMPLE_REQUESTS,
	DFQ_P_FREE_RUN_FACTOR,
	DFQ_P_MEASURE_EPISODE,
	DFQ_P_CHECK_CHRAM,
	DFQ_P_CHARGE_BY_COUNT,
	DFQ_P_ACTIVE_AT_BARRIER,
	DFQ_P_ACCOUNT_ONLY,
	DFQ_P_KILL_AFTER,
	DFQ_P_FREE_RUN,
	DFQ_N_PARAMS
};
#define DFQ_PARAM_DESCS \
	[DFQ_P_POLL] = { "poll", GS_PARAM_DURATION, "1ms", \
	  "fence polling period while draining and sampling", 0 }, \
	[DFQ_P_SAMPLE] = { "sample", GS_PARAM_DURATION, "5ms", \
	  "sampling time per active task", 0 }, \
	[DFQ_P_SAMPLE_REQUESTS] = { "sample_requests", GS_PARAM_UINT, "96", \
	  "a task's sample ends early after this many requests", 1000000 }, \
	[DFQ_P_FREE_RUN_FACTOR] = { "free_run_factor", GS_PARAM_UINT, "5", \
	  "free run = factor x the engagement (nominal sampling time)", 1000 }, \
	[DFQ_P_MEASURE_EPISODE] = { "measure_episode", GS_PARAM_BOOL, "false", \
	  "base the free run on the measured episode (drain + sampling)", 0 }, \
	[DFQ_P_CHECK_CHRAM] = { "check_chram", GS_PARAM_BOOL, "true", \
	  "at a held submission, an idle channel (RAM status) is drained", 0 }, \
	[DFQ_P_CHARGE_BY_COUNT] = { "charge_by_count", GS_PARAM_BOOL, "true", \
	  "charge requests run in the free run x average size (false: split " \
	  "the free run by average request size)", 0 }, \
	[DFQ_P_ACTIVE_AT_BARRIER] = { "active_at_barrier", GS_PARAM_BOOL, "true", \
	  "a task is active if it has work at the barrier (false: if it " \
	  "submitted anything in the free run)", 0 }, \
	[DFQ_P_ACCOUNT_ONLY] = { "account_only", GS_PARAM_BOOL, "false", \
	  "keep sampling and accounting but never deny a task", 0 }, \
	[DFQ_P_KILL_AFTER] = { "kill_after", GS_PARAM_DURATION, "60s", \
	  "kill a task whose request runs longer while the scheduler waits", 0 }, \
	[DFQ_P_FREE_RUN] = { "free_run", GS_PARAM_DURATION, "0", \
	  "a fixed free run (Fleig 5.1: 50ms; 4.4: a guest's 1ms); 0: " \
	  "free_run_factor x the engagement", 0 },

/* dfq as a policy of its own (acct_engine.h: ACCT_OWN_OPS). */
extern const struct gs_policy_ops gs_policy_dfq;

/* Initialise the engine's state d (zeroed) from the policy's parameters;
 * the rest of the engine is called through dfq_acct_engine
 * (acct_engine.h). */
int dfq_init(struct hal_sched *s, struct dfq *d);

#endif
