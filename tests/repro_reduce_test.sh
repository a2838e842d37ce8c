#!/bin/sh
# `gpusim reproduce`'s sweep rows with `reduce: mean|max` (a paper's
# "average/max over the request sizes", NEON Fig. 7): the row's value is
# the mean or the largest of its points, and wrong uses are refused at
# their position. Usage: tests/repro_reduce_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# One blocking 100us throttle, off 100us or 300us between requests: two
# utilisations, about 0.49 and 0.25, each also checked as a plain row.
head='duration: 20ms
tasks:
  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 100us, blocking: true}}}
expect:
'
p1=tasks.0.behavior.throttle.sleep=100us
p2=tasks.0.behavior.throttle.sleep=300us
printf '%s' "$head" > "$tmp/red.yaml"
cat >> "$tmp/red.yaml" <<YAML
  - {id: X, quantity: q1, value: metrics.gpu_utilization, set: [$p1], min: 0}
  - {id: X, quantity: q2, value: metrics.gpu_utilization, set: [$p2], min: 0}
  - {id: X, quantity: qmean, value: metrics.gpu_utilization, sweep: [$p1, $p2], reduce: mean, min: 0}
  - {id: X, quantity: qmax, value: metrics.gpu_utilization, sweep: [$p2, $p1], reduce: max, min: 0}
  - {id: X, quantity: qloss, value: metrics.gpu_utilization, sweep: [$p1, $p2], reduce: max, compare: reduction_vs_baseline, baseline: direct, min: 0, max: 0}
YAML

check "reduce: mean is the points' mean, max their largest" sh -c "
	$GPUSIM reproduce $tmp/red.yaml > $tmp/red.out || exit 1
	awk '\$1 == \"X\" { v[\$2] = \$3 }
	     END { m = (v[\"q1\"] + v[\"q2\"]) / 2; big = v[\"q1\"] > v[\"q2\"] ? v[\"q1\"] : v[\"q2\"]
		   if (v[\"q1\"] == v[\"q2\"]) { print \"points alike\"; exit 1 }
		   d = v[\"qmean\"] - m; if (d < 0) d = -d
		   if (d > 0.001 * m) { print \"mean\", v[\"qmean\"], \"want\", m; exit 1 }
		   if (v[\"qmax\"] != big) { print \"max\", v[\"qmax\"], \"want\", big; exit 1 }
		   if (v[\"qloss\"] != 0) { print \"loss vs itself\", v[\"qloss\"]; exit 1 } }' $tmp/red.out"

# Over several tasks: the shares of two tasks sum to 1, so their mean is
# 0.5 whatever the split; under direct access the 1ms task's share
# (10/11) is the largest.
cat > "$tmp/tasks.yaml" <<YAML
duration: 20ms
tasks:
  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 0, blocking: false}}}
  - {name: b, behavior: {throttle: {kernel: 1ms, sleep: 0, blocking: false}}}
expect:
  - {id: X, quantity: each, value: "tasks.*.gpu_share", min: 0}
  - {id: X, quantity: mean, value: "tasks.*.gpu_share", reduce: mean, min: 0.5, max: 0.5}
  - {id: X, quantity: max, value: "tasks.*.gpu_share", reduce: max, min: 0.85, max: 0.95}
  - {id: X, quantity: min, value: "tasks.*.gpu_share", reduce: min, min: 0.05, max: 0.15}
YAML
check "reduce over tasks: one value, the tasks' mean, largest or smallest" sh -c "
	$GPUSIM reproduce $tmp/tasks.yaml > $tmp/tasks.out &&
	grep -q '^X *each *0[.][0-9]*[.][.]0[.]9' $tmp/tasks.out &&
	grep -q '^X *mean *0[.]5 ' $tmp/tasks.out &&
	grep -q '^X *max *0[.]9[0-9]* ' $tmp/tasks.out &&
	grep -q '^X *min *0[.]09[0-9]* ' $tmp/tasks.out || { cat $tmp/tasks.out; exit 1; }"

# Wrong uses: exit 2 and the position of the key at fault.
# `reduce` over seeds: each seed's change against its baseline run under
# the same seed, then the largest or smallest (DCUDA Fig. 12's "up to"
# over its arrival sequences), not the change of the seeds' means.
seeds_head='tasks:
  - {name: a, behavior: {throttle: {kernel: {exponential: 200us}, sleep: {exponential: 300us}, blocking: true}}}
  - {name: b, behavior: {throttle: {kernel: {exponential: 100us}, sleep: {exponential: 100us}, blocking: true}}}
expect:'
row='value: metrics.gpu_utilization, compare: increase_vs_baseline, baseline: dfq'
for k in 1 2 3; do
	printf 'seed: %s\nduration: 50ms\n%s\n  - {id: S, quantity: s%s, %s, min: -10}\n' \
		$k "$seeds_head" $k "$row" > "$tmp/seed$k.yaml"
done
cat >> "$tmp/seed1.yaml" <<YAML
  - {id: S, quantity: max, $row, seeds: 3, reduce: max, min: -10}
  - {id: S, quantity: min, $row, seeds: 3, reduce: min, min: -10}
YAML
check "reduce over seeds: the largest and smallest of the seeds' own changes" sh -c "
	$GPUSIM reproduce $tmp/seed1.yaml $tmp/seed2.yaml $tmp/seed3.yaml > $tmp/seeds.out || exit 1
	awk '\$1 == \"S\" { v[\$2] = \$3 }
	     END { hi = v[\"s1\"]; lo = hi
		   if (v[\"s2\"] > hi) hi = v[\"s2\"]; if (v[\"s3\"] > hi) hi = v[\"s3\"]
		   if (v[\"s2\"] < lo) lo = v[\"s2\"]; if (v[\"s3\"] < lo) lo = v[\"s3\"]
		   if (hi == lo) { print \"seeds alike\"; exit 1 }
		   if (v[\"max\"] != hi || v[\"min\"] != lo) { print v[\"max\"], v[\"min\"], \"want\", hi, lo; exit 1 } }' $tmp/seeds.out"

bad() { # description, expected message (a grep pattern, no quotes), row text
	printf '%s  - %s\n' "$head" "$3" > "$tmp/bad.yaml"
	check "$1" sh -c "
		$GPUSIM reproduce $tmp/bad.yaml > /dev/null 2> $tmp/bad.err; test \$? -eq 2 &&
		grep -q 'bad.yaml:5:[0-9]*: $2' $tmp/bad.err || { cat $tmp/bad.err; exit 1; }"
}
bad "reduce: an unknown reducer" "reduce" \
	"{id: X, quantity: q, value: metrics.gpu_utilization, sweep: [$p1, $p2], reduce: median, min: 0}"
bad "reduce: peak is written as 'peak'" "reduce: mean, max or min" \
	"{id: X, quantity: q, value: metrics.gpu_utilization, sweep: [$p1, $p2], reduce: peak, min: 0}"
bad "reduce: not together with peak" "peak: not together with .reduce." \
	"{id: X, quantity: q, value: metrics.gpu_utilization, sweep: [$p1, $p2], peak: 0, reduce: max, min: 0}"
bad "reduce: only with a sweep, seeds or over tasks" "reduce: only with .sweep., .seeds. and a metrics.FIELD.*, or a tasks" \
	"{id: X, quantity: q, value: metrics.gpu_utilization, reduce: max, min: 0}"
bad "a sweep needs peak or reduce" "expect entry: a sweep needs .peak.*or .reduce." \
	"{id: X, quantity: q, value: metrics.gpu_utilization, sweep: [$p1, $p2], min: 0}"

echo "repro_reduce: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
