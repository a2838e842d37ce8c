# NEON Fig. 6 style: each co-runner's normalised run time (slowdown: round
# time shared / alone) per policy, one panel per task, grouped by the
# Throttle's request size. Log scale: direct access reaches 20x.
# gnuplot -c plots/slowdown_bars.gp APP.dat THROTTLE.dat OUT APPNAME
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG3 1600 700
	set multiplot layout 1, 2 title "Slowdown of DCT and a Throttle sharing a GPU (NEON Fig. 6)"
	set style data histograms
	set style histogram clustered gap 1.5
	set style fill solid 0.9 border rgb "#333333"
	set boxwidth 1
	set logscale y
	set yrange [0.8:40]
	set ytics (1, 2, 5, 10, 20)
	set xlabel "Throttle request size"
	set ylabel "Normalised run time (x alone)"
	set key top left
	set arrow 1 from graph 0, first 2 to graph 1, first 2 nohead dt 2 lc rgb "#666666" lw 1.5 back
	set title ARG4
	plot for [i = 2:5] ARG1 using i:xtic(1) title columnhead(i) lt (i - 1)
	set title "Throttle"
	unset key
	plot for [i = 2:5] ARG2 using i:xtic(1) title columnhead(i) lt (i - 1)
	unset multiplot
	unset output
}
