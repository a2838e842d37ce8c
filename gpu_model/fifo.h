/* A growable FIFO of fixed-size elements, allocated on first use. Channel
 * rings keep their commands here rather than in a full ring_entries array,
 * so an idle channel costs no ring memory.
 *
 * The element size is an argument of every call rather than a field: the
 * callers pass sizeof, so each copy is a fixed-size move the compiler
 * inlines instead of a call to memcpy. */
#ifndef GS_FIFO_H
#define GS_FIFO_H

#include <glib.h>
#include <stdint.h>
#include <string.h>

/* 16 bytes: three of them in every channel slot (65,536 in `gpusim
 * bench`'s memory point), so the capacity is kept as its log2 beside the
 * length. */
#define GS_FIFO_MAX_LOG2 26 /* 2^26 elements: 64 times the largest ring */

struct gs_fifo {
	uint8_t *buf;
	uint32_t head;           /* index of the oldest element */
	union {
		struct {
			uint32_t len : 27;
			uint32_t cap_log2 : 5; /* the capacity, a power of
						* two, when buf */
		};
		/* The same word, len in its low 27 bits (the x86-64 and
		 * AArch64 ABIs lay bit-fields out from the low bit; test_fifo
		 * checks it): a push or pop adds to the word, one
		 * instruction where a bit-field's update is five, on every
		 * command. len is at most 2^26, so no carry reaches
		 * cap_log2. */
		uint32_t len_word;
	};
};

static inline void gs_fifo_init(struct gs_fifo *f)
{
	f->buf = NULL;
	f->head = 0;
	f->len = 0;
	f->cap_log2 = 0;
}

static inline uint32_t gs_fifo_cap(const struct gs_fifo *f)
{
	return f->buf ? 1u << f->cap_log2 : 0;
}

static inline void gs_fifo_free(struct gs_fifo *f)
{
	/* most channels never used theirs: no call for them */
	if (f->buf)
		g_free(f->buf);
	gs_fifo_init(f);
}

/* The index mask of an allocated FIFO: the accesses below run only with
 * a buffer (an element to read, or room grown for one), so they skip
 * gs_fifo_cap's test for none. */
static inline uint32_t gs_fifo_mask(const struct gs_fifo *f)
{
	return (1u << f->cap_log2) - 1;
}

static inline void *gs_fifo_at(const struct gs_fifo *f, size_t elem,
			       uint32_t i)
{
	return f->buf + (size_t)((f->head + i) & gs_fifo_mask(f)) * elem;
}

/* The first allocation holds one element: a channel that waits for each
 * command before the next (most tasks) never needs more, and at 65,536
 * channels every unused slot of a larger first block cost 3.5 MB per
 * slot of a 56-byte command (docs/performance.md). A deeper queue
 * doubles it, a few times at most: rings hold at most ring_entries. */
static inline void gs_fifo_grow(struct gs_fifo *f, size_t elem)
{
	uint32_t cap = gs_fifo_cap(f);

	if (f->len == cap) {
		uint32_t log2 = cap ? f->cap_log2 + 1u : 0, i;
		uint8_t *nbuf;

		/* no ring holds so many (gpu.ring_entries is at most 2^20):
		 * only a model error could get here */
		if (log2 > GS_FIFO_MAX_LOG2)
			g_error("a channel FIFO of more than 2^%u elements",
				GS_FIFO_MAX_LOG2);
		nbuf = g_malloc(((size_t)1 << log2) * elem);
		for (i = 0; i < f->len; i++)
			memcpy(nbuf + (size_t)i * elem, gs_fifo_at(f, elem, i),
			       elem);
		g_free(f->buf);
		f->buf = nbuf;
		f->cap_log2 = log2 & 31u;
		f->head = 0;
	}
}

static inline void gs_fifo_push(struct gs_fifo *f, size_t elem, const void *e)
{
	gs_fifo_grow(f, elem);
	memcpy(gs_fifo_at(f, elem, f->len), e, elem);
	f->len_word++;
}

/* Put e before the oldest element (it becomes the next one popped). */
static inline void gs_fifo_push_front(struct gs_fifo *f, size_t elem,
				      const void *e)
{
	gs_fifo_grow(f, elem);
	f->head = (f->head + gs_fifo_mask(f)) & gs_fifo_mask(f);
	f->len_word++;
	memcpy(gs_fifo_at(f, elem, 0), e, elem);
}

static inline void gs_fifo_pop(struct gs_fifo *f, size_t elem, void *out)
{
	if (out)
		memcpy(out, gs_fifo_at(f, elem, 0), elem);
	f->head = (f->head + 1) & gs_fifo_mask(f);
	f->len_word--;
}

#endif
