#!/bin/sh
# `gpusim reproduce` and rows far from the paper: a row that passes its
# band but gives `known_gap` shows "pass (known gap)", and the summary
# counts the rows further than 25% from their paper value that give no
# `known_gap`. Usage: tests/repro_marked_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

# One saturating task: GPU share 1. Against paper values 2 (50% off),
# 1.5 (33% off) and 1.1 (9% off), every band passes.
cat > "$tmp/far.yaml" <<'YAML'
duration: 10ms
tasks:
  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 0, blocking: false}}}
expect:
  - {id: X, figure: P Fig. 1, quantity: far_marked, value: tasks.a.gpu_share, paper_value: 2, min: 0, known_gap: why}
  - {id: X, figure: P Fig. 1, quantity: far, value: tasks.a.gpu_share, paper_value: 1.5, min: 0}
  - {id: X, figure: P Fig. 1, quantity: near, value: tasks.a.gpu_share, paper_value: 1.1, min: 0}
YAML

check "reproduce: a passing row with known_gap is shown as such" sh -c \
	"$GPUSIM reproduce $tmp/far.yaml > $tmp/far.out &&
	 grep -q '^X .* far_marked .* pass (known gap)\$' $tmp/far.out &&
	 grep -q '^X .* far .* pass\$' $tmp/far.out &&
	 grep -q '^X .* near .* pass\$' $tmp/far.out &&
	 grep -q '3 passed, 0 failed\$' $tmp/far.out"
check "reproduce: counts the rows over 25% that give no known_gap" sh -c \
	"grep -q '^  over 25% and not marked known_gap: 1 rows\$' $tmp/far.out &&
	 sed 's/, known_gap: why//' $tmp/far.yaml > $tmp/far2.yaml &&
	 $GPUSIM reproduce $tmp/far2.yaml > $tmp/far2.out &&
	 grep -q '^  over 25% and not marked known_gap: 2 rows\$' $tmp/far2.out &&
	 grep -q '^X .* far_marked .* pass\$' $tmp/far2.out"

echo "repro_marked_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
