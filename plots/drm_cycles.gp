# The drm_sched KUnit shapes (configs/drm/): each client's distribution
# of round (cycle) times or of job waits under each scheduler, one panel
# per shape. A candle's box runs from the median (p50) to p90, its
# whiskers from the smallest sample to p99, and a cross marks the
# largest; the first client is on the left of its policy, the second on
# the right. Round times include the client's sleep (KUnit's cycle time
# is the round minus wait_us); an asynchronous client's round is only
# its submission, its jobs' waits say how far it runs ahead of the GPU.
# gnuplot -c plots/drm_cycles.gp DATA OUT TITLE YLABEL
# DATA: plots/drm_cycles.awk's blocks, one per shape.
blocks = int(system(sprintf("grep -c '^# ' '%s'", ARG1)))
policies = system(sprintf("awk '!/^#/ && NF && $3 == 0 && !s[$2]++ { printf \"%%s \", $2 }' '%s'", ARG1))
rows = int((blocks + 1) / 2)
do for [fmt in "png svg"] {
	call "plots/style.gp" fmt ARG2 2400 (560 * rows + 120)
	set multiplot layout rows, 2 title ARG3 noenhanced font ",24"
	set style fill solid 0.6 border rgb "#333333"
	set boxwidth 0.35
	set logscale y
	set offsets 0, 0, graph 0.04, graph 0.04
	set ylabel ARG4 font ",16"
	set xrange [-0.6:words(policies) - 0.4]
	set xtics () rotate by -30 left font ",14"
	do for [k = 1:words(policies)] {
		set xtics add (word(policies, k) k - 1)
	}
	set ytics font ",14"
	set key outside top center horizontal font ",14" samplen 1.5
	do for [i = 0:blocks - 1] {
		head = system(sprintf("grep '^# ' '%s' | sed -n %dp", ARG1, i + 1))
		set title word(head, 2) noenhanced font ",18"
		plot ARG1 index i using 1:($3 == 0 ? $5 : NaN):4:7:6 \
			with candlesticks whiskerbars 0.5 lt 2 title word(head, 3) noenhanced, \
		     ARG1 index i using 1:($3 == 1 ? $5 : NaN):4:7:6 \
			with candlesticks whiskerbars 0.5 lt 3 title word(head, 4) noenhanced, \
		     ARG1 index i using 1:8 with points lt 1 pt 2 ps 1.2 notitle
	}
	unset multiplot
	unset output
}
