/* The simulator's side of policies/hal.h: integer types and the inline
 * math helpers, in user space. The kernel's side is policies/linux/. */
#ifndef GS_HAL_IMPL_H
#define GS_HAL_IMPL_H

#include <stdint.h>

typedef uint8_t hal_u8;
typedef uint16_t hal_u16;
typedef uint32_t hal_u32;
typedef uint64_t hal_u64;
typedef int32_t hal_s32;
typedef int64_t hal_s64;

static inline hal_u64 hal_div64(hal_u64 a, hal_u64 b)
{
	return a / b;
}

/* a * b / c without overflowing the product. */
static inline hal_u64 hal_mul_div64(hal_u64 a, hal_u64 b, hal_u64 c)
{
	return (hal_u64)((unsigned __int128)a * b / c);
}

#endif
