#!/bin/sh
# `gpusim reproduce` and rows far from the paper: a row inside its band
# but more than 25% from its paper value states why with `far_from_paper`
# and shows "pass (far from paper)"; it still fails when it leaves its
# band (unlike `known_gap`); the summary counts the rows over 25% that
# give no reason. Usage: tests/repro_marked_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# One saturating task: GPU share 1. Against paper values 2 (50% off),
# 1.5 (33% off) and 1.1 (9% off), every band passes.
cat > "$tmp/far.yaml" <<'YAML'
duration: 10ms
tasks:
  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 0, blocking: false}}}
expect:
  - {id: X, figure: P Fig. 1, quantity: far_marked, value: tasks.a.gpu_share, paper_value: 2, min: 0, far_from_paper: why}
  - {id: X, figure: P Fig. 1, quantity: far, value: tasks.a.gpu_share, paper_value: 1.5, min: 0}
  - {id: X, figure: P Fig. 1, quantity: near, value: tasks.a.gpu_share, paper_value: 1.1, min: 0}
YAML

check "reproduce: a passing row with far_from_paper is shown as such" sh -c \
	"$GPUSIM reproduce $tmp/far.yaml > $tmp/far.out &&
	 grep -q '^X .* far_marked .* pass (far from paper)\$' $tmp/far.out &&
	 grep -q '^X .* far .* pass\$' $tmp/far.out &&
	 grep -q '^X .* near .* pass\$' $tmp/far.out &&
	 grep -q '3 passed, 0 failed\$' $tmp/far.out"
check "reproduce: counts the rows over 25% that give no reason" sh -c \
	"grep -q '^  over 25% without known_gap or far_from_paper: 1 rows\$' $tmp/far.out &&
	 sed 's/, far_from_paper: why//' $tmp/far.yaml > $tmp/far2.yaml &&
	 $GPUSIM reproduce $tmp/far2.yaml > $tmp/far2.out &&
	 grep -q '^  over 25% without known_gap or far_from_paper: 2 rows\$' $tmp/far2.out &&
	 grep -q '^X .* far_marked .* pass\$' $tmp/far2.out &&
	 sed 's/far_from_paper: why/known_gap: why/' $tmp/far.yaml > $tmp/far3.yaml &&
	 $GPUSIM reproduce $tmp/far3.yaml > $tmp/far3.out &&
	 grep -q '^  over 25% without known_gap or far_from_paper: 1 rows\$' $tmp/far3.out &&
	 grep -q '^X .* far_marked .* pass (known gap)\$' $tmp/far3.out"
# The drift guard: far_from_paper explains a distance, not a miss.
check "reproduce: a far_from_paper row outside its band fails" sh -c \
	"sed 's/paper_value: 2, min: 0, far_from_paper/paper_value: 2, min: 1.5, far_from_paper/' $tmp/far.yaml > $tmp/drift.yaml &&
	 ! $GPUSIM reproduce $tmp/drift.yaml > $tmp/drift.out &&
	 grep -q '^X .* far_marked .* FAIL\$' $tmp/drift.out &&
	 grep -q '2 passed, 1 failed\$' $tmp/drift.out"
check "expect: far_from_paper without paper_value is refused at its position, exit 2" sh -c \
	"printf 'duration: 10ms\ntasks:\n  - {name: a, behavior: {throttle: {kernel: 100us}}}\nexpect:\n  - {id: X, quantity: q, value: tasks.a.gpu_share, min: 0, far_from_paper: why}\n' > $tmp/nopv.yaml &&
	 $GPUSIM validate $tmp/nopv.yaml 2> $tmp/nopv.err; test \$? -eq 2 &&
	 grep -q 'nopv.yaml:5:[0-9]*: far_from_paper: needs paper_value' $tmp/nopv.err"

echo "repro_marked_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
