#!/bin/sh
# The pool reads a point's row for sweep.csv as soon as its worker has
# exited, and keeps the rows of the points a rerun finds finished, so the
# summary after the last worker reads nothing again (sim/cli/sweep_pool.c,
# cli_sweep.c). What must not change with it: a point whose worker dies
# before its commit has no row, whatever the pool read of the others; a
# rerun then runs only that point and ends with the bytes of a sweep
# never interrupted; and a rerun of a finished sweep writes the same
# summary from the kept rows.
# Usage: tests/sweep_summary_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
case $GPUSIM in /*) ;; *) GPUSIM=$(pwd)/$GPUSIM ;; esac
. "$(dirname "$0")/check_lib.sh"
. "$(dirname "$0")/sweep_hold_lib.sh"

cat >"$tmp/grid.yaml" <<'YAML'
name: summary
duration: 100ms
output: {timeline: false}
tasks:
  - {name: app, behavior: {app: DCT}}
sweep:
  policy.name: [dfq, timeslice]
  seeds: [1, 2, 3]
YAML
n=6

"$GPUSIM" sweep "$tmp/grid.yaml" -q -j2 --out "$tmp/plain" || exit 1

# Every worker stops just before its commit; the first one held is
# killed there, the others are let go until the sweep ends.
GPUSIM_PAUSE_SWEEP_COMMIT=1 "$GPUSIM" sweep "$tmp/grid.yaml" -q -j2 \
	--out "$tmp/cut" >/dev/null 2>"$tmp/cut.err" &
pid=$!
tries=0
while [ "$tries" -lt 200 ] && [ -z "$(held_workers $pid)" ]; do
	sleep 0.05
	tries=$((tries + 1))
done
victim=$(held_workers $pid | head -n 1)
[ -n "$victim" ] && kill -9 "$victim"
release_workers "$pid"
wait "$pid"
status=$?
check "a worker was killed before its commit" test -n "$victim"
check "the sweep with a killed worker exits 1 ($status)" test "$status" -eq 1
check "sweep.csv has a row for each of the other $((n - 1)) points" \
	test "$(wc -l <"$tmp/cut/sweep.csv")" -eq "$n"
check "the manifest marks exactly one point unfinished" \
	test "$(grep -c '"finished" : false' "$tmp/cut/manifest.json")" -eq 1
check "each row is a committed point's" sh -c \
	"test \$(ls $tmp/cut/points/*/point.json | wc -l) -eq $((n - 1)) &&
	 tail -n +2 $tmp/cut/sweep.csv | cut -d, -f1 | while read id; do
		test -f $tmp/cut/points/\$id/point.json || exit 1
	 done"
check "the rerun runs the one point and has the bytes of a whole sweep" \
	sh -c "$GPUSIM sweep $tmp/grid.yaml -j2 --out $tmp/cut > $tmp/r.txt &&
	 grep -q '1 run now, $((n - 1)) already finished, 0 missing' $tmp/r.txt &&
	 cmp $tmp/plain/sweep.csv $tmp/cut/sweep.csv &&
	 cmp $tmp/plain/manifest.json $tmp/cut/manifest.json"
check "a rerun of a finished sweep writes the same summary from kept rows" \
	sh -c "rm $tmp/plain/sweep.csv $tmp/plain/manifest.json &&
	 $GPUSIM sweep $tmp/grid.yaml -j2 --out $tmp/plain > $tmp/f.txt &&
	 grep -q '0 run now, $n already finished, 0 missing' $tmp/f.txt &&
	 cmp $tmp/plain/sweep.csv $tmp/cut/sweep.csv &&
	 cmp $tmp/plain/manifest.json $tmp/cut/manifest.json"

echo "sweep summary: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
