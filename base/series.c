/* series.csv's rows as varint differences (see series.h). */
#include "base/series.h"

#include <glib.h>
#include <string.h>

/* The longest varint of a 64-bit value. */
#define VARINT_MAX_BYTES 10
/* A row's header byte and five fields, at most ten varint bytes each,
 * after the count of the plain rows before it (ten more). */
#define ROW_MAX_BYTES (VARINT_MAX_BYTES + 1 + 5 * VARINT_MAX_BYTES)

/* A record is a varint: even, the count of plain rows (times two); odd,
 * a row's header: bit FIELD_x + 1 set when difference x is not the
 * plain one (0, or 1 for the task), which then follows. */
enum { FIELD_T, FIELD_TASK, FIELD_GPU, FIELD_ACCOUNTED, FIELD_VTIME };

struct gs_series *gs_series_new(void)
{
	return g_new0(struct gs_series, 1);
}

static void state_clear(struct gs_series_state *st)
{
	g_free(st->base);
	memset(st, 0, sizeof(*st));
}

void gs_series_free(struct gs_series *s)
{
	if (!s)
		return;
	g_free(s->bytes);
	state_clear(&s->w);
	g_free(s);
}

uint64_t gs_series_rows(const struct gs_series *s)
{
	return s->rows;
}

bool gs_series_last(const struct gs_series *s, struct gs_series_point *out)
{
	if (!s->rows)
		return false;
	*out = s->w.last;
	return true;
}

size_t gs_series_bytes(const struct gs_series *s)
{
	return s->len;
}

/* The table grown to hold task (below GS_SERIES_BASE_TASKS). */
static G_NO_INLINE void grow_base(struct gs_series_state *st,
				      uint32_t task)
{
	uint32_t n = MAX(task + 1, MIN(st->n_base * 2, GS_SERIES_BASE_TASKS));

	st->base = g_renew(struct gs_series_base, st->base, n);
	memset(st->base + st->n_base, 0, (n - st->n_base) * sizeof(*st->base));
	st->n_base = n;
}

/* The base of task, the table grown to hold it; for a task beyond
 * GS_SERIES_BASE_TASKS, zeros (its figures are stored whole). Inline
 * with the growth out of line: it is looked up for every row read and
 * appended (two million at 65,536 tasks), and as a call it was a sixth
 * of a row's decoding. */
static inline struct gs_series_base *base_of(struct gs_series_state *st,
					     uint32_t task)
{
	if (G_LIKELY(task < st->n_base))
		return &st->base[task];
	if (task >= GS_SERIES_BASE_TASKS) {
		memset(&st->whole, 0, sizeof(st->whole));
		return &st->whole;
	}
	grow_base(st, task);
	return &st->base[task];
}

/* p is the previous row now, and its figures its task's base. */
static void remember(struct gs_series_state *st, struct gs_series_base *b,
		     const struct gs_series_point *p)
{
	st->last = *p;
	b->gpu_time_ns = p->gpu_time_ns;
	b->accounted_gpu_time_ns = p->accounted_gpu_time_ns;
	b->vtime_ns = p->vtime_ns;
}

static uint64_t zigzag(uint64_t d)
{
	return (d << 1) ^ (uint64_t)-(int64_t)(d >> 63);
}

static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Appends a varint of difference d to the row when it is not the plain
 * one, noting it in *mask. */
static uint8_t *put_field(uint8_t *p, uint64_t d, uint64_t plain,
			  unsigned field, uint64_t *mask)
{
	if (d == plain)
		return p;
	*mask |= 1u << field;
	return put_varint(p, zigzag(d));
}

void gs_series_end_appending(struct gs_series *s)
{
	g_free(s->w.base);
	s->w.base = NULL;
	s->w.n_base = 0;
	s->w_dropped = true;
}

/* After gs_series_end_appending: a reader's state at the end of the rows
 * is the writer's (the same rows told the same way). */
static void rebuild_writer(struct gs_series *s)
{
	struct gs_series_iter it;
	struct gs_series_point p;

	gs_series_iter_init(&it, s);
	while (gs_series_next(&it, &p))
		;
	state_clear(&s->w);
	s->w = it.r;
	s->w_dropped = false;
}

void gs_series_append(struct gs_series *s, const struct gs_series_point *pt)
{
	struct gs_series_base *b;
	uint8_t *out, *head, *p;
	uint64_t mask = 0;

	if (s->w_dropped)
		rebuild_writer(s);
	b = base_of(&s->w, pt->task);
	if (s->cap - s->len < ROW_MAX_BYTES) {
		s->cap = MAX(s->cap * 2, (size_t)4096);
		s->bytes = g_realloc(s->bytes, s->cap);
	}
	/* the row is put in place after room for the plain count and its
	 * header (one byte: the mask has five bits), and moved back over
	 * the count's room only when there is no count: at 65,536 busy
	 * tasks nearly every row has differences, and building each in a
	 * scratch buffer and copying it was a sixth of a sample */
	out = s->bytes + s->len;
	head = out + (s->plain_tail ? VARINT_MAX_BYTES : 0);
	p = put_field(head + 1, pt->t - s->w.last.t, 0, FIELD_T, &mask);
	p = put_field(p, (uint64_t)pt->task - s->w.last.task, 1, FIELD_TASK,
		      &mask);
	p = put_field(p, pt->gpu_time_ns - b->gpu_time_ns, 0, FIELD_GPU,
		      &mask);
	p = put_field(p, pt->accounted_gpu_time_ns - b->accounted_gpu_time_ns,
		      0, FIELD_ACCOUNTED, &mask);
	p = put_field(p, pt->vtime_ns - b->vtime_ns, 0, FIELD_VTIME, &mask);
	if (!mask) {
		s->plain_tail++;
	} else {
		uint8_t *end = out;

		if (s->plain_tail)
			end = put_varint(end, s->plain_tail << 1);
		s->plain_tail = 0;
		*end++ = (uint8_t)((mask << 1) | 1); /* a one-byte varint */
		if (end != head + 1)
			memmove(end, head + 1, (size_t)(p - (head + 1)));
		s->len = (size_t)(end + (p - (head + 1)) - s->bytes);
	}
	s->rows++;
	remember(&s->w, b, pt);
}

struct gs_series_block *gs_series_block_new(uint32_t n_tasks, uint32_t cap)
{
	size_t rows = MAX(cap, 1u);
	size_t t_at = sizeof(struct gs_series_block);
	/* the rows after the times, aligned as the struct is */
	size_t rows_at = t_at + rows * sizeof(gs_time_t);
	struct gs_series_block *b =
		g_malloc(rows_at + rows * sizeof(struct gs_series_base));

	memset(b, 0, sizeof(*b));
	b->n_tasks = n_tasks;
	b->cap = (uint32_t)rows;
	b->t = (gs_time_t *)((char *)b + t_at);
	b->rows = (struct gs_series_base *)((char *)b + rows_at);
	return b;
}

void gs_series_append_block(struct gs_series *s,
			    const struct gs_series_block *b)
{
	uint32_t r, task = b->first;

	for (r = 0; r < b->n_rows; r++) {
		struct gs_series_point p = gs_series_block_point(b, r, task);

		gs_series_append(s, &p);
		if (++task == b->n_tasks)
			task = 0;
	}
}

void gs_series_iter_init(struct gs_series_iter *it,
			 const struct gs_series *s)
{
	memset(it, 0, sizeof(*it));
	it->s = s;
}

void gs_series_iter_clear(struct gs_series_iter *it)
{
	state_clear(&it->r);
}

/* The bytes were written by put_varint into this buffer: every varint
 * ends before len. */
static inline uint64_t get_varint(const uint8_t *bytes, size_t *pos)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t c = bytes[*pos];

	if (c < 0x80) { /* one byte: every header and most differences */
		++*pos;
		return c;
	}
	do {
		c = bytes[(*pos)++];
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return v;
}

/* Difference `field` of a row with header mask: read from bytes at
 * *pos, or the plain one. */
static inline uint64_t get_field(const uint8_t *bytes, size_t *pos,
				 uint64_t mask, unsigned field, uint64_t plain)
{
	if (!(mask & (1u << field)))
		return plain;
	return unzigzag(get_varint(bytes, pos));
}

/* Reads records up to the next row: true with *mask its header (0 for a
 * plain row), false after the last row. */
static bool next_row(struct gs_series_iter *it, uint64_t *mask)
{
	while (!it->plain_left) {
		uint64_t v;

		if (it->pos >= it->s->len) {
			if (it->tail_read)
				return false;
			it->tail_read = true;
			it->plain_left = it->s->plain_tail;
			continue;
		}
		v = get_varint(it->s->bytes, &it->pos);
		if (v & 1) {
			*mask = v >> 1;
			return true;
		}
		it->plain_left = v >> 1;
	}
	it->plain_left--;
	*mask = 0;
	return true;
}

bool gs_series_next(struct gs_series_iter *it, struct gs_series_point *out)
{
	struct gs_series_point p;
	struct gs_series_base *b;
	const uint8_t *bytes = it->s->bytes;
	size_t pos;
	uint64_t mask;

	if (!next_row(it, &mask))
		return false;
	/* the position in a local while the row's fields are read: through
	 * it->pos every field was a load and a store */
	pos = it->pos;
	p.t = it->r.last.t + get_field(bytes, &pos, mask, FIELD_T, 0);
	p.task = (uint32_t)(it->r.last.task +
			    get_field(bytes, &pos, mask, FIELD_TASK, 1));
	b = base_of(&it->r, p.task);
	p.gpu_time_ns = b->gpu_time_ns +
			get_field(bytes, &pos, mask, FIELD_GPU, 0);
	p.accounted_gpu_time_ns = b->accounted_gpu_time_ns +
				  get_field(bytes, &pos, mask,
					    FIELD_ACCOUNTED, 0);
	p.vtime_ns = b->vtime_ns + get_field(bytes, &pos, mask, FIELD_VTIME, 0);
	it->pos = pos;
	remember(&it->r, b, &p);
	*out = p;
	return true;
}

void gs_series_move(struct gs_series **to, struct gs_series **from)
{
	struct gs_series_iter it;
	struct gs_series_point p;

	if (!(*to)->rows) {
		struct gs_series *empty = *to;

		*to = *from;
		*from = empty;
		return;
	}
	gs_series_iter_init(&it, *from);
	while (gs_series_next(&it, &p))
		gs_series_append(*to, &p);
	gs_series_iter_clear(&it);
	gs_series_free(*from);
	*from = gs_series_new();
}
