/* The host model: each task is a process running its compiled program.
 * Launching a command costs CPU time (host.launch), then the task writes a
 * ring slot (blocking while the ring is full) and the doorbell (host.
 * doorbell); a doorbell on a trapped channel costs host.trap and asks the
 * policy, which may hold the task. Waiting notices completions by spinning
 * on the fence (host.spin_poll) or through an interrupt (gpu.irq_latency +
 * host.wakeup). Tasks are assumed to have a CPU each. */
#include <glib.h>

#include "sim/host/policy_call.h"
#include "sim/host/sim_internal.h"

/* Instantaneous steps run back to back; past this many without simulated
 * time passing, the task yields so a zero-time loop cannot hang a run. */
#define MAX_STEPS_PER_WAKE 4096

static void task_wake(void *ctx, struct gs_event *ev);

static const struct gs_host_config *host_cfg(const struct gs_task *t)
{
	return &t->sim->sc->host;
}

/* A trapped or shadowed doorbell write: a host fault, or for a task in a
 * VM an EPT violation and VM exit (the VM's `trap`). */
static gs_time_t trap_cost(const struct gs_task *t)
{
	int32_t vm = t->cfg->vm;

	return vm >= 0 ? t->sim->sc->vms[vm].trap : host_cfg(t)->trap;
}

static struct gs_gpu *task_gpu(const struct gs_task *t)
{
	return t->sim->gpus[t->gpu];
}

static void wake_at(struct gs_task *t, gs_time_t when)
{
	gs_evq_schedule(&t->sim->q, &t->ev, when);
}

/* a task's loop depth is a byte (struct gs_task) */
G_STATIC_ASSERT(GS_MAX_LOOP_DEPTH <= UINT8_MAX);

/* prefix, s, sep and n in decimal, in buf: what g_strdup_printf("%s%s%s%u")
 * gives, without a printf (two per task, a tenth of setting up a run of
 * 65,536 tasks). */
static const char *join_u32(GString *buf, const char *prefix, const char *s,
			    char sep, uint32_t n)
{
	char digits[10];
	size_t i = sizeof(digits);

	do {
		digits[--i] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	g_string_assign(buf, prefix);
	g_string_append(buf, s);
	g_string_append_c(buf, sep);
	g_string_append_len(buf, digits + i, (gssize)(sizeof(digits) - i));
	return buf->str;
}

void gs_task_init(struct gs_sim *sim, struct gs_task *t, uint32_t def,
		  uint32_t replica, struct hal_chan *chans)
{
	const struct gs_task_config *cfg = &sim->sc->tasks[def];
	g_autoptr(GString) buf = g_string_sized_new(64);

	memset(t, 0, sizeof(*t));
	t->sim = sim;
	t->hal.task = t;
	t->cfg = cfg;
	t->name = g_string_chunk_insert(
		sim->task_names,
		cfg->count > 1 ? join_u32(buf, "", cfg->name, '#', replica)
			       : cfg->name);
	/* The stream is named after the task, so the same task draws the
	 * same numbers alone and in company. */
	gs_rng_seed(&t->rng, sim->sc->seed,
		    join_u32(buf, "task/", cfg->name, '/', replica));
	t->chans = chans;
	gs_hal_levels(sim, t);
	t->state = GS_TASK_NOT_STARTED;
	if (gs_task_node(t))
		gs_task_node(t)->migrate_to = GS_GPU_AUTO;
	gs_event_init(&t->ev, GS_EVC_TASK, task_wake, t);
}

void gs_task_destroy(struct gs_task *t)
{
	uint32_t i, k;

	gs_evq_cancel(&t->sim->q, &t->ev);
	if (t->kill_ev) {
		gs_evq_cancel(&t->sim->q, t->kill_ev);
		g_free(t->kill_ev);
	}
	for (i = 0; t->channels_open && i < t->cfg->channels; i++)
		if (t->chans[i].ch)
			gs_fence_signal_cancel(t, i);
	for (i = 0; i < t->cfg->channels; i++)
		for (k = 0; k < t->n_levels; k++)
			gs_hal_chan_free_rare(&gs_task_level_of(t, k).chans[i]);
	g_free(t->guest_levels);
}

/* The policies are told of a task and its channels from the host's
 * level inwards, and of their end from the innermost level out. */
static void levels_task_create(struct gs_task *t)
{
	uint32_t k;

	for (k = t->n_levels; k-- > 0;) {
		struct hal_sched *s = gs_task_level_of(t, k).s;

		gs_policy_task_create(s, gs_task_level_of(t, k).hal);
	}
}

static void levels_task_exit(struct gs_task *t)
{
	uint32_t k;

	for (k = 0; k < t->n_levels; k++) {
		struct hal_sched *s = gs_task_level_of(t, k).s;

		gs_policy_task_exit(s, gs_task_level_of(t, k).hal);
	}
}

void gs_task_chan_times(const struct gs_task *t, gs_time_t *open,
			gs_time_t *shadowed)
{
	gs_time_t now = t->sim->q.now;
	uint32_t i;

	*open = t->chan_ns;
	*shadowed = t->host_shadowed_ns;
	if (!t->channels_open)
		return;
	*open += (now - t->opened_at) * t->cfg->channels;
	for (i = 0; i < t->cfg->channels; i++)
		if (t->chans[i].ch && t->chans[i].shadow)
			*shadowed += now - t->chans[i].rare->shadow_since;
}

static void close_channels(struct gs_task *t)
{
	uint32_t i, k;

	gs_task_chan_times(t, &t->chan_ns, &t->host_shadowed_ns);

	for (i = 0; i < t->cfg->channels; i++) {
		if (!t->chans[i].ch)
			continue;
		gs_fence_signal_cancel(t, i);
		for (k = 0; k < t->n_levels; k++) {
			struct hal_sched *s = gs_task_level_of(t, k).s;

			gs_policy_channel_destroy(s, &gs_task_level_of(t, k).chans[i]);
		}
		gs_gpu_channel_close(t->chans[i].ch);
	}
	t->channels_open = false;
}

static void task_finish(struct gs_task *t, enum gs_task_state final)
{
	struct gs_sim *sim = t->sim;
	bool started = t->state != GS_TASK_NOT_STARTED;

	if (t->state == GS_TASK_DONE || t->state == GS_TASK_KILLED)
		return;
	gs_evq_cancel(&sim->q, &t->ev);
	if (started) {
		close_channels(t);
		if (t->resident)
			gs_node_leave(t);
		levels_task_exit(t);
	}
	t->state = final;
	if (--sim->live_tasks == 0)
		sim->stopped = true;
}

void gs_task_teardown(struct gs_task *t)
{
	if (t->state != GS_TASK_NOT_STARTED)
		task_finish(t, GS_TASK_DONE);
}

void gs_task_kill(struct gs_task *t)
{
	if (t->state == GS_TASK_DONE || t->state == GS_TASK_KILLED)
		return;
	t->killed = true;
	task_finish(t, GS_TASK_KILLED);
}

static bool open_channels(struct gs_task *t)
{
	uint32_t i, k;

	for (i = 0; i < t->cfg->channels; i++) {
		struct gs_channel *ch = gs_gpu_channel_open(task_gpu(t),
							    gs_task_index(t),
							    &t->chans[i]);

		for (k = 0; k < t->n_levels; k++) {
			struct hal_chan *hc = &gs_task_level_of(t, k).chans[i];

			/* a migration reopens the channels: the handle
			 * starts afresh, its rare fields too */
			gs_hal_chan_free_rare(hc);
			memset(hc, 0, sizeof(*hc));
			hc->task = t;
			hc->owner = gs_task_level_of(t, k).hal;
			hc->ch = ch;
		}
		if (!ch)
			return false;
		/* a job's kernels share the cores (gpu_model/shared.c) */
		ch->occupancy_pm = t->cfg->demand_pm;
		/* the task's own ring size and credit limit (both at the
		 * channel's start, before anything is written) */
		if (t->cfg->ring_entries)
			ch->entries = t->cfg->ring_entries;
		gs_chan_set_credit_limit(ch, t->cfg->max_inflight);
		for (k = t->n_levels; k-- > 0;) {
			struct hal_sched *s = gs_task_level_of(t, k).s;

			gs_policy_channel_create(s, &gs_task_level_of(t, k).chans[i]);
		}
	}
	t->channels_open = true;
	t->opened_at = t->sim->q.now;
	return true;
}

static void task_start(struct gs_task *t)
{
	t->state = GS_TASK_READY;
	levels_task_create(t);
	/* the policy may have placed it (hal_task_migrate, free until the
	 * channels exist) */
	gs_node_join(t);
	if (!open_channels(t)) {
		/* The GPU's channel table is full: the task cannot run. */
		g_warning("task %s: no free channel on GPU %u; task killed",
			  t->name, t->gpu);
		gs_task_kill(t);
		return;
	}
	t->round_start = t->sim->q.now;
}

static uint64_t task_outstanding(const struct gs_task *t, uint16_t chan)
{
	uint64_t n = 0;
	uint32_t i;

	if (chan != GS_ALL_CHANNELS)
		return gs_chan_outstanding(t->chans[chan].ch);
	for (i = 0; i < t->cfg->channels; i++)
		n += gs_chan_outstanding(t->chans[i].ch);
	return n;
}

static const struct gs_step *cur_step(const struct gs_task *t)
{
	return &t->cfg->program.steps[t->pc];
}

/* A round ends; returns false if the task has done all its rounds. */
static bool end_round(struct gs_task *t)
{
	gs_time_t now = t->sim->q.now;

	t->rounds++;
	t->round_total += now - t->round_start;
	gs_latency_log_add(&t->sim->latency, gs_task_index(t), GS_LATENCY_ROUND,
			   now - t->round_start);
	t->round_start = now;
	return !(t->cfg->rounds && t->rounds >= t->cfg->rounds);
}

/* Where a doorbell write ends up. */
enum write_end { WRITE_PUBLISHED, WRITE_QUEUED, WRITE_STOPPED };

/* Carry the task's doorbell write outwards from level t->write_level:
 * each level's shadow queues it, each level's armed trap asks its policy,
 * which may hold the task (WRITE_STOPPED: held, or in the fault handler
 * until the task's next event); past the host's level it reaches the GPU.
 * A write resumed after a trap is repeated against the trapping level's
 * current mapping (a VM stopped by the host while a scheduler in the VM
 * held the task: it lands in the shadow queue). */
static enum write_end write_through(struct gs_task *t)
{
	uint32_t chan = cur_step(t)->channel;
	int verdict;

	while (t->write_level < t->n_levels) {
		struct gs_task_level l = gs_task_level_of(t, t->write_level);
		struct hal_chan *hc = &l.chans[chan];

		if (hc->shadow) {
			t->write_trapped = false;
			gs_hal_chan_rare(hc)->queued++;
			gs_policy_shadow_submit(l.s, hc);
			return WRITE_QUEUED;
		}
		/* a trap the policy has no submit op for stops nothing */
		verdict = !t->write_trapped && hc->trap_armed
				  ? gs_policy_submit(l.s, hc)
				  : GS_SUBMIT_NO_OP;
		if (verdict != GS_SUBMIT_NO_OP) {
			t->write_trapped = true;
			if (verdict == GS_SUBMIT_HOLD) {
				t->held_level = t->write_level;
				t->state = GS_TASK_HELD;
				return WRITE_STOPPED;
			}
			/* the write goes on once the fault handler has
			 * single-stepped it, a trap later */
			t->state = GS_TASK_TRAPPED;
			wake_at(t, t->sim->q.now + trap_cost(t));
			return WRITE_STOPPED;
		}
		t->write_trapped = false;
		t->write_level++;
	}
	gs_chan_publish(t->chans[chan].ch, 1);
	return WRITE_PUBLISHED;
}

void gs_task_forward(struct hal_chan *hc, uint32_t n)
{
	struct gs_task *t = hc->task;
	uint32_t k = hc->owner->level;
	uint32_t chan = (uint32_t)(hc - gs_task_level_of(t, k).chans), i;

	if (n > gs_hal_chan_queued(hc))
		n = gs_hal_chan_queued(hc);
	if (!n)
		return;
	hc->rare->queued -= n;
	for (k++; k < t->n_levels; k++) {
		struct hal_sched *s = gs_task_level_of(t, k).s;
		struct hal_chan *o = &gs_task_level_of(t, k).chans[chan];

		if (o->shadow) {
			gs_hal_chan_rare(o)->queued += n;
			for (i = 0; i < n; i++)
				gs_policy_shadow_submit(s, o);
			return;
		}
		/* a forward is the guest kernel's write, not a task's: an
		 * outer trap sees it but cannot hold it */
		for (i = 0; o->trap_armed && i < n; i++)
			if (gs_policy_submit(s, o) == GS_SUBMIT_NO_OP)
				break;
	}
	gs_chan_publish(hc->ch, n);
}

/* Doorbell for the command just written: a shadowed write costs the task
 * a trap (it goes through the kernel), a plain one the doorbell. A node
 * policy's shadow is DCUDA's wrapper library, which intercepts the launch
 * in user space at "negligible overhead" (DCUDA 3.2, 4.2): a doorbell. */
static void ring_doorbell(struct gs_task *t)
{
	enum write_end end;
	bool kernel_trap;

	t->write_level = 0;
	t->write_trapped = false;
	end = write_through(t);
	if (end == WRITE_STOPPED)
		return;
	kernel_trap = end == WRITE_QUEUED &&
		      !gs_task_level_of(t, t->write_level).s->ops->node_level;
	t->pc++;
	t->state = GS_TASK_READY;
	wake_at(t, t->sim->q.now + (kernel_trap ? trap_cost(t)
					       : host_cfg(t)->doorbell));
}

/* The launch cost is paid: write the ring slot, or block until one frees.
 * Blocking on a full ring is a wait for the GPU, as a wait call is: both
 * count in sync_ns (a launch call that blocks is what a wrapper sees). */
static void write_command(struct gs_task *t)
{
	const struct gs_step *s = cur_step(t);
	struct gs_channel *ch = t->chans[s->channel].ch;
	gs_time_t now = t->sim->q.now;
	uint64_t serial;

	if (t->state == GS_TASK_RING_FULL)
		t->sync_ns += now - t->wait_since;
	serial = gs_chan_write_content(ch, t->launch_len, s->engine, s->flags,
				       s->cls, &s->content);
	if (!serial) {
		t->state = GS_TASK_RING_FULL;
		t->wait_since = now;
		return;
	}
	/* the marks are the timeline's alone: no call per command without
	 * it, nor past its cap */
	if (t->sim->rec_marks)
		gs_record_submit(t->sim, ch, serial);
	if (s->engine == GS_ENGINE_COMPUTE && gs_task_node(t))
		gs_task_node(t)->launched_ns += t->launch_len;
	ring_doorbell(t);
}

void gs_task_release(struct gs_task *t)
{
	struct gs_sim *sim = t->sim;

	if (t->state != GS_TASK_HELD)
		return;
	/* The held fault handler resumes and completes the write. */
	t->state = GS_TASK_TRAPPED;
	wake_at(t, sim->q.now + trap_cost(t));
}

/* Run steps until one takes time. */
static void run_steps(struct gs_task *t)
{
	struct gs_sim *sim = t->sim;
	gs_time_t now = sim->q.now;
	uint32_t budget = MAX_STEPS_PER_WAKE;

	while (budget--) {
		const struct gs_step *s = cur_step(t);

		switch (s->op) {
		case GS_OP_LAUNCH:
			/* a move the policy asked for happens between launches,
			 * once nothing is outstanding */
			if (gs_task_node(t) &&
			    gs_task_node(t)->migrate_to != GS_GPU_AUTO &&
			    !task_outstanding(t, GS_ALL_CHANNELS)) {
				gs_task_migrate_now(t);
				return;
			}
			t->launch_len = gs_dist_draw(&s->dur, &t->rng) +
					gs_node_first_touch(t, s->engine);
			t->state = GS_TASK_LAUNCHING;
			wake_at(t, now + host_cfg(t)->launch);
			return;
		case GS_OP_WAIT:
			if (task_outstanding(t, s->channel)) {
				t->state = GS_TASK_WAITING;
				t->wait_since = now;
				return;
			}
			t->pc++;
			break;
		case GS_OP_CPU:
		case GS_OP_SLEEP:
			t->pc++;
			wake_at(t, now + gs_dist_draw(&s->dur, &t->rng));
			return;
		case GS_OP_SLEEP_UNTIL: {
			gs_time_t at = t->cfg->start + s->at;

			t->pc++;
			wake_at(t, at > now ? at : now);
			return;
		}
		case GS_OP_ROUND:
			t->pc++;
			if (!end_round(t)) {
				task_finish(t, GS_TASK_DONE);
				return;
			}
			break;
		case GS_OP_LOOP:
			g_assert(t->depth < GS_MAX_LOOP_DEPTH);
			t->loop_left[t->depth++] = s->count;
			t->pc++;
			break;
		case GS_OP_END_LOOP: {
			uint32_t *left = &t->loop_left[t->depth - 1];

			/* count 0 repeats forever */
			if (*left == 0 || --*left > 0) {
				t->pc = s->target + 1;
			} else {
				t->depth--;
				t->pc++;
			}
			break;
		}
		case GS_OP_END:
			task_finish(t, GS_TASK_DONE);
			return;
		default:
			g_assert_not_reached();
		}
	}
	wake_at(t, now);
}

static void task_wake(void *ctx, struct gs_event *ev)
{
	struct gs_task *t = ctx;
	(void)ev;

	switch (t->state) {
	case GS_TASK_NOT_STARTED:
		task_start(t);
		if (t->state != GS_TASK_READY)
			return;
		break;
	case GS_TASK_LAUNCHING:
	case GS_TASK_RING_FULL:
		write_command(t);
		return;
	case GS_TASK_TRAPPED:
		/* the fault handler is done: the write goes on outwards */
		if (write_through(t) == WRITE_STOPPED)
			return;
		t->state = GS_TASK_READY;
		t->pc++;
		break;
	case GS_TASK_WAITING:
		/* woken by a completion the waiter has now noticed */
		t->sync_ns += t->sim->q.now - t->wait_since;
		t->state = GS_TASK_READY;
		t->pc++;
		break;
	default:
		break;
	}
	run_steps(t);
}

/* A job's wait: from the task's write (its submission) to its start on
 * the GPU, whatever held it between (a trap, a policy's software queue,
 * a credit limit, the dispatcher, a context switch). */
void gs_host_cmd_start(void *ctx, struct gs_channel *ch,
		       const struct gs_cmd *cmd)
{
	struct hal_chan *hc = ch->owner;
	(void)ctx;

	if (hc)
		gs_latency_log_add(&hc->task->sim->latency, gs_task_index(hc->task),
				   GS_LATENCY_WAIT,
				   ch->gpu->q->now - cmd->written_at);
}

void gs_host_cmd_complete(void *ctx, struct gs_channel *ch,
			  const struct gs_cmd *cmd)
{
	struct gs_sim *sim = ctx;
	struct hal_chan *hc = ch->owner;
	struct gs_task *t;
	const struct gs_step *s;
	gs_time_t delay;

	if (sim->rec_marks)
		gs_record_complete(sim, ch, cmd->serial);
	/* the driver's run-job worker: a returned credit lets the next
	 * held command onto the hardware */
	gs_chan_return_credits(ch);
	if (!hc || !ch->open)
		return;
	t = hc->task;
	if (sim->fence_signal_used)
		gs_fence_signal_due(t, (uint32_t)(hc - t->chans),
				    &ch->gpu->cfg);
	if (t->state != GS_TASK_WAITING || gs_event_queued(&t->ev))
		return;
	s = cur_step(t);
	if (task_outstanding(t, s->channel))
		return;
	if (s->wait_mode == GS_WAIT_INTERRUPT)
		delay = ch->gpu->cfg.irq_latency + host_cfg(t)->wakeup;
	else
		delay = host_cfg(t)->spin_poll;
	(void)cmd;
	wake_at(t, t->sim->q.now + delay);
}

void gs_host_ring_space(void *ctx, struct gs_channel *ch)
{
	struct hal_chan *hc = ch->owner;
	(void)ctx;

	/* Retry from the task's own event rather than from inside the
	 * dispatcher's fetch, which is running now. */
	if (hc && ch->open && hc->task->state == GS_TASK_RING_FULL &&
	    !gs_event_queued(&hc->task->ev))
		wake_at(hc->task, hc->task->sim->q.now);
}

/* The stall of one migration: the runtime cloned from the target's pool of
 * prepared handles, plus the part of the footprint touched before the
 * background prefetch has moved it (faulted in on demand). */
static gs_time_t migration_cost(const struct gs_task *t)
{
	const struct gs_migration_config *m = &t->sim->sc->migration;
	unsigned __int128 faulted = (unsigned __int128)t->cfg->memory_bytes *
				    m->on_demand_pm;

	return m->clone + (gs_time_t)(faulted * GS_NS_PER_S /
				      ((unsigned __int128)m->bandwidth * 1000));
}

void gs_task_migrate_now(struct gs_task *t)
{
	struct gs_sim *sim = t->sim;
	struct gs_task_node *tn = gs_task_node(t);
	uint32_t from = t->gpu, to = tn->migrate_to;
	gs_time_t stall;

	tn->migrate_to = GS_GPU_AUTO;
	/* The channels are torn down on the source and recreated on the
	 * target (the policy sees channel_destroy / channel_create). */
	gs_node_leave(t);
	close_channels(t);
	t->gpu = to;
	if (!open_channels(t)) {
		/* the target's channel table is full: stay */
		close_channels(t);
		t->gpu = from;
		if (!open_channels(t))
			g_error("task %s: cannot reopen its channels", t->name);
		gs_node_join(t);
		gs_evq_schedule(&sim->q, &t->ev, sim->q.now);
		return;
	}
	gs_node_join(t);
	tn->migrations++;
	sim->node.migrations++;
	t->state = GS_TASK_READY;
	stall = migration_cost(t);
	tn->migration_stall_ns += stall;
	gs_evq_schedule(&sim->q, &t->ev, sim->q.now + stall);
}
