# DCUDA Figs. 11b, 12, 13a and 13b: four panels, each metric per arrival
# sequence (seed) under least-loaded and dcuda, side by side, with each
# policy's mean over the sequences as a dashed line. The key is a strip
# of its own above the panels.
# gnuplot -c plots/dcuda_seeds.gp DATA OUT TITLE   (DATA: dcuda.awk seeds)
array PANEL[4] = ["(a) Overloaded GPU time (Fig. 11b)", \
	"(b) Mean normalised execution time (Fig. 12)", \
	"(c) Share of jobs within QoS, < 1.2x (Fig. 13a)", \
	"(d) Jain's fairness index (Fig. 13b)"]
array YLABEL[4] = ["Fraction of GPU time", "x alone", "Fraction of jobs", "Index"]
array YMIN[4] = [0, 0, 0, 0.8]
array YMAX[4] = [0.6, 2.2, 1.1, 1.01]
array LEFT[4] = [0.08, 0.58, 0.08, 0.58]
array TOP[4] = [0.85, 0.85, 0.43, 0.43]
set datafile columnheaders
array MEAN_LL[4]
array MEAN_DC[4]
do for [m = 1:4] {
	stats ARG1 using (column(m + 1)) nooutput
	MEAN_LL[m] = STATS_mean
	stats ARG1 using (column(m + 5)) nooutput
	MEAN_DC[m] = STATS_mean
}
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG2 1800 1150
	set multiplot title ARG3
	set style data histograms
	set style histogram clustered gap 1
	set style fill solid 0.9 border rgb "#333333"
	set boxwidth 1

	# the key strip: the bars are drawn out of its range, so only the key shows
	set lmargin at screen 0.08
	set rmargin at screen 0.98
	set tmargin at screen 0.945
	set bmargin at screen 0.905
	unset border
	unset xtics
	unset ytics
	unset grid
	set yrange [10:20]
	set key horizontal maxrows 1 center center noopaque nobox samplen 3
	plot ARG1 using 2 title "Least-loaded" lt 2, \
	     ARG1 using 6 title "DCUDA" lt 3, \
	     NaN with lines lt 1 dt 2 lw 2 title "mean over the sequences"

	unset key
	set border 3 lw 1
	set xtics nomirror out scale 0.6 font ",16"
	set ytics nomirror out scale 0.6
	set grid ytics
	do for [m = 1:4] {
		set lmargin at screen LEFT[m]
		set rmargin at screen LEFT[m] + 0.40
		set tmargin at screen TOP[m]
		set bmargin at screen TOP[m] - 0.31
		if (m > 2) { set xlabel "Arrival sequence (seed)" offset 0, 0.3 }
		set title PANEL[m]
		set ylabel YLABEL[m]
		eval sprintf("set yrange [%g:%g]", YMIN[m], YMAX[m])
		set xrange [-0.7:19.7]
		set arrow 1 from graph 0, first MEAN_LL[m] to graph 1, first MEAN_LL[m] nohead dt 2 lw 2 lc rgb "#B07000" front
		set arrow 2 from graph 0, first MEAN_DC[m] to graph 1, first MEAN_DC[m] nohead dt 2 lw 2 lc rgb "#1F78B4" front
		plot ARG1 using (column(m + 1)):xtic(1) lt 2, \
		     ARG1 using (column(m + 5)) lt 3
	}
	unset multiplot
	unset output
}
