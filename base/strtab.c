/* See strtab.h. */
#include "base/strtab.h"
#include "base/zero_table.h"

#include <glib.h>
#include <stdbool.h>
#include <string.h>

void gs_strtab_clear(struct gs_strtab *t)
{
	g_free(t->bytes);
	g_free(t->offsets);
	g_free(t->slots);
	memset(t, 0, sizeof(*t));
}

void gs_strtab_reserve(struct gs_strtab *t, uint32_t n_strings,
		       size_t n_bytes)
{
	if (n_bytes > t->bytes_cap - t->n_bytes) {
		t->bytes_cap = t->n_bytes + n_bytes;
		t->bytes = g_realloc(t->bytes, t->bytes_cap);
	}
	if (n_strings > t->offsets_cap - t->n) {
		if (n_strings > UINT32_MAX - t->n)
			g_error("more than 2^32 strings in a table");
		t->offsets_cap = t->n + n_strings;
		t->offsets = g_renew(uint32_t, t->offsets, t->offsets_cap);
	}
}

/* Room for one more string of len bytes (its NUL included), doubling. */
static void make_room(struct gs_strtab *t, size_t len)
{
	if (len > t->bytes_cap - t->n_bytes)
		gs_strtab_reserve(t, 0, MAX(len, MAX(t->bytes_cap, 64)));
	if (t->n == t->offsets_cap)
		gs_strtab_reserve(t, MAX(t->offsets_cap, 16u), 0);
	if (t->n_bytes > UINT32_MAX)
		g_error("more than 4 GiB of strings in a table");
}

uint32_t gs_strtab_append(struct gs_strtab *t, const char *s)
{
	size_t len = strlen(s) + 1;

	make_room(t, len);
	t->offsets[t->n] = (uint32_t)t->n_bytes;
	memcpy(t->bytes + t->n_bytes, s, len);
	t->n_bytes += len;
	return t->n++;
}

/* FNV-1a, then murmur3's finaliser so that the low bits the mask keeps
 * depend on every byte (names differ mostly in their last digits). */
static uint32_t hash_of(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

/* The slot holding s's number + 1, or the empty one where it would go
 * (linear probing: the index is never full). */
static uint32_t *slot_of(const struct gs_strtab *t, const char *s)
{
	uint32_t i = hash_of(s) & t->slots_mask;

	while (t->slots[i] && strcmp(gs_strtab_get(t, t->slots[i] - 1), s))
		i = (i + 1) & t->slots_mask;
	return &t->slots[i];
}

/* At most 3/4 of the slots used: linear probing stays short with a
 * hash that mixes every bit (about 2.5 probes a miss at 3/4). */
static bool index_full(uint32_t n_slots, uint32_t n)
{
	return n_slots / 4 * 3 < n;
}

/* An index of a power of two slots, at most half used with n strings,
 * every string so far entered in number order (the first of equal ones
 * wins). */
static void grow_index_for(struct gs_strtab *t, uint32_t n)
{
	uint32_t n_slots = 16, i;

	if (n > (1u << 30))
		g_error("more than 2^30 strings in an interned table");
	while (n_slots / 2 < n)
		n_slots *= 2;
	g_free(t->slots);
	t->slots = gs_zeroed_written(sizeof(uint32_t) * n_slots);
	t->slots_mask = n_slots - 1;
	for (i = 0; i < t->n; i++) {
		uint32_t *slot = slot_of(t, gs_strtab_get(t, i));

		if (!*slot)
			*slot = i + 1;
	}
}

void gs_strtab_reserve_interned(struct gs_strtab *t, uint32_t n_strings,
				size_t n_bytes)
{
	uint32_t room = t->slots ? t->slots_mask + 1 : 0;

	gs_strtab_reserve(t, n_strings, n_bytes);
	if (!t->slots || index_full(room, t->n + n_strings))
		grow_index_for(t, t->n + n_strings);
}

uint32_t gs_strtab_intern(struct gs_strtab *t, const char *s)
{
	uint32_t *slot;

	if (!t->slots || index_full(t->slots_mask + 1, t->n + 1))
		grow_index_for(t, t->n + 1);
	slot = slot_of(t, s);
	if (!*slot)
		*slot = gs_strtab_append(t, s) + 1;
	return *slot - 1;
}
