# Shared look of gpusim's figures: sans-serif at a size that stays
# readable when a figure is scaled to one column of a paper, a light grid,
# and a palette that color-blind readers can tell apart (Okabe-Ito).
# `call "plots/style.gp" FMT OUT WIDTH HEIGHT` opens OUT.FMT (png or svg).
if (ARG1 eq "png") {
	set terminal pngcairo size ARG3, ARG4 enhanced font "Sans,20" linewidth 2
} else {
	set terminal svg size ARG3, ARG4 enhanced font "Sans,20" linewidth 2 background "white"
}
set output ARG2 . "." . ARG1
set border 3 lw 1
set tics nomirror out scale 0.6
set grid ytics lc rgb "#dddddd" lw 1 dt 1
set key opaque box lc rgb "#bbbbbb"
set linetype 1 lc rgb "#000000" pt 7 ps 1.4
set linetype 2 lc rgb "#E69F00" pt 5 ps 1.4
set linetype 3 lc rgb "#56B4E9" pt 9 ps 1.6
set linetype 4 lc rgb "#009E73" pt 11 ps 1.6
set linetype 5 lc rgb "#CC79A7" pt 13 ps 1.6
set linetype 6 lc rgb "#0072B2" pt 4 ps 1.4
set linetype 7 lc rgb "#D55E00" pt 6 ps 1.4
set linetype 8 lc rgb "#F0E442" pt 8 ps 1.4
