/* Seeds that once failed (tests/proptest/pt_regressions.h). */
#include "tests/proptest/pt_regressions.h"

#include "workloads/generate.h"

/* Found with edition 1 (`--classic`), before the second stream. */
static const struct pt_regression classic[] = {
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
	  "the relation now staggers the starts by 1 ns a task, so the "
	  "join order is the start order, not the list's "
	  "(tests/proptest/pt_relations.c)" },
	{ 20, "drm-rr", "volta", "reorder: as seed 20 on kepler" },
	{ 242, "drm-fifo", "kepler",
	  "reorder: t2 0.764 vs 0.802: two tasks' first jobs at the same "
	  "ns, pushed in list order, a phase fixed-length clients keep; "
	  "under drm policies the relation now starts no two tasks at one "
	  "instant (tests/proptest/pt_relations.c)" },
	{ 245, "drm-rr", "kepler",
	  "reorder: t2 0.578 vs 0.674 with the list rotated: a task "
	  "starting later joins last either way, so rotating the list "
	  "changed the cycle; distinct starts, the list reversed, now" },
	{ 303, "drm-rr", "kepler",
	  "reorder: t1 0.370 vs 0.437, a late starter as seed 245" },
	{ 303, "drm-rr", "volta", "reorder: as seed 303 on kepler" },
	{ 380, "drm-rr", "kepler",
	  "reorder: t1 0.228 vs 0.134, a late starter as seed 245" },
	{ 860, "drm-fifo", "kepler",
	  "time-scale: t7 225.5 ms vs 269.9 scaled (halved): eight first "
	  "jobs tie at 6 us and FIFO gave the tie by creation order to a "
	  "trace task that submitted last; with entities joining at their "
	  "first job the base run gives 269.5 (policies/drm_sched.c)" },
	{ 581, "drm-fifo", "kepler",
	  "lone-task: 83.0 vs 84.7 ms, 1.93% lost to a stated 1.88%: a "
	  "throttle with exponential sleeps, whose lost rounds are a "
	  "sample; the bound now allows their spread "
	  "(tests/proptest/pt_lone.c)" },
	{ 581, "drm-rr", "volta", "lone-task: as seed 581 under drm-fifo" },
	{ 581, "drm-fair", "kepler", "lone-task: as seed 581 under drm-fifo" },
	{ 364, "drr", "kepler",
	  "idle-task: t0 0.50 vs 0.66; the sleeper's weight 1 was the "
	  "lowest, so every quantum doubled against blocking tasks: the "
	  "lowest weight is now over tasks that have submitted "
	  "(policies/drr.c)" },
	{ 483, "drr", "kepler", "idle-task: as seed 364 (t4 0.49 vs 0.65)" },
	{ 483, "drr", "volta", "idle-task: as seed 364 (t4 0.49 vs 0.65)" },
	{ 176, "drr", "volta",
	  "reorder: t4 0.44 vs 0.15 with exclusive: false; among 20 "
	  "blocking tasks no probe saw one task alone, so no kind was ever "
	  "measured and each command was charged as a quantum (t4: 6 ms "
	  "for 74 ms used): a guess now goes out alone (policies/"
	  "drr_sched.c)" },
	{ 124, "drr", "kepler",
	  "reorder and time-scale: t0 0.14 vs 0.26 and 0.21; busy_clock: "
	  "false: the early probe, timed from the estimate, measured the "
	  "estimate plus its delay, so estimates crept up to the tick's "
	  "phase, which the order set: on the wall clock only ticks "
	  "probe now (policies/drr_sched.c)" },
	{ 124, "drr", "volta", "reorder: as seed 124 on kepler (t1 0.40 "
	  "vs 0.33)" },
	{ 701, "drr", "kepler", "reorder: as seed 124 (t2 0.64 vs 0.56)" },
	{ 701, "drr", "volta", "reorder: as seed 124 (t2 0.68 vs 0.55)" },
	{ 716, "drr", "kepler",
	  "reorder: t6 0.35 vs 0.18, exclusive: false on the wall clock "
	  "(PROPTEST_N=1000): passes with both fixes above" },
	{ 293, "drr", "kepler",
	  "reorder: t3 0.34 vs 0.48 on the wall clock, where each batch is "
	  "charged its wait for the tick, not its GPU time, and the order "
	  "decides whose batches start between ticks: reorder is not "
	  "checked under drr with busy_clock: false "
	  "(tests/proptest/pt_relations.c)" },
	{ 293, "drr", "volta", "reorder: as seed 293 on kepler" },
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
	{ 1170, "loga", "kepler",
	  "idle-task: t1 0.558 vs 0.652, not a defect: LoGA's phases last "
	  "event_T per open channel (paper 3.3), so the idle task's channel "
	  "made them 3/2 as long, and that moved shares (event_T x 3/2 "
	  "alone gives 0.651); the base now holds the same channels, one "
	  "more on the task starting with the idle one: 0.651 "
	  "(tests/proptest/pt_relations.c)" },
	{ 1325, "hdfq", "volta",
	  "reorder: t6 0.78 vs 0.36: a blocking host task alone in the "
	  "free run was between two requests at every second barrier, the "
	  "drain was empty and the decision at that instant pulled it "
	  "forward to its denied co-runners' vtime; such a task is now "
	  "watched for one poll (policies/dfq_episode.c)" },
	{ 1301, "direct", "kepler",
	  "reorder: t3 0.150 vs 0.105, not a defect: tasks starting "
	  "together submit first in list order, that order is the GPU "
	  "round's, and with fixed command lengths its pattern repeats "
	  "every cycle; with starts i ns apart both orders give 0.150 "
	  "(tests/proptest/pt_relations.c)" },
	{ 2196, "round-robin", "kepler",
	  "time-scale: t1 0.577 vs 0.523: t0's one uniform kernel drew "
	  "874.6 us, and 2182.2 us with the range doubled: a uniform draw "
	  "took the stream's word mod the width; it now scales it, so a "
	  "doubled range draws the value x 2 (base/rng.c gs_rng_scaled)" },
	{ 2196, "round-robin", "volta", "time-scale: as seed 2196 on kepler" },
	{ 2196, "least-loaded", "kepler",
	  "time-scale: as seed 2196 under round-robin" },
	{ 2196, "least-loaded", "volta",
	  "time-scale: as seed 2196 under round-robin" },
	{ 2134, "least-loaded", "kepler",
	  "time-scale: t7 256.6 ms vs 812.4 scaled: a uniform kernel's "
	  "other draw left GPU 0 idle 24.8 us of a 25 ms window, 999 per "
	  "mille against 1000 scaled, and a task went to the other GPU; "
	  "the draw of seed 2196" },
	{ 1783, "drm-fifo", "kepler",
	  "time-scale: t0 33.6 ms vs 62.8 of twice the run: the run settles "
	  "in one of two states (utilisation 0.80 or 0.735) as its draws "
	  "fall; the scaled run's uniform draws were other values: with "
	  "the draw of seed 2196 both runs are in one state" },
	{ 2280, "hdfq", "kepler",
	  "reorder: t0 0.715 vs 0.159: sixteen tasks in one VM whose "
	  "scheduler is drm-fair, nine starting at 0: the start tie of "
	  "seed 242 inside the VM; the relation staggers starts when a "
	  "VM runs a drm policy (tests/proptest/pt_relations.c)" },
	{ 4750, "hdfq", "kepler",
	  "weight-scale: t1 0.499 vs 0.677: the relation multiplied the "
	  "tasks' weights and not the VMs', so a task outside the VM, "
	  "competing with it at the top level, went from 1:1 to 3:1; it "
	  "now scales the VMs' weights too (workloads/generate_transform.c)" },
	{ 4750, "hdfq", "volta", "weight-scale: as seed 4750 on kepler" },
};

/* Found with edition 2: the second stream (gs_gen_draw_more). */
static const struct pt_regression more[] = {
	{ 23, "round-robin", "kepler",
	  "idle-task: t15 0.005 vs 0.224: arrivals in a shuffled order, a "
	  "permutation of every task definition, so the idle task's "
	  "definition drew another order for the others; the relation "
	  "skips shuffled arrivals (tests/proptest/pt_relations.c)" },
	{ 102, "dfq", "kepler",
	  "reorder: t4 0.83 vs 0.01 with kill_after 300 us: eight of ten "
	  "tasks killed in either order, the survivors decided by which "
	  "requests the drains fell on; the relation compares no run with "
	  "a kill" },
	{ 731, "dfq", "kepler",
	  "reorder: t9 0.005 vs 0.427: the same two tasks killed in both "
	  "orders, t9 much later in one" },
	{ 770, "timeslice", "volta", "reorder: t0 killed at other times" },
	{ 801, "hdfq", "kepler", "reorder: t0 killed at other times" },
};

/* Found with edition 4: the third and fourth streams
 * (gs_gen_draw_behaviour, gs_gen_draw_costs). */
static const struct pt_regression costs[] = {
	{ 733, "hdfq", "kepler",
	  "idle-task: t6 0.131 vs 0.818: hdfq's nested mode over LoGA, a VM "
	  "whose trace tasks had run kernels and whose copy throttle was "
	  "left counted as active (LoGA's `measured` was per task) with "
	  "nothing charged, held the system vtime, and every other entity "
	  "was denied for the rest of the run; measured is now per channel "
	  "(policies/loga.c)" },
};

const struct pt_regression_list pt_regression_lists[] = {
	{ GS_GEN_EDITION_CLASSIC, classic, G_N_ELEMENTS(classic) },
	{ GS_GEN_EDITION_MORE, more, G_N_ELEMENTS(more) },
	{ GS_GEN_EDITION_COSTS, costs, G_N_ELEMENTS(costs) },
};

const size_t pt_n_regression_lists = G_N_ELEMENTS(pt_regression_lists);
