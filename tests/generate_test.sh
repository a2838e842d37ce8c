#!/bin/sh
# gpusim generate: the same seed gives the same bytes (scenario and trace
# CSVs), every generated file passes `gpusim validate` (a few seeds for
# every policy and preset), --classic draws none of the second stream's
# inputs, and bad options exit 2.
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

"$gpusim" generate --policy nosuch >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown policy: exit 2" || bad "unknown policy"
"$gpusim" generate --preset fermi >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown preset: exit 2" || bad "unknown preset"
exit $fail
