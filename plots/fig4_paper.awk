# The paper's engaged-Timeslice slowdowns of NEON Fig. 4 (section 5.2),
# read from the expect rows of configs/paper/neon_fig4.yaml (their
# paper_value), lined up with a table=alone table's rows for
# plots/alone_bars.gp: "APP PERCENT", "?" where the text gives none.
# awk -f plots/fig4_paper.awk configs/paper/neon_fig4.yaml ALONE.dat
NR == FNR {
	if (match($0, /"engaged timeslice slowdown, [A-Za-z0-9]+",.* paper_value: [0-9.]+/)) {
		row = substr($0, RSTART, RLENGTH)
		app = row
		sub(/^"engaged timeslice slowdown, /, "", app)
		sub(/".*/, "", app)
		pv = row
		sub(/.* paper_value: /, "", pv)
		paper[app] = sprintf("%.0f", 100 * (pv - 1))
	}
	next
}
FNR > 1 {
	print $1, (($1 in paper) ? paper[$1] : "?")
}
