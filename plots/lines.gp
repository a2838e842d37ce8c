# A figure of one line per column of a table (the first column is x).
# gnuplot -c plots/lines.gp DATA OUT TITLE XLABEL YLABEL LOGX YMIN YMAX KEY
# KEY is the key's position, optionally followed by "; " and more gnuplot
# commands (gnuplot takes nine arguments at most), which may redefine
# LW(i) and DT(i), the line width and dash type of column i, to tell
# apart lines that coincide, and add labels.
LW(i) = 2.5
DT(i) = 1
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG2 1200 750
	set title ARG3
	set xlabel ARG4
	set ylabel ARG5
	if (ARG6 eq "1") { set logscale x; set xtics (10, 20, 50, 100, 200, 500, 1000, 2000) }
	# x spans the data (not the next round number), with a margin
	set autoscale xfix
	set offsets graph 0.04, graph 0.04, 0, 0
	eval sprintf("set yrange [%s:%s]", ARG7, ARG8)
	eval "set key " . ARG9
	stats ARG1 skip 1 nooutput
	plot for [i = 2:STATS_columns] ARG1 using 1:i with linespoints lt (i - 1) lw LW(i) dt DT(i) title columnhead(i)
	unset output
}
