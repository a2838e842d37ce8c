# DCUDA sweeps (configs/paper/sweeps/dcuda_fig11_14.yaml) -> tables for
# gnuplot, from sweep.csv's node metric columns. -v table=NAME:
#   seeds  one sweep.csv: rows: seed; columns: least-loaded then dcuda's
#          overloaded time, mean normalised execution time, QoS share,
#          Jain's index (DCUDA Figs. 11b, 12, 13a, 13b)
#   loads  several sweep.csv files, one per arrival interval, named in
#          -v intervals="3 5 7" in the same order: rows: interval (s);
#          columns: dcuda's cut of the mean normalised execution time
#          and of the energy vs least-loaded, in %, 1 - mean(dcuda) /
#          mean(least-loaded) over the seeds as `gpusim reproduce` takes
#          it (Fig. 14, Table 2), then the paper's energy cut (Table 2)
BEGIN {
	FS = "\n"
	n_metrics = split("overloaded_time mean_normalized_time qos jain_index", \
		metric_name, " ")
	split("Overloaded time;Mean normalised exec. time;QoS share;Jain's index", \
		metric_title, ";")
	# DCUDA Table 2: energy (J) under least-loaded and dcuda at 7 s
	# (light load), 5 s (medium) and 3 s (heavy)
	paper_ll[7] = 81201; paper_dc[7] = 70449
	paper_ll[5] = 74935; paper_dc[5] = 70921
	paper_ll[3] = 70611; paper_dc[3] = 68771
	n_files = split(intervals, interval, " ")
}
FNR == 1 {
	csv_header($0)
	file_no++
	next
}
{
	csv_split($0, f)
	pol = f[col["policy_name"]]
}
table == "seeds" {
	k = f[col["seed"]]
	add_key(k)
	for (m = 1; m <= n_metrics; m++) {
		add_series(pol " " metric_name[m])
		v[k, pol " " metric_name[m]] = sprintf("%.4f", \
			f[col[metric_name[m]]])
	}
}
table == "loads" {
	iv = interval[file_no]
	sum_time[iv, pol] += f[col["mean_normalized_time"]]
	sum_energy[iv, pol] += f[col["energy_j"]]
}
END {
	if (table == "seeds") {
		print_table("seed")
		exit
	}
	printf "\"interval_s\" \"exec_time_cut\" \"energy_cut\" \"paper_energy_cut\"\n"
	for (i = 1; i <= n_files; i++) {
		iv = interval[i]
		printf "%s %.2f %.2f %s\n", iv, \
			100 * (1 - sum_time[iv, "dcuda"] / sum_time[iv, "least-loaded"]), \
			100 * (1 - sum_energy[iv, "dcuda"] / sum_energy[iv, "least-loaded"]), \
			(iv in paper_ll) ? sprintf("%.2f", 100 * (1 - paper_dc[iv] / paper_ll[iv])) : "?"
	}
}
