/* timeline.json in the Chrome trace event format, for Perfetto and
 * chrome://tracing. A run may record a million spans, so the file is
 * streamed one event per line rather than built as a tree; every string
 * goes through gs_json_append_string() and every number is printed from
 * integers, so the bytes depend on nothing but the results.
 *
 * pid is the GPU; tid is the track: 1 + engine kind for engines, 100 for
 * the policy, 1000 + channel id for channels. thread_sort_index is the tid,
 * so engines come first, then the policy, then channels by id. */
#include <inttypes.h>
#include <string.h>

#include "sim/results/results_priv.h"

#define GS_TID_ENGINE_BASE 1u
#define GS_TID_POLICY 100u
#define GS_TID_CHANNEL_BASE 1000u

void gs_json_append_string(GString *out, const char *s)
{
	g_autofree char *tmp = NULL;
	const unsigned char *p;

	if (!s) {
		g_string_append(out, "null");
		return;
	}
	s = gs_results_utf8(s, &tmp);
	g_string_append_c(out, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			g_string_append(out, "\\\"");
			break;
		case '\\':
			g_string_append(out, "\\\\");
			break;
		case '\b':
			g_string_append(out, "\\b");
			break;
		case '\f':
			g_string_append(out, "\\f");
			break;
		case '\n':
			g_string_append(out, "\\n");
			break;
		case '\r':
			g_string_append(out, "\\r");
			break;
		case '\t':
			g_string_append(out, "\\t");
			break;
		case 0xe2:
			/* U+2028 and U+2029 are valid JSON but end a line
			 * in JavaScript, which some trace viewers eval. */
			if (p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
				g_string_append_printf(out, "\\u%04x",
						       p[2] == 0xa8 ? 0x2028 :
						       0x2029);
				p += 2;
				break;
			}
			g_string_append_c(out, (char)*p);
			break;
		default:
			if (*p < 0x20)
				g_string_append_printf(out, "\\u%04x", *p);
			else
				g_string_append_c(out, (char)*p);
		}
	}
	g_string_append_c(out, '"');
}

void gs_append_us(GString *out, uint64_t ns)
{
	g_string_append_printf(out, "%" PRIu64 ".%03u", ns / 1000,
			       (unsigned)(ns % 1000));
}

static uint64_t track_tid(uint8_t kind, uint32_t track)
{
	switch (kind) {
	case GS_TRACK_ENGINE:
		return GS_TID_ENGINE_BASE + (uint64_t)track;
	case GS_TRACK_POLICY:
		return GS_TID_POLICY + (uint64_t)track; /* VMs' schedulers after */
	case GS_TRACK_CHANNEL:
	default:
		return GS_TID_CHANNEL_BASE + (uint64_t)track;
	}
}

/* Events are built in line, then written one per line, with the comma
 * that JSON wants between them and not after the last. */
struct tl_out {
	FILE *f;
	GString *line;
	bool first;
};

static void emit(struct tl_out *o)
{
	if (!o->first)
		fputs(",\n", o->f);
	o->first = false;
	fwrite(o->line->str, 1, o->line->len, o->f);
	g_string_truncate(o->line, 0);
}

/* GPUs named by n_gpus, and any GPU a track or span mentions beyond it. */
static uint32_t gpu_count(const struct gs_results *r)
{
	uint32_t n = r->n_gpus;
	guint i;

	for (i = 0; r->tracks && i < r->tracks->len; i++)
		n = MAX(n, g_array_index(r->tracks, struct gs_track, i).gpu + 1);
	for (i = 0; r->spans && i < r->spans->len; i++)
		n = MAX(n, g_array_index(r->spans, struct gs_span, i).gpu + 1);
	return n;
}

static void write_metadata(const struct gs_results *r, struct tl_out *o)
{
	GString *line = o->line;
	uint32_t gpu, n_gpus = gpu_count(r);
	guint i;

	for (gpu = 0; gpu < n_gpus; gpu++) {
		g_string_append_printf(line,
			"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%" PRIu32
			",\"tid\":0,\"args\":{\"name\":\"GPU %" PRIu32 "\"}}",
			gpu, gpu);
		emit(o);
	}
	for (i = 0; r->tracks && i < r->tracks->len; i++) {
		const struct gs_track *t =
			&g_array_index(r->tracks, struct gs_track, i);
		uint64_t tid = track_tid(t->track_kind, t->track);
		g_autofree char *label = gs_track_label(r, t);

		g_string_append_printf(line,
			"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%" PRIu32
			",\"tid\":%" PRIu64 ",\"args\":{\"name\":",
			t->gpu, tid);
		gs_json_append_string(line, label);
		g_string_append(line, "}}");
		emit(o);
		g_string_append_printf(line,
			"{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%"
			PRIu32 ",\"tid\":%" PRIu64
			",\"args\":{\"sort_index\":%" PRIu64 "}}",
			t->gpu, tid, tid);
		emit(o);
	}
}

char *gs_track_label(const struct gs_results *r, const struct gs_track *t)
{
	if (t->label || t->track_kind != GS_TRACK_CHANNEL)
		return g_strdup(t->label ? t->label : "");
	return g_strdup_printf("ch%" PRIu32 " %s", t->track,
			       t->name < r->names.n ? gs_results_name(r, t->name)
						    : "?");
}

gboolean gs_results_check_spans(const struct gs_results *r, GError **error)
{
	guint n_names = r->names.n;
	guint i;

	for (i = 0; r->spans && i < r->spans->len; i++) {
		const struct gs_span *s =
			&g_array_index(r->spans, struct gs_span, i);

		if (s->name >= n_names || s->category >= n_names) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "span %u names string %" PRIu32 "/%" PRIu32
				    " of %u", i, s->name, s->category,
				    n_names);
			return FALSE;
		}
	}
	return TRUE;
}

/* One span as an "X" event; quoted: each name, quoted. */
static void put_span(struct tl_out *o, const GPtrArray *quoted,
		     const struct gs_span *s)
{
	gs_time_t dur = s->end > s->start ? s->end - s->start : 0;

	g_string_append_printf(o->line,
		"{\"name\":%s,\"cat\":%s,\"ph\":\"X\",\"pid\":%" PRIu32
		",\"tid\":%" PRIu64 ",\"ts\":",
		(const char *)g_ptr_array_index(quoted, s->name),
		(const char *)g_ptr_array_index(quoted, s->category),
		s->gpu, track_tid(s->track_kind, s->track));
	gs_append_us(o->line, s->start);
	g_string_append(o->line, ",\"dur\":");
	gs_append_us(o->line, dur);
	/* cut at the end of the run, not ended */
	if (s->open)
		g_string_append(o->line, ",\"args\":{\"open\":true}");
	g_string_append_c(o->line, '}');
	emit(o);
}

gboolean gs_results_fill_timeline(const struct gs_results *r, FILE *f,
				  GError **error)
{
	g_autoptr(GString) line = g_string_sized_new(256);
	struct tl_out o = { .f = f, .line = line, .first = true };
	g_autoptr(GPtrArray) quoted = g_ptr_array_new_with_free_func(g_free);
	guint n_records = r->spans ? r->spans->len : 0, n_spans = 0;
	gs_time_t last_end = 0;
	guint i;

	if (r->span_sink && (r->span_sink->taken[GS_CHUNK_SPANS] ||
			     r->span_sink->taken[GS_CHUNK_MARKS])) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "the spans went to timeline.pftrace's stream");
		return FALSE;
	}
	if (!gs_results_check_spans(r, error))
		return FALSE;
	/* Quote each interned name once, not once per span. */
	for (i = 0; i < r->names.n; i++) {
		GString *q = g_string_new(NULL);

		gs_json_append_string(q, gs_results_name(r, i));
		g_ptr_array_add(quoted, g_string_free(q, FALSE));
	}

	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
	write_metadata(r, &o);
	for (i = 0; i < n_records; i++) {
		const struct gs_span *s =
			&g_array_index(r->spans, struct gs_span, i);
		struct gs_span copy;

		put_span(&o, quoted, s);
		if (s->on_channel) {
			copy = gs_span_channel_copy(s);
			put_span(&o, quoted, &copy);
		}
		n_spans += gs_span_count(s);
		last_end = MAX(last_end, s->end);
	}
	if (r->timeline_truncated) {
		g_string_append_printf(line,
			"{\"name\":\"timeline truncated at %u spans\","
			"\"cat\":\"gpusim\",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,"
			"\"tid\":0,\"ts\":", n_spans);
		gs_append_us(line, last_end);
		g_string_append_printf(line,
			",\"args\":{\"note\":\"spans ending after this point "
			"were not recorded\",\"spans\":%u}}", n_spans);
		emit(&o);
	}
	fputs("\n]}\n", f);
	return TRUE;
}
