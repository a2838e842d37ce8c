#!/bin/sh
# Issue 20 goal 4: `gpusim sweep -j2` against `-j1` on paper sweeps, as
# whole processes timed from outside (each run writes a fresh folder, so
# every point runs). The runs alternate, -j1 then -j2, so that a slow
# spell of a shared machine hits both; the medians of REPEAT runs are
# compared. The goal (at least 1.8x) assumes two idle cores: on a loaded
# machine -j2 has no second core to use, so the load average is printed
# with the figure. A miss is reported, not an error (exit 0).
# Usage: scripts/bench_sweep.sh [GPUSIM] [REPEAT] [SWEEP.yaml ...]
# (default: ./gpusim, 3, dcuda_fig11_14 and neon_fig6_fig7)
GPUSIM=${1:-./gpusim}
REPEAT=${2:-3}
[ $# -ge 2 ] && shift 2 || set --
[ $# -eq 0 ] && set -- configs/paper/sweeps/dcuda_fig11_14.yaml \
	configs/paper/sweeps/neon_fig6_fig7.yaml
GOAL=1.8
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-bench-sweep.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

now() { date +%s.%N; }

# Seconds of one sweep with -j$2 into a fresh folder.
time_sweep() {
	rm -rf "$tmp/out"
	t0=$(now)
	"$GPUSIM" sweep "$1" -j "$2" --out "$tmp/out" -q >/dev/null ||
		{ echo "bench-sweep: $1 -j$2 failed" >&2; exit 1; }
	t1=$(now)
	echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-40s %9s %9s %8s %8s  %s\n' "goal 4 (issue 20): sweep -j2 vs -j1" \
	"-j1 s" "-j2 s" "at least" "speedup" "verdict"
for sweep in "$@"; do
	: >"$tmp/j1"; : >"$tmp/j2"
	i=0
	while [ $i -lt "$REPEAT" ]; do
		time_sweep "$sweep" 1 >>"$tmp/j1" || exit 1
		time_sweep "$sweep" 2 >>"$tmp/j2" || exit 1
		i=$((i + 1))
	done
	j1=$(median <"$tmp/j1"); j2=$(median <"$tmp/j2")
	line=$(awk -v a="$j1" -v b="$j2" -v g="$GOAL" 'BEGIN {
		r = a / b; printf "%9.3f %9.3f %7.1fx %7.2fx  %s", a, b, g, r,
		(r >= g ? "pass" : "miss") }')
	printf '%-40s %s\n' "$(basename "$sweep" .yaml) (median of $REPEAT)" "$line"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)," \
	"cores: $(nproc 2>/dev/null)"
