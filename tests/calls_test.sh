#!/bin/sh
# calls_test: no two source files call each other, directly or round a
# cycle (docs/architecture.md, "Calls").
#
#   tests/calls_test.sh [BUILD]     (BUILD: the folder of the object
#                                    files, default build)
#
# The include test (layers_test.sh) cannot see calls between files that
# share one header (gpu_internal.h, sim_internal.h, config_internal.h).
# This test reads what each object file defines and what it leaves
# undefined (nm): file a calls file b when a uses a symbol b defines.
# It fails on a cycle of such calls, unless each call that closes it is
# in the allow-list below: a call kept on purpose, with its reason.
# The one seam is the HAL: a policy calls hal_* functions that the layer
# above provides (sim/host/hal_sim*.c here), as its hal.h includes
# hal_impl.h; those calls are not imports of the policy's.
# The last line is "calls: N files, M calls, ok", or the number of
# problems (and the exit status is 1).
set -u

build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
# the cycle search both checks share, beside this script
cycles_awk=$(cd "$(dirname "$0")" && pwd)/cycles.awk
cd "$root" || exit 2
[ -d "$build" ] || { echo "calls: $build: no such folder (build first)"; exit 2; }

# Calls kept on purpose: CALLER CALLEE  reason. A cycle is reported
# unless one of its calls is here.
allowed='
policies/drr_sched.c policies/drr.c         one policy in two files: the timing thread reads the parameters of drr.c
sim/results/results_write.c sim/results/results_json.c      results_write.c is the writers table; results_json.c uses its row functions
sim/results/results_write.c sim/results/results_timeline.c  the same table and functions for timeline.json
sim/results/results_write.c sim/results/results_pftrace.c   the same table for timeline.pftrace, which checks spans as timeline.json does
sim/results/results_write.c sim/results/summary_parts.c     the same table for summary.json written in parts, from the pieces of results_json.c
'

objs=$(find "$build" -name '*.o' \( -path "$build/base/*" -o \
	-path "$build/gpu_model/*" -o -path "$build/workloads/*" -o \
	-path "$build/policies/*" -o -path "$build/sim/*" \) | sort)
[ -n "$objs" ] || { echo "calls: no object files under $build (build first)"; exit 2; }

for o in $objs; do
	src=${o#"$build"/}
	src=${src%.o}.c
	# an object left by a source that has since moved or gone is no
	# longer part of the library
	[ -f "$src" ] || continue
	nm "$o" | awk -v f="$src" '
		$1 == "U" { print "U", f, $2; next }
		NF == 3 && $2 ~ /^[TDRBCGS]$/ { print "D", f, $3 }'
done | awk -v allowed="$allowed" "$(cat "$cycles_awk")"'
function problem(msg) {
	print "calls: " msg
	problems++
}
BEGIN {
	n = split(allowed, lines, "\n")
	for (i = 1; i <= n; i++)
		if (split(lines[i], w, " ") >= 3)
			allow[w[1], w[2]] = 1
}
$1 == "D" { def[$3] = $2; node[$2] = 1; next }
$1 == "U" { nu++; ufile[nu] = $2; usym[nu] = $3 }
END {
	for (i = 1; i <= nu; i++) {
		a = ufile[i]
		if (!(usym[i] in def))
			continue
		b = def[usym[i]]
		if (a == b)
			continue
		# the HAL seam: a policy calling the HAL of the layer above
		if (a ~ /^policies\// && b !~ /^policies\//)
			continue
		if ((a, b) in edge) {
			why[a, b] = why[a, b] ", " usym[i]
			continue
		}
		edge[a, b] = 1
		why[a, b] = usym[i]
		ncalls++
		if (!((a, b) in allow))
			succ[a] = succ[a] " " b
	}
	find_cycles()
	for (k in allow) {
		split(k, p, SUBSEP)
		if (!((p[1], p[2]) in edge))
			problem("allowed call " p[1] " -> " p[2] \
				" no longer made: take it off the list")
	}
	if (problems) {
		print "calls: " problems " problem(s)"
		exit 1
	}
	print "calls: " nn " files, " ncalls " calls, ok"
}
function cycle_found(n, m, path) {
	problem("call cycle: " m " -> " path " (" n " calls " \
		why[n, m] ")")
}
'
