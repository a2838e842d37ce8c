# LoGA Fig. 11 style: each application's run time over its fair optimum
# per scheduler, one cluster of bars per application; the "Fair" column
# (1) is drawn as a dashed line, not a bar.
# gnuplot -c plots/fair_bars.gp TABLE OUT TITLE
# TABLE: "app", one column per scheduler, then "Fair" (plots/fair.awk).
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG2 1600 800
	set title ARG3
	# the header's words: "app", the schedulers, "Fair" (not a bar)
	n = words(system("head -1 " . ARG1)) - 1
	set style data histograms
	set style histogram clustered gap 1.5
	set style fill solid 0.9 border rgb "#333333"
	set boxwidth 1
	set xtics rotate by -30 left nomirror out scale 0.6 font ",16"
	set ylabel "Run time / fair optimum (LoGA 5.5)"
	set yrange [0:1.6]
	set bmargin 6
	set key top left horizontal
	set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb "#000000" lw 1.5 front
	plot for [i = 2:n] ARG1 using i:xtic(1) title columnhead(i) lt i, \
	     NaN with lines dt 2 lc rgb "#000000" lw 1.5 title "Fair optimum"
	unset output
}
