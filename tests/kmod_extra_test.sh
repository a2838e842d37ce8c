#!/bin/sh
# make kmod EXTRA_POLICIES=: the kernel module built with a policy kept
# outside policies/ (examples/policies/wrr.c) registers it, and the next
# build without it is the module of policies/ alone again (the registry's
# object is rebuilt from the right source each time). Needs a kernel
# build tree (see make kmod); run by .ci/run after make kmod.
# Usage: tests/kmod_extra_test.sh   (from the source tree)
. "$(dirname "$0")/check_lib.sh"
ko=build-kmod/linux/gpusim_policies.ko

check "kmod with EXTRA_POLICIES=examples/policies/wrr.c" sh -c "
	make -s kmod EXTRA_POLICIES=examples/policies/wrr.c >'$tmp/log' 2>&1 ||
		{ tail -20 '$tmp/log'; exit 1; }
	nm '$ko' | grep -q ' gs_policy_wrr\$'"
check "kmod without it again" sh -c "
	make -s kmod >'$tmp/log' 2>&1 || { tail -20 '$tmp/log'; exit 1; }
	! nm '$ko' | grep -q ' gs_policy_wrr\$' &&
	nm '$ko' | grep -q ' gs_policy_dfq\$'"

echo "kmod_extra_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
