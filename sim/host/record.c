/* Recording what happens for the results: ground-truth GPU time per task,
 * the timeline spans (one track per engine and per channel) and the
 * periodic series samples. */
#include <glib.h>
#include <string.h>

#include "base/zero_table.h"
#include "sim/host/policy_call.h"
#include "sim/host/sim_internal.h"

static const char *const engine_names[GS_ENGINE_KINDS] = { "compute",
							   "copy" };

void gs_record_init(struct gs_sim *sim)
{
	struct gs_results *r = sim->rec;

	sim->cat_run = gs_results_intern(r, "run");
	sim->cat_switch = gs_results_intern(r, "ctx_switch");
	sim->cat_save = gs_results_intern(r, "preempt_save");
	sim->name_switch = gs_results_intern(r, "context switch");
	sim->name_save = gs_results_intern(r, "preemption save");
	sim->rec_left[GS_CHUNK_SPANS] = sim->sc->output.timeline_max_spans;
	sim->rec_left[GS_CHUNK_MARKS] = sim->sc->output.timeline_max_spans;
	sim->rec_marks = sim->opt.timeline;
}

void gs_record_free(struct gs_sim *sim)
{
	g_free(sim->track_seen);
	g_free(sim->task_name_ids);
	sim->track_seen = NULL;
	sim->task_name_ids = NULL;
}

#define TRACK_KINDS 3 /* enum gs_track_kind */

/* Bit of track (gpu, kind, id) in sim->track_seen. Ids are dense (engine
 * kinds, channel slots, policy instances), so a bitmap indexed by them
 * stays small: 24 KB for 65,536 channels. */
static inline uint64_t track_bit(const struct gs_sim *sim, uint32_t gpu,
				 uint8_t kind, uint32_t id)
{
	return ((uint64_t)id * MAX(sim->n_gpus, 1u) + gpu) * TRACK_KINDS +
	       kind;
}

/* Registers track (gpu, kind, id), first seen now: its bit set (the
 * bitmap grown to hold it) and its label made, except a channel's, which
 * keeps its task's name (name) and is labelled by the writers that show
 * it (gs_track_label): at 65,536 channels a printf and a malloc each, on
 * the run's thread, for labels the stream never reads. Out of line, so
 * that the check of every span (ensure_track) stays a few instructions:
 * two per command, of which all but one per channel find the track
 * known. */
static G_GNUC_NO_INLINE void add_track(struct gs_sim *sim, uint32_t gpu,
				       uint8_t kind, uint32_t id,
				       const char *task_name, uint32_t name)
{
	uint64_t bit = track_bit(sim, gpu, kind, id);
	size_t byte = (size_t)(bit / 8);
	struct gs_track tr = { .gpu = gpu, .track_kind = kind, .track = id,
			       .name = name };

	if (byte >= sim->track_seen_bytes) {
		size_t n = MAX(byte + 1, 2 * sim->track_seen_bytes);

		sim->track_seen = g_realloc(sim->track_seen, n);
		memset(sim->track_seen + sim->track_seen_bytes, 0,
		       n - sim->track_seen_bytes);
		sim->track_seen_bytes = n;
	}
	sim->track_seen[byte] |= (uint8_t)(1u << (bit % 8));
	if (kind == GS_TRACK_ENGINE)
		tr.label = g_strdup(engine_names[id]);
	else if (kind == GS_TRACK_POLICY && !task_name)
		tr.label = g_strdup_printf("policy %s", sim->sc->policy.name);
	else if (kind == GS_TRACK_POLICY)
		tr.label = g_strdup(task_name); /* a VM's scheduler */
	/* a channel's: labelled from name where shown (gs_track_label) */
	g_array_append_val(sim->rec->tracks, tr);
}

static inline bool track_known(const struct gs_sim *sim, uint32_t gpu,
			       uint8_t kind, uint32_t id)
{
	uint64_t bit = track_bit(sim, gpu, kind, id);
	size_t byte = (size_t)(bit / 8);

	return byte < sim->track_seen_bytes &&
	       (sim->track_seen[byte] >> (bit % 8)) & 1u;
}

static inline void ensure_track(struct gs_sim *sim, uint32_t gpu,
				uint8_t kind, uint32_t id,
				const char *task_name)
{
	if (G_LIKELY(track_known(sim, gpu, kind, id)))
		return;
	add_track(sim, gpu, kind, id, task_name, 0);
}

/* Channel id's track, labelled by its task's name: name, the interned
 * name of its span ("?": none). */
static inline void ensure_chan_track(struct gs_sim *sim, uint32_t gpu,
				     uint32_t id, uint32_t name)
{
	if (G_LIKELY(track_known(sim, gpu, GS_TRACK_CHANNEL, id)))
		return;
	add_track(sim, gpu, GS_TRACK_CHANNEL, id, NULL, name);
}

/* Engine `engine` of gpu's track registered if it is new, and the engine
 * marked traced: after its first span one load, here and in
 * gs_gpu_span_wanted(), instead of the track bitmap's index arithmetic.
 * The engine comes const through the span hook; the mark is the
 * recorder's own field (gpu_model/gpu.h), and a track once registered
 * stays so. */
static inline void trace_engine(struct gs_sim *sim, const struct gs_gpu *gpu,
				uint8_t engine)
{
	if (G_LIKELY(gpu->engines[engine].traced))
		return;
	ensure_track(sim, gpu->index, GS_TRACK_ENGINE, engine, NULL);
	((struct gs_gpu *)gpu)->engines[engine].traced = true;
}

/* Channel ch's track registered if it is new, labelled by name, its
 * owner's task's (interned by the caller), and, if it has an owner (hc),
 * the channel marked traced: the track registered and the owner's name
 * interned, both for good, so gs_gpu_span_wanted() reads the channel
 * alone. The mark is the recorder's own field; the channel clears it
 * when its owner changes (gpu_model/gpu.h). */
static inline void trace_chan(struct gs_sim *sim, const struct gs_gpu *gpu,
			      const struct gs_channel *ch,
			      const struct hal_chan *hc, uint32_t name)
{
	if (G_LIKELY(ch->traced))
		return;
	ensure_chan_track(sim, gpu->index, ch->id, name);
	if (hc)
		((struct gs_channel *)ch)->traced = true;
}

/* Room in the results' names for every task's, made when the first is
 * interned: the table and its index then grow once instead of doubling
 * past the end (about 11 bytes a task at 65,536, and the index rebuilt
 * at each doubling: a tenth of the interning), and not at all without
 * spans. */
static void reserve_task_names(struct gs_sim *sim)
{
	size_t bytes = 0;
	uint32_t i;

	for (i = 0; i < sim->n_tasks; i++)
		bytes += strlen(sim->tasks[i].name) + 1;
	gs_strtab_reserve_interned(&sim->rec->names, sim->n_tasks, bytes);
}

/* Task t's name interned in the results when first used (the names'
 * order, which the timeline's bytes follow, is that of first use): the
 * table of ids made and the name interned out of line. */
static G_GNUC_NO_INLINE uint32_t intern_task_name(struct gs_sim *sim,
						  const struct gs_task *t)
{
	size_t i = (size_t)(t - sim->tasks);

	if (!sim->task_name_ids) {
		sim->task_name_ids = gs_zeroed_written(
			sizeof(uint32_t) * MAX(sim->n_tasks, 1u));
		reserve_task_names(sim);
	}
	if (!sim->task_name_ids[i])
		sim->task_name_ids[i] = gs_results_intern(sim->rec, t->name) + 1;
	return sim->task_name_ids[i] - 1;
}

/* Task t's name's index in the results, once per task rather than a
 * string hash per span; after its first use one load (three per
 * command: its run span and two marks). */
static inline uint32_t task_name_id(struct gs_sim *sim, const struct gs_task *t)
{
	const uint32_t *ids = sim->task_name_ids;

	if (G_LIKELY(ids && ids[t - sim->tasks]))
		return ids[t - sim->tasks] - 1;
	return intern_task_name(sim, t);
}

/* Its pages mapped in at once (gs_populate_for_writing): the array is
 * filled whole before it is handed on, and a fresh one's first writes
 * took a page fault every 4 KiB on the simulation's thread. */
GArray *gs_record_chunk_array_new(size_t item_size)
{
	GArray *a = g_array_sized_new(FALSE, TRUE, (guint)item_size,
				      GS_SPAN_CHUNK);

	gs_populate_for_writing(a->data, (size_t)GS_SPAN_CHUNK * item_size);
	return a;
}

/* Notes a full chunk of kind in the results (with or without a sink) and
 * hands it to the sink if there is one; the array *items then starts
 * anew. Not while the run is closed: the spans recorded then are marked
 * open in the array afterwards. */
static G_GNUC_NO_INLINE void end_chunk(struct gs_sim *sim,
				       enum gs_chunk_kind kind,
				       GArray **items, size_t item_size)
{
	struct gs_results *r = sim->rec;
	struct gs_span_sink *sink = sim->opt.span_sink;
	guint len = (*items)->len - (sink ? 0 : sim->rec_chunks[kind] *
					     GS_SPAN_CHUNK);

	if (sim->rec_closing || len < GS_SPAN_CHUNK)
		return;
	g_byte_array_append(r->chunk_order, &(uint8_t){ (uint8_t)kind }, 1);
	sim->rec_chunks[kind]++;
	if (!sink)
		return;
	sink->take(sink, kind, *items, &r->names, r->tracks);
	*items = sink->spare ? sink->spare(sink, kind) : NULL;
	if (!*items)
		*items = gs_record_chunk_array_new(item_size);
	sim->rec_sized[kind] = *items;
}

/* Appends item (of item_size bytes) to *items, the timeline's array of
 * kind, within the cap of timeline_max_spans (counting what a sink took);
 * a full chunk ends. Four per command (two spans, two marks): an array
 * known to have room (rec_sized: made with GS_SPAN_CHUNK items of room,
 * handed on when full) takes the item in place, bumping GArray's public
 * length as g_array_append_vals would after its checks; any other array,
 * without a sink or once the run closes, through g_array_append_vals. */
static inline void add_item(struct gs_sim *sim, enum gs_chunk_kind kind,
			    GArray **items, const void *item,
			    size_t item_size)
{
	GArray *a = *items;

	if (G_UNLIKELY(!sim->rec_left[kind])) {
		sim->rec->timeline_truncated = true;
		return;
	}
	sim->rec_left[kind]--;
	if (G_LIKELY(a == sim->rec_sized[kind] && a->len < GS_SPAN_CHUNK))
		memcpy(a->data + (size_t)a->len++ * item_size, item,
		       item_size);
	else
		g_array_append_vals(a, item, 1);
	if (G_UNLIKELY(a->len >= GS_SPAN_CHUNK))
		end_chunk(sim, kind, items, item_size);
}

/* A span record, which counts against the cap as the spans it stands
 * for (gs_span_count): the caller sets on_channel only with room for
 * both. */
static inline void add_span(struct gs_sim *sim, const struct gs_span *sp)
{
	if (sp->on_channel)
		sim->rec_left[GS_CHUNK_SPANS]--;
	add_item(sim, GS_CHUNK_SPANS, &sim->rec->spans, sp, sizeof(*sp));
}

/* A command entering its channel's ring, or completing: the timeline's
 * flow arrows and queue depths. Capped as the spans are. */
static void add_mark(struct gs_sim *sim, const struct gs_channel *ch,
		     uint64_t serial, enum gs_cmd_mark_kind kind)
{
	const struct hal_chan *hc = ch->owner;
	struct gs_cmd_mark m = {
		.t = sim->q.now, .serial = serial, .gpu = ch->gpu->index,
		.channel = ch->id, .kind = (uint8_t)kind,
		/* the label its channel's track gets from engine_span() */
		.task_name = hc ? task_name_id(sim, hc->task)
				: gs_results_intern(sim->rec, "?"),
	};

	add_item(sim, GS_CHUNK_MARKS, &sim->rec->cmd_marks, &m, sizeof(m));
}

/* Whether a mark is recorded now: with the timeline on and below the
 * cap. Checked before add_mark() is called: at 65,536 channels the cap
 * is reached a tenth of the way into a 60 s run, and the call and its
 * frame for every later mark were most of the marks' cost. Past the cap
 * nothing is interned for a mark, and after the first mark dropped
 * host.c calls no more (sim->rec_marks). */
static inline bool mark_wanted(struct gs_sim *sim)
{
	/* host.c calls only with the timeline on; another caller may not */
	if (!sim->opt.timeline)
		return false;
	if (G_LIKELY(sim->rec_left[GS_CHUNK_MARKS]))
		return true;
	sim->rec->timeline_truncated = true;
	sim->rec_marks = false;
	return false;
}

void gs_record_submit(struct gs_sim *sim, const struct gs_channel *ch,
		      uint64_t serial)
{
	if (mark_wanted(sim))
		add_mark(sim, ch, serial, GS_MARK_SUBMIT);
}

void gs_record_complete(struct gs_sim *sim, const struct gs_channel *ch,
			uint64_t serial)
{
	if (mark_wanted(sim))
		add_mark(sim, ch, serial, GS_MARK_COMPLETE);
}

void gs_record_work(void *ctx, const struct gs_channel *ch, gs_time_t work)
{
	struct gs_sim *sim = ctx;
	const struct hal_chan *hc = ch->owner;

	if (hc)
		sim->task_figs[hc->task - sim->tasks].gpu_time += work;
}

/* The name of a span of kind: for a command (or shared kernel) its
 * task's, interned when first used ("?": no task), else the phase's. */
static inline uint32_t span_name(struct gs_sim *sim, enum gs_span_kind kind,
				 const struct gs_task *task)
{
	switch (kind) {
	case GS_SPAN_RUN:
	case GS_SPAN_SHARED:
		return task ? task_name_id(sim, task)
			    : gs_results_intern(sim->rec, "?");
	case GS_SPAN_SWITCH:
		return sim->name_switch;
	default:
		return sim->name_save;
	}
}

static inline uint32_t span_category(const struct gs_sim *sim,
				     enum gs_span_kind kind)
{
	switch (kind) {
	case GS_SPAN_RUN:
	case GS_SPAN_SHARED:
		return sim->cat_run;
	case GS_SPAN_SWITCH:
		return sim->cat_switch;
	default:
		return sim->cat_save;
	}
}

/* A span of an engine, and for a command also of its channel (one
 * record, on_channel), below the cap of timeline_max_spans: with room
 * for one span only, the engine's is kept and the channel's dropped. */
static G_GNUC_NO_INLINE void engine_span(struct gs_sim *sim,
					 const struct gs_gpu *gpu,
					 uint8_t engine, enum gs_span_kind kind,
					 const struct gs_channel *ch,
					 gs_time_t start, gs_time_t end)
{
	const struct hal_chan *hc = ch ? ch->owner : NULL;
	/* its name is read only for a new track's label: at 65,536 tasks
	 * the task's line is a cache miss per span */
	const struct gs_task *task = hc ? hc->task : NULL;
	const struct gs_engine *eng = &gpu->engines[engine];
	struct gs_span sp = {
		.start = start, .end = end, .gpu = gpu->index,
		.track_kind = GS_TRACK_ENGINE, .track = engine,
		.name = span_name(sim, kind, task),
		.category = span_category(sim, kind),
	};

	/* the engine's command is the one that ran (shared kernels are not
	 * on an engine, and carry no command number); its channel is set
	 * below, as every command's and shared kernel's is */
	if (kind == GS_SPAN_RUN && ch && eng->running_chan == ch) {
		sp.cmd = eng->cmd.serial;
		sp.cmd_len = eng->cmd.duration;
	}
	trace_engine(sim, gpu, engine);
	if ((kind == GS_SPAN_RUN || kind == GS_SPAN_SHARED) && ch) {
		trace_chan(sim, gpu, ch, hc, sp.name);
		sp.channel = ch->id;
		sp.on_channel = sim->rec_left[GS_CHUNK_SPANS] >= 2;
		if (!sp.on_channel)
			sim->rec->timeline_truncated = true;
	}
	add_span(sim, &sp);
}

/* Past the cap of timeline_max_spans only what the files show of every
 * span is done: its task's name interned and its tracks registered, in
 * the order engine_span() does (a track first seen then is still in the
 * timeline, with no span). Building each span to drop it was most of
 * the recording's cost at 65,536 channels, where the cap is reached a
 * tenth of the way into a 60 s run. */
static G_GNUC_NO_INLINE void past_cap_span(struct gs_sim *sim,
					   const struct gs_gpu *gpu,
					   uint8_t engine,
					   enum gs_span_kind kind,
					   const struct gs_channel *ch)
{
	const struct hal_chan *hc = ch ? ch->owner : NULL;
	uint32_t name = span_name(sim, kind, hc ? hc->task : NULL);

	trace_engine(sim, gpu, engine);
	if ((kind == GS_SPAN_RUN || kind == GS_SPAN_SHARED) && ch)
		trace_chan(sim, gpu, ch, hc, name);
}

/* The first span past the cap dropped: from now on the GPUs call for a
 * span only when it has a track not yet traced (gs_gpu_span_wanted),
 * the only spans past_cap_span() does anything for. */
static G_GNUC_NO_INLINE void spans_untraced_only(struct gs_sim *sim)
{
	uint32_t g;

	for (g = 0; g < sim->n_gpus; g++)
		sim->gpus[g]->spans_untraced_only = true;
}

void gs_record_span(void *ctx, const struct gs_gpu *gpu, uint8_t engine,
		    enum gs_span_kind kind, const struct gs_channel *ch,
		    gs_time_t start, gs_time_t end)
{
	struct gs_sim *sim = ctx;

	/* the GPU time came through gs_record_work */
	if (!sim->opt.timeline || end == start)
		return;
	if (G_LIKELY(sim->rec_left[GS_CHUNK_SPANS])) {
		engine_span(sim, gpu, engine, kind, ch, start, end);
		return;
	}
	sim->rec->timeline_truncated = true;
	if (G_UNLIKELY(!gpu->spans_untraced_only))
		spans_untraced_only(sim);
	/* the GPU asks that itself from now on; not for the first span
	 * dropped, nor from a GPU whose model skipped it */
	if (gs_gpu_span_wanted(gpu, engine, kind, ch))
		past_cap_span(sim, gpu, engine, kind, ch);
}

/* A span on the track of policy instance s: the host's policy, or a VM's
 * scheduler on a track of its own. */
void gs_record_policy_span(struct hal_sched *s, const char *name,
			   gs_time_t start, gs_time_t end)
{
	struct gs_sim *sim = s->sim;
	g_autofree char *label = NULL;
	struct gs_span sp = {
		.start = start, .end = end, .gpu = 0,
		.track_kind = GS_TRACK_POLICY, .track = s->track,
	};

	if (!sim->opt.timeline || end < start)
		return;
	if (s->vm >= 0)
		label = g_strdup_printf("vm %s scheduler %s",
					sim->sc->vms[s->vm].name,
					s->ops->name);
	ensure_track(sim, 0, GS_TRACK_POLICY, s->track, label);
	sp.name = gs_results_intern(sim->rec, name);
	sp.category = gs_results_intern(sim->rec, "policy");
	add_span(sim, &sp);
}

/* What an engine of `gpu` is doing now, from when it began to now. */
static void close_engines(struct gs_sim *sim, const struct gs_gpu *gpu,
			  gs_time_t now)
{
	const struct gs_shared *sh = &gpu->shared;
	uint8_t k;
	guint i;

	for (k = 0; k < GS_ENGINE_KINDS; k++) {
		const struct gs_engine *eng = &gpu->engines[k];

		if (eng->state == GS_ENG_RUNNING && eng->running_chan &&
		    now > eng->run_start)
			engine_span(sim, gpu, k, GS_SPAN_RUN,
				    eng->running_chan, eng->run_start, now);
		else if (eng->state == GS_ENG_SWITCHING &&
			 now > eng->phase_start)
			engine_span(sim, gpu, k, GS_SPAN_SWITCH, eng->next,
				    eng->phase_start, now);
		else if (eng->state == GS_ENG_SAVING && now > eng->phase_start)
			engine_span(sim, gpu, k, GS_SPAN_SAVE, eng->cur,
				    eng->phase_start, now);
	}
	for (i = 0; sh->running && i < sh->running->len; i++) {
		const struct gs_shared_kernel *sk = &g_array_index(
			sh->running, struct gs_shared_kernel, i);

		if (now > sk->start)
			engine_span(sim, gpu, GS_ENGINE_COMPUTE, GS_SPAN_SHARED,
				    sk->ch, sk->start, now);
	}
}

/* Spans are recorded when they end. At the end of the run, what is still
 * going (commands, context switches, the policy's phase) is recorded up to
 * the end and marked open, so the timeline covers the whole run. The
 * tasks' GPU time already counts the running parts (gs_task_gpu_time_now). */
void gs_record_close(struct gs_sim *sim)
{
	const struct hal_sched *s = &sim->sched;
	GArray *spans = sim->rec->spans;
	guint first = spans->len, i;
	uint32_t g;

	if (!sim->opt.timeline)
		return;
	sim->rec_closing = true;
	/* what is recorded from now on (and after the results take the
	 * arrays) is appended through GArray */
	sim->rec_sized[GS_CHUNK_SPANS] = sim->rec_sized[GS_CHUNK_MARKS] = NULL;
	for (g = 0; g < sim->n_gpus; g++)
		close_engines(sim, sim->gpus[g], sim->q.now);
	if (s->ops)
		gs_policy_trace_open(&sim->sched);
	for (g = 0; g < sim->n_guests; g++)
		if (sim->guests[g].ops)
			gs_policy_trace_open(&sim->guests[g]);
	for (i = first; i < spans->len; i++)
		g_array_index(spans, struct gs_span, i).open = true;
}
