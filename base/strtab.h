/* A table of strings numbered in the order they were added: the bytes
 * back to back in one buffer, each string's start in a 32-bit offset,
 * and for interning an open-addressing index of 32-bit slots. Tens of
 * thousands of short names (a task's, "t0#123") cost their bytes plus
 * 4 bytes of offset and 5-8 of index, where a g_strdup, a pointer and a
 * GHashTable entry together cost about 130 (issue 20, goal 3). */
#ifndef GS_STRTAB_H
#define GS_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct gs_strtab {
	char *bytes;         /* NUL-terminated strings back to back */
	size_t n_bytes, bytes_cap;
	uint32_t *offsets;   /* string i starts at bytes + offsets[i] */
	uint32_t n, offsets_cap;
	/* id + 1 of a string whose hash falls there, 0: empty; NULL until
	 * the first gs_strtab_intern (a table only appended needs none) */
	uint32_t *slots;
	uint32_t slots_mask; /* slot count - 1, a power of two less one */
};

#define GS_STRTAB_INIT { 0 }

/* Frees what t holds and leaves it empty, ready for use again. */
void gs_strtab_clear(struct gs_strtab *t);
/* Room for n_strings more strings of n_bytes in all (NULs included), so
 * that a table whose size is known grows once. */
void gs_strtab_reserve(struct gs_strtab *t, uint32_t n_strings,
		       size_t n_bytes);
/* gs_strtab_reserve, and an index for interning that holds n_strings
 * more without growing: interning tens of thousands of names one by one
 * otherwise rebuilds the index at every doubling (every string hashed
 * and compared again, about twice in all). */
void gs_strtab_reserve_interned(struct gs_strtab *t, uint32_t n_strings,
				size_t n_bytes);
/* Adds s (any bytes up to its NUL, kept as given) as a new string,
 * equal to an earlier one or not; returns its number. */
uint32_t gs_strtab_append(struct gs_strtab *t, const char *s);
/* s's number: that of the first string equal to s, else s added as the
 * next one; numbers therefore follow the order of first interning,
 * whatever the hash does. */
uint32_t gs_strtab_intern(struct gs_strtab *t, const char *s);

static inline const char *gs_strtab_get(const struct gs_strtab *t,
					uint32_t i)
{
	return t->bytes + t->offsets[i];
}

#endif
