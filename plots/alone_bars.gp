# NEON Fig. 4 style: each application alone under each scheduler, its
# slowdown over direct access in %, one cluster of bars per application.
# The paper's stated bounds are dashed lines (Disengaged Timeslice "no
# more than 2%", DFQ "no more than 5%") and its engaged-Timeslice values
# (section 5.2) are marks above their app's cluster.
# gnuplot -c plots/alone_bars.gp TABLE PAPER OUT TITLE
# TABLE: "app" then one column per policy (tables.awk, table=alone);
# PAPER: app and the paper's engaged-Timeslice slowdown in %, "?" where
# the text gives none, in TABLE's row order.
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG3 1600 800
	set title ARG4
	set style data histograms
	set style histogram clustered gap 1.5
	set style fill solid 0.9 border rgb "#333333"
	set boxwidth 1
	set xtics rotate by -45 left nomirror out scale 0.6 font ",16"
	set ylabel "Slowdown over direct access (%)"
	set yrange [0:45]
	set bmargin 7
	set key top right
	set arrow 1 from graph 0, first 2 to graph 1, first 2 nohead dt 2 lc rgb "#56B4E9" lw 1.5 front
	set arrow 2 from graph 0, first 5 to graph 1, first 5 nohead dt 2 lc rgb "#009E73" lw 1.5 front
	set rmargin 6
	# the bounds' key entries: lines drawn nowhere (NaN), the arrows above
	# are the lines
	plot for [i = 2:4] ARG1 using i:xtic(1) title columnhead(i) lt i, \
	     ARG2 using 0:2 with points lt 7 pt 9 ps 2.2 title "Timeslice, paper (section 5.2)", \
	     NaN with lines dt 2 lc rgb "#56B4E9" lw 1.5 title "Disengaged Timeslice bound (2%)", \
	     NaN with lines dt 2 lc rgb "#009E73" lw 1.5 title "DFQ bound (5%)"
	unset output
}
