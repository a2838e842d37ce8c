/* The freestanding check's side of policies/hal.h (tests/check_policies.sh).
 * No system header at all: types come from the compiler's predefined
 * macros. The math helpers are extern, not inline, so that a policy's use
 * of them shows up in `nm -u` as a HAL symbol, while a raw 64-bit '/' on a
 * 32-bit target shows up as __udivdi3 and fails the check. */
#ifndef GS_HAL_IMPL_H
#define GS_HAL_IMPL_H

typedef __UINT8_TYPE__ hal_u8;
typedef __UINT16_TYPE__ hal_u16;
typedef __UINT32_TYPE__ hal_u32;
typedef __UINT64_TYPE__ hal_u64;
typedef __INT32_TYPE__ hal_s32;
typedef __INT64_TYPE__ hal_s64;

hal_u64 hal_div64(hal_u64 a, hal_u64 b);
/* a * b / c without overflowing the product. */
hal_u64 hal_mul_div64(hal_u64 a, hal_u64 b, hal_u64 c);

#endif
