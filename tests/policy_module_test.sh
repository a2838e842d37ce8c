#!/bin/sh
# Policies from outside the tree: the example module (examples/policies/
# wrr.c, built by `make` as policy-modules/wrr.so beside gpusim) loaded
# by name, by path and from the command line; modules refused with
# FILE:LINE:COLUMN errors (another ABI version, the name of a built-in, no
# ops table); `gpusim new-policy`'s skeleton built, tested and run out of
# the tree. Usage: tests/policy_module_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
GPUSIM=$(cd "$(dirname "$GPUSIM")" && pwd)/$(basename "$GPUSIM")
CC=${CC:-cc}

cat >"$tmp/base.yaml" <<'YAML'
name: two
duration: 200ms
gpu: {preset: kepler}
tasks:
  - {name: a, weight: 1, behavior: {throttle: {kernel: 1ms, sleep: 0}}}
  - {name: b, weight: 3, behavior: {throttle: {kernel: 1ms, sleep: 0}}}
YAML
module_yaml() { # file module
	sed "s|^gpu:|policy: {module: $2, params: {quantum: 5ms}}\ngpu:|" \
		"$tmp/base.yaml" >"$1"
}

# The policy gpusim ran, from summary.json.
ran_policy() { # dir policy
	grep -q "\"policy\" *: *\"$2\"" "$1/summary.json" ||
		{ grep '"policy"' "$1/summary.json"; return 1; }
}

module_yaml "$tmp/by_name.yaml" wrr
check "module: NAME is found beside gpusim" sh -c "
	'$GPUSIM' run -q --no-standalone '$tmp/by_name.yaml' -o '$tmp/r1' &&
	grep -q '\"policy\" *: *\"wrr\"' '$tmp/r1/summary.json'"
# weights 1:3, 5ms turns of 1ms requests: shares 1/4 and 3/4 within a
# request per turn (configs/beyond/wrr_weights.yaml says why)
check "wrr shares follow the weights" sh -c "
	grep -o '\"gpu_share\" *: *[0-9.e-]*' '$tmp/r1/summary.json' |
	awk -F: 'NR == 1 { a = \$2 } NR == 2 { b = \$2 }
		 END { exit !(a > 0.2 && a < 0.3 && b > 0.7 && b < 0.8) }'"

cp "$(dirname "$GPUSIM")/policy-modules/wrr.so" "$tmp/wrr.so"
module_yaml "$tmp/by_path.yaml" ./wrr.so
check "module: ./FILE is read from the scenario's folder" sh -c "
	cd / && '$GPUSIM' run -q --no-standalone '$tmp/by_path.yaml' -o '$tmp/r2' &&
	grep -q '\"policy\" *: *\"wrr\"' '$tmp/r2/summary.json'"
check "--policy-module ./FILE from the working directory" sh -c "
	cd '$tmp' && '$GPUSIM' run -q --no-standalone base.yaml \
		--policy-module ./wrr.so -o r3 &&
	grep -q '\"policy\" *: *\"wrr\"' r3/summary.json"
check "GPUSIM_POLICY_PATH is searched" sh -c "
	mkdir -p '$tmp/mods' && cp '$tmp/wrr.so' '$tmp/mods/wrr_copy.so' &&
	sed 's/gs_policy_wrr/gs_policy_wrr_copy/' '$root/examples/policies/wrr.c' |
		sed 's/\.name = \"wrr\"/.name = \"wrr_copy\"/' >'$tmp/wrr_copy.c' &&
	$CC -std=c11 -fPIC -shared -I'$root/policies' -I'$root/sim/host/hal' \
		-o '$tmp/mods/wrr_copy.so' '$tmp/wrr_copy.c' &&
	GPUSIM_POLICY_PATH='$tmp/nowhere:$tmp/mods' '$GPUSIM' run -q \
		--no-standalone '$tmp/base.yaml' --policy-module wrr_copy \
		-o '$tmp/r4' &&
	grep -q '\"policy\" *: *\"wrr_copy\"' '$tmp/r4/summary.json'"

check "list --policy-module prints the module's parameters" sh -c "
	'$GPUSIM' list --policy-module '$tmp/wrr.so' >'$tmp/list' &&
	grep -q '^  wrr ' '$tmp/list' &&
	grep -q '^      quantum  *duration default 10ms' '$tmp/list' &&
	! grep -q '^  dfq ' '$tmp/list'"
check "list --policy-module of a missing module exits 2" expect_status 2 \
	"$GPUSIM" list --policy-module "$tmp/none.so"

# A module that fails a check: exit 2, FILE:LINE:COLUMN of module:, the
# reason, and no results folder.
bad_module() { # name sed-expression
	sed "$2" "$root/examples/policies/wrr.c" >"$tmp/$1.c" &&
	$CC -std=c11 -fPIC -shared -I"$root/policies" -I"$root/sim/host/hal" \
		-o "$tmp/$1.so" "$tmp/$1.c"
}
refused() { # module message
	module_yaml "$tmp/refused.yaml" "./$1.so"
	expect_status 2 "$GPUSIM" run -q "$tmp/refused.yaml" -o "$tmp/none" &&
	grep -q "refused.yaml:3:[0-9]*: .*$2" "$tmp/stderr" &&
	! test -e "$tmp/none" || { cat "$tmp/stderr"; return 1; }
}
bad_module wrr_abi 's/gs_policy_wrr/gs_policy_wrr_abi/; s/\.abi = GS_POLICY_ABI/.abi = GS_POLICY_ABI + 1/'
check "a module of another ABI version is refused" refused wrr_abi "built for policy ABI"
bad_module wrr_named_dfq 's/gs_policy_wrr/gs_policy_wrr_named_dfq/; s/\.name = "wrr"/.name = "dfq"/'
check "a module named as a built-in is refused" refused wrr_named_dfq "built-in policy"
bad_module wrr_nosym 's/gs_policy_wrr/gs_policy_other/'
check "a module without gs_policy_NAME is refused" refused wrr_nosym "defines no gs_policy_wrr_nosym"
check "a missing module is an error at its position" refused nothing "cannot load"
check "name and module together are refused" sh -c "
	sed 's|^gpu:|policy: {name: dfq, module: wrr}\ngpu:|' '$tmp/base.yaml' >'$tmp/both.yaml'
	'$GPUSIM' validate '$tmp/both.yaml' 2>&1 | grep -q 'both.yaml:3:[0-9]*: .*not both'"

# gpusim new-policy: the skeleton builds against this tree, its test
# passes, its module loads, and it passes the kernel rules.
check "new-policy --help" sh -c "'$GPUSIM' new-policy --help | grep -q 'gpusim new-policy mine'"
check "new-policy writes the skeleton" sh -c "
	cd '$tmp' && '$GPUSIM' new-policy skel sk >/dev/null &&
	test -f sk/skel.c && test -f sk/test_skel.c && test -f sk/skel.yaml &&
	test -f sk/skel.mk"
check "the skeleton builds, passes its test and runs" sh -c "
	cd '$tmp/sk' && make -s -f skel.mk CC='$CC' CFLAGS=-O0 check >out 2>&1 ||
		{ tail -20 out; exit 1; }
	grep -q '\"policy\" *: *\"skel\"' results/skel/summary.json"
check "the skeleton passes the kernel rules" sh "$root/tests/check_policies.sh" \
	"$root/policies" "$tmp/sk/skel.c"
check "new-policy refuses to overwrite" sh -c "
	cd '$tmp' && cp sk/skel.yaml before.yaml &&
	! '$GPUSIM' new-policy skel sk 2>err && grep -q exists err &&
	cmp -s before.yaml sk/skel.yaml"
check "new-policy: bad name exits 2" expect_status 2 "$GPUSIM" new-policy Bad-Name "$tmp/x"
check "new-policy: a built-in's name exits 2" expect_status 2 "$GPUSIM" new-policy dfq "$tmp/x"
check "new-policy: nothing written for a refused name" sh -c "! test -e '$tmp/x'"

# `make reproduce` and `make bench` run configs/beyond/wrr_weights.yaml,
# so on a fresh clone they must build the module before they run
for target in reproduce bench; do
	check "make $target builds wrr.so first" sh -c "
		make -s -C '$root' -n $target BIN='$tmp/mk/gpusim' 2>&1 |
			grep -q -- '-o $tmp/mk/policy-modules/wrr.so'"
done

echo "policy_module_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
