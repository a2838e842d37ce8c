#!/bin/sh
# Records a small trace-cmd trace.dat of the CPU scheduler's sched_switch and
# sched_wakeup events, the binary sample of the drm-tracecmd importer
# (tests/import/samples/drm-tracecmd/sched-switch.dat), on the machine it
# runs on: a trace.dat of another kernel than the DRM recording's
# (scripts/record_drm_sample.sh), with no GPU scheduler event in it.
#
# Needs root and tracefs. `trace-cmd record` wants to write
# /proc/sys/kernel/ftrace_enabled, which a container may refuse, so the
# events are enabled through tracefs and the buffer taken with
# `trace-cmd extract`. The file would carry /proc/kallsyms and the format of
# every event the kernel has (over 1 MB); in a private mount namespace
# kallsyms is hidden and tracefs's events/ shows only the formats needed.
#
# usage: scripts/record_tracecmd_sample.sh OUT.dat
set -eu
out=${1:?usage: $0 OUT.dat}
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
events="sched/sched_switch sched/sched_wakeup"

mkdir -p "$work/events"
cp $T/events/header_page $T/events/header_event "$work/events/"
for d in $T/events/ftrace/*/; do
	mkdir -p "$work/events/ftrace/$(basename "$d")"
	cp "$d/format" "$d/id" "$work/events/ftrace/$(basename "$d")/" 2>/dev/null || :
done
for e in $events; do
	mkdir -p "$work/events/$e"
	cp $T/events/$e/format $T/events/$e/id "$work/events/$e/"
	echo 0 >"$work/events/$e/enable"
done
: >"$work/kallsyms"

was_on=$(cat $T/tracing_on)
echo >$T/trace
echo 1 >$T/tracing_on
for e in $events; do echo 1 >$T/events/$e/enable; done
sleep 0.02; ls / >/dev/null; sleep 0.02
for e in $events; do echo 0 >$T/events/$e/enable; done

unshare -m sh -c "mount --bind '$work/events' $T/events &&
	mount --bind '$work/kallsyms' /proc/kallsyms &&
	trace-cmd extract -o '$out'" >/dev/null
echo "$was_on" >$T/tracing_on
trace-cmd report -i "$out" 2>/dev/null | grep -c ': sched_' |
	sed 's/^/records: /'
