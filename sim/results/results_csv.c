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

void gs_csv_append_cell(GString *out, const char *s)
{
	const char *p;

	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		g_string_append(out, s);
		return;
	}
	g_string_append_c(out, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			g_string_append_c(out, '"');
		g_string_append_c(out, *p);
	}
	g_string_append_c(out, '"');
}

void gs_csv_append_double(GString *out, const char *fmt, double d)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(d))
		return;
	g_string_append(out, g_ascii_formatd(buf, sizeof(buf), fmt, d));
}

/* d with `decimals` digits after the point, as "%.Nf" writes it (the
 * same bytes, without printf: fixed_double.h); nothing when not finite. */
static void append_fixed(GString *out, unsigned decimals, double d)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (!isfinite(d))
		return;
	g_string_append_len(out, buf,
			    (gssize)gs_format_fixed(buf, sizeof(buf), d,
						    decimals));
}

void gs_csv_append_u64(GString *out, uint64_t v)
{
	char buf[GS_U64_DIGITS];

	g_string_append_len(out, buf, gs_put_u64(buf, v) - buf);
}


/* A distribution's min, p50, p90, p99, max and standard deviation in
 * ns, each after a comma; empty cells when it has no sample. */
static void append_latency(GString *row, const struct gs_latency_stats *st)
{
	const uint64_t v[] = { st->min, st->p50, st->p90, st->p99, st->max };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(v); i++) {
		g_string_append_c(row, ',');
		if (st->n)
			gs_csv_append_u64(row, v[i]);
	}
	g_string_append_c(row, ',');
	append_fixed(row, 1, st->n ? st->std : NAN);
}

#define LATENCY_COLUMNS(p) \
	p "_min_ns," p "_p50_ns," p "_p90_ns," p "_p99_ns," p "_max_ns," \
	p "_std_ns"

static void append_task_row(GString *row, const struct gs_task_result *t)
{
	gs_csv_append_cell(row, t->name);
	g_string_append_c(row, ',');
	gs_csv_append_cell(row, t->vm);
	g_string_append_c(row, ',');
	gs_csv_append_u64(row, t->weight);
	g_string_append_c(row, ',');
	gs_csv_append_u64(row, t->gpu);
	g_string_append_c(row, ',');
	gs_csv_append_u64(row, t->rounds);
	g_string_append_c(row, ',');
	append_fixed(row, 1, t->round_mean_ns);
	g_string_append_c(row, ',');
	gs_csv_append_u64(row, t->gpu_time_ns);
	g_string_append_c(row, ',');
	if (t->has_accounted)
		gs_csv_append_u64(row, t->accounted_gpu_time_ns);
	g_string_append_c(row, ',');
	append_fixed(row, 6, t->gpu_share);
	g_string_append_c(row, ',');
	append_fixed(row, 6, t->slowdown);
	g_string_append_c(row, ',');
	g_string_append(row, t->killed ? "true" : "false");
	g_string_append_c(row, ',');
	gs_csv_append_u64(row, t->migrations);
	g_string_append_c(row, ',');
	gs_csv_append_u64(row, t->migration_stall_ns);
	append_latency(row, &t->round);
	append_latency(row, &t->wait);
	g_string_append_c(row, '\n');
}

/* Rows are gathered and written a chunk at a time: one stdio call per
 * row of a two-million-row series.csv was a visible part of its time. */
#define CSV_CHUNK (64 * 1024)

/* Writes out rows once they hold at least min bytes (0: whatever they
 * hold). */
static void flush_rows(GString *rows, FILE *f, size_t min)
{
	if (rows->len == 0 || rows->len < min)
		return;
	fwrite(rows->str, 1, rows->len, f);
	g_string_truncate(rows, 0);
}

gboolean gs_results_fill_tasks_csv(const struct gs_results *r, FILE *f,
				   GError **error)
{
	g_autoptr(GString) rows = g_string_sized_new(CSV_CHUNK + 1024);
	uint32_t i;

	(void)error;
	fputs("name,vm,weight,gpu,rounds,round_mean_ns,gpu_time_ns,"
	      "accounted_gpu_time_ns,gpu_share,slowdown,killed,migrations,"
	      "migration_stall_ns," LATENCY_COLUMNS("round") "," LATENCY_COLUMNS("wait") "\n", f);
	for (i = 0; i < r->n_tasks; i++) {
		append_task_row(rows, &r->tasks[i]);
		flush_rows(rows, f, CSV_CHUNK);
	}
	flush_rows(rows, f, 0);
	return TRUE;
}

/* Every task's name as its cell (quoted where it needs it), one after
 * another in *cells, task i's from (*at)[i] to (*at)[i + 1]: a series
 * row names its task, and checking and copying the name for each of
 * two million rows was a tenth of series.csv's time. */
static GString *name_cells(const struct gs_results *r, size_t **at)
{
	GString *cells = g_string_new(NULL);
	uint32_t i;

	*at = g_new(size_t, (size_t)r->n_tasks + 1);
	for (i = 0; i < r->n_tasks; i++) {
		(*at)[i] = cells->len;
		gs_csv_append_cell(cells, r->tasks[i].name);
	}
	(*at)[r->n_tasks] = cells->len;
	return cells;
}

/* A sample's time as text: every task's row of a sample has the same
 * time, so it is formatted once per sample, not once per row. */
struct time_text {
	gs_time_t t;
	size_t len;
	char s[GS_U64_DIGITS];
};

/* One series row at p, which has room for it (series_row_max). */
static char *put_series_row(char *p, const struct gs_series_point *pt,
			    struct time_text *tt, const char *name,
			    size_t name_len, bool accounted)
{
	if (pt->t != tt->t || !tt->len) {
		tt->t = pt->t;
		tt->len = (size_t)(gs_put_u64(tt->s, pt->t) - tt->s);
	}
	memcpy(p, tt->s, tt->len);
	p += tt->len;
	*p++ = ',';
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

/* The longest a row naming a task of name_len bytes can be. */
static size_t series_row_max(size_t name_len)
{
	return name_len + 4 * GS_U64_DIGITS + 5;
}

/* accounted_gpu_time_ns is empty for a task whose policy keeps no estimate,
 * as in tasks.csv. The rows are decoded from the run's compact series
 * (base/series.h) one at a time into a buffer written out a chunk at a
 * time; each row is put there directly, with the room for its longest
 * form checked once, rather than cell by cell through a GString. */
gboolean gs_results_fill_series_csv(const struct gs_results *r, FILE *f,
				    GError **error)
{
	g_autoptr(GString) names = NULL;
	g_autofree size_t *name_at = NULL;
	size_t cap = CSV_CHUNK, len = 0;
	g_autofree char *buf = g_malloc(cap);
	struct gs_series_iter it;
	struct gs_series_point p;
	struct time_text tt = { 0 };
	uint64_t i = 0;
	gboolean ok = TRUE;

	fputs("time_ns,task,gpu_time_ns,accounted_gpu_time_ns,vtime_ns\n", f);
	if (!r->series)
		return TRUE;
	names = name_cells(r, &name_at);
	gs_series_iter_init(&it, r->series);
	for (; gs_series_next(&it, &p); i++) {
		size_t name_len, need;

		if (p.task >= r->n_tasks) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "series point %" PRIu64 " names task %"
				    PRIu32 " of %" PRIu32, i, p.task,
				    r->n_tasks);
			ok = FALSE;
			break;
		}
		name_len = name_at[p.task + 1] - name_at[p.task];
		need = series_row_max(name_len);
		if (len + need > cap) {
			fwrite(buf, 1, len, f);
			len = 0;
			if (need > cap) {
				cap = need;
				buf = g_realloc(buf, cap);
			}
		}
		len = (size_t)(put_series_row(buf + len, &p, &tt,
					      names->str + name_at[p.task],
					      name_len,
					      r->tasks[p.task].has_accounted) -
			       buf);
	}
	if (len)
		fwrite(buf, 1, len, f);
	gs_series_iter_clear(&it);
	return ok;
}
