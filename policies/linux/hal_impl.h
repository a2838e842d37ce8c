/* The kernel's side of policies/hal.h: integer types and the 64-bit math
 * helpers. Chosen by the include path (-I policies/linux), so policy files
 * never test __KERNEL__.
 *
 * Only <linux/types.h> is included, on purpose: every kernel header pulled
 * in here puts its macros (barrier, abs, round_up, likely, ...) into the
 * policies' namespace, and a policy with a function called barrier() would
 * build in the simulator and fail here. So the math helpers are out of
 * line (hal_math.c, via div64_u64 and mul_u64_u64_div_u64 from
 * <linux/math64.h>) rather than inline: one call per division, which no
 * policy does in a hot loop. */
#ifndef GS_HAL_IMPL_H
#define GS_HAL_IMPL_H

#include <linux/types.h>

typedef u8 hal_u8;
typedef u16 hal_u16;
typedef u32 hal_u32;
typedef u64 hal_u64;
typedef s32 hal_s32;
typedef s64 hal_s64;

hal_u64 hal_div64(hal_u64 a, hal_u64 b);
/* a * b / c without overflowing the product (128-bit intermediate). */
hal_u64 hal_mul_div64(hal_u64 a, hal_u64 b, hal_u64 c);

/* The kernel's WARN_ON_ONCE: evaluates to cond, reports the first time
 * a call site sees it true. The once-flag is a static in .data.once, as
 * the kernel's own DO_ONCE_LITE keeps it (cleared by the debugfs
 * clear_warn_once knob); written out here rather than taken from
 * <asm/bug.h> for the reason above. */
#define HAL_WARN_ON(s, cond) ({						\
	static bool __attribute__((section(".data.once"))) hal_warned;	\
	bool hal_warn_cond = !!(cond);					\
	if (__builtin_expect(hal_warn_cond, 0) && !hal_warned) {	\
		hal_warned = true;					\
		hal_warn((s), __FILE__, __LINE__, #cond);		\
	}								\
	hal_warn_cond;							\
})

#endif
