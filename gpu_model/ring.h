/* Ring arithmetic for channel command rings. One slot stays empty, so
 * get == put means empty and put + 1 == get (mod n) means full. */
#ifndef GS_RING_H
#define GS_RING_H

#include <stdbool.h>
#include <stdint.h>

static inline uint32_t gs_ring_advance(uint32_t i, uint32_t n)
{
	return i + 1 == n ? 0 : i + 1;
}

static inline uint32_t gs_ring_distance(uint32_t from, uint32_t to, uint32_t n)
{
	return to >= from ? to - from : n - from + to;
}

static inline bool gs_ring_is_full(uint32_t get, uint32_t put, uint32_t n)
{
	return gs_ring_advance(put, n) == get;
}

static inline uint32_t gs_ring_capacity(uint32_t n)
{
	return n - 1;
}

#endif
