# DCUDA Fig. 14 and Table 2: what dcuda saves over least-loaded at each
# arrival interval (mean over the arrival sequences): the mean normalised
# execution time (left) and the energy of the four GPUs, gpusim beside
# the paper's Table 2 (right).
# gnuplot -c plots/dcuda_loads.gp DATA OUT TITLE   (DATA: dcuda.awk loads)
set datafile columnheaders
LOAD(s) = s == 3 ? "3 s (heavy)" : s == 5 ? "5 s (medium)" : s == 7 ? "7 s (light)" : sprintf("%g s", s)
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG2 1600 700
	set multiplot layout 1, 2 title ARG3
	set style data histograms
	set style histogram clustered gap 1
	set style fill solid 0.9 border rgb "#333333"
	set boxwidth 0.9
	set yrange [0:30]
	set xrange [-0.6:2.6]
	set xlabel "Arrival interval (load)"
	set ylabel "Cut vs least-loaded (%)"
	set key top right noopaque nobox
	set title "(a) Mean normalised execution time (Fig. 14)"
	set label 1 "gpusim; the paper: largest at 5 s (no values given)" at graph 0.03, graph 0.95 left font ",16"
	plot ARG1 using 2:xtic(LOAD(column(1))) lt 3 notitle, \
	     ARG1 using 0:2:(sprintf("%.1f", column(2))) with labels offset 0, 0.8 notitle
	unset label 1
	set title "(b) Energy of the four GPUs (Table 2)"
	plot ARG1 using 3:xtic(LOAD(column(1))) lt 3 title "gpusim", \
	     ARG1 using 4 lt 5 title "paper", \
	     ARG1 using ($0 - 0.17):3:(sprintf("%.1f", column(3))) with labels offset 0, 0.8 notitle, \
	     ARG1 using ($0 + 0.17):4:(sprintf("%.1f", column(4))) with labels offset 0, 0.8 notitle
	unset multiplot
	unset output
}
