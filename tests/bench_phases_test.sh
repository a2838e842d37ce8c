#!/bin/sh
# gpusim bench gives the phases of the whole-process point (run, collect,
# write) in its table and in bench.json, so that where the ratio to the
# simulation goes is seen without a patched build. They are those of one
# run, so they add up to at most its whole (wall_s); other rows have none.
# Usage: tests/bench_phases_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

"$GPUSIM" bench --channels 16 --sim-seconds 1 --repeat 2 --no-reproduce \
	--rss-tasks 16 --out "$tmp/bench.json" > "$tmp/bench.txt" 2>&1
# the `process` object's members, one "key value" a line
sed -n '/"scenario" : "process"/,/}/s/^ *"\([a-z_]*\)" : \([^,]*\),*$/\1 \2/p' \
	"$tmp/bench.json" > "$tmp/process"
field() { sed -n "s/^$1 //p" "$tmp/process"; }
check "the process row has run_s, collect_s and write_s" sh -c \
	"for k in run_s collect_s write_s; do
	   grep -Eq \"^\$k [0-9][0-9.e-]*\$\" '$tmp/process' || exit 1; done"
check "the phases are positive and add up to at most wall_s" \
	awk -v r="$(field run_s)" -v c="$(field collect_s)" \
	    -v w="$(field write_s)" -v all="$(field wall_s)" \
	    'BEGIN { exit !(r > 0 && c >= 0 && w > 0 && all > 0 &&
			    r + c + w <= all) }'
check "rows other than process have no phases" sh -c \
	"[ \$(grep -c '\"run_s\" : null' '$tmp/bench.json') -eq \
	   \$(( \$(grep -c '\"scenario\"' '$tmp/bench.json') - 1 )) ]"
check "the table prints the phases under the process goal" grep -Eq \
	'^  phases of the fastest: run [0-9.]+ s, collect [0-9.]+ s, write [0-9.]+ s, free [0-9.-]+ s$' \
	"$tmp/bench.txt"
check "the process row has the run's thread CPU, with outputs and alone" \
	awk -v r="$(field run_cpu_s)" -v a="$(field sim_run_cpu_s)" \
	    'BEGIN { exit !(r > 0 && a > 0) }'
check "the table prints the simulation thread's CPU under the phases" \
	grep -Eq '^  simulation thread.s CPU in the run: [0-9.]+ s, alone [0-9.]+ s \([0-9.]+x\)$' \
	"$tmp/bench.txt"
check "the process row has gpusim run's own time (as_run_s)" \
	awk -v a="$(field as_run_s)" 'BEGIN { exit !(a > 0) }'
check "rows other than process have no as_run_s" sh -c \
	"[ \$(grep -c '\"as_run_s\" : null' '$tmp/bench.json') -eq \
	   \$(( \$(grep -c '\"scenario\"' '$tmp/bench.json') - 1 )) ]"
check "the table prints gpusim run's own time under the thread's CPU" \
	grep -Eq '^  gpusim run as it runs \(its standalone run beside, its table\): [0-9.]+ s, [0-9.]+x the simulation$' \
	"$tmp/bench.txt"
echo "bench_phases_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
