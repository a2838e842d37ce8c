#!/bin/sh
# The command line as a user meets it: exit codes, error positions, output
# files, byte-identical reruns. Usage: tests/cli_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

check "--version prints the version" sh -c "$GPUSIM --version | grep -q '^gpusim [0-9]'"
check "--help lists the commands" sh -c "$GPUSIM --help | grep -q 'validate'"
check "run --help shows --set" sh -c "$GPUSIM run --help | grep -q -- '--set'"

# Each command: listed in gpusim --help; its own --help names it in the
# usage line, lists its options and ends with examples of it.
command_help() { # command option...
	cmd=$1
	shift
	"$GPUSIM" --help | grep -q "^  $cmd " || { echo "$cmd not in --help"; return 1; }
	"$GPUSIM" "$cmd" --help >"$tmp/help_$cmd" || return 1
	grep -q "^  gpusim $cmd \[OPTION" "$tmp/help_$cmd" || { echo "no usage line"; return 1; }
	sed -n '/^Examples:/,$p' "$tmp/help_$cmd" | grep -q "^  gpusim $cmd" ||
		{ echo "no example"; return 1; }
	for o in "$@"; do
		grep -q -- "$o" "$tmp/help_$cmd" || { echo "no $o"; return 1; }
	done
}
check "run --help" command_help run --out --seed --set --no-timeline --no-standalone --quiet --rows
check "validate --help" command_help validate --set
check "list --help" command_help list
check "reproduce --help" command_help reproduce "FILE\.\.\."
check "sweep --help" command_help sweep --jobs --out --set --no-timeline --point \
	--emit-jobs --emit-slurm --collect --quiet
check "bench --help" command_help bench --sim-seconds --repeat --channels --out --no-reproduce --process-seconds --rss-tasks
# The scenario files the help examples name exist, and validate's example runs.
check "help examples name existing files" sh -c '
	for c in "" run validate list reproduce sweep bench; do "$0" $c --help; done |
	grep -o "configs/[A-Za-z0-9_/.-]*\.yaml" | sort -u | while read -r f; do
		test -f "$f" || { echo "missing $f"; exit 1; }
	done' "$GPUSIM"
check "validate --help example runs" sh -c \
	"$GPUSIM validate --help | sed -n '/^Examples:/,\$p' | grep '^  gpusim validate' | sed 's|^  gpusim|$GPUSIM|' | sh"
check "unknown command exits 2" expect_status 2 "$GPUSIM" frobnicate
check "list shows direct, kepler and DCT" sh -c \
	"$GPUSIM list > $tmp/list && grep -q direct $tmp/list && grep -q kepler $tmp/list && grep -q DCT $tmp/list"

cat >"$tmp/bad.yaml" <<'YAML'
duration: 1s
tasks:
  - name: a
    behavior:
      throttle: {kernal: 100us}
YAML
check "unknown key exits 2" expect_status 2 "$GPUSIM" run "$tmp/bad.yaml" --out "$tmp/bad-out"
check "unknown key names file:line:col and suggests" sh -c \
	"$GPUSIM validate $tmp/bad.yaml 2>&1 | grep -q 'bad.yaml:5:[0-9]*: .*kernal.*did you mean .kernel'"
check "a bad config writes nothing" test ! -e "$tmp/bad-out"
check "bad --set value exits 2" expect_status 2 "$GPUSIM" validate configs/default.yaml --set duration=abc
check "missing file exits 2" expect_status 2 "$GPUSIM" validate "$tmp/nope.yaml"

check "validate accepts the default config" "$GPUSIM" validate configs/default.yaml
check "run writes the four result files" sh -c \
	"$GPUSIM run configs/paper/neon_fig6_direct.yaml --out $tmp/a -q &&
	 test -s $tmp/a/summary.json && test -s $tmp/a/tasks.csv &&
	 test -s $tmp/a/series.csv && test -s $tmp/a/timeline.pftrace &&
	 test ! -e $tmp/a/timeline.json"
check "a second run gives byte-identical results" sh -c \
	"$GPUSIM run configs/paper/neon_fig6_direct.yaml --out $tmp/b -q &&
	 cmp $tmp/a/summary.json $tmp/b/summary.json &&
	 cmp $tmp/a/timeline.pftrace $tmp/b/timeline.pftrace &&
	 cmp $tmp/a/tasks.csv $tmp/b/tasks.csv &&
	 cmp $tmp/a/series.csv $tmp/b/series.csv"
check "another seed changes the event stream of a random workload" sh -c \
	"$GPUSIM run configs/examples/throttle.yaml --out $tmp/s1 -q --no-standalone &&
	 $GPUSIM run configs/examples/throttle.yaml --out $tmp/s2 -q --no-standalone --seed 99 &&
	 ! cmp -s $tmp/s1/summary.json $tmp/s2/summary.json"
check "no temporary files are left" sh -c "! ls -a $tmp/a | grep -q tmp"
set_changes_run() {
	"$GPUSIM" run configs/paper/neon_fig6_direct.yaml --out "$tmp/c" -q \
		--no-standalone --set duration=100ms &&
		grep -Eq '"sim_time_ns" *: *100000000' "$tmp/c/summary.json"
}
check "--set changes the run" set_changes_run
check "every shipped config validates" sh -c \
	"for f in \$(find configs -name '*.yaml'); do $GPUSIM validate \$f >/dev/null || exit 1; done"

cat >"$tmp/failing.yaml" <<'YAML'
duration: 100ms
tasks:
  - name: a
    behavior: {throttle: {kernel: 100us}}
expect:
  - id: X1
    quantity: share of the only task
    value: tasks.a.gpu_share
    max: 0.5
YAML
check "reproduce passes R1" sh -c \
	"$GPUSIM reproduce configs/paper/neon_fig6_direct.yaml | grep -q '3 passed, 0 failed'"
check "adversarial scenarios end sensibly under every policy" sh -c \
	"$GPUSIM reproduce configs/adversarial/*.yaml > $tmp/adv && grep -q ' 0 failed' $tmp/adv"
check "reproduce passes R12 (dcuda, 20 seeds against least-loaded)" sh -c \
	"$GPUSIM reproduce configs/paper/dcuda_r12.yaml | grep -q '20 passed, 0 failed, 6 known gaps'"
check "a node run is byte-identical when repeated" sh -c \
	"$GPUSIM run configs/examples/node_jobs.yaml --out $tmp/n1 -q &&
	 $GPUSIM run configs/examples/node_jobs.yaml --out $tmp/n2 -q &&
	 cmp $tmp/n1/summary.json $tmp/n2/summary.json &&
	 grep -q '\"time_overloaded_ns\"' $tmp/n1/summary.json"
check "a compare against a baseline needs the baseline policy" sh -c \
	"printf 'duration: 1s\ntasks:\n  - {name: a, behavior: {job: {app: Sort}}}\nexpect:\n  - {id: X, quantity: q, value: metrics.qos, compare: reduction_vs_baseline, min: 0}\n' > $tmp/nb.yaml &&
	 $GPUSIM validate $tmp/nb.yaml 2> $tmp/nb.err; test \$? -eq 2 &&
	 grep -q 'nb.yaml:5:5: expect entry: compare reduction_vs_baseline needs' $tmp/nb.err"
check "reproduce exits 1 on a missed target and says FAIL" sh -c \
	"! $GPUSIM reproduce $tmp/failing.yaml > $tmp/rep && grep -q 'X1 .* 1 .*FAIL' $tmp/rep"
# reproduce away from the source tree: the installed configs are found
# beside the executable (PREFIX/share/gpusim/configs; only R1's file is
# left there, so its 3 rows show they were read rather than the source
# tree's); with none anywhere, or no row to check, it must not pass.
check "installed reproduce, run from elsewhere, reads PREFIX/share/gpusim/configs" sh -c \
	"make -s -o '$GPUSIM' install BIN='$GPUSIM' PREFIX=$tmp/prefix >/dev/null &&
	 cd $tmp/prefix/share/gpusim/configs &&
	 find paper beyond -name '*.yaml' ! -name neon_fig6_direct.yaml -exec rm {} + &&
	 cd $tmp && $tmp/prefix/bin/gpusim reproduce > $tmp/inst &&
	 grep -q '3 passed, 0 failed' $tmp/inst"
check "reproduce with no configs to be found: a clear error, exit 2" sh -c \
	"mkdir -p $tmp/lone/bin && cp '$GPUSIM' $tmp/lone/bin/ && cd $tmp/lone &&
	 bin/\$(basename '$GPUSIM') reproduce > $tmp/lone.out 2> $tmp/lone.err;
	 test \$? -eq 2 && grep -q 'no scenario folder found' $tmp/lone.err &&
	 ! grep -q passed $tmp/lone.out"
check "reproduce of files without expect rows does not pass" sh -c \
	"printf 'duration: 10ms\ntasks:\n  - {name: a, behavior: {throttle: {kernel: 100us}}}\n' > $tmp/noexp.yaml &&
	 $GPUSIM reproduce $tmp/noexp.yaml 2> $tmp/noexp.err; test \$? -eq 1 &&
	 grep -q 'no expect rows' $tmp/noexp.err"
check "reproduce: a counted task's name selects every copy; beyond rows in their own table" sh -c \
	"printf 'duration: 20ms\ntasks:\n  - {name: a, count: 2, behavior: {throttle: {kernel: 100us}}}\nexpect:\n  - {id: X, quantity: q, value: tasks.a.gpu_share, min: 0.45, max: 0.55}\n' > $tmp/count.yaml &&
	 mkdir -p $tmp/beyond && cp $tmp/count.yaml $tmp/beyond/ &&
	 $GPUSIM reproduce $tmp/count.yaml $tmp/beyond/count.yaml > $tmp/count.out &&
	 grep -q '^X .*\.\..*pass' $tmp/count.out && grep -q '2 passed, 0 failed' $tmp/count.out &&
	 sed -n '/^beyond the papers/,\$p' $tmp/count.out | grep -c '^X ' | grep -qx 1"
# The relative-error column and summary: a saturating non-blocking throttle
# alone holds the GPU all the time (gpu_share 1), so paper values 0.8, 2 and
# 1.25 are 25%, 50% and 20% off; per paper (the figure's first word) P1 has
# median 37.5% (of 25 and 50) and max 50%, P2 20%; over all, median 25%.
check "reproduce: relative error per row, median and max per paper and overall" sh -c \
	"printf 'duration: 10ms\ntasks:\n  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 0, blocking: false}}}\nexpect:\n  - {id: X, figure: P1 Fig. 1, quantity: q1, value: tasks.a.gpu_share, paper_value: 0.8, min: 0}\n  - {id: X, figure: P1 Fig. 2, quantity: q2, value: tasks.a.gpu_share, paper_value: 2, min: 0}\n  - {id: X, figure: P2, quantity: q3, value: tasks.a.gpu_share, paper_value: 1.25, min: 0}\n  - {id: X, figure: P2, quantity: q4, value: tasks.a.gpu_share, min: 0}\n' > $tmp/rel.yaml &&
	 $GPUSIM reproduce $tmp/rel.yaml > $tmp/rel.out &&
	 grep -q '^X .* q1 .* 1 *25.0% ' $tmp/rel.out && grep -q '^X .* q2 .* 1 *50.0% ' $tmp/rel.out &&
	 grep -q '^X .* q3 .* 1 *20.0% ' $tmp/rel.out && grep -q '^X .* q4 .* 1 *- ' $tmp/rel.out &&
	 grep -q '(3 of 4)' $tmp/rel.out &&
	 grep -q '^  P1 *2 rows *median *37.5%  max *50.0%' $tmp/rel.out &&
	 grep -q '^  P2 *1 rows *median *20.0%  max *20.0%' $tmp/rel.out &&
	 grep -q '^  all *3 rows *median *25.0%  max *50.0%' $tmp/rel.out"
# A row that misses its band but gives known_gap is shown as a known miss
# and does not fail the command; without known_gap the same miss fails it.
check "reproduce: a known gap is shown, counted apart and does not fail" sh -c \
	"printf 'duration: 10ms\ntasks:\n  - {name: a, behavior: {throttle: {kernel: 100us, sleep: 0, blocking: false}}}\nexpect:\n  - {id: X, quantity: q, value: tasks.a.gpu_share, max: 0.5, known_gap: why}\n  - {id: Y, quantity: q, value: tasks.a.gpu_share, min: 0.5}\n' > $tmp/gap.yaml &&
	 $GPUSIM reproduce $tmp/gap.yaml > $tmp/gap.out &&
	 grep -q '^X .* miss (known gap)' $tmp/gap.out &&
	 grep -q '1 passed, 0 failed, 1 known gap ' $tmp/gap.out &&
	 sed 's/, known_gap: why//' $tmp/gap.yaml > $tmp/nogap.yaml &&
	 ! $GPUSIM reproduce $tmp/nogap.yaml > $tmp/nogap.out &&
	 grep -q '^X .*FAIL' $tmp/nogap.out && grep -q '1 passed, 1 failed' $tmp/nogap.out"
check "expect: paper_value 0 is refused at its position, exit 2" sh -c \
	"printf 'duration: 10ms\ntasks:\n  - {name: a, behavior: {throttle: {kernel: 100us}}}\nexpect:\n  - {id: X, quantity: q, value: tasks.a.gpu_share, paper_value: 0, min: 0}\n' > $tmp/pv0.yaml &&
	 $GPUSIM validate $tmp/pv0.yaml 2> $tmp/pv0.err; test \$? -eq 2 &&
	 grep -q 'pv0.yaml:5:65: paper_value: must not be 0' $tmp/pv0.err"
cat >"$tmp/badexpect.yaml" <<'YAML'
duration: 100ms
tasks:
  - name: a
    behavior: {throttle: {kernel: 100us}}
expect:
  - id: X1
    quantity: q
    value: tasks.a.gpu_sahre
    max: 0.5
YAML
check "a bad expect value path is a positioned error" sh -c \
	"$GPUSIM validate $tmp/badexpect.yaml 2>&1 | grep -q 'badexpect.yaml:8:[0-9]*: value: expected'"

# make bench: a quick point (no reproduce) still writes every field.
check "bench writes bench.json with speed and idle-memory rows" sh -c \
	"$GPUSIM bench --channels 16 --sim-seconds 1 --repeat 1 --no-reproduce \
	   --rss-tasks 64 --out $tmp/bench/bench.json > $tmp/bench.txt 2> $tmp/bench.err &&
	 grep -q '^throttle .* 16 ' $tmp/bench.txt &&
	 for k in scenario channels policy commands_per_s events_per_s \
		  ns_per_event bytes_per_idle_channel invariant_check_share \
		  invariant_checks; do
	   grep -q \"\\\"\$k\\\" :\" $tmp/bench/bench.json || exit 1; done &&
	 grep -q '\"idle-tasks\"' $tmp/bench/bench.json &&
	 grep -q '\"invariant_checks\" : [1-9]' $tmp/bench/bench.json &&
	 { grep -q '\"bytes_per_idle_channel\" : [1-9]' $tmp/bench/bench.json ||
	   grep -q 'not measured' $tmp/bench.err; }"
check "bench rejects a bad channel list" expect_status 2 "$GPUSIM" bench --channels 16,x
check "bench prints issue 20's goals as ratios with a verdict" sh -c \
	"grep -Eq '^whole process / simulation, 16 ch .* 1\.3x +[0-9.]+x  (pass|miss) \(CPU [0-9.]+/[0-9.]+ s: [0-9.]+x\)\$' $tmp/bench.txt &&
	 grep -Eq '^event loop / bare 4-ary heap, 16 ch .* 2\.0x +[0-9.]+x  (pass|miss)\$' $tmp/bench.txt &&
	 grep -Eq '^peak RSS KB per channel\+task, 64 ch .* 1\.0K +[0-9.]+K  (pass|miss)\$' $tmp/bench.txt &&
	 grep -Eq '^peak RSS KB per channel\+task, 1024 ch .* 1\.0K +[0-9.]+K  (pass|miss)\$' $tmp/bench.txt &&
	 grep -q '\"scenario\" : \"rss\"' $tmp/bench/bench.json &&
	 grep -q '\"scenario\" : \"process\"' $tmp/bench/bench.json &&
	 grep -q '\"ratio\" : [0-9]' $tmp/bench/bench.json &&
	 grep -q '\"sim_cpu_s\" : [0-9]' $tmp/bench/bench.json"

# A VM's own scheduler: an error in it is positioned, a run with one is
# deterministic and reports it per VM.
check "a node-level policy as a VM scheduler exits 2 at its position" sh -c \
	"$GPUSIM validate configs/paper/fleig_nested.yaml --set vms.1.scheduler=dcuda > /dev/null 2> $tmp/vmsched.err;
	 test \$? -eq 2 && grep -q 'cannot run as a VM' $tmp/vmsched.err &&
	 grep -q 'set vms.1.scheduler=dcuda\|fleig_nested.yaml:[0-9]*:[0-9]*' $tmp/vmsched.err"
cat >"$tmp/vminit.yaml" <<'YAML'
duration: 1s
vms:
  - name: v
    scheduler: {name: timeslice, params: {slice: 0}}
tasks:
  - {name: a, vm: v, behavior: {throttle: {kernel: 1ms}}}
YAML
check "a VM scheduler that cannot start: validate exits 2 at its name" sh -c \
	"$GPUSIM validate $tmp/vminit.yaml > /dev/null 2> $tmp/vminit.err;
	 test \$? -eq 2 && grep -q 'vminit.yaml:4:23: vm v: its scheduler timeslice failed to initialise' $tmp/vminit.err"
check "a VM scheduler that cannot start: run exits 2, writes nothing" sh -c \
	"$GPUSIM run $tmp/vminit.yaml --out $tmp/vminit-out -q 2> /dev/null;
	 test \$? -eq 2 && test ! -e $tmp/vminit-out"
check "a run with VM schedulers is byte-identical and reports them" sh -c \
	"$GPUSIM run configs/paper/fleig_nested.yaml --set duration=500ms --set vms.1.scheduler=timeslice --out $tmp/v1 -q &&
	 $GPUSIM run configs/paper/fleig_nested.yaml --set duration=500ms --set vms.1.scheduler=timeslice --out $tmp/v2 -q &&
	 cmp $tmp/v1/summary.json $tmp/v2/summary.json &&
	 cmp $tmp/v1/timeline.pftrace $tmp/v2/timeline.pftrace &&
	 grep -q '\"scheduler\" : \"timeslice\"' $tmp/v1/summary.json &&
	 grep -aq 'vm vm2 scheduler timeslice' $tmp/v1/timeline.pftrace"

# Several files: all are loaded first; each writes DIR/NAME, the same bytes
# as a run of it alone; one bad file stops them all before anything runs.
check "run of several files writes DIR/NAME each, as alone" sh -c \
	"$GPUSIM run configs/paper/neon_fig6_direct.yaml configs/examples/throttle.yaml --out $tmp/many -q &&
	 cmp $tmp/a/summary.json $tmp/many/neon-fig6-direct/summary.json &&
	 $GPUSIM run configs/examples/throttle.yaml --out $tmp/one -q &&
	 cmp $tmp/one/summary.json $tmp/many/throttle/summary.json"
check "run of several files with a bad one: exit 2, every error, nothing written" sh -c \
	"$GPUSIM run configs/examples/throttle.yaml $tmp/bad.yaml $tmp/nope.yaml --out $tmp/many-bad -q 2>$tmp/err;
	 test \$? -eq 2 && test ! -e $tmp/many-bad &&
	 grep -q 'bad.yaml:5:' $tmp/err && grep -q 'nope.yaml' $tmp/err"
check "run of two scenarios with one name: exit 2, nothing written" sh -c \
	"mkdir -p $tmp/twin && cp configs/examples/throttle.yaml $tmp/twin/;
	 $GPUSIM run configs/examples/throttle.yaml $tmp/twin/throttle.yaml --out $tmp/twins -q 2>$tmp/err;
	 test \$? -eq 2 && test ! -e $tmp/twins && grep -q 'both write' $tmp/err"
check "validate of several files checks each and exits 2 on a bad one" sh -c \
	"$GPUSIM validate configs/default.yaml $tmp/bad.yaml configs/examples/vms.yaml >$tmp/vout 2>$tmp/err;
	 test \$? -eq 2 && test \$(grep -c ': ok:' $tmp/vout) -eq 2 && grep -q 'bad.yaml:5:' $tmp/err"
# A parameter's bounds are the same in every policy that has it, and in list.
check "hdfq refuses free_run_factor over dfq's bound" sh -c \
	"$GPUSIM validate configs/examples/vms.yaml --set policy.params.free_run_factor=4000000000 2>$tmp/err;
	 test \$? -eq 2 && grep -q 'free_run_factor must be between 0 and 1000' $tmp/err"
check "list shows hdfq's bounds" sh -c \
	"$GPUSIM list | sed -n '/^  hdfq /,/^  [a-z]/p' > $tmp/hdfq_list &&
	 grep -q 'free_run_factor .*(at most 1000)' $tmp/hdfq_list &&
	 grep -q 'event_X .*(at most 1000)' $tmp/hdfq_list"

# A run stopped by max_events says so in summary.json, not only on stderr.
check "summary.json records capped: true at max_events, false otherwise" sh -c \
	"$GPUSIM run configs/default.yaml --set max_events=500 --out $tmp/cap -q --no-timeline --no-standalone &&
	 grep -q '\"capped\" : true,' $tmp/cap/summary.json &&
	 $GPUSIM run configs/default.yaml --out $tmp/nocap -q --no-timeline --no-standalone &&
	 grep -q '\"capped\" : false,' $tmp/nocap/summary.json"

# volta: a channel with two queued 50 ms commands, preempted again and
# again beside a throttle, completes its rounds (a single saved command
# per channel lost one: 0 rounds, exit 0); the run's invariants hold.
cat >"$tmp/preempt.yaml" <<'YAML'
duration: 1s
gpu: {preset: volta}
tasks:
  - name: heavy
    behavior:
      script:
        - repeat:
            steps: [{launch: 50ms}, {launch: 50ms}, wait, round]
  - name: light
    behavior:
      throttle: {kernel: 1ms, sleep: 9ms}
YAML
check "volta: preempted queued commands all complete, invariants ok" sh -c \
	"$GPUSIM run $tmp/preempt.yaml --out $tmp/preempt -q --no-standalone &&
	 grep -q '\"invariants\" : \"ok\"' $tmp/preempt/summary.json &&
	 sed -n 's/^heavy,[^,]*,[^,]*,[^,]*,\\([0-9]*\\),.*/\\1/p' $tmp/preempt/tasks.csv |
	 awk '{ r = \$1 } END { exit !(r >= 8) }'"

check "a bare make builds gpusim (its default goal is all)" sh -c \
	"make -p -n -f Makefile 2>/dev/null | grep -qx '.DEFAULT_GOAL := all'"

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
