#!/bin/sh
# Hostile input on the command line: files that never end (devices,
# pipes), scenario names that would leave the output folder, seeds out of
# range. Every case must be refused quickly (`timeout` turns a hang or an
# unbounded read into a failure), with exit 2 and nothing written.
# Usage: tests/input_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# --- unbounded reads: the size is found by reading, never by stat ---
refused() { # pattern, command...: exit 2 within 10 s, stderr matches
	pat=$1
	shift
	timeout 10 "$@" >"$tmp/stdout" 2>"$tmp/stderr"
	got=$?
	[ "$got" -eq 2 ] || { echo "exit $got, wanted 2"; cat "$tmp/stderr"; return 1; }
	grep -q -- "$pat" "$tmp/stderr" || { echo "no '$pat' in:"; cat "$tmp/stderr"; return 1; }
}
check "a scenario on /dev/zero is refused at the limit" \
	refused '^/dev/zero: larger than 16777216 bytes' "$GPUSIM" validate /dev/zero
check "a scenario from an endless pipe is refused at the limit" sh -c \
	"yes '# comment' | timeout 10 $GPUSIM validate /dev/stdin 2>$tmp/err;
	 test \$? -eq 2 && grep -q '^/dev/stdin: larger than 16777216 bytes' $tmp/err"
check "a scenario piped on /dev/stdin still loads" sh -c \
	"timeout 10 $GPUSIM validate /dev/stdin <configs/default.yaml"
check "sweep reads its scenario through the same bound" \
	refused '/dev/zero: larger than 16777216 bytes' "$GPUSIM" sweep /dev/zero --out "$tmp/sw0"
for dev in /dev/zero /dev/urandom; do
	cat >"$tmp/trace_dev.yaml" <<YAML
duration: 10ms
tasks:
  - name: t
    behavior: {trace: {file: $dev}}
YAML
	check "a trace on $dev is refused at its position" \
		refused "trace_dev.yaml:4:30: cannot read trace file $dev: larger than 16777216 bytes" \
		"$GPUSIM" validate "$tmp/trace_dev.yaml"
done
check "nothing was written" test ! -e "$tmp/sw0"

echo "input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
