#!/bin/sh
# Hostile input on the command line: files that never end (devices,
# pipes), scenario names that would leave the output folder, seeds out of
# range. Every case must be refused quickly (`timeout` turns a hang or an
# unbounded read into a failure), with exit 2 and nothing written.
# Usage: tests/input_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
src=$(pwd)
case $GPUSIM in /*) ;; *) GPUSIM=$src/$GPUSIM ;; esac
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

# --- scenario names: one folder inside the output folder ---
cat >"$tmp/dotdot.yaml" <<'YAML'
name: ..
duration: 10ms
tasks:
  - name: a
    behavior: {throttle: {kernel: 100us}}
YAML
mkdir -p "$tmp/cwd"
check "run refuses name '..' at its position, writes nothing" sh -c \
	"cd $tmp/cwd && $GPUSIM run $tmp/dotdot.yaml -q 2>$tmp/err;
	 test \$? -eq 2 && grep -q 'dotdot.yaml:1:7: name .\.\.. starts with' $tmp/err &&
	 test -z \"\$(ls -A $tmp/cwd)\""
check "run of several files with --out refuses name '..'" sh -c \
	"$GPUSIM run configs/default.yaml $tmp/dotdot.yaml --out $tmp/multi -q 2>$tmp/err;
	 test \$? -eq 2 && grep -q 'dotdot.yaml:1:7:' $tmp/err && test ! -e $tmp/multi"
check "--set name=. is refused at the --set" sh -c \
	"cd $tmp/cwd && $GPUSIM run $src/configs/default.yaml --set name=. -q 2>$tmp/err;
	 test \$? -eq 2 && grep -q '^--set name=\.: name .\.. starts with' $tmp/err &&
	 test -z \"\$(ls -A $tmp/cwd)\""
check "sweep refuses --set name=.. (no points/ or sweep.csv outside)" sh -c \
	"cd $tmp/cwd && $GPUSIM sweep $src/configs/paper/sweeps/loga_fig8.yaml --set name=.. -q 2>$tmp/err;
	 test \$? -eq 2 && grep -q '^--set name=\.\.: ' $tmp/err &&
	 test -z \"\$(ls -A $tmp/cwd)\" && test ! -e $tmp/points && test ! -e $tmp/sweep.csv"
cp "$tmp/dotdot.yaml" "$tmp/..yaml"
sed -i '/^name:/d' "$tmp/..yaml"
check "a file named ..yaml without a name is refused" sh -c \
	"$GPUSIM run $tmp/..yaml --out $tmp/dd -q 2>$tmp/err;
	 test \$? -eq 2 && grep -q \"the scenario's name '.' (its file name)\" $tmp/err && test ! -e $tmp/dd"

# --- seeds: exactly those summary.json records, so a run replays ---
for seed in -1 18446744073709551616 18446744073709551615 9223372036854775808 0x10 ''; do
	check "--seed '$seed' is refused" refused \
		"--seed expects an integer from 0 to 9223372036854775807, got '$seed'" \
		"$GPUSIM" run configs/default.yaml --seed "$seed" --out "$tmp/seed-bad" -q
done
check "a refused seed writes nothing" test ! -e "$tmp/seed-bad"
for seed in 0 9223372036854775807; do
	check "--seed $seed is recorded exactly and replays" sh -c "
		$GPUSIM run configs/default.yaml --seed $seed --out $tmp/s1 -q --no-timeline --no-standalone &&
		grep -q '\"seed\" : $seed,' $tmp/s1/summary.json &&
		recorded=\$(sed -n 's/.*\"seed\" : \\([0-9]*\\),/\\1/p' $tmp/s1/summary.json) &&
		$GPUSIM run configs/default.yaml --seed \$recorded --out $tmp/s2 -q --no-timeline --no-standalone &&
		cmp $tmp/s1/summary.json $tmp/s2/summary.json && rm -rf $tmp/s1 $tmp/s2"
done

# --- the summary table's rows: --rows N shows the first N tasks ---
for rows in -1 abc 4294967296 0x10 ''; do
	check "--rows '$rows' is refused" refused \
		"--rows expects a number of rows from 0 (every task) to 4294967295, got '$rows'" \
		"$GPUSIM" run configs/default.yaml --rows "$rows" --out "$tmp/rows-bad"
done
check "a refused --rows writes nothing" test ! -e "$tmp/rows-bad"
cat >"$tmp/five.yaml" <<'YAML'
name: five
duration: 10ms
tasks:
  - name: x
    count: 5
    behavior: {throttle: {kernel: 100us}}
YAML
check "--rows 2 shows two tasks a table and counts the rest" sh -c "
	$GPUSIM run $tmp/five.yaml --no-standalone --no-timeline --rows 2 --out $tmp/five >$tmp/five.txt &&
	test \$(grep -c '^x#[01] ' $tmp/five.txt) -eq 6 && ! grep -q '^x#[234] ' $tmp/five.txt &&
	test \$(grep -c '^\.\.\. and 3 more tasks (every task is in tasks.csv' $tmp/five.txt) -eq 3 &&
	test \$(grep -c '^x#' $tmp/five/tasks.csv) -eq 5"
check "--rows 0 and --rows 5 show every task" sh -c "
	$GPUSIM run $tmp/five.yaml --no-standalone --no-timeline --rows 0 --out $tmp/five0 >$tmp/five0.txt &&
	$GPUSIM run $tmp/five.yaml --no-standalone --no-timeline --rows 5 --out $tmp/five5 >$tmp/five5.txt &&
	test \$(grep -c '^x#[0-4] ' $tmp/five0.txt) -eq 15 && ! grep -q '^\.\.\. and' $tmp/five0.txt &&
	sed 's|$tmp/five0/|DIR|' $tmp/five0.txt >$tmp/a.txt && sed 's|$tmp/five5/|DIR|' $tmp/five5.txt >$tmp/b.txt &&
	cmp $tmp/a.txt $tmp/b.txt"

echo "input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
