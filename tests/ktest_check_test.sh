#!/bin/sh
# scripts/ktest_check.sh, the verdict on make ktest's stress runs, judged
# on consoles written here: a clean one passes; a leaked object, a WARN
# in the kernel log, a run that said not ok, a missing run and a guest
# that stopped early each fail it. (make ktest itself needs QEMU and a
# kernel; this checks the checker without them.)
# Usage: tests/ktest_check_test.sh [GPUSIM]   (GPUSIM unused)
. "$(dirname "$0")/check_lib.sh"
chk="sh $(dirname "$0")/../scripts/ktest_check.sh"

run() { # POLICY N: the guest's lines for one clean stress run
	printf '# stress: ok %s - %s: 4 threads, 1000 ms: 16 tasks, 136 channels, 7511 doorbells, 602 faults, 33 holds, 0 queued, 0 killed, 1916 fence signals, 111 timer fires, 0 woken by signal\r\n' "$2" "$1"
	printf '# live: instances 0 tasks 0 channels 0 timers_armed 0 held 0 queued 0 blocks 0\r\n'
}
{ echo "[    1.0] booting"; run dfq 1; run hdfq 2; echo "# stress done"; } > "$tmp/good"

check "a clean console passes, one line with the summed counts" sh -c "
	$chk '$tmp/good' 2 > '$tmp/o' &&
	grep -q '^ok   stress: 2 policies, 4 threads, 1000 ms each: 32 tasks, 272 channels, 15022 doorbells, 1204 faults, 66 holds, 0 queued, 0 killed, 3832 fence signals, 222 timer fires; live objects back to 0' '$tmp/o' &&
	[ \$(wc -l < '$tmp/o') -eq 1 ]"

sed '0,/tasks 0/s//tasks 3/' "$tmp/good" > "$tmp/leak"
check "a task left alive after run 1 fails it" sh -c "
	! $chk '$tmp/leak' 2 > '$tmp/o' &&
	grep -q '^FAIL stress: leak after run 1: tasks 3' '$tmp/o'"

sed 's/^# stress done/# kmsg: [ 3.1] WARNING: CPU: 1 PID: 80 at hal_linux_task.c:90\n&/' \
	"$tmp/good" > "$tmp/warn"
check "a WARN in the kernel log fails it" sh -c "
	! $chk '$tmp/warn' 2 > '$tmp/o' &&
	grep -q '^FAIL stress: kernel log: .*WARNING: CPU: 1' '$tmp/o'"

sed 's/^# stress: ok 2 - hdfq: .*/# stress: not ok 2 - hdfq: 4 threads, 1000 ms: 1 woken by signal/' \
	"$tmp/good" > "$tmp/notok"
check "a run that says not ok fails it" sh -c "
	! $chk '$tmp/notok' 2 > '$tmp/o' &&
	grep -q '^FAIL stress: stress run failed: not ok 2 - hdfq' '$tmp/o'"

check "a run missing (the guest died in it) fails it" sh -c "
	! $chk '$tmp/good' 3 > '$tmp/o' &&
	grep -q '^FAIL stress: 2 of 3 stress runs reported' '$tmp/o'"

grep -v '^# stress done' "$tmp/good" > "$tmp/early"
check "a guest that did not finish fails it" sh -c "
	! $chk '$tmp/early' 2 > '$tmp/o' &&
	grep -q '^FAIL stress: the guest did not finish' '$tmp/o'"

echo "ktest_check_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
