/* Linux DRM GPU scheduler traces (drivers/gpu/drm/scheduler/), read from
 * text (`trace-cmd report`, tracefs's `trace` file: drm_text.c) or from
 * trace-cmd's trace.dat (drm_tracecmd.c), turned into import jobs by the
 * matcher (drm_match.c). The mapping is in workloads/REFERENCE.md,
 * "Importing Linux DRM scheduler traces".
 *
 * The scheduler's tracepoints, by kernel version (gpu_scheduler_trace.h):
 *
 *   up to 6.16:  drm_sched_job, drm_run_job (one class: "entity=%p, id=%llu,
 *                fence=%p, ring=%s, job count:%u, hw job count:%d"; read
 *                with or without a leading "dev=%s, ", which the series
 *                that renamed them added first), drm_sched_process_job
 *                ("fence=%p signaled"), drm_sched_job_wait_dep;
 *   6.17 on:     drm_sched_job_queue, drm_sched_job_run ("dev=%s,
 *                fence=%llu:%llu, ring=%s, job count:%u, hw job count:%d,
 *                client_id:%llu"), drm_sched_job_done ("fence=%llu:%llu
 *                signaled"), drm_sched_job_add_dep,
 *                drm_sched_job_unschedulable.
 *
 * The fence was the address of the job's "finished" fence (addresses are
 * reused once a fence is freed) and became its (context, seqno), unique for
 * the whole boot; entity and id went away; dev and client_id (the DRM file
 * the job came from) came. The queue event fires in drm_sched_entity_push_job,
 * in the submitting thread; run fires in the scheduler's thread and done in
 * the fence callback (often an interrupt), so their comm/pid say nothing about
 * the submitter. */
#ifndef GS_DRM_IMPORT_H
#define GS_DRM_IMPORT_H

#include "sim/import/import.h"

enum gs_drm_kind {
	GS_DRM_QUEUE,	/* drm_sched_job / drm_sched_job_queue */
	GS_DRM_RUN,	/* drm_run_job / drm_sched_job_run */
	GS_DRM_DONE,	/* drm_sched_process_job / drm_sched_job_done */
};

/* One scheduler event as both readers decode it. Strings are borrowed for
 * the call only. */
struct gs_drm_event {
	enum gs_drm_kind kind;
	guint64 ts_ns;		/* on the trace's clock */
	gint64 pid;		/* thread that emitted it */
	gint64 tgid;		/* its process, -1 where the trace lacks it */
	const char *comm;	/* name of that thread */
	const char *fence;	/* "0xffff..." or "CONTEXT:SEQNO" */
	const char *ring;	/* queue and run only: the scheduler's name */
	const char *dev;	/* queue and run, 6.x kernels that print it; or NULL */
	bool has_client;	/* 6.17 on: client_id given */
	guint64 client_id;
	guint32 origin;		/* line (text) or 0 (trace.dat) */
};

/* What a trace held that did not become a job. */
struct gs_drm_stats {
	guint64 records;	/* lines or records read, DRM or not */
	guint64 events;		/* of them, scheduler events used */
	guint64 jobs;		/* jobs added to the model */
	guint64 never_ran;	/* queued, no run event before the end */
	guint64 never_finished;	/* ran, no done event before the end */
	guint64 unknown_fence;	/* run or done of a fence never queued */
	guint64 reruns;		/* run again (GPU reset recovery): last run counts */
};

struct gs_drm_match;

struct gs_drm_match *gs_drm_match_new(void);
void gs_drm_match_free(struct gs_drm_match *m);
/* Takes one event in trace order. */
void gs_drm_match_event(struct gs_drm_match *m, const struct gs_drm_event *ev);
/* Adds the finished jobs to `imp` in submission order, counts the rest into
 * *stats (and as notes of `imp`). false and *error set at a model limit or
 * when no job finished. */
bool gs_drm_match_finish(struct gs_drm_match *m, struct gs_import *imp,
			 struct gs_drm_stats *stats, GError **error);

/* The scheduler event a tracepoint name stands for; false for any other. */
bool gs_drm_event_kind(const char *name, enum gs_drm_kind *kind);
/* Copy engine from the ring name: amdgpu's SDMA rings "sdma%d"
 * (amdgpu/sdma_v*.c), xe's copy engines "bcs%d" (xe_hw_engine.c,
 * xe_hw_engine_class_to_str). */
bool gs_drm_ring_is_copy(const char *ring);

/* The readers, with their counts (tests); the table's entries call these. */
bool gs_drm_text_read_stats(const char *path, struct gs_import *out,
			    struct gs_drm_stats *stats, GError **error);
bool gs_drm_tracecmd_read_stats(const char *path, struct gs_import *out,
				struct gs_drm_stats *stats, GError **error);

extern const struct gs_importer gs_importer_drm_text;
extern const struct gs_importer gs_importer_drm_tracecmd;

#endif
