#!/bin/sh
# `gpusim reproduce` runs a file's rows under several policies; their
# standalone runs (each definition alone under `direct`) are the same
# for overrides that differ only in the policy or in another definition's
# settings, and are made once (a's run for every row here). Each row's
# value must be what the row gives on its own, in a file of its own
# (which shares nothing), also where another override changes the
# standalone runs (a key too broad would hand b the 100us runs' mean),
# and where a row makes a's run and is handed b's (under ASan: nothing
# of the rows' keys leaks).
# Usage: tests/repro_share_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

head='duration: 30ms
tasks:
  - {name: a, behavior: {throttle: {kernel: {uniform: [50us, 150us]}, sleep: 20us, blocking: true}}}
  - {name: b, behavior: {throttle: {kernel: 100us}}}
expect:
'
rows='  - {id: S, quantity: direct, value: tasks.b.slowdown, min: 0}
  - {id: S, quantity: dfq, value: tasks.b.slowdown, set: [policy.name=dfq], min: 0}
  - {id: S, quantity: ts, value: tasks.a.slowdown, set: ["policy={name: timeslice}"], min: 0}
  - {id: S, quantity: dfq300, value: tasks.b.slowdown, set: [policy.name=dfq, tasks.1.behavior.throttle.kernel=300us], min: 0}
  - {id: S, quantity: direct300, value: tasks.b.slowdown, set: [tasks.1.behavior.throttle.kernel=300us], min: 0}
  - {id: S, quantity: a300, value: tasks.a.slowdown, set: [policy.name=dfq, tasks.1.behavior.throttle.kernel=300us], min: 0}
  - {id: S, quantity: a80, value: tasks.a.slowdown, set: [tasks.0.behavior.throttle.kernel=80us], min: 0}'
printf '%s%s\n' "$head" "$rows" > "$tmp/all.yaml"

check "every row of the file as on its own" sh -c "
	$GPUSIM reproduce $tmp/all.yaml > $tmp/all.out || exit 1
	i=0
	printf '%s\n' '$rows' | while IFS= read -r row; do
		i=\$((i + 1))
		printf '%s%s\n' '$head' \"\$row\" > $tmp/one\$i.yaml
		q=\$(printf '%s' \"\$row\" | sed 's/.*quantity: \([a-z0-9]*\),.*/\1/')
		$GPUSIM reproduce $tmp/one\$i.yaml > $tmp/one\$i.out || exit 1
		a=\$(awk -v q=\$q '\$1 == \"S\" && \$2 == q { print \$3 }' $tmp/all.out)
		b=\$(awk -v q=\$q '\$1 == \"S\" && \$2 == q { print \$3 }' $tmp/one\$i.out)
		test -n \"\$a\" && test \"\$a\" = \"\$b\" ||
			{ echo \"row \$q: '\$a' against '\$b'\"; exit 1; }
	done"
check "the kernel's override changes b's slowdown (the check can tell)" sh -c "
	d=\$(awk '\$1 == \"S\" && \$2 == \"dfq\" { print \$3 }' $tmp/all.out)
	e=\$(awk '\$1 == \"S\" && \$2 == \"dfq300\" { print \$3 }' $tmp/all.out)
	test -n \"\$d\" && test \"\$d\" != \"\$e\""

echo "repro_share: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
