#!/bin/sh
# Interrupted and failed writes: a results folder (of a run, of a sweep
# point, a sweep's sweep.csv and manifest.json) holds either every file of
# the old run or every file of the new one, and no temporary file is left
# anywhere, whether a write fails (disk full, through the
# GPUSIM_FAIL_WRITE_AFTER seam) or SIGINT/SIGTERM arrives mid-write (at a
# byte chosen through GPUSIM_PAUSE_WRITE_AFTER, or after a delay).
# Usage: tests/interrupt_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
case $GPUSIM in /*) ;; *) GPUSIM=$(pwd)/$GPUSIM ;; esac
. "$(dirname "$0")/check_lib.sh"
cfg=$(cd "$(dirname "$0")/.." && pwd)/configs/default.yaml

# A non-interactive shell starts background commands with SIGINT ignored,
# which gpusim (like any program) keeps; give them the default back.
bg() { env --default-signal=INT,TERM "$@" & }

no_temps() { # folder: nothing named like a temporary under it
	! find "$1" -name '.*tmp*' | grep -q .
}

same_as() { # folder, reference copy: same names, same bytes
	diff -r "$1" "$2" >/dev/null
}

# Waits until process $1 stops itself (the pause seam): 0, or 1 if it
# ended or never stopped.
wait_stopped() {
	i=0
	while [ $i -lt 400 ]; do
		st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
		[ "$st" = T ] && return 0
		[ -z "$st" ] && return 1
		sleep 0.02
		i=$((i + 1))
	done
	return 1
}

signum() { case $1 in INT) echo 2 ;; TERM) echo 15 ;; esac; }

size() { wc -c < "$1" | tr -d ' '; }

# The old set (seed 1) and the new one (seed 2), for reference.
run() { "$GPUSIM" run "$cfg" -q --set duration=3s "$@"; }
run --seed 1 --out "$tmp/old"
run --seed 2 --out "$tmp/new"
t=$(size "$tmp/new/tasks.csv")
s=$(size "$tmp/new/series.csv")
l=$(size "$tmp/new/timeline.pftrace")
# Byte counts that fall inside each file in turn (tasks.csv, series.csv,
# timeline.pftrace, summary.json), and before the first byte.
offsets="0 $((t / 2)) $((t + s / 2)) $((t + s + l / 2)) $((t + s + l + 10))"

mkdir "$tmp/fail"
for n in $offsets; do
	rm -rf "$tmp/fail/out" && cp -a "$tmp/old" "$tmp/fail/out"
	check "a write failing after $n bytes exits 1 and keeps the old set" sh -c \
		"GPUSIM_FAIL_WRITE_AFTER=$n $GPUSIM run $cfg -q --set duration=3s --seed 2 --out $tmp/fail/out 2>$tmp/err;
		 test \$? -eq 1 && grep -q 'No space left on device' $tmp/err &&
		 grep -q '$tmp/fail/out/' $tmp/err && ! grep -q '\\.out\\.tmp\\.' $tmp/err &&
		 diff -r $tmp/old $tmp/fail/out && ls -A $tmp/fail | grep -qx out &&
		 test \$(ls -A $tmp/fail | wc -l) -eq 1"
done
check "a write with room enough gives the new set" sh -c \
	"GPUSIM_FAIL_WRITE_AFTER=999999999 $GPUSIM run $cfg -q --set duration=3s --seed 2 --out $tmp/fail/out &&
	 diff -r $tmp/new $tmp/fail/out && no_temps() { ! find \"\$1\" -name '.*tmp*' | grep -q .; } && no_temps $tmp/fail"

# A signal at each of those bytes: killed by it, old set, no temporary.
mkdir "$tmp/sig"
for sig in INT TERM; do
	for n in $offsets; do
		rm -rf "$tmp/sig/out" && cp -a "$tmp/old" "$tmp/sig/out"
		GPUSIM_PAUSE_WRITE_AFTER=$n bg "$GPUSIM" run "$cfg" -q \
			--set duration=3s --seed 2 --out "$tmp/sig/out"
		pid=$!
		stopped=no
		wait_stopped $pid && stopped=yes
		kill -$sig $pid 2>/dev/null
		kill -CONT $pid 2>/dev/null
		wait $pid 2>/dev/null
		rc=$?
		want=$((128 + $(signum $sig)))
		check "SIG$sig after $n bytes: killed by it ($rc), old set kept" sh -c \
			"test $stopped = yes && test $rc -eq $want &&
			 diff -r $tmp/old $tmp/sig/out && test \$(ls -A $tmp/sig | wc -l) -eq 1"
	done
done

# SIGKILL cannot be caught: the temporary folder stays, with the old set
# in place, until the next write of that folder removes it.
rm -rf "$tmp/sig/out" && cp -a "$tmp/old" "$tmp/sig/out"
GPUSIM_PAUSE_WRITE_AFTER=$t bg "$GPUSIM" run "$cfg" -q --set duration=3s \
	--seed 2 --out "$tmp/sig/out"
pid=$!
stopped=no
wait_stopped $pid && stopped=yes
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
check "SIGKILL mid-write leaves the old set and a temporary folder" sh -c \
	"test $stopped = yes && diff -r $tmp/old $tmp/sig/out &&
	 test \$(ls -A $tmp/sig | grep -c '^\.out\.tmp\.') -eq 1"
check "the next run into the folder removes the killed run's temporary" sh -c \
	"$GPUSIM run $cfg -q --set duration=3s --seed 2 --out $tmp/sig/out &&
	 diff -r $tmp/new $tmp/sig/out && test \$(ls -A $tmp/sig | wc -l) -eq 1"

# A signal between the temporary folder's creation and its registration
# for removal (a seam raises SIGINT there): it waits until the folder is
# registered, so the process dies of it with nothing left behind.
mkdir "$tmp/mk"
cp -a "$tmp/old" "$tmp/mk/out"
GPUSIM_SIGNAL_AT_MKDTEMP=1 bg "$GPUSIM" run "$cfg" -q --set duration=3s \
	--seed 2 --out "$tmp/mk/out"
pid=$!
wait $pid 2>/dev/null
rc=$?
check "SIGINT as the temporary folder is made: killed, the old set, no temporary" sh -c \
	"test $rc -eq $((128 + 2)) && diff -r $tmp/old $tmp/mk/out &&
	 test \$(ls -A $tmp/mk | wc -l) -eq 1"

# Signals after a delay, wherever they land: old set or new set.
long() { "$GPUSIM" run "$cfg" -q --set duration=40s "$@"; }
long --seed 1 --out "$tmp/long_old"
long --seed 2 --out "$tmp/long_new"
mkdir "$tmp/delay"
for d in 0.01 0.05 0.1 0.15 0.2 0.3 0.5; do
	rm -rf "$tmp/delay/out" && cp -a "$tmp/long_old" "$tmp/delay/out"
	bg "$GPUSIM" run "$cfg" -q --set duration=40s --seed 2 \
		--out "$tmp/delay/out"
	pid=$!
	sleep $d
	kill -INT $pid 2>/dev/null
	wait $pid 2>/dev/null
	check "SIGINT after ${d}s: the old set or the new one, no temporary" sh -c \
		"{ diff -r $tmp/long_old $tmp/delay/out || diff -r $tmp/long_new $tmp/delay/out; } &&
		 test \$(ls -A $tmp/delay | wc -l) -eq 1"
done

# Sweeps: a point interrupted in its write keeps its old folder, the
# sweep's other points stay whole, and a rerun completes the same table.
cat >"$tmp/grid.yaml" <<'YAML'
name: grid
duration: 500ms
policy: {name: direct}
tasks:
  - name: app
    behavior: {app: DCT}
  - name: throttle
    behavior: {throttle: {kernel: 300us}}
sweep:
  policy.name: [direct, dfq]
  seeds: [1, 2]
YAML
sweep() { "$GPUSIM" sweep "$tmp/grid.yaml" -q "$@"; }
sweep -j2 --out "$tmp/sw_old"
sweep -j2 --out "$tmp/sw_new" --set duration=400ms
for sig in INT TERM; do
	rm -rf "$tmp/sw" && cp -a "$tmp/sw_old" "$tmp/sw"
	GPUSIM_PAUSE_WRITE_AFTER=5000 bg "$GPUSIM" sweep "$tmp/grid.yaml" -q \
		-j1 --out "$tmp/sw" --set duration=400ms
	pid=$!
	# the point's worker that stopped in its write (the pool's first
	# children may be workers of shared standalone runs, which write
	# nothing)
	worker=
	i=0
	while [ -z "$worker" ] && [ $i -lt 400 ]; do
		for c in $(cat /proc/$pid/task/$pid/children 2>/dev/null); do
			[ "$(awk '{ print $3 }' /proc/$c/stat 2>/dev/null)" = T ] &&
				worker=$c
		done
		i=$((i + 1))
		[ -z "$worker" ] && sleep 0.02
	done
	stopped=no
	[ -n "$worker" ] && wait_stopped "$worker" && stopped=yes
	kill -$sig $pid   # the sweep alone: its worker must follow
	kill -CONT "$worker" 2>/dev/null
	wait $pid 2>/dev/null
	i=0 # the worker is no child of ours: wait for it to go
	while [ -n "$worker" ] && [ -e "/proc/$worker" ] && [ $i -lt 200 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	check "sweep SIG$sig mid-point: every point old or new, no temporary" sh -c \
		"test $stopped = yes && no_temps() { ! find \"\$1\" -name '.*tmp*' | grep -q .; } &&
		 no_temps $tmp/sw && diff $tmp/sw_old/sweep.csv $tmp/sw/sweep.csv &&
		 diff $tmp/sw_old/manifest.json $tmp/sw/manifest.json &&
		 for p in $tmp/sw_old/points/*; do
		   id=\$(basename \$p)
		   diff -r \$p $tmp/sw/points/\$id || diff -r $tmp/sw_new/points/\$id $tmp/sw/points/\$id || exit 1
		 done && test \$(ls -A $tmp/sw/points | wc -l) -eq 4"
	check "sweep SIG$sig: the rerun completes the same table" sh -c \
		"$GPUSIM sweep $tmp/grid.yaml -q -j2 --out $tmp/sw --set duration=400ms &&
		 diff -r $tmp/sw_new $tmp/sw"
done

# --collect interrupted while it writes sweep.csv and manifest.json: both
# stay as they were.
rm -rf "$tmp/co"
for i in 0 1; do sweep --out "$tmp/co" --point $i; done
sweep --collect "$tmp/co" 2>/dev/null
cp "$tmp/co/sweep.csv" "$tmp/co_csv"
cp "$tmp/co/manifest.json" "$tmp/co_manifest"
for i in 2 3; do sweep --out "$tmp/co" --point $i; done
GPUSIM_PAUSE_WRITE_AFTER=100 bg "$GPUSIM" sweep "$tmp/grid.yaml" -q \
	--collect "$tmp/co"
pid=$!
stopped=no
wait_stopped $pid && stopped=yes
kill -TERM $pid 2>/dev/null
kill -CONT $pid 2>/dev/null
wait $pid 2>/dev/null
check "--collect killed mid-write keeps sweep.csv and manifest.json" sh -c \
	"test $stopped = yes && cmp $tmp/co_csv $tmp/co/sweep.csv &&
	 cmp $tmp/co_manifest $tmp/co/manifest.json &&
	 ! find $tmp/co -name '.*tmp*' | grep -q ."
check "--collect failing to write keeps them too" sh -c \
	"! GPUSIM_FAIL_WRITE_AFTER=100 $GPUSIM sweep $tmp/grid.yaml -q --collect $tmp/co 2>/dev/null &&
	 cmp $tmp/co_csv $tmp/co/sweep.csv && cmp $tmp/co_manifest $tmp/co/manifest.json &&
	 ! find $tmp/co -name '.*tmp*' | grep -q ."

echo "interrupt: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
