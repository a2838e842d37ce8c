#!/bin/sh
# check-policies: prove that every policy file builds in a freestanding,
# kernel-like environment, so the same .c files can go into the kernel
# module unchanged.
#
#   tests/check_policies.sh [DIR [FILE.c...]]
#                                     (DIR: the policies folder, default
#                                      policies; DIR/linux/ is never checked;
#                                      FILE.c: policies kept elsewhere, such
#                                      as `make kmod EXTRA_POLICIES=`, checked
#                                      with DIR's)
#
# Each DIR/*.c is compiled with no system headers, no builtins and no
# SSE/MMX/x87 (as the kernel compiles), once for the native 64-bit target
# and once with -m32. Then:
#   - every undefined symbol of an object must be a function declared in
#     DIR/hal.h or tests/freestanding/hal_impl.h, or defined by another
#     policy object; floating point and raw 64-bit division show up here as
#     libgcc calls (__udivdi3, __floatundidf, ...) on -m32;
#   - no object may hold writable data (mutable static state), which also
#     catches function-local statics a grep cannot see;
#   - source rules: no '#include <...>', no float/double, no __KERNEL__,
#     no file-scope non-const static variable, no direct mem*() calls, no
#     identifier that is a macro in the kernel build.
# The last line is "check-policies: N files, ok", or the number of problems
# (and the exit status is 1).
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/policies}
[ $# -gt 0 ] && shift
extra=
for f in "$@"; do
	if [ ! -f "$f" ]; then
		echo "check-policies: $f not found" >&2
		exit 2
	fi
	extra="$extra $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
fs_inc=$root/tests/freestanding
CC=${CC:-cc}

if [ ! -f "$dir/hal.h" ]; then
	echo "check-policies: $dir/hal.h not found" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-policies.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

problems=0
fail() {
	echo "check-policies: $*"
	problems=$((problems + 1))
}

# The file with comments blanked out, line numbers kept.
strip_comments() {
	perl -0777 -pe 's{/\*.*?\*/}{my $c = $&; $c =~ tr/\n//cd; " $c"}gse;
			s{//[^\n]*}{}g' "$1"
}

# ---- source rules -----------------------------------------------------------

# Macros that the kernel build defines in every policy file (Kbuild's
# forced includes and <linux/types.h>, all policies/linux/hal_impl.h
# includes) under names a policy might pick for its own function or
# variable; fine here, a compile error in the module.
kernel_macros='fallthrough|unreachable|notrace|noinline|noinline_for_stack|noinstr|compiletime_assert|sizeof_field|offsetofend|struct_group|asm_inline|rcu_head|barrier_before_unreachable|aligned_u64|aligned_be64|aligned_le64|small_const_nbits'

# and the replay HAL (policies/replay/), which a kernel test module builds
srcs="$(ls "$dir"/*.c "$dir"/replay/*.c 2>/dev/null) $extra"
hdrs=$(ls "$dir"/*.h "$dir"/replay/*.h 2>/dev/null)
# Each input line "LINE:text" becomes "FILE:LINE: message".
report() {
	while IFS= read -r l; do
		echo "$name:${l%%:*}: $1"
	done
}
# flag GREP-OPTIONS PATTERN MESSAGE: report the lines of $tmp/src that match.
flag() {
	grep "$1" "$2" "$tmp/src" | report "$3"
}
nfiles=0
for f in $srcs $hdrs; do
	nfiles=$((nfiles + 1))
	name=${f#"$root"/}
	strip_comments "$f" > "$tmp/src"
	flag -n '#[[:space:]]*include[[:space:]]*<' \
		"system header include (policies include only hal.h, policy.h and their own helpers)"
	flag -nwE 'float|double|_Complex' "floating point type (integers only)"
	flag -n '__KERNEL__' \
		"__KERNEL__ test (the include path picks the environment)"
	grep -nE '^static[[:space:]][^(]*[;=]' "$tmp/src" | grep -vw const |
		report "file-scope mutable static variable (state belongs in hal_priv)"
	flag -nE '\bmem(cpy|set|move|cmp)[[:space:]]*\(' \
		"calls libc mem*() (not a HAL function)"
	grep -nowE "$kernel_macros" "$tmp/src" | while IFS= read -r l; do
		echo "$name:${l%%:*}: '${l#*:}' is a macro in the kernel build (rename it)"
	done
done > "$tmp/source-problems"
while IFS= read -r l; do
	fail "$l"
done < "$tmp/source-problems"

# ---- the allowed undefined symbols -----------------------------------------

# Every hal_* function the seam declares (comments stripped, so a name that
# is only mentioned in prose does not count).
{ strip_comments "$dir/hal.h"; strip_comments "$fs_inc/hal_impl.h"; } |
	grep -oE 'hal_[a-z0-9_]+[[:space:]]*\(' | sed 's/[[:space:](]*$//' |
	sort -u > "$tmp/hal-syms"
if [ ! -s "$tmp/hal-syms" ]; then
	echo "check-policies: no hal_* function found in $dir/hal.h" >&2
	exit 2
fi
# A freestanding compiler may emit these four for struct copies and
# zeroing (GCC documents that it needs them); both environments have them.
printf '%s\n' memcpy memmove memset memcmp >> "$tmp/hal-syms"

# ---- compile and inspect, per target ---------------------------------------

CFLAGS_FS="-std=gnu11 -ffreestanding -fno-builtin -nostdinc -fno-pic \
	-fno-common -fno-stack-protector -I $fs_inc -I $dir \
	-mno-sse -mno-mmx -mno-80387 -O2 \
	-Wall -Wundef -Wvla -Wstrict-prototypes -Werror"

# The kernel also warns (and -Werror fails) on a switch case falling
# through without __attribute__((__fallthrough__)): comments do not count.
if $CC -Wimplicit-fallthrough=5 -Werror -x c -c /dev/null \
	-o "$tmp/probe.o" 2>/dev/null; then
	CFLAGS_FS="$CFLAGS_FS -Wimplicit-fallthrough=5"
fi

targets=m64
if echo 'int x;' | $CC -m32 -ffreestanding -nostdinc -x c -c - \
	-o "$tmp/probe.o" 2>/dev/null; then
	targets="m64 m32"
else
	echo "check-policies: WARNING: $CC cannot compile for -m32 here;" \
	     "the 32-bit check (raw 64-bit division) is SKIPPED" >&2
fi

hint() {
	case $1 in
	__udivdi3|__divdi3|__umoddi3|__moddi3|__udivmoddi4|__divmoddi4)
		echo " (raw 64-bit division or modulo: use hal_div64 / hal_mul_div64)" ;;
	__float*|__fix*|__add?f3|__sub?f3|__mul?f3|__div?f3|__extend*|__trunc*|__eq?f2|__ne?f2|__lt?f2|__le?f2|__gt?f2|__ge?f2|__unord?f2)
		echo " (floating point: integers only)" ;;
	__stack_chk_fail) echo " (stack protector: build flags, not policy code)" ;;
	*) echo " (not declared in hal.h nor defined by a policy)" ;;
	esac
}

for t in $targets; do
	mkdir -p "$tmp/$t"
	objs=
	for f in $srcs; do
		b=$(basename "$f" .c)
		if ! $CC -$t $CFLAGS_FS -c "$f" -o "$tmp/$t/$b.o" \
			2> "$tmp/$t/$b.err"; then
			sed 's/^/    /' "$tmp/$t/$b.err"
			fail "${f#"$root"/}: does not compile freestanding (-$t)"
			continue
		fi
		objs="$objs $tmp/$t/$b.o"
	done
	[ -n "$objs" ] || continue

	# Symbols the policy objects define for one another (registry, helpers).
	# shellcheck disable=SC2086
	nm --defined-only $objs 2>/dev/null | awk 'NF == 3 && $2 ~ /[TR]/ { print $3 }' \
		> "$tmp/$t/defined"
	sort -u "$tmp/hal-syms" "$tmp/$t/defined" > "$tmp/$t/allowed"

	for o in $objs; do
		src=
		for f in $srcs; do
			[ "$(basename "$f" .c)" = "$(basename "$o" .o)" ] &&
				src=${f#"$root"/}
		done
		nm -u "$o" | awk '{ print $NF }' | sort -u > "$tmp/undef"
		for sym in $(comm -23 "$tmp/undef" "$tmp/$t/allowed"); do
			fail "$src (-$t): undefined symbol $sym$(hint "$sym")"
		done
		# b/B .bss, d/D .data, c/C common, g/G/s/S small data: writable.
		nm "$o" | awk 'NF == 3 && $2 ~ /^[bBdDcCgGsS]$/ { print $3 }' |
		while IFS= read -r sym; do
			echo "$src (-$t): writable data '$sym' (no mutable static state; use hal_priv)"
		done > "$tmp/writable"
		while IFS= read -r l; do
			fail "$l"
		done < "$tmp/writable"
	done
done

if [ "$problems" -ne 0 ]; then
	echo "check-policies: $nfiles files, $problems problem(s)"
	exit 1
fi
echo "check-policies: $nfiles files, ok"
