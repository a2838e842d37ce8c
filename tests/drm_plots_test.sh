#!/bin/sh
# The drm shapes' figure pipeline (plots/drm_cycles.awk, drm_cycles.gp)
# on two shapes' sweeps: one row per point of the preset and client, each
# cell the sweep's figure in ms, and a PNG drawn from them.
# Run from the repository root. Usage: tests/drm_plots_test.sh [gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

for s in half_half low_hog_interactive; do
	"$GPUSIM" sweep configs/drm/$s.yaml -q --out "$tmp/drm_$s" ||
		echo "sweep $s failed"
done
table() { # kind preset
	awk -f plots/csv.awk -f plots/drm_cycles.awk -v kind=$1 -v preset=$2 \
		"$tmp"/drm_half_half/sweep.csv \
		"$tmp"/drm_low_hog_interactive/sweep.csv
}
table round volta >"$tmp/round.dat"
table wait volta >"$tmp/wait.dat"
check "a block per shape, headed by its name and its clients" sh -c "
	grep -qx '# half_half c0_normal c1_normal' $tmp/round.dat &&
	grep -qx '# low_hog_interactive c0_low c1_normal' $tmp/round.dat &&
	test \$(grep -c '^#' $tmp/round.dat) -eq 2"
check "16 rows a shape: 8 policies x 2 clients, of the preset asked for" sh -c "
	test \$(grep -c '^[-0-9]' $tmp/round.dat) -eq 32 &&
	awk 'NF > 2 && !/^#/ { n[\$2]++ } END { for (p in n) if (n[p] != 4) exit 1 }' $tmp/round.dat"
check "a row is its point's round statistics in ms, the client beside its policy" sh -c "
	row=\$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i }
		NR > 1 && \$3 == \"volta\" && \$4 == \"drm-rr\" {
			printf \"%.4f %.4f %.4f %.4f %.4f\",
				\$c[\"c1_normal.round_min_ns\"] / 1e6, \$c[\"c1_normal.round_p50_ns\"] / 1e6,
				\$c[\"c1_normal.round_p90_ns\"] / 1e6, \$c[\"c1_normal.round_p99_ns\"] / 1e6,
				\$c[\"c1_normal.round_max_ns\"] / 1e6 }' $tmp/drm_low_hog_interactive/sweep.csv)
	test -n \"\$row\" && grep -qx \"6.20 drm-rr 1 \$row\" $tmp/round.dat"
check "waits: as many rows, none under 1 us (log scale)" sh -c "
	test \$(grep -c '^[-0-9]' $tmp/wait.dat) -eq 32 &&
	awk '!/^#/ && NF { for (i = 4; i <= 8; i++) if (\$i < 0.001) exit 1 }' $tmp/wait.dat"
check "the script draws both figures" sh -c "
	gnuplot -c plots/drm_cycles.gp $tmp/round.dat $tmp/r 'T' 'Round time (ms)' &&
	gnuplot -c plots/drm_cycles.gp $tmp/wait.dat $tmp/w 'T' 'Job wait (ms)' &&
	for f in r w; do test \"\$(head -c 4 $tmp/\$f.png | tail -c 3)\" = PNG && test -s $tmp/\$f.svg || exit 1; done"

echo "drm plots: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
