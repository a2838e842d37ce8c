#!/bin/sh
# gpusim bench compares the event loop with a bare heap at the queue
# length the simulation's pops see on average. It once took the length
# left when the run ended, which is one event at every channel count, so
# both goal points timed a heap of one key.
# Usage: tests/bench_queue_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

"$GPUSIM" bench --channels 16,1024 --sim-seconds 1 --repeat 1 --no-reproduce \
	--rss-tasks 16 --out "$tmp/bench.json" > "$tmp/bench.txt" 2>&1
queued() { sed -n "s/^event loop .*, $1 ch (\([0-9]*\) queued,.*/\1/p" "$tmp/bench.txt"; }
check "the heap goal names its queue length" sh -c "[ -n '$(queued 16)' ]"
# 16 saturating throttles keep an engine completion, the dispatcher and a
# few tasks' steps queued: more than the one event left at the end
check "16 channels: the mean queue of the run, more than one event" \
	sh -c "[ '$(queued 16)' -ge 2 ]"
# 1,024 tasks all start at once: the mean is far above the busy GPU's few
check "1024 channels: the tasks' start counts in the mean" \
	sh -c "[ '$(queued 1024)' -gt '$(queued 16)' ]"
echo "bench_queue_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
