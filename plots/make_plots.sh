#!/bin/sh
# Regenerates the paper figures: runs the sweeps of configs/paper/sweeps/
# (finished points are kept, see `gpusim sweep`) into results/sweeps/ and
# draws results/plots/*.png and *.svg with gnuplot.
# Usage: plots/make_plots.sh [path/to/gpusim]   (JOBS=N: points at once)
set -e
GPUSIM=${1:-./gpusim}
JOBS=${JOBS:-2}
sweeps=results/sweeps
out=results/plots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$sweeps" "$out"

# Fresh sweeps: a finished point is reused only while its configuration
# is unchanged, and the figures must show this build of gpusim.
for f in configs/paper/sweeps/*.yaml; do
	dir=$sweeps/$(basename "$f" .yaml)
	rm -rf "$dir"
	"$GPUSIM" sweep "$f" -j "$JOBS" -q --out "$dir"
done

table() { # table sweep-name table-name [awk -v assignments...]
	csv=$sweeps/$1/sweep.csv
	name=$2
	shift 2
	awk -f plots/csv.awk -f plots/tables.awk -v table="$name" "$@" "$csv"
}

fig6=neon_fig6_fig7
table $fig6 slowdown -v task=dct >"$tmp/dct.dat"
table $fig6 slowdown -v task=throttle >"$tmp/throttle.dat"
gnuplot -c plots/slowdown_bars.gp "$tmp/dct.dat" "$tmp/throttle.dat" \
	"$out/neon_fig6_slowdown" "DCT"

table $fig6 efficiency >"$tmp/eff.dat"
gnuplot -c plots/lines.gp "$tmp/eff.dat" "$out/neon_fig7_efficiency" \
	"Concurrency efficiency, DCT + saturating Throttle (NEON Fig. 7)" \
	"Throttle request size (us)" \
	"Concurrency efficiency (sum of alone/shared)" 1 0.75 1.05 "bottom right"

table neon_fig10 offratio >"$tmp/off.dat"
gnuplot -c plots/lines.gp "$tmp/off.dat" "$out/neon_fig10_efficiency" \
	"Concurrency efficiency, DCT + nonsaturating Throttle (NEON Fig. 10)" \
	"Throttle off time (% of its standalone run time)" \
	"Concurrency efficiency (sum of alone/shared)" 0 0.8 2.0 "top left"

table loga_fig8 overhead >"$tmp/overhead.dat"
# Both LoGA lines are exactly 0, one on top of the other: LoGA DCT (column
# 3) is drawn as a wide band under LoGA FloydWarshall (column 5), and a
# label says so.
loga_zero='LW(i) = i == 3 ? 8 : 2.5; set xtics (1, 2, 4, 8, 12, 16, 20);
set label 1 "LoGA DCT (wide band) and LoGA FloydWarshall are both 0: the lines coincide" at graph 0.02, first 1.6 left font ",16"'
gnuplot -c plots/lines.gp "$tmp/overhead.dat" "$out/loga_fig8_overhead" \
	"Accounting overhead vs co-runners (LoGA Fig. 8)" \
	"Number of co-running throttles (10 us kernels, 1 ms sleeps)" \
	"App round time increase over direct (%)" 0 -2 25 \
	"center right; $loga_zero"

# GPU-time share over time: DCT against a 1.7 ms Throttle.
for p in Direct DFQ; do
	id=$(table $fig6 point -v policy=$p -v kernel=1700us)
	awk -f plots/csv.awk -f plots/share.awk -v window=20 \
		"$sweeps/$fig6/points/$id/series.csv" >"$tmp/share_$p.dat"
done
gnuplot -c plots/share_time.gp "$tmp/share_Direct.dat" \
	"Direct access (DCT + 1.7 ms Throttle)" "$tmp/share_DFQ.dat" \
	"DFQ (DCT + 1.7 ms Throttle)" "$out/share_over_time" 100

# Gantt: 130 ms of DFQ with DCT and a 300 us Throttle, which shows two
# engagements (drain, sample each task) and their free runs. What is still
# going when the run ends is recorded up to its end (marked open).
"$GPUSIM" run configs/paper/neon_fig6_dfq.yaml --set duration=130ms -q \
	--no-standalone --out "$sweeps/gantt_dfq"
awk -f plots/gantt.awk -v from_ms=0 -v to_ms=130 -v decor="$tmp/decor.gp" \
	"$sweeps/gantt_dfq/timeline.json" >"$tmp/spans.dat"
gnuplot -c plots/gantt.gp "$tmp/spans.dat" "$tmp/decor.gp" \
	"$out/gantt_dfq" "DFQ, DCT + 300 us Throttle: policy phases, engine and channels"

ls "$out"
