# An engine/channel timeline (Gantt chart) of one run: the policy's
# phases, what each engine ran, and each channel's commands, colored by
# task or phase. gnuplot -c plots/gantt.gp SPANS DECOR OUT TITLE
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG3 1600 600
	load ARG2
	set title ARG4
	set xlabel "Simulated time (ms)"
	unset ylabel
	set grid noytics xtics
	set style fill solid 1.0 noborder
	set key outside right top vertical
	set autoscale xfix
	set tics scale 0
	plot ARG1 using (($2 + $3) / 2):1:(($3 - $2) / 2):(0.35):4 with boxxyerror lc variable notitle, \
	     for [i = 1:|NAMES|] NaN with boxes lc i title NAMES[i]
	unset output
}
