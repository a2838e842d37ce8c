# Pivots a sweep.csv into a whitespace table for gnuplot. Which one is
# chosen by -v table=NAME:
#   slowdown   rows: throttle request size; columns: policies; cells:
#              slowdown of task `task` (NEON Fig. 6)
#   efficiency rows: throttle request size (us); cells: concurrency
#              efficiency (NEON Fig. 7)
#   offratio   rows: the throttle's off time in % of its alone round;
#              cells: concurrency efficiency (NEON Fig. 10)
#   overhead   rows: number of throttles; columns: policy and app; cells:
#              the app's round time over direct's, minus one, in % (LoGA
#              Fig. 8)
#   shares     rows: the variant of a VM scheduling sweep (Fleig), named
#              from its swept value by vm_variant(); columns: tasks;
#              cells: GPU share. Several sweep.csv files add rows.
#   alone      rows: app (NEON Fig. 4 sweep); columns: policies; cells:
#              the app's slowdown alone over direct access, in %
#   load       rows: the throttle's intended load in % (kernel over
#              kernel + sleep, from the swept throttle); columns: the
#              true load and the load the policy measured, in % of the
#              run (LoGA Fig. 10)
#   bench      rows: the value of key `xkey` (a duration in us, or a
#              count); columns: policies; cells: task `task`'s slowdown
#              (round time shared over alone; Fleig Figs. 5.5 and 5.8
#              plot the benchmark's runtime)
#   point      prints the id of the point whose policy label is `policy`
#              and whose throttle kernel is `kernel`
BEGIN {
	FS = "\n"
	size_key = "tasks.1.behavior.throttle.kernel"
}
FNR == 1 {
	csv_header($0)
	swept_key = header[3]
	next
}
{
	csv_split($0, f)
	pol = policy_label(f[col["policy"]])
}
table == "slowdown" {
	k = f[col[size_key]]
	if (k != "19us" && k != "300us" && k != "1700us")
		next
	add_key(k == "1700us" ? "1.7ms" : k)
	add_series(pol)
	v[k == "1700us" ? "1.7ms" : k, pol] = f[col[task ".slowdown"]]
}
table == "bench" {
	k = f[col[xkey]]
	k = k ~ /s$/ ? us(k) : k + 0
	add_key(k)
	add_series(pol)
	v[k, pol] = f[col[task ".slowdown"]]
}
table == "efficiency" {
	k = us(f[col[size_key]])
	add_key(k)
	add_series(pol)
	v[k, pol] = f[col["concurrency_efficiency"]]
}
table == "offratio" {
	# alone round = shared round / slowdown
	alone = f[col["throttle.round_mean_ns"]] / f[col["throttle.slowdown"]]
	k = int(100 * us(f[col["tasks.1.behavior.throttle.sleep"]]) * 1000 / \
		alone + 0.5)
	add_key(k)
	add_series(pol)
	v[k, pol] = f[col["concurrency_efficiency"]]
}
table == "overhead" {
	app = f[col["tasks.0.behavior.app"]]
	k = f[col["tasks.1.count"]] + 0
	add_key(k)
	round[app, k, pol] = f[col["app.round_mean_ns"]]
	if (pol != "Direct") {
		add_series(pol " " app)
		who[pol " " app] = app SUBSEP pol
	}
}
table == "shares" {
	k = "\"" vm_variant(swept_key, f[3]) "\""
	add_key(k)
	for (c in header)
		if (header[c] ~ /\.gpu_share$/ && f[c] != "") {
			t = header[c]
			sub(/\.gpu_share$/, "", t)
			add_series(t)
			v[k, t] = f[c]
		}
}
table == "alone" {
	k = f[col["tasks.0.behavior.app"]]
	add_key(k)
	add_series(pol)
	v[k, pol] = sprintf("%.2f", 100 * (f[col["app.slowdown"]] - 1))
}
table == "load" {
	spec = f[col["tasks.0.behavior.throttle"]]
	k = field_us(spec, "kernel")
	k = int(100 * k / (k + field_us(spec, "sleep")) + 0.5)
	add_key(k)
	add_series("Intended")
	add_series("True load")
	# the policy is the scenario's, not swept: its name column
	m = policy_label(f[col["policy_name"]]) " measured"
	add_series(m)
	t = f[col["sim_time_ns"]]
	v[k, "Intended"] = k
	v[k, "True load"] = sprintf("%.2f", 100 * f[col["throttle.gpu_time_ns"]] / t)
	v[k, m] = \
		sprintf("%.2f", 100 * f[col["throttle.accounted_gpu_time_ns"]] / t)
}
table == "point" && pol == policy && f[col[size_key]] == kernel {
	print f[col["point"]]
}
END {
	if (table == "overhead")
		for (i = 1; i <= n_keys; i++)
			for (j = 1; j <= n_series; j++) {
				split(who[series[j]], ap, SUBSEP)
				d = round[ap[1], keys[i], "Direct"]
				s = round[ap[1], keys[i], ap[2]]
				if (d > 0 && s != "")
					v[keys[i], series[j]] = \
						sprintf("%.3f", 100 * (s / d - 1))
			}
	if (table == "shares")
		sort_series()
	if (table != "point")
		print_table(table == "overhead" ? "throttles" : \
			    table == "alone" ? "app" : "x")
}

# The duration after `name:` in a swept mapping such as "{kernel: 100us,
# sleep: 900us, blocking: true}", in microseconds.
function field_us(spec, name,    s) {
	s = spec
	sub(".*" name ": *", "", s)
	sub(/[ ,}].*/, "", s)
	return us(s)
}

# A short name for a point of the Fleig sweeps (configs/paper/sweeps/
# fleig_*.yaml) from its swept key and value; "\n" breaks the tic label.
function vm_variant(key, val) {
	if (key == "policy")
		return val ~ /loga/ ? "hdfq,\\nLoGA accounting" : \
			val ~ /hdfq/ ? "hdfq\\n(paravirtual)" : "flat DFQ"
	if (key == "vms.1.scheduler")
		return "nested,\\n" (val == "timeslice" ? "Dis. Timeslice\\n" : policy_label(val) " ") "in vm2"
	if (key == "vms.0")
		return val ~ /scheduler: dfq/ ? "nested,\\nDFQ in vmA" : \
			"nested, hdfq in vmA,\\nDis. Timeslice\\nin vmB"
	return val
}

# Task columns in name order (t0, t1, ...): sweep.csv lists tasks in
# order of first appearance, which is the scenario's order anyway.
function sort_series(    i, j, s) {
	for (i = 2; i <= n_series; i++)
		for (j = i; j > 1 && series[j - 1] > series[j]; j--) {
			s = series[j]
			series[j] = series[j - 1]
			series[j - 1] = s
		}
}
