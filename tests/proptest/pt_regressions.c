/* Seeds that once failed (tests/proptest/pt_regressions.h). */
#include "tests/proptest/pt_regressions.h"

const struct pt_regression pt_regressions[] = {
	{ 1, "timeslice", "kepler",
	  "reorder: the token holder drained for ever, its channel's "
	  "reference counter fallen back (copy done before compute): "
	  "fixed in gpu_model/channel.c" },
	{ 2, "drr", "volta",
	  "reorder, idle-task: utilisation 2% once the reference counter "
	  "kept submission order: a command lost when a channel was "
	  "preempted twice then held the counter for ever; fixed by the "
	  "saved-command queue (gpu_model/engine.c)" },
	{ 4, "round-robin", "volta",
	  "idle-task: the added task arrived before later-starting ones and "
	  "took their placement turn: the relation now adds it last" },
	{ 26, "drr", "kepler",
	  "reorder: 0.30 vs 0.35 over 355 ms, the same at 4 s: the cost "
	  "estimates' learning transient, now in drr's granularity" },
	{ 55, "direct", "volta",
	  "reorder: 0.97 vs 0.77, a copy-only task held the dispatcher for "
	  "ever (only compute counted slices), then a compute group was "
	  "preempted at once on every return: fixed in gpu_model/engine.c "
	  "and dispatcher.c" },
	{ 47, "direct", "volta",
	  "reorder: 0.68 vs 0.08; the end of a preempted group's slice "
	  "also ended the next group's, and a preempted channel rejoined "
	  "the round ahead of groups still waiting: fixed in "
	  "gpu_model/engine.c and dispatcher.c" },
	{ 40, "drr", "volta",
	  "reorder: 0.20 vs 0.45, the same two volta dispatcher defects "
	  "as seed 47" },
	{ 91, "timeslice", "kepler",
	  "reorder: 1.0 vs 0.0 over 363 ms: two non-blocking tasks, each "
	  "queueing a ring of 1-3.5 ms commands that a slice's end must "
	  "drain (NEON 3.2: no preemption); the backlog is now part of the "
	  "granularity (and of the run's length)" },
	{ 27, "dcuda", "kepler",
	  "lone-task: 4% less GPU time than under direct: dcuda's launch "
	  "interception was charged a kernel trap; DCUDA's wrapper library "
	  "intercepts in user space (sim/host/host.c)" },
	{ 159, "direct", "volta",
	  "reorder: 0.03 vs 0.31; serving the current group's channel where "
	  "it had rejoined (the end of the round) moved the round's front "
	  "there, so two groups took turns for ever and the others' "
	  "published commands waited: fixed in gpu_model/dispatcher.c; the "
	  "invariant 'no work waits for ever' now reports such a wait" },
	{ 164, "hdfq", "kepler",
	  "lone-task: 6.2% less GPU time than under direct for a lone "
	  "non-blocking 298 us throttle: each drain and each sample's end "
	  "idled the GPU until a 1 ms poll saw its last requests done; a "
	  "task that is the only one wanting the GPU is now sampled "
	  "without a drain and its free run starts at the sample's end "
	  "(policies/dfq_episode.c)" },
	{ 175, "hdfq", "kepler",
	  "lone-task: 5.2% for a blocking 25 us script with the host trap "
	  "drawn at 16 us: the cost of its sample's trapped submissions; "
	  "the 5% bound is NEON's at its own trap cost and now adds the "
	  "difference (tests/proptest/pt_lone.c)" },
	{ 175, "hdfq", "volta", "lone-task: as seed 175 on kepler" },
	{ 412, "loga", "kepler",
	  "idle-task: t1 0.73 vs 0.24; the added sleeper's weight entered "
	  "the weights' mean, so every vtime advanced slower against the "
	  "deny interval: the mean is now over tasks that have had work "
	  "(policies/vtime.c)" },
	{ 431, "hdfq", "kepler",
	  "idle-task: t3 0.09 vs 0.55, the same through hdfq's tree "
	  "weights (a host-level sleeper beside a nested VM)" },
	{ 20, "drm-rr", "kepler",
	  "reorder: t3 0.23 vs 0.39 with the list reversed: drm-rr's turns "
	  "follow the run queue's join order, which reversing reverses; "
	  "the relation now rotates the list under drm-rr, which keeps "
	  "the cycle (tests/proptest/pt_relations.c)" },
	{ 20, "drm-rr", "volta", "reorder: as seed 20 on kepler" },
	{ 600, "direct", "volta",
	  "reorder: t6 0.28 vs 0.004; a 2-entry ring holds one command, so "
	  "whether a copy-only throttle kept its group's turn depended on "
	  "the copy engine being busy when the turn began (a TSG runs until "
	  "it is out of work): set by the order; the relation now widens "
	  "such a ring to 3 entries (tests/proptest/pt_relations.c)" },
	{ 732, "dfq", "volta",
	  "reorder: t4 0.19 vs 0.70: idle at every barrier, in step with "
	  "the free runs, it was never charged for them: idle tasks' usage "
	  "now advances their vtime (policies/vtime.c)" },
	{ 696, "loga", "kepler",
	  "idle-task: t6 0.20 vs 0.65: a copy-only task, never measured, "
	  "counted active by its pending work and held the system vtime "
	  "for good; such work no longer counts while the engine idled "
	  "(policies/loga.c)" },
	{ 595, "loga", "volta",
	  "reorder: t1 0.55 vs 0.27, the cause of seed 696" },
};

const size_t pt_n_regressions = G_N_ELEMENTS(pt_regressions);
