# series.csv -> each task's share of the GPU time used in a sliding window
# of `window` samples (-v window=N, default 5), for gnuplot: a header of
# quoted task names, then "time_ms share share ...".
BEGIN {
	FS = "\n"
	if (!window)
		window = 5
}
NR == 1 {
	csv_header($0)
	next
}
{
	csv_split($0, f)
	t = f[col["time_ns"]]
	task = f[col["task"]]
	if (!(t in time_seen)) {
		time_seen[t] = 1
		times[++n_times] = t
	}
	add_series(task)
	g[t, task] = f[col["gpu_time_ns"]]
}
END {
	printf "\"time_ms\""
	for (j = 1; j <= n_series; j++)
		printf " \"%s\"", series[j]
	printf "\n"
	for (i = window + 1; i <= n_times; i++) {
		a = times[i - window]
		b = times[i]
		total = 0
		for (j = 1; j <= n_series; j++)
			total += g[b, series[j]] - g[a, series[j]]
		printf "%.3f", (a + b) / 2 / 1e6
		for (j = 1; j <= n_series; j++)
			printf " %s", (total > 0 ? sprintf("%.4f", \
				(g[b, series[j]] - g[a, series[j]]) / total) : "?")
		printf "\n"
	}
}
