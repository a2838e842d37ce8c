/* drm-tracecmd: the DRM scheduler's events in trace-cmd's binary trace.dat,
 * read through libtracecmd. Fields are read by name from the event formats
 * the file carries, so both generations of the tracepoints are understood:
 * up to 6.16 the fence is a pointer field `fence`, from 6.17 on it is
 * `fence_context` and `fence_seqno`, with `dev` and `client_id` beside. */
#include "sim/import/drm_import.h"

#include <trace-cmd.h>
#include <string.h>

struct tracecmd_walk {
	struct tep_handle *tep;
	struct gs_import *imp;
	struct gs_drm_match *match;
	guint64 records;
	GError **error;
	bool failed;
};

static bool field_u64(struct tep_event *event, struct tep_record *record,
		      const char *name, guint64 *out)
{
	unsigned long long v;

	if (!tep_find_field(event, name) ||
	    tep_get_field_val(NULL, event, name, record, &v, 0))
		return false;
	*out = v;
	return true;
}

/* A __string field, copied (the record's bytes need not end in NUL) */
static char *field_str(struct tep_event *event, struct tep_record *record,
		       const char *name)
{
	int len = 0;
	const char *raw;

	if (!tep_find_field(event, name))
		return NULL;
	raw = tep_get_field_raw(NULL, event, name, record, &len, 0);
	return raw && len >= 0 ? g_strndup(raw, (gsize)len) : NULL;
}

static char *fence_key(struct tep_event *event, struct tep_record *record)
{
	guint64 ctx, seqno, ptr;

	if (field_u64(event, record, "fence_context", &ctx) &&
	    field_u64(event, record, "fence_seqno", &seqno))
		return g_strdup_printf("%" G_GUINT64_FORMAT ":%"
				       G_GUINT64_FORMAT, ctx, seqno);
	if (field_u64(event, record, "fence", &ptr))
		return g_strdup_printf("0x%" G_GINT64_MODIFIER "x", ptr);
	return NULL;
}

static void record_error(struct tracecmd_walk *w, const char *event,
			 const char *what)
{
	gs_import_error_at(w->imp, 0, w->error, GS_IMPORT_ERROR_PARSE,
			   "record %" G_GUINT64_FORMAT ": %s has no %s field",
			   w->records, event, what);
	w->failed = true;
}

static int on_record(struct tracecmd_input *handle, struct tep_record *record,
		     int cpu, void *data)
{
	struct tracecmd_walk *w = data;
	struct tep_event *event = tep_find_event_by_record(w->tep, record);
	struct gs_drm_event ev = { .tgid = -1 };
	char *fence = NULL, *ring = NULL, *dev = NULL;

	(void)handle;
	(void)cpu;
	w->records++;
	if (!event || strcmp(event->system, "gpu_scheduler") ||
	    !gs_drm_event_kind(event->name, &ev.kind))
		return 0;
	ev.ts_ns = record->ts;
	ev.pid = tep_data_pid(w->tep, record);
	ev.comm = tep_data_comm_from_pid(w->tep, (int)ev.pid);
	fence = fence_key(event, record);
	if (ev.kind != GS_DRM_DONE) {
		ring = field_str(event, record, "name");
		dev = field_str(event, record, "dev");
		ev.has_client = field_u64(event, record, "client_id",
					  &ev.client_id);
	}
	if (!fence)
		record_error(w, event->name, "fence");
	else if (ev.kind != GS_DRM_DONE && !ring)
		record_error(w, event->name, "ring name");
	if (!w->failed) {
		ev.fence = fence;
		ev.ring = ring;
		ev.dev = dev;
		gs_drm_match_event(w->match, &ev);
	}
	g_free(fence);
	g_free(ring);
	g_free(dev);
	return w->failed;
}

bool gs_drm_tracecmd_read_stats(const char *path, struct gs_import *out,
				struct gs_drm_stats *stats, GError **error)
{
	struct tracecmd_walk w = { .imp = out, .error = error };
	struct tracecmd_input *handle;
	bool ok;

	memset(stats, 0, sizeof(*stats));
	/* the library's own complaints would repeat ours on stderr */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		gs_import_error_at(out, 0, error, GS_IMPORT_ERROR_READ,
				   "no such file");
		return false;
	}
	handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		gs_import_error_at(out, 0, error, GS_IMPORT_ERROR_PARSE,
				   "not a trace-cmd trace.dat file");
		return false;
	}
	w.tep = tracecmd_get_tep(handle);
	w.match = gs_drm_match_new();
	tracecmd_iterate_events(handle, NULL, 0, on_record, &w);
	stats->records = w.records;
	ok = !w.failed && gs_drm_match_finish(w.match, out, stats, error);
	gs_drm_match_free(w.match);
	tracecmd_close(handle);
	return ok;
}

static bool drm_tracecmd_read(const char *path, struct gs_import *out,
			      GError **error)
{
	struct gs_drm_stats stats;

	return gs_drm_tracecmd_read_stats(path, out, &stats, error);
}

const struct gs_importer gs_importer_drm_tracecmd = {
	.format = "drm-tracecmd",
	.summary = "Linux DRM scheduler events in trace-cmd's trace.dat",
	.read = drm_tracecmd_read,
};
