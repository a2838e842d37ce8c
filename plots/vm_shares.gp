# Fleig: each task's GPU share (bars) under each VM scheduling variant
# (groups), with the shares the thesis aims at as dashed lines.
# gnuplot -c plots/vm_shares.gp DATA OUT TITLE TARGETS
# TARGETS: fractions, each with what it is the target of, as
# "1/2=t1 (hdfq);1/3=flat DFQ" (semicolon-separated).
set datafile columnheaders
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG2 1700 800
	set title ARG3
	set style data histograms
	set style histogram clustered gap 1.5
	set style fill solid 0.9 border rgb "#333333"
	set boxwidth 1
	set rmargin 16
	set bmargin 5
	set yrange [0:0.62]
	set ytics 0, 0.1, 0.6
	set ylabel "Share of GPU time"
	set xtics font ",16" offset 0, -0.3
	set key top right horizontal noopaque nobox samplen 2
	unset arrow
	unset label
	targets = ARG4 . ";"
	i = 0
	while (strlen(targets) > 1) {
		item = targets[1:strstrt(targets, ";") - 1]
		targets = targets[strstrt(targets, ";") + 1:]
		eq = strstrt(item, "=")
		eval "frac = 1.0 * " . item[1:eq - 1]
		i = i + 1
		set arrow i from graph 0, first frac to graph 1, first frac nohead dt 2 lw 1.5 lc rgb "#555555" front
		set label i sprintf("%s %s", item[1:eq - 1], item[eq + 1:]) at graph 1.01, first frac left font ",15" tc rgb "#333333"
	}
	stats ARG1 using 2 nooutput
	set xrange [-0.6:STATS_records - 0.4]
	plot for [c = 2:STATS_columns] ARG1 using c:xtic(1) lt (c - 1) title columnhead(c)
	unset output
}
