#!/bin/sh
# --policy-module on validate and sweep as on run, and a sweep's manifest
# hash covering the module's bytes: a rebuilt module makes the finished
# points stale, so a rerun runs them again instead of keeping the old
# policy's results. Usage: tests/policy_module_cli_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
GPUSIM=$(cd "$(dirname "$GPUSIM")" && pwd)/$(basename "$GPUSIM")

cp "$root/policy-modules/wrr.so" "$tmp/wrr.so" || exit 1
cat >"$tmp/s.yaml" <<'YAML'
name: two
duration: 100ms
gpu: {preset: kepler}
tasks:
  - {name: a, weight: 1, behavior: {throttle: {kernel: 1ms, sleep: 0}}}
  - {name: b, weight: 3, behavior: {throttle: {kernel: 1ms, sleep: 0}}}
sweep:
  tasks.0.weight: [1, 2]
YAML
cd "$tmp" || exit 1

check "validate --policy-module checks with the module's policy" sh -c "
	'$GPUSIM' validate --policy-module ./wrr.so s.yaml | grep -q 'policy wrr'"
check "validate --policy-module: a missing module exits 2" \
	expect_status 2 "$GPUSIM" validate --policy-module ./none.so s.yaml
check "sweep --policy-module runs every point with the module" sh -c "
	'$GPUSIM' sweep -q --no-timeline --policy-module ./wrr.so s.yaml -o sw &&
	test \$(grep -l '\"policy\" *: *\"wrr\"' sw/points/*/summary.json | wc -l) -eq 2"
check "sweep: the same module, nothing to rerun" sh -c "
	'$GPUSIM' sweep --no-timeline --policy-module ./wrr.so s.yaml -o sw |
	grep -q ' 0 run now, 2 already finished'"
# ELF loaders ignore trailing bytes: the module still loads, but its
# bytes differ, as after a rebuild
printf 'rebuilt' >>wrr.so
check "sweep: a changed module makes the points stale" sh -c "
	'$GPUSIM' sweep --no-timeline --policy-module ./wrr.so s.yaml -o sw |
	grep -q ' 2 run now, 0 already finished'"
check "sweep: the manifest hash differs without the module" sh -c "
	'$GPUSIM' sweep -q --no-timeline s.yaml -o plain --set policy.name=drr &&
	! cmp -s sw/manifest.json plain/manifest.json"

echo "policy_module_cli_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
