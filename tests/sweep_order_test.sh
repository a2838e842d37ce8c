#!/bin/sh
# A sweep starts its costliest points first (sim/cli/sweep_run.c), not in
# grid order; no output may depend on that: the same bytes as points run
# one by one in grid order, with -j1 and -j2, and after a kill and a
# resume. Usage: tests/sweep_order_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
case $GPUSIM in /*) ;; *) GPUSIM=$(pwd)/$GPUSIM ;; esac
. "$(dirname "$0")/check_lib.sh"

# Grid order puts the cheap 1700us requests first; cost order the 19us.
cat >"$tmp/grid.yaml" <<'YAML'
name: order
duration: 200ms
output: {timeline: false}
policy: {name: direct}
tasks:
  - name: app
    behavior: {app: DCT}
  - name: throttle
    behavior: {throttle: {kernel: 300us}}
sweep:
  tasks.1.behavior.throttle.kernel: [1700us, 300us, 19us]
  policy.name: [direct, dfq]
YAML
n=6

sweep() { "$GPUSIM" sweep "$tmp/grid.yaml" -q "$@"; }

# The reference: each point alone, in grid order, then merged.
i=0
while [ $i -lt $n ]; do
	sweep --out "$tmp/by_grid" --point $i || exit 1
	i=$((i + 1))
done
sweep --collect "$tmp/by_grid" || exit 1

same_as_grid_order() { # folder: every file the reference has, same bytes
	cmp "$tmp/by_grid/sweep.csv" "$1/sweep.csv" &&
	cmp "$tmp/by_grid/manifest.json" "$1/manifest.json" &&
	diff -r "$tmp/by_grid/points" "$1/points"
}

sweep -j1 --out "$tmp/j1"
check "-j1, costliest first: the bytes of the grid order" \
	same_as_grid_order "$tmp/j1"
sweep -j2 --out "$tmp/j2"
check "-j2, costliest first: the bytes of the grid order" \
	same_as_grid_order "$tmp/j2"

# Killed once its first point (a 19us one) is finished, then resumed:
# the rest start costliest first too, and the table is the same.
sed 's/duration: 200ms/duration: 20s/' "$tmp/grid.yaml" >"$tmp/long.yaml"
"$GPUSIM" sweep "$tmp/long.yaml" -q -j1 --out "$tmp/by_grid_long" \
	>/dev/null 2>&1 || exit 1
setsid "$GPUSIM" sweep "$tmp/long.yaml" -j1 -q --out "$tmp/killed" \
	>/dev/null 2>&1 &
pid=$!
tries=0
while [ "$tries" -lt 600 ] &&
      ! ls "$tmp"/killed/points/*/point.json >/dev/null 2>&1; do
	sleep 0.05
	tries=$((tries + 1))
done
kill -9 "-$pid" 2>/dev/null
wait "$pid" 2>/dev/null
first=$(ls -d "$tmp"/killed/points/*/point.json 2>/dev/null | head -n 1)
check "the first point finished is a costliest one (19us)" sh -c \
	"echo '$first' | grep -q '/19us_' && test \$(ls $tmp/killed/points/*/point.json | wc -l) -lt $n"
check "kill, then resume: the bytes of an uninterrupted sweep" sh -c \
	"$GPUSIM sweep $tmp/long.yaml -q -j2 --out $tmp/killed &&
	 cmp $tmp/by_grid_long/sweep.csv $tmp/killed/sweep.csv &&
	 cmp $tmp/by_grid_long/manifest.json $tmp/killed/manifest.json &&
	 ! find $tmp/killed -name '.*tmp*' | grep ."

echo "sweep order: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
