/* DRM scheduler events to import jobs: a job is queued (its submission
 * time and its submitter), run (the GPU starts it) and done (its finished
 * fence signals), the three matched by fence. Jobs are added once the trace
 * is over, in submission order, so tasks and channels appear in the order
 * of their first finished job's submission whatever order rings complete in. */
#include "sim/import/drm_import.h"

#include <string.h>

struct drm_job {
	guint64 queue_ns, run_ns, done_ns;
	guint64 seq;		/* queue order, to break ties of queue_ns */
	bool ran;
	bool copy;
	char *task_key;
	char *task_name;
	char *channel;
	guint32 origin;
};

struct gs_drm_match {
	GHashTable *pending;	/* fence -> struct drm_job *, queued not done */
	GPtrArray *done;	/* struct drm_job *, finished */
	guint64 seq;
	guint64 events;
	guint64 never_ran;
	guint64 never_finished;
	guint64 unknown_fence;
	guint64 reruns;
};

static const struct {
	const char *name;
	enum gs_drm_kind kind;
} drm_event_names[] = {
	{ "drm_sched_job", GS_DRM_QUEUE },
	{ "drm_sched_job_queue", GS_DRM_QUEUE },
	{ "drm_run_job", GS_DRM_RUN },
	{ "drm_sched_job_run", GS_DRM_RUN },
	{ "drm_sched_process_job", GS_DRM_DONE },
	{ "drm_sched_job_done", GS_DRM_DONE },
};

bool gs_drm_event_kind(const char *name, enum gs_drm_kind *kind)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(drm_event_names); i++)
		if (!strcmp(name, drm_event_names[i].name)) {
			*kind = drm_event_names[i].kind;
			return true;
		}
	return false;
}

static bool prefix_then_digits(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(s, prefix, n) && g_ascii_isdigit(s[n]);
}

bool gs_drm_ring_is_copy(const char *ring)
{
	return prefix_then_digits(ring, "sdma") ||
	       prefix_then_digits(ring, "bcs");
}

static void drm_job_free(gpointer p)
{
	struct drm_job *job = p;

	g_free(job->task_key);
	g_free(job->task_name);
	g_free(job->channel);
	g_free(job);
}

struct gs_drm_match *gs_drm_match_new(void)
{
	struct gs_drm_match *m = g_new0(struct gs_drm_match, 1);

	m->pending = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   drm_job_free);
	m->done = g_ptr_array_new_with_free_func(drm_job_free);
	return m;
}

void gs_drm_match_free(struct gs_drm_match *m)
{
	if (!m)
		return;
	g_hash_table_unref(m->pending);
	g_ptr_array_unref(m->done);
	g_free(m);
}

/* A job that leaves the trace unfinished: counted by how far it got. */
static void count_unfinished(struct gs_drm_match *m, const struct drm_job *job)
{
	if (job->ran)
		m->never_finished++;
	else
		m->never_ran++;
}

/* The submitter: the DRM client where the kernel names it (6.17 on), else
 * the process (tgid where the trace records it, else the thread). */
static char *task_key(const struct gs_drm_event *ev)
{
	if (ev->has_client)
		return g_strdup_printf("client %" G_GUINT64_FORMAT,
				       ev->client_id);
	return g_strdup_printf("pid %" G_GINT64_FORMAT,
			       ev->tgid >= 0 ? ev->tgid : ev->pid);
}

static void on_queue(struct gs_drm_match *m, const struct gs_drm_event *ev)
{
	struct drm_job *job = g_new0(struct drm_job, 1);
	struct drm_job *old = g_hash_table_lookup(m->pending, ev->fence);

	/* The same fence queued again before it signalled: only after lost
	 * events (a fence address is reused only once freed) */
	if (old)
		count_unfinished(m, old);
	job->queue_ns = ev->ts_ns;
	job->seq = m->seq++;
	job->copy = gs_drm_ring_is_copy(ev->ring);
	job->task_key = task_key(ev);
	job->task_name = g_strdup(ev->comm);
	job->channel = ev->dev ? g_strdup_printf("%s %s", ev->dev, ev->ring)
			       : g_strdup(ev->ring);
	job->origin = ev->origin;
	g_hash_table_replace(m->pending, g_strdup(ev->fence), job);
}

void gs_drm_match_event(struct gs_drm_match *m, const struct gs_drm_event *ev)
{
	struct drm_job *job;
	gpointer key;

	m->events++;
	if (ev->kind == GS_DRM_QUEUE) {
		on_queue(m, ev);
		return;
	}
	if (!g_hash_table_lookup_extended(m->pending, ev->fence, &key,
					  (gpointer *)&job)) {
		/* queued before the trace started, or its queue event lost */
		m->unknown_fence++;
		return;
	}
	if (ev->kind == GS_DRM_RUN) {
		if (job->ran)
			m->reruns++;
		job->ran = true;
		job->run_ns = ev->ts_ns;
		return;
	}
	g_hash_table_steal(m->pending, ev->fence);
	g_free(key);
	if (!job->ran) {
		/* finished without a run event: no GPU time to give it */
		m->never_ran++;
		drm_job_free(job);
		return;
	}
	job->done_ns = ev->ts_ns;
	g_ptr_array_add(m->done, job);
}

static gint by_submission(gconstpointer a, gconstpointer b)
{
	const struct drm_job *x = *(const struct drm_job *const *)a;
	const struct drm_job *y = *(const struct drm_job *const *)b;

	if (x->queue_ns != y->queue_ns)
		return x->queue_ns < y->queue_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool add_job(struct gs_import *imp, const struct drm_job *job,
		    GError **error)
{
	struct gs_import_task *task;
	gint channel;

	task = gs_import_task(imp, job->task_key, job->task_name, job->origin,
			      error);
	if (!task)
		return false;
	channel = gs_import_channel(imp, task, job->channel, job->origin,
				    error);
	if (channel < 0)
		return false;
	return gs_import_job_add(imp, task, (guint32)channel, job->copy,
				 job->queue_ns,
				 job->done_ns > job->run_ns ?
				 job->done_ns - job->run_ns : 0,
				 job->origin, error);
}

static void note_dropped(struct gs_import *imp, guint64 n, const char *what)
{
	if (n)
		gs_import_note(imp, "%" G_GUINT64_FORMAT " %s", n, what);
}

bool gs_drm_match_finish(struct gs_drm_match *m, struct gs_import *imp,
			 struct gs_drm_stats *stats, GError **error)
{
	GHashTableIter it;
	gpointer job;
	guint i;

	g_hash_table_iter_init(&it, m->pending);
	while (g_hash_table_iter_next(&it, NULL, &job))
		count_unfinished(m, job);
	g_ptr_array_sort(m->done, by_submission);
	stats->events = m->events;
	stats->never_ran = m->never_ran;
	stats->never_finished = m->never_finished;
	stats->unknown_fence = m->unknown_fence;
	stats->reruns = m->reruns;
	stats->jobs = m->done->len;
	note_dropped(imp, m->never_ran, "jobs queued but never run (dropped)");
	note_dropped(imp, m->never_finished,
		     "jobs run but never finished (dropped)");
	note_dropped(imp, m->unknown_fence,
		     "run/done events of fences never queued (ignored)");
	note_dropped(imp, m->reruns,
		     "jobs run again after a reset (last run kept)");
	if (!m->done->len) {
		gs_import_error_at(imp, 0, error, GS_IMPORT_ERROR_EMPTY,
				   "no finished DRM scheduler job "
				   "(%" G_GUINT64_FORMAT " scheduler events)",
				   m->events);
		return false;
	}
	for (i = 0; i < m->done->len; i++)
		if (!add_job(imp, g_ptr_array_index(m->done, i), error))
			return false;
	return true;
}
