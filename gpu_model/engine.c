/* Engines: run one command at a time to completion (kepler), or until a
 * hardware timeslice ends with another group waiting (volta, with
 * preemption). Loading another group's context costs ctx_switch, charged
 * to no channel. Status-register fields change at the moments the hardware
 * would change them: next_id and LOADING when a switch begins, cur_id when
 * it ends, SAVING while a preempted context is written out.
 *
 * The compute engine's command shares the cores with the node's shared
 * kernels when there are any (shared.c): it then advances slower than
 * full speed, and its GPU time is the work it did, not the time it took. */
#include "gpu_model/gpu_internal.h"

static void engine_done(void *ctx, struct gs_event *ev);
static void slice_end(void *ctx, struct gs_event *ev);

void gs_engine_init(struct gs_gpu *gpu, struct gs_engine *eng, uint8_t kind)
{
	memset(eng, 0, sizeof(*eng));
	eng->gpu = gpu;
	eng->kind = kind;
	eng->state = GS_ENG_IDLE;
	eng->slice_group = UINT32_MAX;
	gs_event_init(&eng->done_ev, GS_EVC_GPU, engine_done, eng);
	gs_event_init(&eng->slice_ev, GS_EVC_GPU, slice_end, eng);
}

bool gs_engine_accepts(const struct gs_engine *eng)
{
	return eng->state == GS_ENG_IDLE;
}

static void span(struct gs_engine *eng, enum gs_span_kind kind,
		 const struct gs_channel *ch, gs_time_t start)
{
	struct gs_gpu *gpu = eng->gpu;

	if (gs_gpu_span_wanted(gpu, eng->kind, kind, ch))
		gpu->hooks.span(gpu->hooks.ctx, gpu, eng->kind, kind, ch, start,
				gpu->q->now);
}

static void status_changed(struct gs_engine *eng)
{
	struct gs_gpu *gpu = eng->gpu;

	if (gpu->status_watchers && gpu->hooks.status_change)
		gpu->hooks.status_change(gpu->hooks.ctx, gpu, eng->kind);
}

/* Every engine counts its group's slice: a group that only copies must
 * also give way when its slice is used up, or it would hold the
 * dispatcher for ever. Only compute is preempted (cfg.preemption). */
static bool timesliced(const struct gs_engine *eng)
{
	return eng->gpu->cfg.sched == GS_SCHED_TIMESLICE;
}

static bool on_cores(const struct gs_engine *eng)
{
	return eng->kind == GS_ENGINE_COMPUTE;
}

/* Full-speed time the running command advanced since seg_start. */
static gs_time_t seg_progress(const struct gs_engine *eng)
{
	gs_time_t dt = eng->gpu->q->now - eng->seg_start;
	gs_time_t left = eng->cmd.remaining - eng->run_work;
	gs_time_t p = eng->seg_div == 1000
			      ? dt
			      : (gs_time_t)((unsigned __int128)dt * 1000 /
					    eng->seg_div);

	return p < left ? p : left;
}

/* Time until the running command ends at the current rate. */
static gs_time_t time_left(const struct gs_engine *eng)
{
	gs_time_t left = eng->cmd.remaining - eng->run_work;

	if (eng->seg_div == 1000)
		return left;
	return (gs_time_t)(((unsigned __int128)left * eng->seg_div + 999) /
			   1000);
}

gs_time_t gs_engine_run_work_now(const struct gs_engine *eng)
{
	if (eng->state != GS_ENG_RUNNING)
		return 0;
	return eng->run_work + seg_progress(eng);
}

/* Timeslice mode: the slice's end, if the command outlasts it. */
static void arm_slice(struct gs_engine *eng)
{
	struct gs_gpu *gpu = eng->gpu;
	gs_time_t left = gpu->cfg.timeslice > eng->slice_used ?
			 gpu->cfg.timeslice - eng->slice_used : 0;
	gs_time_t end = eng->slice_base + left;

	if (end < gpu->q->now)
		end = gpu->q->now;
	if (end < gpu->q->now + time_left(eng))
		gs_evq_schedule(gpu->q, &eng->slice_ev, end);
}

void gs_engine_rate_changed(struct gs_engine *eng)
{
	struct gs_gpu *gpu = eng->gpu;
	uint64_t div;

	if (eng->state != GS_ENG_RUNNING)
		return;
	div = gs_shared_rate_div(gpu);
	if (div == eng->seg_div)
		return;
	eng->run_work += seg_progress(eng);
	eng->seg_start = gpu->q->now;
	eng->seg_div = div;
	gs_evq_schedule(gpu->q, &eng->done_ev, gpu->q->now + time_left(eng));
	if (timesliced(eng) && !gs_event_queued(&eng->slice_ev))
		arm_slice(eng);
}

static void begin_run(struct gs_engine *eng)
{
	struct gs_gpu *gpu = eng->gpu;
	gs_time_t now = gpu->q->now;

	eng->state = GS_ENG_RUNNING;
	eng->cur = eng->running_chan;
	eng->next = NULL;
	eng->run_start = now;
	eng->seg_start = now;
	eng->run_work = 0;
	if (on_cores(eng))
		gs_shared_engine_load(gpu, 1000);
	eng->seg_div = on_cores(eng) ? gs_shared_rate_div(gpu) : 1000;
	eng->commands++;
	status_changed(eng);
	if (!eng->cmd.started) {
		eng->cmd.started = true;
		if (gpu->hooks.cmd_start)
			gpu->hooks.cmd_start(gpu->hooks.ctx, eng->running_chan,
					     &eng->cmd);
	}
	gs_evq_schedule(gpu->q, &eng->done_ev, now + time_left(eng));
	if (timesliced(eng)) {
		/* The slice belongs to a group; a new group, or the same one
		 * back after the dispatcher served others, starts afresh
		 * (else a group whose slice was used up on this engine while
		 * the others used another engine would be preempted at once
		 * on every return). */
		if (eng->running_chan->group != eng->slice_group ||
		    gpu->disp.turn != eng->slice_turn) {
			eng->slice_group = eng->running_chan->group;
			eng->slice_turn = gpu->disp.turn;
			eng->slice_used = 0;
		}
		eng->slice_base = now;
		arm_slice(eng);
	}
}

void gs_engine_start(struct gs_engine *eng, struct gs_channel *ch,
		     const struct gs_cmd *cmd)
{
	struct gs_gpu *gpu = eng->gpu;

	eng->cmd = *cmd;
	eng->running_chan = ch;
	if (eng->cur && eng->cur->group == ch->group) {
		begin_run(eng);
		return;
	}
	/* A different context: load it first. */
	eng->ctx_switches++;
	eng->next = ch;
	if (!gpu->cfg.ctx_switch) {
		begin_run(eng);
		return;
	}
	eng->state = GS_ENG_SWITCHING;
	eng->phase_start = gpu->q->now;
	status_changed(eng);
	gs_evq_schedule(gpu->q, &eng->done_ev, gpu->q->now + gpu->cfg.ctx_switch);
}

/* Account the part of the current command that ran since run_start (the
 * work it did) and free the cores. */
static gs_time_t charge_run(struct gs_engine *eng)
{
	gs_time_t ran = gs_engine_run_work_now(eng);
	struct gs_channel *ch = eng->running_chan;

	eng->busy_time += ran;
	eng->busy_wall += eng->gpu->q->now - eng->run_start;
	ch->gpu_time += ran;
	if (eng->gpu->hooks.work)
		eng->gpu->hooks.work(eng->gpu->hooks.ctx, ch, ran);
	if (timesliced(eng))
		eng->slice_used += eng->gpu->q->now - eng->slice_base;
	span(eng, GS_SPAN_RUN, ch, eng->run_start);
	if (on_cores(eng))
		gs_shared_engine_load(eng->gpu, 0);
	return ran;
}

static void finish_command(struct gs_engine *eng)
{
	struct gs_gpu *gpu = eng->gpu;
	struct gs_channel *ch = eng->running_chan;
	struct gs_cmd cmd = eng->cmd;

	charge_run(eng);
	gs_evq_cancel(gpu->q, &eng->slice_ev);
	eng->state = GS_ENG_IDLE;
	eng->running_chan = NULL;
	ch->completed++;
	ch->in_flight--;
	if (cmd.flags & GS_CMD_FENCE)
		gs_chan_write_fence(ch, cmd.serial);
	status_changed(eng);
	if (gpu->hooks.cmd_complete)
		gpu->hooks.cmd_complete(gpu->hooks.ctx, ch, &cmd);
	gpu->notify.disp_kick(gpu);
}

static void engine_done(void *ctx, struct gs_event *ev)
{
	struct gs_engine *eng = ctx;
	gs_time_t now = eng->gpu->q->now;
	(void)ev;

	switch (eng->state) {
	case GS_ENG_SWITCHING:
		eng->switch_time += now - eng->phase_start;
		span(eng, GS_SPAN_SWITCH, eng->next, eng->phase_start);
		begin_run(eng);
		break;
	case GS_ENG_RUNNING:
		finish_command(eng);
		break;
	case GS_ENG_SAVING:
		eng->switch_time += now - eng->phase_start;
		span(eng, GS_SPAN_SAVE, eng->cur, eng->phase_start);
		eng->state = GS_ENG_IDLE;
		eng->cur = NULL;
		status_changed(eng);
		eng->gpu->notify.disp_kick(eng->gpu);
		break;
	default:
		g_assert_not_reached();
	}
}

/* Preempt the running command: it goes back to its channel with what is
 * left of it, ahead of any other command of the channel (a command the
 * dispatcher held for this engine comes back too, behind it), and the
 * context is saved out. A channel may be preempted again before it
 * resumes everything, so the saved commands form a queue. */
/* A group's slice is over: the dispatcher leaves it at the next command
 * boundary, unless it has already moved on to another group (the group
 * had nothing more queued), whose own slice this does not end. */
static void expire_slice(struct gs_gpu *gpu, uint32_t group)
{
	if (gpu->disp.group == group)
		gpu->disp.slice_expired = true;
}

static void preempt(struct gs_engine *eng)
{
	struct gs_gpu *gpu = eng->gpu;
	struct gs_channel *ch = eng->running_chan;
	gs_time_t ran = charge_run(eng);

	gs_evq_cancel(gpu->q, &eng->done_ev);
	eng->cmd.remaining -= ran;
	gpu->notify.disp_take_back(gpu, eng, ch->group);
	gs_fifo_push_front(&gs_chan_rare(ch)->saved, sizeof(eng->cmd),
			   &eng->cmd);
	gpu->notify.disp_link(gpu, ch);
	eng->running_chan = NULL;
	eng->preemptions++;
	expire_slice(gpu, ch->group);
	eng->state = GS_ENG_SAVING;
	eng->phase_start = gpu->q->now;
	status_changed(eng);
	gs_evq_schedule(gpu->q, &eng->done_ev,
			gpu->q->now + gpu->cfg.preempt_save);
}

static void slice_end(void *ctx, struct gs_event *ev)
{
	struct gs_engine *eng = ctx;
	struct gs_gpu *gpu = eng->gpu;
	gs_time_t now = gpu->q->now;
	(void)ev;

	if (eng->state != GS_ENG_RUNNING)
		return;
	if (!gpu->notify.disp_other_group_waiting(gpu,
						   eng->running_chan->group)) {
		/* Nobody else wants the engine: the group keeps it. */
		eng->slice_used = 0;
		eng->slice_base = now;
		gs_evq_schedule(gpu->q, &eng->slice_ev, now + gpu->cfg.timeslice);
		return;
	}
	if (gpu->cfg.preemption && eng->kind == GS_ENGINE_COMPUTE) {
		preempt(eng);
		return;
	}
	/* No preemption: the command runs on; the group loses the engine at
	 * the next command boundary. */
	expire_slice(gpu, eng->running_chan->group);
}

/* The channel is being torn down (its task was killed or exited): a
 * command of it that is loading or running is aborted, what ran so far is
 * charged, and the engine forgets the channel's context, whose memory is
 * about to be reused. */
void gs_engine_forget_channel(struct gs_engine *eng, struct gs_channel *ch)
{
	struct gs_gpu *gpu = eng->gpu;

	if (eng->running_chan == ch) {
		if (eng->state == GS_ENG_RUNNING) {
			charge_run(eng);
			gs_evq_cancel(gpu->q, &eng->slice_ev);
		} else if (eng->state == GS_ENG_SWITCHING) {
			eng->switch_time += gpu->q->now - eng->phase_start;
			span(eng, GS_SPAN_SWITCH, ch, eng->phase_start);
		}
		gs_evq_cancel(gpu->q, &eng->done_ev);
		eng->state = GS_ENG_IDLE;
		eng->running_chan = NULL;
		ch->dropped++;
		ch->in_flight--;
		gpu->notify.disp_kick(gpu);
	}
	if (eng->next == ch)
		eng->next = NULL;
	if (eng->cur == ch && eng->state != GS_ENG_SAVING)
		eng->cur = NULL;
	status_changed(eng);
}
