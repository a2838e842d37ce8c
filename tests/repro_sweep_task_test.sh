#!/bin/sh
# `gpusim reproduce`'s sweep rows over one named task's value (LoGA Fig.
# 7's "average turnaround increase" over the applications): each point
# reads tasks.NAME.FIELD, and `reduce` takes their mean or largest;
# several tasks' values at a point (tasks.*, a counted task) are refused.
# Usage: tests/repro_sweep_task_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# A blocking 100us throttle, asleep 100us or 300us between requests, next
# to a saturating one: its round time differs between the two points and,
# under direct access, from the round time under timeslice.
head='duration: 40ms
policy: {name: timeslice, params: {slice: 2ms}}
tasks:
  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 100us, blocking: true}}}
  - {name: b, count: 2, behavior: {throttle: {kernel: 200us, sleep: 0, blocking: true}}}
expect:
'
p1=tasks.0.behavior.throttle.sleep=100us
p2=tasks.0.behavior.throttle.sleep=300us
printf '%s' "$head" > "$tmp/t.yaml"
cat >> "$tmp/t.yaml" <<YAML
  - {id: X, quantity: q1, value: tasks.a.round_mean_ns, set: [$p1], compare: increase_vs_direct, min: -10}
  - {id: X, quantity: q2, value: tasks.a.round_mean_ns, set: [$p2], compare: increase_vs_direct, min: -10}
  - {id: X, quantity: qmean, value: tasks.a.round_mean_ns, sweep: [$p1, $p2], reduce: mean, compare: increase_vs_baseline, baseline: direct, min: -10}
  - {id: X, quantity: qmax, value: tasks.a.round_mean_ns, sweep: [$p2, $p1], reduce: max, compare: increase_vs_baseline, baseline: direct, min: -10}
YAML

check "a sweep over a task's value: mean and largest of the points" sh -c "
	$GPUSIM reproduce $tmp/t.yaml > $tmp/t.out || { cat $tmp/t.out; exit 1; }
	awk '\$1 == \"X\" { v[\$2] = \$3 }
	     END { m = (v[\"q1\"] + v[\"q2\"]) / 2; big = v[\"q1\"] > v[\"q2\"] ? v[\"q1\"] : v[\"q2\"]
		   if (v[\"q1\"] == v[\"q2\"] || v[\"q1\"] == 0) { print \"points alike or no change\", v[\"q1\"], v[\"q2\"]; exit 1 }
		   d = v[\"qmean\"] - m; if (d < 0) d = -d
		   if (d > 0.001 * (m < 0 ? -m : m)) { print \"mean\", v[\"qmean\"], \"want\", m; exit 1 }
		   if (v[\"qmax\"] != big) { print \"max\", v[\"qmax\"], \"want\", big; exit 1 } }' $tmp/t.out"

# Every task's values at each point: refused at load, at the row.
printf '%s' "$head" > "$tmp/all.yaml"
echo "  - {id: X, quantity: q, value: tasks.*.round_mean_ns, sweep: [$p1, $p2], reduce: mean, min: 0}" >> "$tmp/all.yaml"
check "a sweep over every task's value is refused" sh -c "
	$GPUSIM reproduce $tmp/all.yaml > /dev/null 2> $tmp/all.err; test \$? -eq 2 &&
	grep -q 'all.yaml:7:[0-9]*: sweep: the value must be a metrics.FIELD or one task' $tmp/all.err ||
	{ cat $tmp/all.err; exit 1; }"

# A counted task's name reads one value per copy: the row fails to run.
printf '%s' "$head" > "$tmp/count.yaml"
echo "  - {id: X, quantity: q, value: tasks.b.round_mean_ns, sweep: [$p1, $p2], reduce: mean, min: 0}" >> "$tmp/count.yaml"
check "a counted task's several values at a point fail the row" sh -c "
	$GPUSIM reproduce $tmp/count.yaml > $tmp/c.out 2> $tmp/c.err; test \$? -ne 0 &&
	grep -q 'gives 2 values, a sweep point needs one' $tmp/c.err || { cat $tmp/c.out $tmp/c.err; exit 1; }"

echo "repro_sweep_task: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
