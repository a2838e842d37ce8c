#!/bin/sh
# gpusim generate: the same seed gives the same bytes (scenario and trace
# CSVs), every generated file passes `gpusim validate` (a few seeds for
# every policy and preset), --classic (edition 1) draws none of the
# second stream's inputs and --edition 2 none of the third's, and bad
# options exit 2 (tests/test_generate_editions.c checks every edition's
# inputs).
gpusim=$(realpath "${1:-./gpusim}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

mkdir "$tmp/a" "$tmp/b"
for s in 1 2 3 4 5 6 7 8; do
	"$gpusim" generate --seed $s -o "$tmp/a/gen-$s.yaml" &&
	"$gpusim" generate --seed $s -o "$tmp/b/gen-$s.yaml" ||
		bad "generate --seed $s"
done
diff -r "$tmp/a" "$tmp/b" >/dev/null && ok "same seed, same files" ||
	bad "two runs of generate differ"
ls "$tmp/a"/*.csv >/dev/null 2>&1 && ok "trace CSVs written beside" ||
	bad "no trace CSV among 8 seeds"

n=0
for p in $("$gpusim" list | sed -n '/^Policies/,/^GPU presets/p' |
	   sed -n 's/^  \([a-z-]*\) .*/\1/p'); do
	for x in kepler volta; do
		for s in 1 2 3; do
			f="$tmp/$p-$x-$s.yaml"
			"$gpusim" generate --seed $s --policy $p --preset $x \
				-o "$f" && "$gpusim" validate "$f" >/dev/null ||
				bad "validate $p $x seed $s"
			n=$((n + 1))
		done
	done
done
[ $n -ge 54 ] && ok "$n generated files validate" || bad "only $n files"

# --classic: only the first stream's draws, none of the second's keys;
# without it, some of those keys in these seeds
more='priority:|max_inflight:|rounds:|content:|sched:|preemption:|copy_engine:|on_kill:|interference:|power:|unified_memory:|on_demand:|poisson:|shuffled'
mkdir "$tmp/c"
for s in 1 2 3 4 5 6 7 8; do
	"$gpusim" generate --classic --seed $s -o "$tmp/c/gen-$s.yaml" ||
		bad "generate --classic --seed $s"
done
grep -Eq "$more" "$tmp"/c/*.yaml && bad "--classic wrote a second-stream key" ||
	ok "--classic: no second-stream key in 8 seeds"
grep -Eq "$more" "$tmp"/a/*.yaml && ok "second-stream keys drawn in 8 seeds" ||
	bad "no second-stream key in 8 seeds"

# --edition 2: the second stream's keys but none of the third's (a
# launch's irq, class or contents in a script, a wait's mode or channel
# in a script, an app's or trace's wait mode, an app's request, a job's
# startup or name, a task's count)
third='irq: true|wait: interrupt|wait: \{channel|request:|startup:|job: \{app:|^    count:|compute, class:|copy, class:'
mkdir "$tmp/e2"
for s in 1 2 3 4 5 6 7 8; do
	"$gpusim" generate --edition 2 --seed $s -o "$tmp/e2/gen-$s.yaml" ||
		bad "generate --edition 2 --seed $s"
done
cmp -s "$tmp/e2/gen-1.yaml" "$tmp/a/gen-1.yaml" &&
	bad "--edition 2 wrote the latest edition's file" ||
	ok "--edition 2 differs from the latest edition"
grep -Eq "$more" "$tmp"/e2/*.yaml && ok "--edition 2: second-stream keys" ||
	bad "--edition 2: no second-stream key in 8 seeds"
sed 's/^      throttle: .*//' "$tmp"/e2/*.yaml | grep -Eq "$third" &&
	bad "--edition 2 wrote a third-stream key" ||
	ok "--edition 2: no third-stream key in 8 seeds"
sed 's/^      throttle: .*//' "$tmp"/a/*.yaml | grep -Eq "$third" &&
	ok "third-stream keys drawn in 8 seeds" ||
	bad "no third-stream key in 8 seeds"
for e in 0 6 x; do
	"$gpusim" generate --edition $e >/dev/null 2>&1
	[ $? -eq 2 ] && ok "--edition $e: exit 2" || bad "--edition $e"
done

"$gpusim" generate --policy nosuch >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown policy: exit 2" || bad "unknown policy"
"$gpusim" generate --preset fermi >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown preset: exit 2" || bad "unknown preset"
exit $fail
