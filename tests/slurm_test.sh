#!/bin/sh
# make slurm-test: a paper sweep run as a Slurm job array on a one-node
# cluster brought up on localhost (munged, slurmctld, slurmd started
# directly, no systemd, everything in one temporary folder), collected and
# compared byte for byte with a local -j2 run; then one point is removed
# and the script emitted again must submit that point only.
#
# Installs Debian's slurm-wlm and munge when they are missing (as root).
# Usage: tests/slurm_test.sh [path/to/gpusim]
set -eu
GPUSIM=${1:-./gpusim}
case $GPUSIM in /*) ;; *) GPUSIM=$(pwd)/$GPUSIM ;; esac
SWEEP=$(cd "$(dirname "$0")/.." && pwd)/configs/paper/sweeps/neon_fig6_fig7.yaml
# Not the default ports, so a cluster already on this machine is left be.
CTLD_PORT=${SLURM_TEST_CTLD_PORT:-16817}
SLURMD_PORT=${SLURM_TEST_SLURMD_PORT:-16818}

started=$(date +%s)
# The whole test, daemons and all, gives up after this many seconds.
LIMIT=${SLURM_TEST_LIMIT:-110}
in_time() { [ $(($(date +%s) - started)) -lt "$LIMIT" ]; }
say() { echo "slurm-test: [$(($(date +%s) - started)) s] $*"; }
die() { echo "slurm-test: FAIL: $*" >&2; exit 1; }

if ! command -v slurmctld >/dev/null 2>&1 ||
   ! command -v munged >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || die "slurm-wlm and munge are not installed (run as root to install them)"
	say "installing slurm-wlm and munge"
	export DEBIAN_FRONTEND=noninteractive
	# a mirror mid-sync for another architecture's lists (seen:
	# bookworm-security's i386 index, once make ktest32 has added i386)
	# fails the update but not what this needs; the install below fails
	# if it is missing
	apt-get update -qq || say "apt-get update reported errors"
	apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi
[ "$(id -u)" -eq 0 ] || die "the daemons are started as root: run as root"
# Debian's packages put the daemons in /usr/sbin.
PATH=$PATH:/usr/sbin:/sbin

work=$(mktemp -d "${TMPDIR:-/tmp}/gpusim-slurm.XXXXXX")
chmod 700 "$work"

stop_daemons() {
	for f in slurmd slurmctld munged; do
		[ -s "$work/$f.pid" ] || continue
		pid=$(cat "$work/$f.pid")
		kill "$pid" 2>/dev/null || continue
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null || true
	done
}
show_logs() {
	for f in "$work"/*.log; do
		[ -e "$f" ] || continue
		echo "--- $f"
		tail -20 "$f"
	done
}
cleanup() {
	status=$?
	[ $status -eq 0 ] || show_logs
	stop_daemons
	rm -rf "$work"
	exit $status
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# --- bring up munge and Slurm on localhost ---
host=$(hostname -s 2>/dev/null || cat /proc/sys/kernel/hostname)
cpus=$(nproc)
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$work/munge.sock" \
	--pid-file="$work/munged.pid" --log-file="$work/munged.log" \
	--seed-file="$work/munge.seed" ||
	die "munged did not start"

mkdir "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=gpusimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
ReturnToService=2
SchedulerType=sched/builtin
# Start pending array tasks as soon as others end (the default waits up
# to a minute between passes).
SchedulerParameters=sched_interval=1,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -c -f "$SLURM_CONF" || die "slurmctld did not start"
slurmd -f "$SLURM_CONF" -N "$host" || die "slurmd did not start"

until sinfo -h -o %T 2>/dev/null | grep -q idle; do
	in_time || die "the node did not come up: $(sinfo 2>&1)"
	sleep 0.1
done
say "cluster up: $host, $cpus CPUs"

# Submits script $1, waits (bounded) until its array is done, prints the
# job id.
submit_and_wait() {
	# From the work folder: logs that go astray stay out of the tree.
	job=$(cd "$work" && sbatch --parsable "$1") || die "sbatch refused $1"
	job=${job%%;*}
	while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do
		in_time || die "job $job did not finish within the test's $LIMIT s"
		sleep 0.1
	done
	echo "$job"
}
# The --collect line the script itself tells the user to run.
collect_line() { sed -n 's/^#   \(.* --collect .*\)$/\1/p' "$1"; }

# --- the whole sweep as an array, against a local -j2 run ---
cl="$work/sweep out" # a space: the script must quote its paths
"$GPUSIM" sweep "$SWEEP" -q -j2 --no-timeline --out "$work/local"
n=$(($(wc -l < "$work/local/sweep.csv") - 1))
"$GPUSIM" sweep "$SWEEP" --emit-slurm -j 4 --no-timeline \
	--out "$cl" >"$work/all.sh"
grep -q "^#SBATCH --array=0-$((n - 1))%4\$" "$work/all.sh" ||
	die "the script does not submit all $n points: $(grep array "$work/all.sh")"
job=$(submit_and_wait "$work/all.sh")
logs=$(ls "$cl/logs" 2>/dev/null | grep -c "^${job}_" || true)
[ "$logs" -eq "$n" ] || die "$logs logs of job $job in DIR/logs, wanted $n"
line=$(collect_line "$work/all.sh")
[ -n "$line" ] || die "the script has no --collect line"
sh -c "$line -q" || die "collecting failed: $line"
cmp "$work/local/sweep.csv" "$cl/sweep.csv" ||
	die "the array's sweep.csv differs from the local run's"
cmp "$work/local/manifest.json" "$cl/manifest.json" ||
	die "the array's manifest.json differs from the local run's"
say "array of $n points collected: identical to the local -j2 run"

# --- one point lost: only it is submitted again ---
lost=$(ls "$cl/points" | sed -n 5p)
index=$(grep -n "^$lost," "$work/local/sweep.csv" | cut -d: -f1)
index=$((index - 2))
rm -r "$cl/points/$lost"
for p in "$cl"/points/*; do
	stat -c '%n %i %Y' "$p/point.json"
done >"$work/before"
"$GPUSIM" sweep "$SWEEP" --emit-slurm -j 4 --no-timeline \
	--out "$cl" >"$work/rest.sh"
grep -q "^#SBATCH --array=$index%4\$" "$work/rest.sh" ||
	die "the second script does not submit point $index only: $(grep array "$work/rest.sh")"
job2=$(submit_and_wait "$work/rest.sh")
logs=$(ls "$cl/logs" 2>/dev/null | grep -c "^${job2}_" || true)
[ "$logs" -eq 1 ] || die "job $job2 ran $logs tasks, wanted 1"
[ -s "$cl/points/$lost/point.json" ] || die "point $lost did not run"
for p in "$cl"/points/*; do
	[ "$(basename "$p")" = "$lost" ] && continue
	stat -c '%n %i %Y' "$p/point.json"
done | cmp -s - "$work/before" || die "points other than $lost were rewritten"
sh -c "$(collect_line "$work/rest.sh") -q" || die "the second collect failed"
cmp "$work/local/sweep.csv" "$cl/sweep.csv" ||
	die "after the resubmission sweep.csv differs from the local run's"
say "point $lost ($index) alone resubmitted; sweep.csv identical again"
say "passed"
