#!/bin/sh
# A reproduce row's own `set: [seed=N]` is honoured by the rows that run
# several seeds or a baseline (they add a seed of their own after `set`,
# which once replaced the row's silently by the file's seed): `seeds: 2`
# starts at N, a baseline compare runs both sides at N.
# Usage: tests/repro_seed_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

cat > "$tmp/s.yaml" <<'YAML'
seed: 1
duration: 30ms
tasks:
  - {name: a, behavior: {throttle: {kernel: {exponential: 200us}, sleep: {exponential: 300us}, blocking: true}}}
  - {name: b, behavior: {throttle: {kernel: {exponential: 100us}, sleep: {exponential: 100us}, blocking: true}}}
expect:
  - {id: P, quantity: at1, value: metrics.gpu_utilization, set: [seed=1], min: 0}
  - {id: P, quantity: at7, value: metrics.gpu_utilization, set: [seed=7], min: 0}
  - {id: P, quantity: at8, value: metrics.gpu_utilization, set: [seed=8], min: 0}
  - {id: P, quantity: seeds7, value: metrics.gpu_utilization, set: [seed=7], seeds: 2, min: 0}
  - {id: P, quantity: base7, value: metrics.gpu_utilization, set: [seed=7], compare: increase_vs_baseline, baseline: dfq, min: -10}
  - {id: P, quantity: dfq7, value: metrics.gpu_utilization, set: [seed=7, "policy={name: dfq}"], min: 0}
YAML
"$GPUSIM" reproduce "$tmp/s.yaml" > "$tmp/s.out" 2>&1
check "the seeds differ (else nothing here is tested)" sh -c "
	awk '\$1 == \"P\" { v[\$2] = \$3 } END { exit !(v[\"at1\"] != v[\"at7\"]) }' $tmp/s.out"
check "seeds: 2 with set seed=7 is the mean of seeds 7 and 8" sh -c "
	awk '\$1 == \"P\" { v[\$2] = \$3 }
	     END { m = (v[\"at7\"] + v[\"at8\"]) / 2; d = v[\"seeds7\"] - m; if (d < 0) d = -d
		   if (d > 0.001 * m) { print \"seeds7\", v[\"seeds7\"], \"want\", m; exit 1 } }' $tmp/s.out"
check "a baseline compare with set seed=7 runs both sides at seed 7" sh -c "
	awk '\$1 == \"P\" { v[\$2] = \$3 }
	     END { want = (v[\"at7\"] - v[\"dfq7\"]) / v[\"dfq7\"]; d = v[\"base7\"] - want; if (d < 0) d = -d
		   if (d > 0.002) { print \"base7\", v[\"base7\"], \"want\", want; exit 1 } }' $tmp/s.out"

echo "repro_seed_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
