# The latency distributions of the configs/drm/ shape sweeps, for
# plots/drm_cycles.gp: one block per sweep.csv given (one shape each),
# blocks separated by two blank lines (gnuplot's `index`).
#   awk -f plots/csv.awk -f plots/drm_cycles.awk -v preset=kepler \
#       -v kind=round results/sweeps/drm_*/sweep.csv
# kind: round (round, i.e. cycle, times) or wait (job waits, submission to
# start on the GPU).
# Each block starts with a comment "# SHAPE CLIENT0 CLIENT1" (the sweep's
# folder name without "drm_", the tasks in the order of the scenario),
# then one line per point of that preset and per client:
#   x policy client min p50 p90 p99 max
# times in ms, at least 0.001 (1 us: a wait of 0 on a log scale); x is the policy's place (0, 1, ...) shifted by -0.2 for
# the first client and +0.2 for the second, so their candles stand side by
# side; client is 0 or 1.
FNR == 1 {
	csv_header($0)
	if (blocks++)
		printf "\n\n"
	shape = FILENAME
	sub(/\/sweep\.csv$/, "", shape)
	sub(/.*\//, "", shape)
	sub(/^drm_/, "", shape)
	n_clients = 0
	n_cols = csv_split($0, names)
	for (i = 1; i <= n_cols; i++)
		if (names[i] ~ /\.round_p50_ns$/) {
			name = names[i]
			sub(/\.round_p50_ns$/, "", name)
			client[n_clients++] = name
		}
	printf "# %s", shape
	for (c = 0; c < n_clients; c++)
		printf " %s", client[c]
	printf "\n"
	place = 0
	next
}
{
	csv_split($0, f)
	if (f[col["gpu.preset"]] != preset)
		next
	for (c = 0; c < n_clients; c++) {
		p = client[c] "." kind "_"
		if (f[col[p "p50_ns"]] == "")
			continue
		printf "%.2f %s %d %.4f %.4f %.4f %.4f %.4f\n",
		       place + (c ? 0.2 : -0.2), f[col["policy_name"]], c,
		       ms(f[col[p "min_ns"]]), ms(f[col[p "p50_ns"]]),
		       ms(f[col[p "p90_ns"]]), ms(f[col[p "p99_ns"]]),
		       ms(f[col[p "max_ns"]])
	}
	place++
}

function ms(ns) {
	return ns < 1000 ? 0.001 : ns / 1e6
}
