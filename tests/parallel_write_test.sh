#!/bin/sh
# A run's folder is written on two threads, the timeline and
# summary.json on the second (sim/results/results_write.c); with the
# write seam set the files are written one after another. Both give the
# same bytes, for either timeline format or none, and the same again on
# a second run.
# Run from the repository root. Usage: tests/parallel_write_test.sh [gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# the seam set so far out that it never fails: the files in turn
in_turn=GPUSIM_FAIL_WRITE_AFTER=1000000000000
run() {
	"$GPUSIM" run configs/default.yaml -q --no-standalone \
		--set duration=200ms "$@"
}
run --out "$tmp/par"
run --out "$tmp/par2"
env $in_turn "$GPUSIM" run configs/default.yaml -q --no-standalone \
	--set duration=200ms --out "$tmp/seq"
run --out "$tmp/jpar" --timeline json
env $in_turn "$GPUSIM" run configs/default.yaml -q --no-standalone \
	--set duration=200ms --out "$tmp/jseq" --timeline json
run --out "$tmp/npar" --no-timeline
env $in_turn "$GPUSIM" run configs/default.yaml -q --no-standalone \
	--set duration=200ms --out "$tmp/nseq" --no-timeline

check "a timeline was written" test -s "$tmp/par/timeline.pftrace"
check "threaded and in turn: the same files" diff -r "$tmp/par" "$tmp/seq"
check "threaded twice: the same files" diff -r "$tmp/par" "$tmp/par2"
check "timeline.json: threaded and in turn the same" \
	diff -r "$tmp/jpar" "$tmp/jseq"
check "no timeline: threaded and in turn the same" \
	diff -r "$tmp/npar" "$tmp/nseq"

echo "parallel write: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
