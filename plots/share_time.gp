# GPU-time share over time (from series.csv): each task's share of the GPU
# time used in a sliding window, one panel per policy.
# gnuplot -c plots/share_time.gp LEFT.dat LEFTTITLE RIGHT.dat RIGHTTITLE OUT WINDOW_MS
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG5 1600 650
	set multiplot layout 1, 2 title sprintf("Share of GPU time over time (%s ms window)", ARG6)
	set xlabel "Simulated time (ms)"
	set ylabel "Share of GPU time"
	set yrange [0:1.05]
	set ytics 0, 0.25, 1
	set xtics 500
	set key center right
	set arrow 1 from graph 0, first 0.5 to graph 1, first 0.5 nohead dt 2 lc rgb "#666666" lw 1.5 back
	set title ARG2
	plot for [i = 2:3] ARG1 using 1:i with lines lt (i) lw 3 title columnhead(i)
	set title ARG4
	unset key
	plot for [i = 2:3] ARG3 using 1:i with lines lt (i) lw 3 title columnhead(i)
	unset multiplot
	unset output
}
