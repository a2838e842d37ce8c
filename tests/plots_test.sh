#!/bin/sh
# The figure pipeline of `make plots` on small sweeps: the awk tables put
# each value under its row and column, the DCUDA table reads the node
# metrics a run reports, and the gnuplot scripts draw a PNG from them.
# Run from the repository root. Usage: tests/plots_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# Fleig Fig. 3.5, paravirtual and nested, at the sweeps' own 4 s: hdfq's
# shares take about 3 s to settle within 2% (0.448, 0.476, 0.489 for t1 at
# 1, 2, 3 s), and a point takes milliseconds.
for s in fleig_fig3_5 fleig_fig3_5_nested; do
	"$GPUSIM" sweep configs/paper/sweeps/$s.yaml -q \
		--out "$tmp/$s" || echo "sweep $s failed"
done
shares() {
	awk -f plots/csv.awk -f plots/tables.awk -v table=shares "$@"
}
shares "$tmp/fleig_fig3_5/sweep.csv" "$tmp/fleig_fig3_5_nested/sweep.csv" \
	>"$tmp/shares.dat"
check "shares: a header of the tasks, one row per variant" sh -c \
	"head -1 $tmp/shares.dat | grep -qx '\"x\" \"t1\" \"t2\" \"t3\"' &&
	 test \$(wc -l < $tmp/shares.dat) -eq 7"
check "shares: flat DFQ near 1/3 each, hdfq near 1/2, 1/4, 1/4" awk '
	/^"flat DFQ"/ { for (i = NF - 2; i <= NF; i++) if ($i < 0.30 || $i > 0.37) exit 1; flat = 1 }
	/^"hdfq\\n\(paravirtual\)"/ { if ($(NF - 2) < 0.45 || $(NF - 1) > 0.30 || $NF > 0.30) exit 1; hdfq = 1 }
	END { exit !(flat && hdfq) }' "$tmp/shares.dat"
check "shares: each cell is its task's share in that point's tasks.csv" sh -c "
	id=\$(awk -F, 'NR > 1 && /timeslice/ { print \$1 }' $tmp/fleig_fig3_5_nested/sweep.csv)
	t2=\$(awk -F, '\$1 == \"t2\" { print \$0 }' $tmp/fleig_fig3_5_nested/points/\$id/tasks.csv)
	row=\$(grep Timeslice $tmp/shares.dat)
	test -n \"\$t2\" && echo \"\$t2\" | grep -q \",\$(echo \$row | awk '{ print \$(NF - 1) }'),\""

# DCUDA: two arrival orders.
sed 's/^  seeds: .*/  seeds: [1, 2]/' configs/paper/sweeps/dcuda_fig11_14.yaml \
	>"$tmp/dcuda.yaml"
"$GPUSIM" sweep "$tmp/dcuda.yaml" -q -j 2 --out "$tmp/dcuda" ||
	echo "sweep dcuda failed"
awk -f plots/csv.awk -f plots/dcuda.awk -v table=seeds \
	"$tmp/dcuda/sweep.csv" >"$tmp/seeds.dat"
"$GPUSIM" run configs/paper/dcuda_r12.yaml --seed 2 --set policy.name=least-loaded \
	-q --out "$tmp/ll2"
metric() { # summary.json field: its value to 4 decimals
	awk -v f="\"$2\"" '$1 == f { sub(/,$/, "", $3); printf "%.4f\n", $3 }' "$1/summary.json"
}
check "dcuda seeds: seed 2's least-loaded metrics are those of its run" sh -c "
	row=\$(awk '\$1 == 2' $tmp/seeds.dat)
	test \"\$row\" = \"2 $(metric "$tmp/ll2" overloaded_time) $(metric "$tmp/ll2" mean_normalized_time) $(metric "$tmp/ll2" qos) $(metric "$tmp/ll2" jain_index) \$(echo \$row | cut -d' ' -f6-)\""
awk -f plots/csv.awk -f plots/dcuda.awk -v table=loads -v intervals=5 \
	"$tmp/dcuda/sweep.csv" >"$tmp/loads.dat"
check "dcuda loads: the execution-time cut is 1 - mean(dcuda) / mean(least-loaded)" sh -c "
	want=\$(awk 'NR > 1 { ll += \$3; dc += \$7 } END { printf \"%.2f\", 100 * (1 - dc / ll) }' $tmp/seeds.dat)
	awk 'NR == 2 { print \$2 }' $tmp/loads.dat | awk -v w=\"\$want\" '{ d = \$1 - w; exit !(d < 0.02 && d > -0.02) }' &&
	grep -q '^5 .* 5.36\$' $tmp/loads.dat"

check "the DCUDA and Fleig scripts draw their figures" sh -c "
	gnuplot -c plots/dcuda_seeds.gp $tmp/seeds.dat $tmp/f1 T &&
	gnuplot -c plots/dcuda_loads.gp $tmp/loads.dat $tmp/f2 T &&
	gnuplot -c plots/vm_shares.gp $tmp/shares.dat $tmp/f3 T '1/2=t1;1/4=t2' &&
	for f in f1 f2 f3; do test \"\$(head -c 4 $tmp/\$f.png | tail -c 3)\" = PNG && test -s $tmp/\$f.svg || exit 1; done"

# NEON Fig. 4: two apps alone under the three schedulers.
sed 's/^  tasks.0.behavior.app: .*/  tasks.0.behavior.app: [DCT, FloydWarshall]/' \
	configs/paper/sweeps/neon_fig4.yaml >"$tmp/fig4.yaml"
"$GPUSIM" sweep "$tmp/fig4.yaml" -q -j 2 --set duration=200ms --out "$tmp/fig4" ||
	echo "sweep fig4 failed"
awk -f plots/csv.awk -f plots/tables.awk -v table=alone "$tmp/fig4/sweep.csv" \
	>"$tmp/alone.dat"
awk -f plots/fig4_paper.awk configs/paper/neon_fig4.yaml "$tmp/alone.dat" \
	>"$tmp/alone_paper.dat"
check "alone: one row per app, one column per policy" sh -c \
	"head -1 $tmp/alone.dat | grep -qx '\"app\" \"Timeslice\" \"Disengaged Timeslice\" \"DFQ\"' &&
	 test \$(wc -l < $tmp/alone.dat) -eq 3"
check "alone: a cell is 100 x (slowdown - 1) of its point" sh -c "
	row=\$(awk -F, 'NR > 1 && /dfq/ && /FloydWarshall/' $tmp/fig4/sweep.csv)
	want=\$(echo \"\$row\" | awk -F, '{ printf \"%.2f\", 100 * (\$(NF - 1) - 1) }')
	grep -q \"^FloydWarshall .* \$want\$\" $tmp/alone.dat"
check "alone: the paper's engaged values come from neon_fig4.yaml's rows" sh -c \
	"grep -qx 'DCT ?' $tmp/alone_paper.dat && grep -qx 'FloydWarshall 40' $tmp/alone_paper.dat"
check "the Fig. 4 script draws its figure" sh -c "
	gnuplot -c plots/alone_bars.gp $tmp/alone.dat $tmp/alone_paper.dat $tmp/f4 T &&
	test \"\$(head -c 4 $tmp/f4.png | tail -c 3)\" = PNG && test -s $tmp/f4.svg"

# LoGA Fig. 10: one throttle at ten intended loads.
"$GPUSIM" sweep configs/paper/sweeps/loga_fig10.yaml -q -j 2 --out "$tmp/l10" ||
	echo "sweep loga_fig10 failed"
awk -f plots/csv.awk -f plots/tables.awk -v table=load "$tmp/l10/sweep.csv" \
	>"$tmp/load.dat"
check "load: rows 10..100%, intended, true and measured columns" sh -c \
	"head -1 $tmp/load.dat | grep -qx '\"x\" \"Intended\" \"True load\" \"LoGA measured\"' &&
	 test \$(wc -l < $tmp/load.dat) -eq 11 && grep -q '^30 30 ' $tmp/load.dat"
check "load: the cells at 30% are 100 x gpu and accounted time / the 1 s run of its point" sh -c "
	row=\$(awk -F, 'NR > 1 && /kernel: 300us/' $tmp/l10/sweep.csv)
	id=\$(echo \"\$row\" | cut -d, -f1)
	want=\$(awk -F, '\$1 == \"throttle\" { printf \"%.2f %.2f\", \$7 / 10000000, \$8 / 10000000 }' $tmp/l10/points/\$id/tasks.csv)
	grep -q \"^30 30 \$want\$\" $tmp/load.dat || { echo \"want 30 30 \$want\"; cat $tmp/load.dat; exit 1; }"

# LoGA Fig. 11: two apps under the four schedulers, short runs.
sed 's/^  tasks.0.behavior.app: .*/  tasks.0.behavior.app: [DCT, FloydWarshall]/' \
	configs/paper/sweeps/loga_fig11.yaml >"$tmp/l11.yaml"
"$GPUSIM" sweep "$tmp/l11.yaml" -q -j 2 --set duration=300ms --out "$tmp/l11" ||
	echo "sweep loga_fig11 failed"
awk -f plots/csv.awk -f plots/fair.awk "$tmp/l11/sweep.csv" \
	"$tmp"/l11/points/*/summary.json >"$tmp/fair.dat"
check "fair: one row per app, the four schedulers and Fair" sh -c \
	"head -1 $tmp/fair.dat | grep -qx '\"app\" \"No scheduling\" \"LoGA\" \"LoGA-CL\" \"DFQ\" \"Fair\"' &&
	 test \$(wc -l < $tmp/fair.dat) -eq 3 && ! grep -q '?' $tmp/fair.dat"
check "fair: a cell is the app's slowdown / fair_slowdown in its point's summary" sh -c "
	id=\$(awk -F, 'NR > 1 && /FloydWarshall/ && /mean_segment/ { print \$1 }' $tmp/l11/sweep.csv)
	want=\$(awk '/\"name\" : \"app\"/ { a = 1 } a && /\"slowdown\"/ { s = \$3 + 0 }
		a && /\"fair_slowdown\"/ { printf \"%.3f\", s / (\$3 + 0); exit }' $tmp/l11/points/\$id/summary.json)
	test -n \"\$want\" && awk -v w=\"\$want\" '\$1 == \"FloydWarshall\" { exit !(\$4 == w) }' $tmp/fair.dat ||
	{ echo \"want \$want\"; cat $tmp/fair.dat; exit 1; }"
check "the LoGA Fig. 11 script draws its figure" sh -c "
	gnuplot -c plots/fair_bars.gp $tmp/fair.dat $tmp/f11 T &&
	test \"\$(head -c 4 $tmp/f11.png | tail -c 3)\" = PNG && test -s $tmp/f11.svg"

echo "plots: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
