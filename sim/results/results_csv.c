/* tasks.csv and series.csv: one header line, LF line ends, RFC 4180 quoting
 * where a cell needs it, an empty cell for a figure that does not exist.
 * Numbers are formatted in the C locale so gnuplot and scripts read the
 * same bytes whatever locale the run had. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "sim/results/decimal_digits.h"
#include "sim/results/fixed_double.h"
#include "sim/results/results_priv.h"
#include "sim/results/series_csv.h"

/* The most bytes a cell of len bytes takes quoted: every byte a quote
 * doubled, and the two around it. */
static size_t cell_max(size_t len)
{
	return 2 * len + 2;
}

/* s as a cell at p (room for cell_max(strlen(s))); returns its end. */
static char *put_cell(char *p, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		size_t len = strlen(s);

		memcpy(p, s, len);
		return p + len;
	}
	*p++ = '"';
	for (; *s; s++) {
		if (*s == '"')
			*p++ = '"';
		*p++ = *s;
	}
	*p++ = '"';
	return p;
}

void gs_csv_append_cell(GString *out, const char *s)
{
	size_t len;

	if (!s)
		return;
	len = out->len;
	g_string_set_size(out, len + cell_max(strlen(s)));
	g_string_truncate(out, (size_t)(put_cell(out->str + len, s) -
					out->str));
}

void gs_csv_append_double(GString *out, const char *fmt, double d)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(d))
		return;
	g_string_append(out, g_ascii_formatd(buf, sizeof(buf), fmt, d));
}

/* d with `decimals` digits after the point at p, as "%.Nf" writes it
 * (the same bytes, without printf: fixed_double.h), with room for
 * G_ASCII_DTOSTR_BUF_SIZE bytes; nothing when not finite. */
static char *put_fixed(char *p, unsigned decimals, double d)
{
	if (!isfinite(d))
		return p;
	return p + gs_format_fixed(p, G_ASCII_DTOSTR_BUF_SIZE, d, decimals);
}

void gs_csv_append_u64(GString *out, uint64_t v)
{
	char buf[GS_U64_DIGITS];

	g_string_append_len(out, buf, gs_put_u64(buf, v) - buf);
}


/* A distribution's min, p50, p90, p99, max and standard deviation in
 * ns, each after a comma; empty cells when it has no sample. */
static char *put_latency(char *p, const struct gs_latency_stats *st)
{
	const uint64_t v[] = { st->min, st->p50, st->p90, st->p99, st->max };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(v); i++) {
		*p++ = ',';
		if (st->n)
			p = gs_put_u64(p, v[i]);
	}
	*p++ = ',';
	return put_fixed(p, 1, st->n ? st->std : NAN);
}

#define LATENCY_COLUMNS(p) \
	p "_min_ns," p "_p50_ns," p "_p90_ns," p "_p99_ns," p "_max_ns," \
	p "_std_ns"

/* The most bytes t's row takes: its two text cells quoted, and at most
 * G_ASCII_DTOSTR_BUF_SIZE for each of its 24 other cells and the comma
 * or line end after it. */
static size_t task_row_max(const struct gs_task_result *t)
{
	return cell_max(t->name ? strlen(t->name) : 0) +
	       cell_max(t->vm ? strlen(t->vm) : 0) +
	       26 * (G_ASCII_DTOSTR_BUF_SIZE + 1);
}

/* t's row at p (room for task_row_max(t)): written straight into the
 * file's chunk rather than cell by cell through a GString, whose
 * appends were calls of their own, 25 a row. */
static char *put_task_row(char *p, const struct gs_task_result *t)
{
	if (t->name)
		p = put_cell(p, t->name);
	*p++ = ',';
	if (t->vm)
		p = put_cell(p, t->vm);
	*p++ = ',';
	p = gs_put_u64(p, t->weight);
	*p++ = ',';
	p = gs_put_u64(p, t->gpu);
	*p++ = ',';
	p = gs_put_u64(p, t->rounds);
	*p++ = ',';
	p = put_fixed(p, 1, t->round_mean_ns);
	*p++ = ',';
	p = gs_put_u64(p, t->gpu_time_ns);
	*p++ = ',';
	if (t->has_accounted)
		p = gs_put_u64(p, t->accounted_gpu_time_ns);
	*p++ = ',';
	p = put_fixed(p, 6, t->gpu_share);
	*p++ = ',';
	p = put_fixed(p, 6, t->slowdown);
	*p++ = ',';
	memcpy(p, t->killed ? "true," : "false,", t->killed ? 5 : 6);
	p += t->killed ? 5 : 6;
	p = gs_put_u64(p, t->migrations);
	*p++ = ',';
	p = gs_put_u64(p, t->migration_stall_ns);
	p = put_latency(p, &t->round);
	p = put_latency(p, &t->wait);
	*p++ = '\n';
	return p;
}

/* Rows are gathered and written a chunk at a time: one stdio call per
 * row of a two-million-row series.csv was a visible part of its time.
 * The folder's writer gives these files no stdio buffer
 * (gs_results_write_file_chunked), so a chunk is one write(2), of the
 * size stdio's buffer had (results_file.c). */
#define CSV_CHUNK (256 * 1024)

/* Room for need more bytes after the first *len of *buf (*cap of them):
 * what it holds is written out first when they do not fit. */
static void chunk_room(char **buf, size_t *cap, size_t *len, size_t need,
		       FILE *f)
{
	if (*len + need <= *cap)
		return;
	fwrite(*buf, 1, *len, f);
	*len = 0;
	if (need > *cap) {
		*cap = need;
		*buf = g_realloc(*buf, *cap);
	}
}

gboolean gs_results_fill_tasks_csv(const struct gs_results *r, FILE *f,
				   GError **error)
{
	size_t cap = CSV_CHUNK, len = 0;
	g_autofree char *buf = g_malloc(cap);
	uint32_t i;

	(void)error;
	fputs("name,vm,weight,gpu,rounds,round_mean_ns,gpu_time_ns,"
	      "accounted_gpu_time_ns,gpu_share,slowdown,killed,migrations,"
	      "migration_stall_ns," LATENCY_COLUMNS("round") "," LATENCY_COLUMNS("wait") "\n", f);
	for (i = 0; i < r->n_tasks; i++) {
		chunk_room(&buf, &cap, &len, task_row_max(&r->tasks[i]), f);
		len = (size_t)(put_task_row(buf + len, &r->tasks[i]) - buf);
	}
	if (len)
		fwrite(buf, 1, len, f);
	return TRUE;
}

/* Names up to this long are copied as this many bytes, a fixed size the
 * compiler does inline, rather than a call to memcpy of name_len: most
 * names are a few bytes ("t3#41"), and the call was a tenth of a row. */
#define NAME_COPY 16

/* Every task's name as its cell (quoted where it needs it), one after
 * another in *cells, task i's from (*at)[i] to (*at)[i + 1]: a series
 * row names its task, and checking and copying the name for each of
 * two million rows was a tenth of series.csv's time. */
static GString *name_cells(const char *const *names, uint32_t n,
			   size_t **at)
{
	GString *cells = g_string_new(NULL);
	uint32_t i;

	*at = g_new(size_t, (size_t)n + 1);
	for (i = 0; i < n; i++) {
		(*at)[i] = cells->len;
		gs_csv_append_cell(cells, names[i]);
	}
	(*at)[n] = cells->len;
	/* a cell's first NAME_COPY bytes are read whole (put_series_row) */
	g_string_append_len(cells, (const char[NAME_COPY]){ 0 }, NAME_COPY);
	return cells;
}

/* One series row at p, which has room for it (series_row_max). */
static char *put_series_row(char *p, const struct gs_series_point *pt,
			    struct gs_series_time_text *tt, const char *name,
			    size_t name_len, bool accounted)
{
	if (pt->t != tt->t || !tt->len) {
		tt->t = pt->t;
		tt->len = (size_t)(gs_put_u64(tt->s, pt->t) - tt->s);
	}
	memcpy(p, tt->s, sizeof(tt->s)); /* whole, as a name below */
	p += tt->len;
	*p++ = ',';
	if (name_len <= NAME_COPY)
		memcpy(p, name, NAME_COPY);
	else
		memcpy(p, name, name_len);
	p += name_len;
	*p++ = ',';
	p = gs_put_u64(p, pt->gpu_time_ns);
	*p++ = ',';
	if (accounted)
		p = gs_put_u64(p, pt->accounted_gpu_time_ns);
	*p++ = ',';
	p = gs_put_u64(p, pt->vtime_ns);
	*p++ = '\n';
	return p;
}

/* The room a row naming a task of name_len bytes needs: its longest
 * form, with a short name counted as the NAME_COPY bytes copied. */
static size_t series_row_max(size_t name_len)
{
	return MAX(name_len, (size_t)NAME_COPY) + 4 * GS_U64_DIGITS + 5;
}

void gs_series_csv_init(struct gs_series_csv *c, const char *const *names,
			uint32_t n_tasks)
{
	memset(c, 0, sizeof(*c));
	c->n_tasks = n_tasks;
	c->names = name_cells(names, n_tasks, &c->name_at);
	c->cap = CSV_CHUNK;
	c->buf = g_malloc(c->cap);
}

void gs_series_csv_row(struct gs_series_csv *c,
		       const struct gs_series_point *p, bool accounted,
		       FILE *f)
{
	size_t name_len = c->name_at[p->task + 1] - c->name_at[p->task];

	chunk_room(&c->buf, &c->cap, &c->len, series_row_max(name_len), f);
	c->len = (size_t)(put_series_row(c->buf + c->len, p, &c->tt,
					 c->names->str + c->name_at[p->task],
					 name_len, accounted) -
			  c->buf);
}

void gs_series_csv_flush(struct gs_series_csv *c, FILE *f)
{
	if (c->len)
		fwrite(c->buf, 1, c->len, f);
	c->len = 0;
}

void gs_series_csv_clear(struct gs_series_csv *c)
{
	if (c->names)
		g_string_free(c->names, TRUE);
	g_free(c->name_at);
	g_free(c->buf);
	memset(c, 0, sizeof(*c));
}

/* accounted_gpu_time_ns is empty for a task whose policy keeps no estimate,
 * as in tasks.csv. The rows are decoded from the run's compact series
 * (base/series.h) one at a time into a buffer written out a chunk at a
 * time; each row is put there directly, with the room for its longest
 * form checked once, rather than cell by cell through a GString. */
gboolean gs_results_fill_series_csv(const struct gs_results *r, FILE *f,
				    GError **error)
{
	g_autofree const char **names = NULL;
	struct gs_series_csv csv;
	struct gs_series_iter it;
	struct gs_series_point p;
	uint64_t i = 0;
	gboolean ok = TRUE;

	fputs(GS_SERIES_CSV_HEADER, f);
	if (!r->series)
		return TRUE;
	names = g_new(const char *, MAX(r->n_tasks, 1u));
	for (i = 0; i < r->n_tasks; i++)
		names[i] = r->tasks[i].name;
	gs_series_csv_init(&csv, names, r->n_tasks);
	gs_series_iter_init(&it, r->series);
	for (i = 0; gs_series_next(&it, &p); i++) {
		if (p.task >= r->n_tasks) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "series point %" PRIu64 " names task %"
				    PRIu32 " of %" PRIu32, i, p.task,
				    r->n_tasks);
			ok = FALSE;
			break;
		}
		gs_series_csv_row(&csv, &p, r->tasks[p.task].has_accounted, f);
	}
	gs_series_csv_flush(&csv, f);
	gs_series_csv_clear(&csv);
	gs_series_iter_clear(&it);
	return ok;
}
