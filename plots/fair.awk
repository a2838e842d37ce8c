# LoGA Fig. 11's table: each app's run time over its fair optimum
# (slowdown / fair_slowdown, LoGA 5.5) per scheduler, from a sweep over
# apps and policies. sweep.csv names each point's app and policy; the
# points' summary.json files give the app's two slowdowns (sweep.csv has
# no fair_slowdown column).
# awk -f plots/csv.awk -f plots/fair.awk SWEEP.csv POINTS/*/summary.json
# Output: "app" then one column per scheduler and "Fair" (1), one row per
# app, in sweep order.
BEGIN {
	FS = "\n"
}
FILENAME ~ /sweep\.csv$/ && FNR == 1 {
	csv_header($0)
	next
}
FILENAME ~ /sweep\.csv$/ {
	csv_split($0, f)
	id = f[col["point"]]
	app_of[id] = f[col["tasks.0.behavior.app"]]
	p = f[col["policy"]]
	pol_of[id] = p ~ /mean_segment: true/ ? "LoGA-CL" : \
		     p ~ /direct/ ? "No scheduling" : policy_label(p)
	add_key(app_of[id])
	add_series(pol_of[id])
	next
}
FNR == 1 {
	# .../points/ID/summary.json
	id = FILENAME
	sub(/\/summary\.json$/, "", id)
	sub(/.*\//, "", id)
	in_app = 0
	slow = fair = ""
}
/"name" : "app"/ {
	in_app = 1
}
in_app && /"slowdown" :/ {
	slow = value($0)
}
in_app && /"fair_slowdown" :/ {
	fair = value($0)
	in_app = 0
	if (id in app_of && fair > 0)
		v[app_of[id], pol_of[id]] = sprintf("%.3f", slow / fair)
}
END {
	add_series("Fair")
	for (i = 1; i <= n_keys; i++)
		v[keys[i], "Fair"] = 1
	print_table("app")
}

function value(line,    s) {
	s = line
	sub(/.*: */, "", s)
	sub(/,$/, "", s)
	return s + 0
}
