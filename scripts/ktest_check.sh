#!/bin/sh
# The verdict on make ktest's stress runs, from the guest's console.
#
#   scripts/ktest_check.sh CONSOLE RUNS
#
# The guest (scripts/ktest.sh) prints, for each of RUNS policies, the
# result of gpusim_stress.ko's run and then the module's live objects:
#   # stress: ok 1 - dfq: 4 threads, 1000 ms: 12 tasks, ... 0 woken by signal
#   # live: instances 0 tasks 0 channels 0 timers_armed 0 held 0 queued 0 blocks 0
# then every line of the kernel log since the first module was loaded
# that reports an oops, a WARN or a BUG ("# kmsg: ..."), and "# stress
# done". Prints one line: the runs and
# their summed counts, or what failed; exit 0 only when every run said
# ok, every live count was zero, the kernel logged no oops/WARN/BUG and
# the guest got to the end.
set -u
console=${1:?usage: ktest_check.sh CONSOLE RUNS}
runs=${2:?usage: ktest_check.sh CONSOLE RUNS}

tr -d '\r' < "$console" | awk -v want="$runs" '
function fail(msg) { if (!bad) first = msg; bad++ }
/^# stress: / {
	n++
	line = substr($0, 11)
	if (line !~ /^ok /) { fail("stress run failed: " line); next }
	# "POLICY: T threads, M ms: N WORD, N WORD, ...": sum by WORD
	split(line, pre, ": ")
	head = pre[2]
	split(substr(line, index(line, " ms: ") + 5), part, ", ")
	for (i in part) {
		split(part[i], w, " ")
		sum[w[2]] += w[1]
	}
	next
}
/^# live: / {
	live++
	k = split(substr($0, 9), w, " ")
	for (i = 1; i < k; i += 2)
		if (w[i + 1] != "0")
			fail("leak after run " n ": " w[i] " " w[i + 1])
	next
}
/^# kmsg: / { fail("kernel log: " substr($0, 9)); next }
/^# stress done/ { done = 1 }
END {
	if (n != want) fail(n " of " want " stress runs reported")
	else if (live != want) fail(live " of " want " live counts reported")
	else if (!done) fail("the guest did not finish the stress runs")
	if (bad) {
		printf "FAIL stress: %s", first
		if (bad > 1) printf " (and %d more)", bad - 1
		printf "\n"
		exit 1
	}
	printf "ok   stress: %d policies, %s each: %d tasks, %d channels, " \
	       "%d doorbells, %d faults, %d holds, %d queued, %d killed, " \
	       "%d fence signals, %d timer fires; live objects back to 0, " \
	       "no oops/WARN/BUG\n",
	       n, head, sum["tasks"], sum["channels"], sum["doorbells"],
	       sum["faults"], sum["holds"], sum["queued"], sum["killed"],
	       sum["fence"], sum["timer"]
}'
