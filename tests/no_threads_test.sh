#!/bin/sh
# Without a thread to be had (the GPUSIM_NO_THREADS seam of
# base/thread_quiet.c) every part that runs on a thread of its own does
# its work on the calling thread: the timeline's and series.csv's streams,
# the end's second writer, the collect's second thread taking units of
# the latency figures (logs of more than 65,536 samples, of three parts
# and of one). The run ends, within a time limit, and its folder is
# the one written with threads. The standalone runs, made on threads
# beside the scenario's when threads are to be had, are made in turn
# after it, with the same figures. Run from the repository root.
# Usage: tests/no_threads_test.sh [gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# 2,500 tasks: a log of three parts, one a unit; 700: one part, taken
# in halves
for count in 2500 700; do
	cfg=$tmp/lat$count.yaml
	printf '%s\n' 'name: lat' 'seed: 3' 'duration: 4s' 'tasks:' \
		'  - name: t' "    count: $count" '    channels: 1' \
		'    behavior: {throttle: {kernel: {uniform: [5us, 15us]}}}' \
		> "$cfg"
	for fmt in pftrace json; do
		out=$tmp/threads$count$fmt
		"$GPUSIM" run "$cfg" -q --no-standalone --timeline $fmt \
			--out "$out"
		GPUSIM_NO_THREADS=1 timeout 60 "$GPUSIM" run "$cfg" -q \
			--no-standalone --timeline $fmt --out "$tmp/none$fmt"
		check "no threads ($count tasks, $fmt): the run ends" \
			test $? -eq 0
		check "no threads ($count tasks, $fmt): the same folder" \
			diff -r "$out" "$tmp/none$fmt"
		rm -rf "$tmp/none$fmt"
	done
	# a round and a wait sample per round of each task (tasks.csv's
	# rounds)
	check "$count tasks: the log long enough for a second thread" \
		awk -F, 'NR > 1 { s += $5 } END { exit !(2 * s > 65536) }' \
		"$tmp/threads${count}pftrace/tasks.csv"
done

# three definitions, each a standalone run of its own
cfg=$tmp/alone.yaml
printf '%s\n' 'name: alone' 'seed: 5' 'duration: 500ms' 'policy: dfq' 'tasks:' \
	'  - name: a' '    behavior: {throttle: {kernel: {uniform: [50us, 150us]}}}' \
	'  - name: b' '    count: 2' \
	'    behavior: {throttle: {kernel: {uniform: [5us, 15us]}, sleep: 100us}}' \
	'  - name: c' '    behavior: {app: DCT}' > "$cfg"
"$GPUSIM" run "$cfg" --out "$tmp/alone_threads" >"$tmp/alone_threads.txt"
GPUSIM_NO_THREADS=1 timeout 60 "$GPUSIM" run "$cfg" --out "$tmp/alone_none" \
	>"$tmp/alone_none.txt"
check "no threads (standalone runs): the run ends" test $? -eq 0
check "no threads (standalone runs): the same folder" \
	diff -r "$tmp/alone_threads" "$tmp/alone_none"
check "no threads (standalone runs): slowdowns there" \
	sh -c "grep -q '\"slowdown\" : [0-9]' '$tmp/alone_none/summary.json'"

echo "no threads: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
