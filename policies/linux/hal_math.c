// SPDX-License-Identifier: GPL-2.0
/* The math helpers of hal_impl.h. 32-bit kernels have no libgcc to
 * supply __udivdi3, hence div64_u64; mul_u64_u64_div_u64 keeps the
 * 128-bit product that a * b / c needs. */
#include <linux/math64.h>

#include "hal_impl.h"

hal_u64 hal_div64(hal_u64 a, hal_u64 b)
{
	return div64_u64(a, b);
}

hal_u64 hal_mul_div64(hal_u64 a, hal_u64 b, hal_u64 c)
{
	return mul_u64_u64_div_u64(a, b, c);
}
