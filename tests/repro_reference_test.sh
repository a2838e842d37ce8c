#!/bin/sh
# `gpusim reproduce`'s rows with `compare: reduction_vs_reference`: the
# value against the same scenario under the `reference` overrides, value
# by value (DCUDA Fig. 9: NVCR's migration against DCUDA's for each
# application), and wrong uses refused at their position.
# Usage: tests/repro_reference_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# Two blocking throttles; with 300us off instead of 100us each keeps the
# GPU busy less: the reduction is (ref - v) / ref, per task.
head='duration: 20ms
tasks:
  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 100us, blocking: true}}}
  - {name: b, behavior: {throttle: {kernel: 200us, sleep: 100us, blocking: true}}}
expect:
'
p1=tasks.0.behavior.throttle.sleep
p2=tasks.1.behavior.throttle.sleep
printf '%s' "$head" > "$tmp/ref.yaml"
cat >> "$tmp/ref.yaml" <<YAML
  - {id: X, quantity: a, value: tasks.a.rounds, min: 0}
  - {id: X, quantity: b, value: tasks.b.rounds, min: 0}
  - {id: X, quantity: aref, value: tasks.a.rounds, set: [$p1=300us, $p2=300us], min: 0}
  - {id: X, quantity: bref, value: tasks.b.rounds, set: [$p1=300us, $p2=300us], min: 0}
  - {id: X, quantity: cut, value: "tasks.*.rounds", compare: reduction_vs_reference, reference: [$p1=300us, $p2=300us], min: -10}
  - {id: X, quantity: cutmax, value: "tasks.*.rounds", compare: reduction_vs_reference, reference: [$p1=300us, $p2=300us], reduce: max, min: -10}
  - {id: X, quantity: incmin, value: "tasks.*.rounds", compare: increase_vs_reference, reference: [$p1=300us, $p2=300us], reduce: min, min: -10}
  - {id: Y, quantity: u, value: metrics.gpu_utilization, min: 0}
  - {id: Y, quantity: uref, value: metrics.gpu_utilization, set: [$p1=300us, $p2=300us], min: 0}
  - {id: Y, quantity: ucut, value: metrics.gpu_utilization, compare: reduction_vs_baseline, reference: [$p1=300us, $p2=300us], min: -10}
YAML

check "*_vs_reference: (ref - v) / ref and (v - ref) / ref for each value, reduce over them" sh -c "
	$GPUSIM reproduce $tmp/ref.yaml > $tmp/ref.out || exit 1
	awk '\$1 == \"X\" { v[\$2] = \$3 }
	     END { ca = (v[\"aref\"] - v[\"a\"]) / v[\"aref\"]; cb = (v[\"bref\"] - v[\"b\"]) / v[\"bref\"]
		   if (v[\"a\"] == v[\"aref\"]) { print \"reference alike\"; exit 1 }
		   want = sprintf(\"%.4g..%.4g\", ca < cb ? ca : cb, ca < cb ? cb : ca)
		   if (v[\"cut\"] != want) { print \"cut\", v[\"cut\"], \"want\", want; exit 1 }
		   big = ca > cb ? ca : cb; d = v[\"cutmax\"] - big; if (d < 0) d = -d
		   if (d > 1e-3) { print \"cutmax\", v[\"cutmax\"], \"want\", big; exit 1 }
		   if (v[\"incmin\"] != -v[\"cutmax\"]) { print \"incmin\", v[\"incmin\"]; exit 1 } }' $tmp/ref.out"

check "reference under a baseline compare: (ref - v) / ref of the metric, the reference run under its overrides" sh -c "
	awk '\$1 == \"Y\" { v[\$2] = \$3 }
	     END { if (v[\"u\"] == v[\"uref\"]) { print \"reference alike\"; exit 1 }
		   want = (v[\"uref\"] - v[\"u\"]) / v[\"uref\"]; d = v[\"ucut\"] - want; if (d < 0) d = -d
		   if (d > 1e-3) { print \"ucut\", v[\"ucut\"], \"want\", want; exit 1 } }' $tmp/ref.out"

bad() { # description, expected message (a grep pattern, no quotes), row text
	printf '%s  - %s\n' "$head" "$3" > "$tmp/bad.yaml"
	check "$1" sh -c "
		$GPUSIM reproduce $tmp/bad.yaml > /dev/null 2> $tmp/bad.err; test \$? -eq 2 &&
		grep -q 'bad.yaml:6:[0-9]*: $2' $tmp/bad.err || { cat $tmp/bad.err; exit 1; }"
}
bad "reduction_vs_reference needs a reference" "expect entry: compare reduction_vs_reference needs .reference." \
	"{id: X, quantity: q, value: tasks.a.rounds, compare: reduction_vs_reference, min: 0}"
bad "reference only with a *_vs_reference compare" "reference: only with compare" \
	"{id: X, quantity: q, value: tasks.a.rounds, reference: [$p1=1ms], min: 0}"
bad "reference not with seeds" "reference: not together with" \
	"{id: X, quantity: q, value: metrics.gpu_utilization, seeds: 2, compare: reduction_vs_reference, reference: [$p1=1ms], min: 0}"
bad "baseline_set refused, naming reference" "baseline_set: not a key any more; write .reference." \
	"{id: X, quantity: q, value: metrics.gpu_utilization, compare: reduction_vs_baseline, baseline_set: [$p1=1ms], min: 0}"
bad "reference entries are overrides" "reference: expected KEY.PATH=VALUE" \
	"{id: X, quantity: q, value: tasks.a.rounds, compare: reduction_vs_reference, reference: [nonsense], min: 0}"

echo "repro_reference: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
