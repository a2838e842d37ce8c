#!/bin/sh
# The sweep pool starts the next point while a finished one waits for its
# durable commit (sim/cli/sweep_pool.c): with -j1 and every worker held
# just before its commit (the GPUSIM_PAUSE_SWEEP_COMMIT seam), a second
# worker still starts, no point is counted before its commit, and once
# they go on the sweep has the bytes of one never held.
# Usage: tests/sweep_overlap_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
case $GPUSIM in /*) ;; *) GPUSIM=$(pwd)/$GPUSIM ;; esac
. "$(dirname "$0")/check_lib.sh"
. "$(dirname "$0")/sweep_hold_lib.sh"

cat >"$tmp/grid.yaml" <<'YAML'
name: overlap
duration: 100ms
output: {timeline: false}
tasks:
  - {name: app, behavior: {app: DCT}}
sweep:
  policy.name: [direct, dfq, timeslice]
YAML

"$GPUSIM" sweep "$tmp/grid.yaml" -q -j1 --out "$tmp/plain" || exit 1

stopped_workers() { # of the sweep $1: how many are held
	held_workers "$1" | wc -l
}

GPUSIM_PAUSE_SWEEP_COMMIT=1 "$GPUSIM" sweep "$tmp/grid.yaml" -q -j1 \
	--out "$tmp/held" >/dev/null 2>&1 &
pid=$!
tries=0
while [ "$tries" -lt 200 ] && [ "$(stopped_workers $pid)" -lt 2 ]; do
	sleep 0.05
	tries=$((tries + 1))
done
held=$(stopped_workers $pid)
done_early=$(ls "$tmp"/held/points/*/point.json 2>/dev/null | wc -l)
check "-j1: a second worker starts while the first waits to commit ($held held)" \
	test "$held" -eq 2
check "-j1: no more than two workers, one simulating, one committing" \
	test "$(ps -o pid= --ppid $pid | wc -l)" -le 2
check "no point is finished before its commit ($done_early)" \
	test "$done_early" -eq 0
release_workers "$pid"
wait "$pid"
status=$?
check "the held sweep finishes (exit $status)" test "$status" -eq 0
check "the held sweep has the bytes of one never held" sh -c \
	"cmp $tmp/plain/sweep.csv $tmp/held/sweep.csv &&
	 cmp $tmp/plain/manifest.json $tmp/held/manifest.json &&
	 diff -r $tmp/plain/points $tmp/held/points"

echo "sweep overlap: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
