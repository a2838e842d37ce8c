#!/bin/sh
# timeline.pftrace is written to its file during the run
# (sim/results/pftrace_stream.c) unless the write seam is set, when the
# spans and marks are all kept and encoded as the file is written at the
# end. A run long enough for several chunks, and one capped inside a
# chunk, give the same folder both ways. A run interrupted while the
# stream writes its file leaves the old folder and no temporary.
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
# series.csv is written during the run too (sim/results/series_stream.c):
# with a policy that reports accounted time (the column filled) and
# without, samples many and few, the same files as written at the end.
for set in "policy.name=dfq" "policy.name=direct" \
	"policy.name=loga output.series_interval=1ms"; do
	sets=""
	for s in $set; do sets="$sets --set $s"; done
	n=$(printf %s "$set" | tr -c 'a-z0-9' _)
	for how in streamed kept; do
		[ $how = kept ] && seam=GPUSIM_FAIL_WRITE_AFTER=1000000000000 ||
			seam=GPUSIM_UNUSED=1
		# shellcheck disable=SC2086
		env $seam "$GPUSIM" run configs/default.yaml -q --no-standalone \
			--set duration=2s $sets --out "$tmp/$how$n"
	done
	check "series ($set): streamed and kept, the same files" \
		diff -r "$tmp/streamed$n" "$tmp/kept$n"
done
check "dfq's series has the accounted column" \
	grep -q ',[0-9][0-9]*,[0-9][0-9]*$' "$tmp/streamedpolicy_name_dfq/series.csv"

check "a timeline of more than two chunks" \
	test "$(wc -c < "$tmp/streamed1000000/timeline.pftrace")" -gt 2000000

# SIGINT and SIGTERM mid-simulation, once the stream has written part of
# the timeline into the new folder's temporary: killed by the signal, the
# old folder as it was, nothing else left.
cfg=$tmp/long.yaml
printf '%s\n' 'name: long' 'duration: 80000s' 'tasks:' \
	'  - {name: a, behavior: {throttle: {kernel: 20us}}}' \
	'  - {name: b, behavior: {throttle: {kernel: 30us}}}' > "$cfg"
signum() { case $1 in INT) echo 2 ;; TERM) echo 15 ;; esac; }
"$GPUSIM" run "$cfg" -q --no-standalone --set duration=1s \
	--out "$tmp/sig/out"
cp -a "$tmp/sig/out" "$tmp/old"
for sig in INT TERM; do
	env --default-signal=INT,TERM "$GPUSIM" run "$cfg" -q --no-standalone \
		--out "$tmp/sig/out" &
	pid=$!
	i=0 started=no
	while [ $i -lt 500 ]; do
		f=$(find "$tmp/sig" -path "$tmp/sig/.out.tmp.*/timeline.pftrace" -size +1000k)
		[ -n "$f" ] && { started=yes; break; }
		sleep 0.02
		i=$((i + 1))
	done
	kill -$sig $pid
	wait $pid
	st=$?
	check "SIG$sig mid-run, stream open ($started): killed by it" \
		test $started = yes -a $st -eq $((128 + $(signum $sig)))
	check "SIG$sig mid-run: the old folder, no temporary" sh -c \
		"diff -r $tmp/old $tmp/sig/out && test \$(ls -A $tmp/sig | wc -l) -eq 1"
done

echo "stream write: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
