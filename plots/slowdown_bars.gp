# NEON Fig. 6 style: each co-runner's normalised run time (slowdown: round
# time shared / alone) per policy, one panel per task, grouped by the
# Throttle's request size. Log scale: direct access reaches 20x. The key
# is a strip of its own above the panels, so that it hides no bar.
# gnuplot -c plots/slowdown_bars.gp APP.dat THROTTLE.dat OUT APPNAME
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG3 1600 760
	set multiplot title "Slowdown of DCT and a Throttle sharing a GPU (NEON Fig. 6)"
	set style data histograms
	set style histogram clustered gap 1.5
	set style fill solid 0.9 border rgb "#333333"
	set boxwidth 1
	set logscale y

	# the key strip: the bars are drawn out of its range, so only the key shows
	set lmargin at screen 0.05
	set rmargin at screen 0.98
	set tmargin at screen 0.90
	set bmargin at screen 0.84
	unset border
	unset xtics
	unset ytics
	unset grid
	set yrange [1e6:1e7]
	set key horizontal maxrows 1 center center noopaque nobox samplen 2
	plot for [i = 2:5] ARG1 using i title columnhead(i) lt (i - 1)

	set border 3 lw 1
	set xtics nomirror out scale 0.6
	set ytics nomirror out scale 0.6 (1, 2, 5, 10, 20)
	set xrange [-0.6:2.6]
	set grid ytics
	set yrange [0.8:40]
	set tmargin at screen 0.74
	set bmargin at screen 0.16
	set xlabel "Throttle request size"
	set ylabel "Normalised run time (x alone)"
	unset key
	set arrow 1 from graph 0, first 2 to graph 1, first 2 nohead dt 2 lc rgb "#666666" lw 1.5 back
	set lmargin at screen 0.08
	set rmargin at screen 0.49
	set title ARG4
	plot for [i = 2:5] ARG1 using i:xtic(1) title columnhead(i) lt (i - 1)
	set lmargin at screen 0.57
	set rmargin at screen 0.98
	set title "Throttle"
	plot for [i = 2:5] ARG2 using i:xtic(1) title columnhead(i) lt (i - 1)
	unset multiplot
	unset output
}
