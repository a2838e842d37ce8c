#!/bin/sh
# Regenerates the paper figures: runs the sweeps of configs/paper/sweeps/
# (finished points are kept, see `gpusim sweep`) into results/sweeps/ and
# draws results/plots/*.png and *.svg with gnuplot.
# Usage: plots/make_plots.sh [path/to/gpusim]   (JOBS=N: points at once)
set -e
GPUSIM=${1:-./gpusim}
JOBS=${JOBS:-2}
# The scenarios and plot scripts are read from the folder above this
# script's (the source tree, or PREFIX/share/gpusim once installed), the
# figures written under ./results of the folder it is run from.
case $GPUSIM in */*) GPUSIM=$(cd "$(dirname "$GPUSIM")" && pwd)/$(basename "$GPUSIM") ;; esac
sweeps=$(pwd)/results/sweeps
out=$(pwd)/results/plots
cd "$(dirname "$0")/.."
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

# The drm_sched KUnit shapes: each file of configs/drm/ is its own sweep
# (every single-GPU scheduler on both presets); each client's round times
# and job waits as candles, one panel per shape.
for f in configs/drm/*.yaml; do
	dir=$sweeps/drm_$(basename "$f" .yaml)
	rm -rf "$dir"
	"$GPUSIM" sweep "$f" -j "$JOBS" -q --out "$dir"
done
for preset in kepler volta; do
	for kind in round wait; do
		awk -f plots/csv.awk -f plots/drm_cycles.awk -v preset=$preset \
			-v kind=$kind "$sweeps"/drm_*/sweep.csv \
			>"$tmp/drm_${kind}_$preset.dat"
	done
	gnuplot -c plots/drm_cycles.gp "$tmp/drm_round_$preset.dat" \
		"$out/drm_cycles_$preset" \
		"Round (cycle) times of the drm_sched KUnit shapes, $preset preset" \
		"Round time (ms)"
	gnuplot -c plots/drm_cycles.gp "$tmp/drm_wait_$preset.dat" \
		"$out/drm_waits_$preset" \
		"Job waits (submission to start) of the drm_sched KUnit shapes, $preset preset" \
		"Job wait (ms)"
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

# NEON Fig. 4: each app alone; the paper's engaged values from the
# expect rows of configs/paper/neon_fig4.yaml.
table neon_fig4 alone >"$tmp/alone.dat"
awk -f plots/fig4_paper.awk configs/paper/neon_fig4.yaml "$tmp/alone.dat" \
	>"$tmp/alone_paper.dat"
gnuplot -c plots/alone_bars.gp "$tmp/alone.dat" "$tmp/alone_paper.dat" \
	"$out/neon_fig4_alone" \
	"Each application alone under each scheduler (NEON Fig. 4)"

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

# LoGA Fig. 10: the load LoGA measures against the throttle's intended
# load; Fig. 11: each app's run time over its fair optimum per scheduler
# (the points' summary.json give the fair optimum).
table loga_fig10 load >"$tmp/load.dat"
gnuplot -c plots/lines.gp "$tmp/load.dat" "$out/loga_fig10_load" \
	"Measured vs intended GPU load, one throttle (LoGA Fig. 10)" \
	"Intended load (% of each 1 ms cycle)" "GPU load (% of the run)" \
	0 0 105 "top left"
awk -f plots/csv.awk -f plots/fair.awk "$sweeps/loga_fig11/sweep.csv" \
	"$sweeps"/loga_fig11/points/*/summary.json >"$tmp/fair.dat"
gnuplot -c plots/fair_bars.gp "$tmp/fair.dat" "$out/loga_fig11_fair" \
	"Run time over the fair optimum, each app + 4 throttles (LoGA Fig. 11)"

# DCUDA: the sweep above ran at its base 5 s interval; the 3 s and 7 s
# intervals (Fig. 14) run with --set, each into a folder of its own.
dcuda=dcuda_fig11_14
for s in 3 7; do
	rm -rf "$sweeps/${dcuda}_${s}s"
	"$GPUSIM" sweep configs/paper/sweeps/$dcuda.yaml -j "$JOBS" -q \
		--set arrivals.every=${s}s --out "$sweeps/${dcuda}_${s}s"
done
awk -f plots/csv.awk -f plots/dcuda.awk -v table=seeds \
	"$sweeps/$dcuda/sweep.csv" >"$tmp/dcuda_seeds.dat"
gnuplot -c plots/dcuda_seeds.gp "$tmp/dcuda_seeds.dat" "$out/dcuda_fig11_13" \
	"DCUDA vs least-loaded, 20 Table 1 jobs on 4 GPUs, one every 5 s (DCUDA Figs. 11-13)"
awk -f plots/csv.awk -f plots/dcuda.awk -v table=loads -v intervals="3 5 7" \
	"$sweeps/${dcuda}_3s/sweep.csv" "$sweeps/$dcuda/sweep.csv" \
	"$sweeps/${dcuda}_7s/sweep.csv" >"$tmp/dcuda_loads.dat"
gnuplot -c plots/dcuda_loads.gp "$tmp/dcuda_loads.dat" "$out/dcuda_fig14" \
	"DCUDA vs least-loaded by load, mean of 20 arrival sequences (DCUDA Fig. 14, Table 2)"

# Fleig: each task's GPU share per VM scheduling variant, paravirtual
# and nested sweeps side by side, the thesis's targets as lines.
for tree in fig3_5 tree; do
	table fleig_$tree shares >"$tmp/fleig_$tree.dat"
	table fleig_${tree}_nested shares | tail -n +2 >>"$tmp/fleig_$tree.dat"
done
gnuplot -c plots/vm_shares.gp "$tmp/fleig_fig3_5.dat" "$out/fleig_fig3_5_shares" \
	"GPU shares, vm1: t1 and vm2: t2, t3, equal saturating Throttles (Fleig Fig. 3.5)" \
	"1/2=t1;1/3=flat DFQ;1/4=t2, t3"
gnuplot -c plots/vm_shares.gp "$tmp/fleig_tree.dat" "$out/fleig_tree_shares" \
	"GPU shares, t0 beside vmA: t1 and vmB: t2, t3 (Fleig formula 3.1, three levels)" \
	"1/2=t0;1/4=t1 (flat: all);1/6=DFQ in vmA;1/8=t2, t3"

# Fleig Figs. 5.5 and 5.8: the benchmark's slowdown as the throttle's
# kernels grow (both in a VM) and as throttles are added to a VM (the
# benchmark on the host); flat at 2 under a fair scheduler.
table fleig_fig5_5 bench -v task=nn -v xkey=tasks.1.behavior.throttle.kernel \
	>"$tmp/fleig_fig5_5.dat"
gnuplot -c plots/lines.gp "$tmp/fleig_fig5_5.dat" "$out/fleig_fig5_5_slowdown" \
	"NN (4171 us kernels) beside a throttle in one VM (Fleig Figs. 5.5-5.7)" \
	"Throttle kernel (us)" "NN slowdown (round time / alone)" 1 0 3.5 \
	"top left; set xtics (100, 200, 500, 1000, 2000, 4000, 8000)"
table fleig_fig5_8 bench -v task=srad -v xkey=tasks.1.count \
	>"$tmp/fleig_fig5_8.dat"
gnuplot -c plots/lines.gp "$tmp/fleig_fig5_8.dat" "$out/fleig_fig5_8_slowdown" \
	"SRAD_V2 (2699 us kernels) on the host against throttles in a VM (Fleig Figs. 5.8-5.10)" \
	"Throttles in the VM" "SRAD_V2 slowdown (round time / alone)" 0 0 10 \
	"top left"

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
	--no-standalone --timeline json --out "$sweeps/gantt_dfq"
awk -f plots/gantt.awk -v from_ms=0 -v to_ms=130 -v decor="$tmp/decor.gp" \
	"$sweeps/gantt_dfq/timeline.json" >"$tmp/spans.dat"
gnuplot -c plots/gantt.gp "$tmp/spans.dat" "$tmp/decor.gp" \
	"$out/gantt_dfq" "DFQ, DCT + 300 us Throttle: policy phases, engine and channels"

ls "$out"
