/* drm-text: the DRM scheduler's events in text, as `trace-cmd report` and
 * tracefs's `trace` (or `trace_pipe`) print them:
 *
 *   COMM-PID [(TGID)] [CPU] [FLAGS] SECONDS.FRACTION: EVENT: FIELDS
 *
 * (`trace-cmd report` leaves FLAGS out unless asked; tracefs prints (TGID)
 * with options/record-tgid). Every other line and event is skipped; a line
 * that names a scheduler event but does not parse is an error at its line. */
#include "sim/import/drm_import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a longer line is not a trace line: stop rather than buffer it */
#define DRM_TEXT_MAX_LINE 65536

struct text_line {
	char *comm;		/* points into the line buffer */
	gint64 pid, tgid;
	guint64 ts_ns;
	char *event;
	char *fields;
};

static bool parse_int(const char *s, size_t n, gint64 *out)
{
	gint64 v = 0;
	size_t i;

	if (!n || n > 18)
		return false;
	for (i = 0; i < n; i++) {
		if (!g_ascii_isdigit(s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/* "SECONDS.FRACTION" (up to 9 digits of fraction) or a raw count of
 * nanoseconds (counter clocks print no point) */
static bool parse_timestamp(const char *s, size_t n, guint64 *ns)
{
	const char *dot = memchr(s, '.', n);
	gint64 sec, frac = 0;
	size_t digits;

	if (!dot) {
		if (!parse_int(s, n, &sec))
			return false;
		*ns = (guint64)sec;
		return true;
	}
	digits = n - (size_t)(dot - s) - 1;
	if (!parse_int(s, (size_t)(dot - s), &sec) || sec > 9000000000LL ||
	    digits > 9 || !parse_int(dot + 1, digits, &frac))
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = (guint64)sec * 1000000000u + (guint64)frac;
	return true;
}

/* "COMM-PID" or "COMM-PID (TGID)", TGID digits or dashes (unknown) */
static bool parse_task(char *head, struct text_line *out)
{
	char *end = head + strlen(head), *dash, *open;

	while (end > head && end[-1] == ' ')
		*--end = '\0';
	out->tgid = -1;
	if (end > head && end[-1] == ')') {
		open = strrchr(head, '(');
		if (!open)
			return false;
		end[-1] = '\0';
		g_strstrip(open + 1);
		if (strspn(open + 1, "-") != strlen(open + 1) &&
		    !parse_int(open + 1, strlen(open + 1), &out->tgid))
			return false;
		*open = '\0';
		g_strchomp(head);
	}
	while (*head == ' ')
		head++;
	dash = strrchr(head, '-');
	if (!dash || dash == head ||
	    !parse_int(dash + 1, strlen(dash + 1), &out->pid))
		return false;
	*dash = '\0';
	out->comm = head;
	return true;
}

/* The CPU column: the first " [DIGITS]" of the line */
static char *find_cpu(char *line)
{
	char *p;

	for (p = strstr(line, " ["); p; p = strstr(p + 1, " [")) {
		size_t n = strspn(p + 2, "0123456789");

		if (n && p[2 + n] == ']')
			return p;
	}
	return NULL;
}

static char *next_token(char **p)
{
	char *tok;

	while (**p == ' ')
		(*p)++;
	tok = *p;
	while (**p && **p != ' ')
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return tok;
}

/* Splits a trace line in place; false when it is not one. */
static bool parse_line(char *line, struct text_line *out)
{
	char *cpu = find_cpu(line), *rest, *tok, *colon;

	if (!cpu)
		return false;
	*cpu = '\0';
	if (!parse_task(line, out))
		return false;
	rest = strchr(cpu + 1, ']') + 1;
	tok = next_token(&rest);
	if (!*tok || tok[strlen(tok) - 1] != ':')	/* FLAGS first */
		tok = next_token(&rest);
	if (!*tok || tok[strlen(tok) - 1] != ':' ||
	    !parse_timestamp(tok, strlen(tok) - 1, &out->ts_ns))
		return false;
	while (*rest == ' ')
		rest++;
	colon = strchr(rest, ':');
	if (!colon || colon == rest || memchr(rest, ' ', (size_t)(colon - rest)))
		return false;
	*colon = '\0';
	out->event = rest;
	out->fields = colon + 1;
	while (*out->fields == ' ')
		out->fields++;
	return true;
}

/* The value after `key` ("fence=", "client_id:") where key starts a field,
 * up to the next ',' or ' '; NULL when absent. Terminates it in place, so
 * fields are taken last to first. */
static char *field(char *fields, const char *key)
{
	size_t n = strlen(key);
	char *p, *end;

	for (p = strstr(fields, key); p; p = strstr(p + 1, key))
		if (p == fields || p[-1] == ' ' || p[-1] == ',')
			break;
	if (!p)
		return NULL;
	p += n;
	end = p + strcspn(p, ", ");
	*end = '\0';
	return p;
}

static bool fence_ok(const char *fence)
{
	return *fence && strspn(fence, "0123456789abcdefABCDEFx:") ==
			 strlen(fence);
}

/* Fills the scheduler fields of `ev` from a line's FIELDS; false with the
 * missing or bad field named in *what. */
static bool parse_fields(char *fields, struct gs_drm_event *ev,
			 const char **what)
{
	char *client, *ring, *fence, *end;

	ev->has_client = false;
	ev->ring = ev->dev = NULL;
	client = ev->kind == GS_DRM_DONE ? NULL : field(fields, "client_id:");
	if (client) {
		errno = 0;
		ev->client_id = g_ascii_strtoull(client, &end, 10);
		if (!*client || *end || errno) {
			*what = "client_id";
			return false;
		}
		ev->has_client = true;
	}
	if (ev->kind != GS_DRM_DONE) {
		ring = field(fields, "ring=");
		if (!ring || !*ring) {
			*what = "ring";
			return false;
		}
		ev->ring = ring;
	}
	fence = field(fields, "fence=");
	if (!fence || !fence_ok(fence)) {
		*what = "fence";
		return false;
	}
	ev->fence = fence;
	if (ev->kind != GS_DRM_DONE)
		ev->dev = field(fields, "dev=");
	return true;
}

/* Whether a line that is not a trace line names a scheduler event: one of
 * their names as a word, followed by ':' or a blank (a name that lost its
 * colon), not part of a longer one (drm_sched_job_timedout). */
static bool names_drm_event(const char *line)
{
	static const char *const names[] = {
		"drm_sched_job", "drm_sched_job_queue", "drm_run_job",
		"drm_sched_job_run", "drm_sched_process_job",
		"drm_sched_job_done",
	};
	const char *p;
	guint i;

	for (i = 0; i < G_N_ELEMENTS(names); i++)
		for (p = strstr(line, names[i]); p;
		     p = strstr(p + 1, names[i])) {
			char after = p[strlen(names[i])];

			if ((p == line || p[-1] == ' ') &&
			    (after == ':' || after == ' ' || after == '\t' ||
			     !after))
				return true;
		}
	return false;
}

static bool read_line(struct gs_import *imp, struct gs_drm_match *m,
		      char *line, guint32 lineno, GError **error)
{
	struct text_line tl;
	struct gs_drm_event ev = { .origin = lineno };
	const char *what = NULL;
	/* asked before parse_line cuts the line up */
	bool names_drm = strstr(line, "drm_") && names_drm_event(line);
	bool ok = true;

	if (line[strspn(line, " ")] == '#')	/* tracefs's header */
		return true;
	if (!parse_line(line, &tl)) {
		if (names_drm) {
			gs_import_error_at(imp, lineno, error,
					   GS_IMPORT_ERROR_PARSE,
					   "malformed trace line (expected "
					   "COMM-PID [CPU] SECONDS: EVENT: "
					   "FIELDS)");
			ok = false;
		}
	} else if (gs_drm_event_kind(tl.event, &ev.kind)) {
		ev.ts_ns = tl.ts_ns;
		ev.pid = tl.pid;
		ev.tgid = tl.tgid;
		ev.comm = tl.comm;
		if (parse_fields(tl.fields, &ev, &what)) {
			gs_drm_match_event(m, &ev);
		} else {
			gs_import_error_at(imp, lineno, error,
					   GS_IMPORT_ERROR_PARSE,
					   "%s: missing or malformed %s",
					   tl.event, what);
			ok = false;
		}
	}
	return ok;
}

bool gs_drm_text_read_stats(const char *path, struct gs_import *out,
			    struct gs_drm_stats *stats, GError **error)
{
	struct gs_drm_match *m;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	guint32 lineno = 0;
	bool ok = true;
	FILE *f = fopen(path, "r");

	memset(stats, 0, sizeof(*stats));
	if (!f) {
		gs_import_error_at(out, 0, error, GS_IMPORT_ERROR_READ, "%s",
				   g_strerror(errno));
		return false;
	}
	m = gs_drm_match_new();
	while (ok && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len > DRM_TEXT_MAX_LINE) {
			gs_import_error_at(out, lineno, error,
					   GS_IMPORT_ERROR_LIMIT,
					   "line longer than %d bytes",
					   DRM_TEXT_MAX_LINE);
			ok = false;
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		ok = read_line(out, m, line, lineno, error);
	}
	if (ok && ferror(f)) {
		gs_import_error_at(out, 0, error, GS_IMPORT_ERROR_READ, "%s",
				   g_strerror(errno));
		ok = false;
	}
	stats->records = lineno;
	free(line);
	fclose(f);
	if (ok)
		ok = gs_drm_match_finish(m, out, stats, error);
	gs_drm_match_free(m);
	return ok;
}

static bool drm_text_read(const char *path, struct gs_import *out,
			  GError **error)
{
	struct gs_drm_stats stats;

	return gs_drm_text_read_stats(path, out, &stats, error);
}

const struct gs_importer gs_importer_drm_text = {
	.format = "drm-text",
	.summary = "Linux DRM scheduler events as text (trace-cmd report, "
		   "tracefs trace)",
	.read = drm_text_read,
};
