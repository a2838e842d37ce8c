#!/bin/sh
# gpusim import: every sample of every format in the importer table
# (tests/import/samples/FORMAT/). A sample NAME.EXT with NAME.expect beside
# it must import (the summary line's task, channel and job counts and the
# scenario's duration as the expect file says), validate, and run with
# every task finishing its one round (and, with a gpu_time line, the
# tasks' GPU time adding up to it); one with NAME.error must exit 2 with
# that message (FILE standing for the sample's path) and write nothing.
# Samples given as NAME.sql are SQL text, built into NAME.sqlite first
# (formats read from databases). Then the command's own errors.
gpusim=$(realpath "${1:-./gpusim}")
cd "$(dirname "$0")/.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# "tasks 2" in an expect file -> 2
expect_of() { sed -n "s/^$2 //p" "$1"; }

check_good() {	# FORMAT SAMPLE EXPECT
	out="$tmp/good/$(basename "${2%.*}").yaml"
	rm -rf "$tmp/good" && mkdir -p "$tmp/good"
	if ! "$gpusim" import "$1" "$2" -o "$out" >"$tmp/line" 2>"$tmp/err"
	then
		bad "$2: import failed: $(cat "$tmp/err")"
		return
	fi
	want="$(expect_of "$3" tasks) task.*, $(expect_of "$3" channels) channel.*, $(expect_of "$3" jobs) job"
	grep -q ": $want" "$tmp/line" || bad "$2: summary '$(cat "$tmp/line")', expected '$want'"
	grep -qx "duration: $(expect_of "$3" duration)" "$out" ||
		bad "$2: duration $(grep '^duration' "$out"), expected $(expect_of "$3" duration)"
	"$gpusim" validate "$out" >/dev/null 2>"$tmp/err" ||
		bad "$2: scenario does not validate: $(cat "$tmp/err")"
	if "$gpusim" run "$out" --out "$tmp/good/res" >/dev/null 2>"$tmp/err"
	then
		# rounds (column 5) of every task: 1 (the trace replayed whole)
		n=$(awk -F, 'NR > 1 && $5 == 1' "$tmp/good/res/tasks.csv" | wc -l)
		[ "$n" -eq "$(expect_of "$3" tasks)" ] ||
			bad "$2: $n tasks finished their trace"
		# the GPU time of all tasks (column 7): the recorded durations
		g=$(awk -F, 'NR > 1 { s += $7 } END { print s }' "$tmp/good/res/tasks.csv")
		want=$(expect_of "$3" gpu_time)
		[ -z "$want" ] || [ "$g" = "$want" ] ||
			bad "$2: GPU time $g ns, expected $want"
	else
		bad "$2: scenario does not run: $(cat "$tmp/err")"
	fi
	ok "$1 $(basename "$2")"
}

check_bad() {	# FORMAT SAMPLE ERROR
	rm -rf "$tmp/bad" && mkdir -p "$tmp/bad"
	"$gpusim" import "$1" "$2" -o "$tmp/bad/out.yaml" >/dev/null 2>"$tmp/err"
	rc=$?
	want=$(sed "s|^FILE|$2|" "$3")
	[ $rc -eq 2 ] || bad "$2: exit $rc, expected 2"
	grep -qxF "$want" "$tmp/err" ||
		bad "$2: message '$(cat "$tmp/err")', expected '$want'"
	[ -z "$(ls -A "$tmp/bad")" ] || bad "$2: wrote $(ls "$tmp/bad")"
	ok "$1 $(basename "$2") refused"
}

formats=$("$gpusim" import --help | sed -n '/^Formats:/,/^$/s/^  \([a-z0-9-]*\) .*/\1/p')
[ -n "$formats" ] || bad "import --help lists no format"
for f in $formats; do
	dir=tests/import/samples/$f
	[ -d "$dir" ] || { bad "$f: no samples in $dir"; continue; }
	n=0
	for s in "$dir"/*; do
		case $s in *.expect|*.error) continue ;; esac
		sample=$s
		if [ "${s%.sql}" != "$s" ]; then
			sample="$tmp/$(basename "${s%.sql}").sqlite"
			rm -f "$sample"
			sqlite3 "$sample" <"$s" || { bad "$s: sqlite3"; continue; }
		fi
		if [ -f "${s%.*}.expect" ]; then
			check_good "$f" "$sample" "${s%.*}.expect"
		elif [ -f "${s%.*}.error" ]; then
			check_bad "$f" "$sample" "${s%.*}.error"
		else
			bad "$s: neither ${s%.*}.expect nor ${s%.*}.error"
		fi
		n=$((n + 1))
	done
	[ $n -gt 0 ] || bad "$f: no samples"
done
"$gpusim" list | grep -q "^  chrome-json " && ok "gpusim list names the formats" ||
	bad "gpusim list lacks the formats"

# the command's own errors: exit 2, nothing written
one=tests/import/samples/chrome-json/kineto_two_streams.json
rm -rf "$tmp/cmd" && mkdir "$tmp/cmd"
for args in "nosuch $one" "chrome-json $one --policy nosuch" \
	    "chrome-json $one --preset fermi" "chrome-json $one --duration abc" \
	    "chrome-json" "chrome-json $tmp/missing.json"; do
	# shellcheck disable=SC2086
	"$gpusim" import $args -o "$tmp/cmd/o.yaml" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] && [ -z "$(ls -A "$tmp/cmd")" ] &&
		ok "import $args: exit 2" || bad "import $args: exit $rc"
done
"$gpusim" import chrome-json "$one" >/dev/null 2>&1
[ $? -eq 2 ] && ok "no -o: exit 2" || bad "no -o"

# same input, same bytes; --policy, --preset and --duration reach the file
"$gpusim" import chrome-json "$one" -o "$tmp/cmd/a.yaml" --policy timeslice \
	--preset kepler --duration 5ms >/dev/null &&
mkdir "$tmp/cmd2" &&
"$gpusim" import chrome-json "$one" -o "$tmp/cmd2/a.yaml" --policy timeslice \
	--preset kepler --duration 5ms >/dev/null &&
diff -r "$tmp/cmd" "$tmp/cmd2" >/dev/null && ok "same input, same files" ||
	bad "two imports differ"
grep -q "name: timeslice" "$tmp/cmd/a.yaml" &&
grep -q "preset: kepler" "$tmp/cmd/a.yaml" &&
grep -qx "duration: 5000000ns" "$tmp/cmd/a.yaml" &&
	ok "options in the scenario" || bad "options not in the scenario"
exit $fail
