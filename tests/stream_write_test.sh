#!/bin/sh
# timeline.pftrace's spans are encoded during the run
# (sim/results/pftrace_stream.c) unless the write seam is set, when they
# are all kept and encoded as the file is written. A run long enough for
# several chunks of spans gives the same folder both ways.
# Run from the repository root. Usage: tests/stream_write_test.sh [gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# the seam set so far out that it never fails: no stream
kept=GPUSIM_FAIL_WRITE_AFTER=1000000000000
run() {
	"$GPUSIM" run configs/default.yaml -q --no-standalone \
		--set duration=8s "$@"
}
run --out "$tmp/streamed"
env $kept "$GPUSIM" run configs/default.yaml -q --no-standalone \
	--set duration=8s --out "$tmp/kept"
run --out "$tmp/capped" --set output.timeline_max_spans=20000
env $kept "$GPUSIM" run configs/default.yaml -q --no-standalone \
	--set duration=8s --set output.timeline_max_spans=20000 \
	--out "$tmp/capped_kept"

check "a timeline of more than two chunks" \
	test "$(wc -c < "$tmp/streamed/timeline.pftrace")" -gt 2000000
check "streamed and kept: the same files" diff -r "$tmp/streamed" "$tmp/kept"
check "capped, streamed and kept: the same files" \
	diff -r "$tmp/capped" "$tmp/capped_kept"

echo "stream write: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
