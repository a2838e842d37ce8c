#!/bin/sh
# Runs every cmocka test binary in $1 and prints one closing line.
dir=${1:-build/tests}
passed=0
failed=0
for t in "$dir"/test_*; do
	[ -x "$t" ] || continue
	echo "== $(basename "$t")"
	if "$t"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAILED: $(basename "$t")"
	fi
done
echo "== cli_test.sh"
if sh "$(dirname "$0")/cli_test.sh" ./gpusim; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAILED: cli_test.sh"
fi
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
