/* drr: GERM's deficit round robin over per-task command queues
 * (Dwarakinath, "A fair-share scheduler for the graphics processing unit",
 * Stony Brook 2008, chapters 4-5).
 *
 * Every channel of a task is shadowed from its creation: each submission
 * goes into the task's software queue (the task pays a trap, GERM's ioctl)
 * and reaches the GPU only when the scheduler forwards it. The scheduler
 * (Fig. 12) visits the tasks with queued commands round-robin; a visit
 * moves the task to the tail, adds the quantum to its deficit
 * (`time_left`) and forwards commands, oldest first, while the estimated
 * cost of the next one fits the deficit, taking each estimate off. The
 * timing thread (Fig. 13) wakes every `tick`, reads how many of each
 * channel's commands completed (the fences, GERM's timing register),
 * measures the time they took, charges it (hal_account), gives each task
 * back estimated minus real cost, and moves the running coefficient the
 * command was estimated with towards the measured cost.
 *
 * Cost estimation (section 4.5): the scheduler reads the command group's
 * contents (hal_shadow_peek_content) and takes the first heuristic that
 * applies, in the thesis's order: texture bytes dispatched x the task's
 * time per texture byte; else buffer swaps x its time per swap; else
 * vertices x its time per vertex; else command bytes x its time per
 * command byte. Each coefficient is learnt per task (5.1: the task
 * structure holds the heuristic information) from the measured times of
 * the commands it estimated: the measured time over their summed sizes.
 * A command with no contents (the kernel HAL, or a workload that gives
 * none) is estimated by a running average per task and class
 * (hal_shadow_peek_class, the workload's `class:` tag), one unit per
 * command. A coefficient not measured yet estimates one quantum, so the
 * command goes out alone in a fresh visit and is measured. Coefficients
 * are 16.16 fixed point ns per unit (a texture byte costs about a
 * nanosecond). Each estimate made from a measured coefficient is told to
 * the HAL (hal_note_estimate), which in the simulator compares it with
 * the command's true length (GERM 6.4's accuracy per heuristic).
 *
 * Priority (4.4): "if one of the input flows has higher priority, then it
 * can be assigned a higher quantum each round": the task of the lowest
 * `weight` gets the policy's quantum and a task of weight w gets w / w_min
 * quanta, so a backlogged task of weight 2 gets about twice the GPU time
 * of one of weight 1. Only the ratio of weights matters (as in NEON 3.3
 * and Fleig 3.3): weights 3 and 9 give the same quanta as 1 and 3.
 * w_min is over the tasks that have submitted: one that never does
 * changes nobody's quantum.
 *
 * Choices where the thesis is silent or does not carry over, decided here:
 *
 *  - One task's work on the GPU at a time (`exclusive: true`, default).
 *    GERM's r200 executes its one ring in order, so the command groups of
 *    a visit run back to back and the timing thread's per-probe count is
 *    mostly one task's. gpusim's GPU (like Kepler) round-robins between
 *    channels per command: forwarded batches of several tasks interleave
 *    and a probe could not tell whose time it saw. So a visit's batch is
 *    forwarded only when no forwarded work is outstanding; the next visit
 *    follows at the probe that sees the batch complete (or at once, from
 *    the submission, when the GPU has nothing of ours). Every probe then
 *    measures one task exactly. The price is idle GPU time between
 *    batches, which shows in the results: drr trades efficiency and the
 *    per-command trap for fairness. To keep that gap short the timing
 *    thread also wakes `early_probe` after a batch's estimated end (and
 *    again every `early_probe`, up to DRR_PROBE_RETRIES times, while the
 *    lagging fence has not shown it done); 0 leaves only the tick, as in
 *    GERM (R11 on Kepler: 83% GPU utilisation with it, 58% without).
 *    Only when batches are timed by the busy counter: on the wall clock
 *    a probe timed from the estimate measures the estimate plus the
 *    delay, whatever the batch cost (see drr_dispatch).
 *    `exclusive: false` keeps forwarding visits while
 *    the estimated outstanding work is below `window` (work-conserving);
 *    a probe that sees several tasks' completions splits the time in
 *    proportion to their estimates, and only single-task probes train the
 *    averages. So a command of a kind not measured yet (estimated at a
 *    quantum) waits until nothing of ours is outstanding and goes out
 *    alone, as an exclusive batch: beside other tasks' work it would
 *    never be measured.
 *  - Measured time: GERM divides the wall time since the last probe that
 *    saw completions by the number of completed command groups (its ring
 *    never idles). Here the GPU idles between batches, so the time is read
 *    from the engines' busy counters by default (`busy_clock: true`):
 *    the compute engine's (hal_gpu_busy_ns) plus the copy engine's
 *    (hal_engine_busy_ns), since a utilisation counter counts only the
 *    engine it belongs to and GERM's timing register sees every command
 *    group complete, copies (blits, uploads) included; their sum is the
 *    engine time the batch used. That leaves the idle time (and context
 *    switches) out; `busy_clock: false`, or a HAL without the counter (it
 *    has never moved), uses wall time as GERM does, counted from the
 *    forward that found nothing outstanding. With exclusive batches that
 *    charges each batch the wait for the probe that sees it, and the
 *    estimates grow with it: kept as GERM's rule, not as a good setting.
 *  - Training: a probe may see a command's fence after the probe that
 *    saw its busy time, so single probes are noisy; their sum over
 *    everything a task had out is exact. The coefficients learn when the
 *    task's forwarded work has all been seen (or every DRR_LEARN_BATCH
 *    commands), from that sum: one kind of command in it is a pure
 *    sample (time over units); with several, the kinds already trained
 *    from a pure sample are taken at their estimates and the rest of the
 *    time goes to the others (in proportion to their estimates if more
 *    than one); a sample of trained kinds only teaches nothing (a split
 *    by estimates cannot tell which kind was wrong). GERM divides a
 *    probe's time evenly between its command groups
 *    (time_per_cmd_grp), which blames every kind for the others.
 *  - Running average: each measurement moves the coefficient by
 *    1/2^`avg_shift` of the difference (an exponentially weighted mean;
 *    GERM says "running averages" without a window); the first
 *    measurement of a kind sets it.
 *  - Deficits: standard DRR resets the deficit of a task whose queue runs
 *    empty. A credit is dropped then, but a debt (corrections that found
 *    commands cheaper estimated than they were) is kept, or a task could
 *    shed it by submitting one command at a time; a correction arriving
 *    while the task's queue is empty likewise never leaves credit.
 *  - The quantum: Fig. 12 uses 0.0005 x the CPU clock in cycles, 0.5 ms,
 *    the default here; section 6.3.1 reasons with 1 ms.
 *  - A task's channels are served round-robin within its visit (oldest
 *    first within a channel; the order across channels is not known).
 *  - A visit loop that finds nobody able to send keeps going round adding
 *    quanta, as Fig. 12 does (it is only book-keeping); it stops after
 *    DRR_MAX_VISITS visits and carries on at the next tick.
 *  - `oracle: true` estimates with the simulator's exact engine time of
 *    the queued command (hal_shadow_peek_hint) where the HAL has one: a
 *    bound on what better heuristics could do. The kernel HAL has none.
 *  - Blocking tasks (one command at a time) are not backlogged: each
 *    visit finds at most one command, so DRR gives them less than an equal
 *    share against backlogged tasks, and with `exclusive` each of their
 *    commands waits for a probe (R11 with blocking throttles: 5% / 48% /
 *    48%; direct: 1% / 9% / 90%).
 *
 * Files: this one holds the parameters and the ops; drr_sched.c the
 * estimates, the queues and forwarding, and the timing thread;
 * drr_priv.h the types they share.
 *
 * Priority (hal_task_priority): ignored; GERM's priority is the task's
 * weight, a larger quantum (4.4 above).
 */
#include "drr_priv.h"

/* Indices into the parameter table below (hal_param). */
enum {
	DRR_P_QUANTUM,
	DRR_P_TICK,
	DRR_P_EXCLUSIVE,
	DRR_P_WINDOW,
	DRR_P_EARLY_PROBE,
	DRR_P_BUSY_CLOCK,
	DRR_P_AVG_SHIFT,
	DRR_P_ORACLE,
	DRR_P_HEURISTICS,
	DRR_N_PARAMS
};

static const struct gs_param_desc drr_params[] = {
	[DRR_P_QUANTUM] = { "quantum", GS_PARAM_DURATION, "500us",
	  "GPU time added to a task's deficit per visit (GERM_QUANTUM)", 0 },
	[DRR_P_TICK] = { "tick", GS_PARAM_DURATION, "1ms",
	  "period of the timing thread that reads the fences", 0 },
	[DRR_P_EXCLUSIVE] = { "exclusive", GS_PARAM_BOOL, "true",
	  "one task's forwarded work on the GPU at a time (exact timing)", 0 },
	[DRR_P_WINDOW] = { "window", GS_PARAM_DURATION, "2ms",
	  "with exclusive: false, estimated work kept forwarded", 0 },
	[DRR_P_EARLY_PROBE] = { "early_probe", GS_PARAM_DURATION, "50us",
	  "exclusive: probe this long after a batch's estimated end, and "
	  "again while not seen done (0: only every tick)", 0 },
	[DRR_P_BUSY_CLOCK] = { "busy_clock", GS_PARAM_BOOL, "true",
	  "measure with the GPU's busy counter; false: wall time (GERM)", 0 },
	/* a shift count (drr_init refuses more than 16 too) */
	[DRR_P_AVG_SHIFT] = { "avg_shift", GS_PARAM_UINT, "3",
	  "a measurement moves a cost coefficient by 1/2^avg_shift", 16 },
	[DRR_P_ORACLE] = { "oracle", GS_PARAM_BOOL, "false",
	  "estimate with the simulator's exact command length", 0 },
	[DRR_P_HEURISTICS] = { "heuristics", GS_PARAM_BOOL, "true",
	  "estimate from the command group's contents (texture bytes, "
	  "swaps, vertices, command bytes); false: class averages only", 0 },
};
_Static_assert(sizeof(drr_params) / sizeof(drr_params[0]) == DRR_N_PARAMS,
	       "one descriptor per index");

struct drr_state *drr_state(struct hal_sched *s)
{
	return hal_priv(s);
}

struct drr_task *drr_task_of(const struct hal_task *t)
{
	return hal_task_data(t);
}

struct drr_gpu *drr_gpu_of(struct hal_sched *s,
				  const struct drr_task *tt)
{
	return &drr_state(s)->gpus[tt->gpu];
}

/* Priority as a larger quantum (4.4): weight w gets w / w_min quanta,
 * w_min the lowest weight among the tasks that have submitted. A task
 * that never submits must change nobody's quantum: the quantum is an
 * absolute amount of GPU time per visit, and against blocking tasks (one
 * command a visit whatever the quantum) or commands near its size, a
 * larger one moves shares, so a sleeper of low weight would double
 * everyone's batches by being there (vtime.c's `seen` is the same rule).
 * A task that has submitted keeps counting while it sleeps, or the
 * others' quanta would change with its phases. */
static void drr_set_quanta(struct hal_sched *s)
{
	struct drr_state *st = drr_state(s);
	struct plist *pos;
	hal_u32 w_min = 0;

	plist_for_each(pos, &st->tasks) {
		struct drr_task *tt = plist_entry(pos, struct drr_task, node);
		hal_u32 w = hal_task_weight(tt->t);

		if (tt->seen && (!w_min || w < w_min))
			w_min = w;
	}
	plist_for_each(pos, &st->tasks) {
		struct drr_task *tt = plist_entry(pos, struct drr_task, node);
		hal_u32 w = hal_task_weight(tt->t);

		/* one not counted yet gets what it will get when it is */
		tt->quantum = hal_mul_div64(st->quantum, w,
					    w_min && w_min < w ? w_min : w);
	}
}

/* ---- ops --------------------------------------------------------------- */

static int drr_init(struct hal_sched *s)
{
	struct drr_state *st = drr_state(s);
	hal_u32 i;

	st->quantum = hal_param(s, DRR_P_QUANTUM);
	st->tick = hal_param(s, DRR_P_TICK);
	st->exclusive = hal_param(s, DRR_P_EXCLUSIVE) != 0;
	st->window = hal_param(s, DRR_P_WINDOW);
	st->early_probe = hal_param(s, DRR_P_EARLY_PROBE);
	st->busy_clock = hal_param(s, DRR_P_BUSY_CLOCK) != 0;
	st->avg_shift = (hal_u32)hal_param(s, DRR_P_AVG_SHIFT);
	st->oracle = hal_param(s, DRR_P_ORACLE) != 0;
	st->heuristics = hal_param(s, DRR_P_HEURISTICS) != 0;
	if (!st->quantum || !st->tick || st->avg_shift > 16)
		return -DRR_EINVAL;
	plist_init(&st->tasks);
	for (i = 0; i < DRR_MAX_GPUS; i++)
		plist_init(&st->gpus[i].active);
	return 0;
}

static void drr_task_create(struct hal_sched *s, struct hal_task *t)
{
	static const char prefix[] = "batch ";
	struct drr_task *tt = hal_zalloc(s, sizeof(*tt));
	const char *name = hal_task_name(t);
	hal_u32 i = 0, j;

	if (!tt)
		return;
	tt->t = t;
	tt->gpu = hal_task_gpu(t);
	if (tt->gpu >= DRR_MAX_GPUS)
		tt->gpu = DRR_MAX_GPUS - 1;
	plist_init(&tt->ring);
	plist_init(&tt->chans);
	tt->acc_valid = 1;
	for (j = 0; prefix[j]; j++)
		tt->phase[i++] = prefix[j];
	for (j = 0; name[j] && i < DRR_PHASE_NAME - 1; j++)
		tt->phase[i++] = name[j];
	plist_add_tail(&drr_state(s)->tasks, &tt->node);
	hal_task_set_data(t, tt);
	drr_set_quanta(s);
}

static void drr_task_exit(struct hal_sched *s, struct hal_task *t)
{
	struct drr_task *tt = drr_task_of(t);
	struct drr_gpu *g;

	if (!tt)
		return;
	g = drr_gpu_of(s, tt);
	drr_deactivate(tt);
	if (g->owner == tt)
		g->owner = 0;
	plist_del(&tt->node);
	hal_task_set_data(t, 0);
	hal_free(s, tt);
	drr_set_quanta(s);
}

static void drr_channel_create(struct hal_sched *s, struct hal_chan *c)
{
	struct drr_task *tt = drr_task_of(hal_chan_task(c));
	struct drr_chan *tc;

	if (!tt)
		return;
	tc = hal_zalloc(s, sizeof(*tc));
	if (!tc)
		return; /* unmanaged: its submissions go straight through */
	tc->c = c;
	tc->owner = tt;
	tc->fence_seen = hal_fence_read(s, c);
	plist_add_tail(&tt->chans, &tc->node);
	if (!tt->cursor)
		tt->cursor = tc;
	hal_chan_set_data(c, tc);
	hal_shadow_enable(s, c);
}

/* Its queued commands are dropped with it; what it had forwarded can no
 * longer be measured and leaves the books. */
static void drr_channel_destroy(struct hal_sched *s, struct hal_chan *c)
{
	struct drr_chan *tc = hal_chan_data(c);
	struct drr_task *tt;
	struct drr_gpu *g;

	if (!tc)
		return;
	tt = tc->owner;
	g = drr_gpu_of(s, tt);
	while (tc->len) {
		g->inflight_est -= tc->chunks[tc->head].est;
		tc->head = (tc->head + 1) % DRR_CHUNKS;
		tc->len--;
		g->inflight--;
		tt->inflight--;
	}
	if (tt->cursor == tc)
		tt->cursor = drr_chan_after(tt, tc); /* itself if alone */
	plist_del(&tc->node);
	if (tt->cursor == tc)
		tt->cursor = 0;
	hal_chan_set_data(c, 0);
	hal_free(s, tc);
	if (!drr_backlogged(s, tt))
		drr_deactivate(tt);
	if (g->owner == tt && !tt->inflight)
		g->owner = 0;
	/* the others may go on: dispatch from the timer, not from inside
	 * the teardown */
	hal_timer_arm(s, DRR_TIMER_KICK, hal_now(s));
}

static void drr_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct drr_task *tt = drr_task_of(hal_chan_task(c));

	if (!tt || !hal_chan_data(c))
		return;
	if (!tt->seen) {
		tt->seen = 1;
		drr_set_quanta(s);
	}
	drr_activate(s, tt);
	drr_dispatch(s, tt->gpu);
	drr_start_ticking(s);
}

/* An early probe that found a batch still out (the fence's host-visible
 * copy lags) tries again after the same delay, up to DRR_PROBE_RETRIES
 * times; the tick goes on anyway. */
static void drr_probe_again(struct hal_sched *s)
{
	struct drr_state *st = drr_state(s);
	hal_u32 gpu, n = hal_gpu_count(s);

	if (n > DRR_MAX_GPUS)
		n = DRR_MAX_GPUS;
	if (st->probe_retry >= DRR_PROBE_RETRIES)
		return;
	for (gpu = 0; gpu < n; gpu++) {
		if (!st->gpus[gpu].owner)
			continue;
		st->probe_retry++;
		hal_timer_arm(s, DRR_TIMER_PROBE, hal_now(s) + st->early_probe);
		return;
	}
}

static void drr_timer(struct hal_sched *s, hal_u32 id)
{
	if (id == DRR_TIMER_TICK) {
		drr_tick(s);
		return;
	}
	/* drr arms no other timer */
	if (HAL_WARN_ON(s, id != DRR_TIMER_KICK && id != DRR_TIMER_PROBE))
		return;
	if (id == DRR_TIMER_PROBE)
		drr_state(s)->probe_fresh = 0;
	drr_run(s, id == DRR_TIMER_PROBE);
	if (id == DRR_TIMER_PROBE && !drr_state(s)->probe_fresh)
		drr_probe_again(s);
	if (drr_any_work(s))
		drr_start_ticking(s);
}

/* Trace each GPU's batch still out up to now. */
static void drr_trace_open(struct hal_sched *s)
{
	struct drr_state *st = drr_state(s);
	hal_u64 now = hal_now(s);
	hal_u32 i;

	for (i = 0; i < DRR_MAX_GPUS; i++) {
		const struct drr_task *o = st->gpus[i].owner;

		if (o && now > o->batch_start)
			hal_trace_phase(s, o->phase, o->batch_start, now);
	}
}

const struct gs_policy_ops gs_policy_drr = {
	.name = "drr",
	.summary = "GERM deficit round robin over per-task shadow queues, "
		   "costs estimated from command contents (or per class) and "
		   "corrected from the fences",
	.priority = "ignored: GERM's priority is the task's weight (w / w_min "
		    "quanta)",
	.params = drr_params,
	.n_params = sizeof(drr_params) / sizeof(drr_params[0]),
	.priv_size = sizeof(struct drr_state),
	.init = drr_init,
	.task_create = drr_task_create,
	.task_exit = drr_task_exit,
	.channel_create = drr_channel_create,
	.channel_destroy = drr_channel_destroy,
	.shadow_submit = drr_shadow_submit,
	.timer = drr_timer,
	.trace_open = drr_trace_open,
};
