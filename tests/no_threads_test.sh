#!/bin/sh
# Without a thread to be had (the GPUSIM_NO_THREADS seam of
# base/thread_quiet.c) every part that runs on a thread of its own does
# its work on the calling thread: the timeline's and series.csv's streams,
# the end's second writer, the collect's second thread taking units of
# the latency figures (a log of more than 65,536 samples in three parts
# of 1,024 tasks). The run ends, within a time limit, and its folder is
# the one written with threads. Run from the
# repository root. Usage: tests/no_threads_test.sh [gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

cfg=$tmp/lat.yaml
printf '%s\n' 'name: lat' 'seed: 3' 'duration: 4s' 'tasks:' \
	'  - name: t' '    count: 2500' '    channels: 1' \
	'    behavior: {throttle: {kernel: {uniform: [5us, 15us]}}}' > "$cfg"
for fmt in pftrace json; do
	"$GPUSIM" run "$cfg" -q --no-standalone --timeline $fmt \
		--out "$tmp/threads$fmt"
	GPUSIM_NO_THREADS=1 timeout 60 "$GPUSIM" run "$cfg" -q \
		--no-standalone --timeline $fmt --out "$tmp/none$fmt"
	check "no threads ($fmt): the run ends" test $? -eq 0
	check "no threads ($fmt): the folder written with threads" \
		diff -r "$tmp/threads$fmt" "$tmp/none$fmt"
done
# a round and a wait sample per round of each task (tasks.csv's rounds)
check "the log was long enough for a second thread" awk -F, \
	'NR > 1 { s += $5 } END { exit !(2 * s > 65536) }' \
	"$tmp/threadspftrace/tasks.csv"

echo "no threads: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
