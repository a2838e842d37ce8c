/* The simulator's side of policies/hal.h: the integer types and the
 * inline helpers, in user space. The kernel's side is in policies/linux/. */
#ifndef GS_HAL_IMPL_H
#define GS_HAL_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t hal_u8;
typedef uint16_t hal_u16;
typedef uint32_t hal_u32;
typedef uint64_t hal_u64;
typedef int32_t hal_s32;
typedef int64_t hal_s64;

#endif
