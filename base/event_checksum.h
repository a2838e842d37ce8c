/* The event-stream checksum: FNV-1a over the eight little-endian bytes of
 * each executed event's time and then of its class (results/README.md,
 * `event_checksum`). Two runs with equal checksums took the same path.
 *
 * It is folded by the loop that runs a simulation (sim/run/sim.c), not by
 * the queue: FNV-1a is a chain of dependent multiplies (six or seven per
 * event) that no out-of-order core can overlap from one event to the next,
 * which made it the larger part of a pop; a queue used by tests or by a
 * benchmark has no need of it. */
#ifndef GS_EVENT_CHECKSUM_H
#define GS_EVENT_CHECKSUM_H

#include <stdint.h>

#define GS_EVENT_CHECKSUM_INIT 0xcbf29ce484222325ULL
#define GS_FNV_PRIME 0x100000001b3ULL

/* GS_FNV_PRIME^8 mod 2^64: eight byte steps whose bytes are zero. */
#define GS_FNV_PRIME_POW8 0x1efac7090aef4a21ULL

/* FNV-1a over the eight little-endian bytes of v. XOR with a zero byte
 * changes nothing, so the run of zero high bytes (five of eight for an
 * event time under 18 minutes) folds into multiplies by the prime that
 * the loop below leaves to one multiply by a power of it: the byte loop's
 * value with half the dependent multiplies. */
static inline uint64_t gs_fnv1a_u64(uint64_t h, uint64_t v)
{
	/* GS_FNV_PRIME^k mod 2^64, k = 0..8 */
	static const uint64_t prime_pow[9] = {
		0x1ULL, 0x100000001b3ULL, 0x366000002e329ULL,
		0x8a97b0004e7feabULL, 0x9ffaac085635bc91ULL,
		0xcaee32a7d4f6a63ULL, 0xdc966432edf1c639ULL,
		0xc5527b8a51d3d2dbULL, GS_FNV_PRIME_POW8,
	};
	unsigned i;

	for (i = 0; v; i++, v >>= 8) {
		h ^= v & 0xff;
		h *= GS_FNV_PRIME;
	}
	return h * prime_pow[8 - i];
}

/* One executed event folded into checksum h: its time, then its class
 * (below 256: the XOR, then the eight multiplies in one). */
static inline uint64_t gs_event_checksum_fold(uint64_t h, uint64_t time,
					      uint8_t cls)
{
	return (gs_fnv1a_u64(h, time) ^ cls) * GS_FNV_PRIME_POW8;
}

#endif
