#!/bin/sh
# scripts/bench_sweep.sh (goal 4 of `make bench`) against a stand-in for
# gpusim whose sweeps take known times, so that every column can be
# checked on a shared machine: a fresh -j1 sweep sleeps 0.4 s, a fresh -j2
# sweep 0.2 s, a sweep into a finished folder (the serial part) 0.02 s,
# and a copy (GPUSIM_NO_THREADS, -j1) 0.3 s, holding a lock when LOCK is
# set, so that two copies at once then take 0.6 s. The columns' arithmetic
# is then known: speedup 0.4 / 0.2 = 2x; copies 2 x 0.3 / both, 2x when
# the two copies overlap and 1x when the lock makes them take turns;
# machine 2 x 0.4 / both, 2.67x and 1.33x.
# Usage: tests/bench_sweep_test.sh [gpusim, unused: the stand-in runs]
. "$(dirname "$0")/check_lib.sh"
script="$(dirname "$0")/../scripts/bench_sweep.sh"

cat >"$tmp/fake-gpusim" <<'EOF'
#!/bin/sh
# fake-gpusim sweep FILE -j N --out DIR -q
j=$4 out=$6
echo "j=$j no_threads=${GPUSIM_NO_THREADS:-}" >>"$LOG"
if [ -d "$out" ]; then
	sleep 0.02
elif [ -n "${GPUSIM_NO_THREADS:-}" ]; then
	mkdir -p "$out"
	if [ -n "${LOCK:-}" ]; then flock "$LOCK" sleep 0.3; else sleep 0.3; fi
else
	mkdir -p "$out"
	if [ "$j" = 1 ]; then sleep 0.4; else sleep 0.2; fi
fi
EOF
chmod +x "$tmp/fake-gpusim"

# The row's columns by name, one "name value" a line (the header names
# them; "-j1 s", "-j2 s" and "pairs lo-hi" are two words each).
columns() {
	awk 'NR == 1 { sub(/^.*sweep -j2\/-j1 */, ""); sub(/-j1 s/, "j1")
		sub(/-j2 s/, "j2"); sub(/pairs lo-hi/, "lo-hi")
		n = split($0, name) }
	     NR == 2 { sub(/^.*\(median of [0-9]+\) */, "")
		for (i = 1; i <= n; i++) { split($0, v); print name[i], v[i] } }' \
		"$1"
}
near() { # file, column, low, high
	awk -v c="$2" -v lo="$3" -v hi="$4" '$1 == c { v = $2; sub(/x$/, "",
		v); found = 1; ok = v + 0 >= lo && v + 0 <= hi }
		END { if (!found) print "no column", c; exit !(found && ok) }' \
		"$1" || { cat "$1"; return 1; }
}

LOG="$tmp/log" MIN_S=0 sh "$script" "$tmp/fake-gpusim" 1 demo.yaml \
	>"$tmp/free.txt" 2>&1
columns "$tmp/free.txt" >"$tmp/free"
LOG="$tmp/log-locked" LOCK="$tmp/lock" MIN_S=0 sh "$script" \
	"$tmp/fake-gpusim" 1 demo.yaml >"$tmp/locked.txt" 2>&1
columns "$tmp/locked.txt" >"$tmp/locked"

check "the header names copies and machine" grep -Eq \
	'serial +bound +copies +machine$' "$tmp/free.txt"
check "speedup is -j1 over -j2 (2x)" near "$tmp/free" speedup 1.6 2.2
check "the verdict is pass at 2x" grep -q '^verdict pass$' "$tmp/free"
check "copies: two copies that overlap give 2x" near "$tmp/free" copies \
	1.7 2.2
check "copies: two copies that take turns give 1x" near "$tmp/locked" \
	copies 0.85 1.15
check "machine: 2 x j1 over two overlapping copies (2.67x)" \
	near "$tmp/free" machine 2.2 2.9
check "machine: 2 x j1 over two copies in turn (1.33x)" \
	near "$tmp/locked" machine 1.15 1.5
check "the copies run -j1 without helper threads, three a pair" sh -c \
	"[ \$(grep -c '^j=1 no_threads=1\$' '$tmp/log') -eq 3 ]"
check "the pair's own sweeps keep their helper threads" sh -c \
	"[ \$(grep -c 'no_threads=\$' '$tmp/log') -eq 3 ]"
# a speedup under the goal is not rounded up onto it (the verdict is a
# miss); one over it may round down onto it (a pass, as it reads)
check "a speedup just under the goal shows its side (1.796 at 1.8)" sh -c \
	"[ \"\$(sh '$script' --shown 1.796 1.8)\" = 1.796 ]"
check "a speedup within 0.0005 under the goal shows four decimals" sh -c \
	"[ \"\$(sh '$script' --shown 1.79951 1.8)\" = 1.7995 ]"
check "a speedup just over the goal may round onto it (1.8004 at 1.8)" \
	sh -c "[ \"\$(sh '$script' --shown 1.8004 1.8)\" = 1.80 ]"
check "a speedup clear of the goal keeps two decimals" sh -c \
	"[ \"\$(sh '$script' --shown 1.646 1.8)\" = 1.65 ]"
check "a speedup at the goal keeps two decimals" sh -c \
	"[ \"\$(sh '$script' --shown 1.8 1.8)\" = 1.80 ]"
echo "bench_sweep_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
