#!/bin/sh
# timeline.pftrace's spans are encoded during the run
# (sim/results/pftrace_stream.c) unless the write seam is set, when they
# are all kept and encoded as the file is written. A run long enough for
# several chunks of spans, and one capped inside a chunk, give the same
# folder both ways.
# Run from the repository root. Usage: tests/stream_write_test.sh [gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

for cap in 1000000 20000; do
	for how in streamed kept; do
		# kept: the seam set so far out that it never fails
		[ $how = kept ] && seam=GPUSIM_FAIL_WRITE_AFTER=1000000000000 ||
			seam=GPUSIM_UNUSED=1
		env $seam "$GPUSIM" run configs/default.yaml -q \
			--no-standalone --set duration=8s \
			--set output.timeline_max_spans=$cap \
			--out "$tmp/$how$cap"
	done
	check "at most $cap spans: streamed and kept, the same files" \
		diff -r "$tmp/streamed$cap" "$tmp/kept$cap"
done
check "a timeline of more than two chunks" \
	test "$(wc -c < "$tmp/streamed1000000/timeline.pftrace")" -gt 2000000

echo "stream write: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
