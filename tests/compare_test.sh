#!/bin/sh
# gpusim compare: what a policy's CI relies on. Exit 0 when every checked
# metric stayed within its tolerance, 1 when one moved beyond it, 2 on bad
# usage or input (FILE:LINE:COLUMN for a malformed summary, FILE:LINE for
# a sweep table). Usage: tests/compare_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

summary() { # dir jain share_a share_b [killed_b]
	mkdir -p "$1"
	cat >"$1/summary.json" <<JSON
{
  "policy" : "dfq",
  "event_checksum" : "0xff9f",
  "tasks" : [
    { "name" : "a", "gpu_share" : $3, "killed" : false },
    { "name" : "b", "gpu_share" : $4, "killed" : ${5:-false} }
  ],
  "metrics" : { "jain_index" : $2, "accounting_error" : null }
}
JSON
}
check "compare --help lists its options and examples" sh -c "
	'$GPUSIM' compare --help >'$tmp/h' && grep -q -- --tolerance '$tmp/h' &&
	grep -q '^  gpusim compare base/ new/' '$tmp/h'"

summary "$tmp/base" 0.98 0.5 0.5
summary "$tmp/same" 0.98 0.5 0.5
summary "$tmp/near" 0.975 0.51 0.49
summary "$tmp/far" 0.90 0.6 0.4
summary "$tmp/killed" 0.98 0.5 0.5 true

check "identical runs: exit 0" expect_status 0 "$GPUSIM" compare "$tmp/base" "$tmp/same" \
	--metric jain_index --tolerance 0
check "within tolerance: exit 0" expect_status 0 "$GPUSIM" compare "$tmp/base" "$tmp/near" \
	--metric jain_index --tolerance 0.01 --metric '*.gpu_share' --tolerance 0.02
check "beyond an absolute tolerance: exit 1" expect_status 1 "$GPUSIM" compare \
	"$tmp/base" "$tmp/far" --metric jain_index --tolerance 0.01
check "beyond a relative tolerance: exit 1" expect_status 1 "$GPUSIM" compare \
	"$tmp/base" "$tmp/near" --metric a.gpu_share --tolerance 1%
check "within a relative tolerance: exit 0" expect_status 0 "$GPUSIM" compare \
	"$tmp/base" "$tmp/near" --metric a.gpu_share --tolerance 2%
check "no tolerance means no change: exit 1" expect_status 1 "$GPUSIM" compare \
	"$tmp/base" "$tmp/near" --metric jain_index
check "a changed text value fails its check" expect_status 1 "$GPUSIM" compare \
	"$tmp/base" "$tmp/killed" --metric b.killed
check "no --metric: differences printed, exit 0" sh -c "
	'$GPUSIM' compare '$tmp/base' '$tmp/far' >'$tmp/o' &&
	grep -q '^jain_index .* 0.98 .* 0.9 .*-8.16%' '$tmp/o' &&
	grep -q '^a.gpu_share ' '$tmp/o' && ! grep -q '^policy' '$tmp/o' &&
	grep -q '^3 values differ' '$tmp/o'"
check "the failing metric is marked" sh -c "
	'$GPUSIM' compare '$tmp/base' '$tmp/far' -m jain_index -t 0.01 >'$tmp/o';
	grep -q '^jain_index .*FAIL (tolerance 0.01)' '$tmp/o' &&
	grep -q '1 beyond tolerance' '$tmp/o'"
check "a task only in one run" sh -c "
	sed 's/\"b\"/\"c\"/' '$tmp/base/summary.json' >'$tmp/renamed.json' &&
	'$GPUSIM' compare '$tmp/base' '$tmp/renamed.json' >'$tmp/o';
	grep -q '^b.gpu_share .*only in A' '$tmp/o' &&
	grep -q '^c.gpu_share .*only in B' '$tmp/o'"
check "a checked task that is gone: exit 1" expect_status 1 "$GPUSIM" compare \
	"$tmp/base" "$tmp/renamed.json" --metric b.gpu_share --tolerance 1

# bad usage and input: exit 2, nothing on stdout
check "a --metric that names nothing: exit 2" expect_status 2 "$GPUSIM" compare \
	"$tmp/base" "$tmp/same" --metric jain_idx
check "a malformed tolerance: exit 2" expect_status 2 "$GPUSIM" compare \
	"$tmp/base" "$tmp/same" --metric jain_index --tolerance 5x
check "a negative tolerance: exit 2" expect_status 2 "$GPUSIM" compare \
	"$tmp/base" "$tmp/same" --metric jain_index --tolerance -1
check "a tolerance before any metric: exit 2" expect_status 2 "$GPUSIM" compare \
	"$tmp/base" "$tmp/same" --tolerance 1
check "one result only: exit 2" expect_status 2 "$GPUSIM" compare "$tmp/base"
check "a missing folder: exit 2" expect_status 2 "$GPUSIM" compare "$tmp/base" "$tmp/nowhere"
check "malformed summary.json: exit 2 at FILE:LINE:COLUMN" sh -c "
	mkdir -p '$tmp/broken' && printf '{\n  \"tasks\" : [,\n' >'$tmp/broken/summary.json'
	'$GPUSIM' compare '$tmp/base' '$tmp/broken' >'$tmp/o' 2>'$tmp/e'
	test \$? -eq 2 && ! test -s '$tmp/o' &&
	grep -q 'broken/summary.json:2:[0-9]*: ' '$tmp/e'"

# sweep tables: rows by point
cat >"$tmp/a.csv" <<'CSV'
point,seed,policy.name,jain_index,t1.gpu_share
dfq_s1,1,dfq,0.99,0.5
"loga,x_s1",1,loga,0.97,0.45
CSV
sed 's/0.97,0.45/0.90,0.40/' "$tmp/a.csv" >"$tmp/b.csv"
check "sweep tables: a point beyond tolerance: exit 1" sh -c "
	'$GPUSIM' compare '$tmp/a.csv' '$tmp/b.csv' -m jain_index -t 0.05 >'$tmp/o'
	test \$? -eq 1 && grep -q '^loga,x_s1/jain_index .*FAIL' '$tmp/o' &&
	grep -q '^dfq_s1/jain_index' '$tmp/o'"
check "sweep tables: within tolerance: exit 0" expect_status 0 "$GPUSIM" compare \
	"$tmp/a.csv" "$tmp/b.csv" -m jain_index -t 0.1 -m '*.gpu_share' -t 20%
check "a sweep row of the wrong width: exit 2 at FILE:LINE" sh -c "
	printf 'dfq_s2,1,dfq\n' >>'$tmp/b.csv'
	'$GPUSIM' compare '$tmp/a.csv' '$tmp/b.csv' 2>'$tmp/e'
	test \$? -eq 2 && grep -q 'b.csv:4: ' '$tmp/e'"
check "a results folder against a sweep table: exit 2" expect_status 2 \
	"$GPUSIM" compare "$tmp/base" "$tmp/a.csv"

# two real runs, one parameter apart
cat >"$tmp/two.yaml" <<'YAML'
name: two
duration: 50ms
gpu: {preset: kepler}
policy: {name: timeslice, params: {slice: 5ms}}
tasks:
  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 0}}}
  - {name: b, behavior: {throttle: {kernel: 1ms, sleep: 0}}}
YAML
check "two real runs compare" sh -c "
	'$GPUSIM' run -q --no-standalone '$tmp/two.yaml' -o '$tmp/r1' &&
	'$GPUSIM' run -q --no-standalone '$tmp/two.yaml' -o '$tmp/r2' \
		--set policy.params.slice=10ms &&
	'$GPUSIM' compare '$tmp/r1' '$tmp/r1' -m '*' >/dev/null &&
	'$GPUSIM' compare '$tmp/r1' '$tmp/r2' -m ctx_switches -t 1%;
	test \$? -eq 1"

echo "compare_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
