#!/bin/sh
# gpusim replay (docs/hal-record.md):
#   - a replay of the record of every policy on several scenarios
#     (configs/examples, configs/paper, configs/drm, generated ones)
#     reproduces every call and op result;
#   - a record with one value changed, a call missing or added, is caught
#     at the right line with both sides named; a malformed record and bad
#     options exit 2.
. "$(dirname "$0")/replay/record_lib.sh"

# a record of dfq for the perturbations below
record configs/paper/neon_fig6_dfq.yaml "$tmp/dfq.rec" || bad "record dfq"

# ---- replays -----------------------------------------------------------------
# replay NAME REC: the replay of REC matches
replay() {
	if out=$("$gpusim" replay "$2" 2>&1); then
		n=$((n + 1))
		calls=$((calls + $(echo "$out" | sed 's/.*, \([0-9]*\) HAL.*/\1/')))
	else
		bad "replay of $1: $out"
	fi
}
n=0 calls=0
for f in configs/examples/*.yaml configs/paper/*.yaml configs/drm/*.yaml; do
	b=$(basename "$f" .yaml)
	# R12's node of 20 apps (15 MB of record) adds nothing dcuda's
	# generated scenarios do not
	[ "$b" = dcuda_r12 ] && continue
	record "$f" "$tmp/$b.rec" && replay "$b" "$tmp/$b.rec" ||
		bad "record $f"
	rm -f "$tmp/$b.rec"
done
policies=$("$gpusim" list | sed -n '/^Policies/,/^GPU presets/p' |
	   sed -n 's/^  \([a-z-]*\) .*/\1/p')
np=0
for p in $policies; do
	np=$((np + 1))
	for s in 1 2 3; do
		g="$tmp/gen-$p-$s.yaml"
		"$gpusim" generate --seed $s --policy "$p" -o "$g" 2>/dev/null &&
			record "$g" "$tmp/gen.rec" && replay "$p seed $s" "$tmp/gen.rec" ||
			bad "record generated $p seed $s"
	done
	# the drm policies and node policies on the shapes written for others
	record configs/examples/throttle.yaml "$tmp/t.rec" \
		--set policy.name="$p" && replay "$p throttle" "$tmp/t.rec" ||
		bad "record throttle.yaml under $p"
done
[ "$np" -ge 12 ] && [ "$n" -ge 80 ] &&
	ok "$n records of $np policies replay identically ($calls HAL calls)" ||
	bad "only $n records of $np policies replayed"

# ---- differences are caught --------------------------------------------------
rec=$tmp/dfq.rec
# expect_diff NAME FILE STATUS TEXT: replay of FILE exits STATUS and says TEXT
expect_diff() {
	out=$("$gpusim" replay "$2" 2>&1)
	st=$?
	if [ $st -eq "$3" ] && echo "$out" | grep -qF -- "$4"; then
		ok "$1"
	else
		bad "$1: exit $st: $out"
	fi
}
# an output: the first timer the policy arms, one more nanosecond
l=$(grep -n '^hal_timer_arm 1 ' "$rec" | head -1 | cut -d: -f1)
v=$(sed -n "${l}p" "$rec" | cut -d' ' -f3)
sed "${l}s/ $v\$/ $((v + 1))/" "$rec" > "$tmp/p.rec"
expect_diff "a changed output is caught" "$tmp/p.rec" 1 \
	"p.rec:$l:1: policy dfq, op timer at 25000000 ns: the policy called \`hal_timer_arm 1 $v\`, the record has \`hal_timer_arm 1 $((v + 1))\`"
# a query: the drain poll period (parameter 0) answered 1 ms longer is
# caught at once, against the instance line's params= string (none: all
# defaults) ...
l=$(grep -n '^hal_param 0 = ' "$rec" | head -1 | cut -d: -f1)
sed "${l}s/= \([0-9]*\)\$/= 2000000/" "$rec" > "$tmp/p.rec"
expect_diff "a parameter answered other than params= gives is caught at its line" \
	"$tmp/p.rec" 1 "p.rec:$l:1: policy dfq, op init at 0 ns: hal_param poll: the record answered 2000000, params \`\` gives 1000000"
# ... and in a record without params= (older ones), where it shows: it
# moves the first poll the policy arms
sed -i '3s/ params -$//' "$tmp/p.rec"
expect_diff "a changed query answer is caught where it shows" \
	"$tmp/p.rec" 1 "the policy called \`hal_timer_arm 1 "
# the params= string itself: another value, a name the policy lacks
sed '3s/ params -$/ params poll=3ms/' "$rec" > "$tmp/p.rec"
expect_diff "a changed params= string is caught" "$tmp/p.rec" 1 \
	"p.rec:$l:1: policy dfq, op init at 0 ns: hal_param poll: the record answered 1000000, params \`poll=3ms\` gives 3000000"
sed '3s/ params -$/ params pol=3ms/' "$rec" > "$tmp/p.rec"
expect_diff "a params= string the parser refuses is caught" "$tmp/p.rec" 1 \
	"p.rec:3:1: policy dfq: params \`pol=3ms\` refused by this environment's parser"
# every spelling of the kernel's params= syntax gives the same values
sed '3s/ params .*$/ params %20slice%20=%201000%20us%20,engaged=On,poll=1000000,,/' \
	tests/replay/tiny.rec > "$tmp/p.rec"
expect_diff "params= in the kernel's other spellings gives the same values" \
	"$tmp/p.rec" 0 "identical: 1 instance(s), 23 op calls, 74 HAL calls checked (5 hal_param answers also against params=)"
# a call the record has and the policy does not make, and the reverse
l=$(grep -n '^hal_account ' "$rec" | head -1 | cut -d: -f1)
sed "${l}d" "$rec" > "$tmp/p.rec"
expect_diff "a call missing from the record is caught" "$tmp/p.rec" 1 \
	"p.rec:$l:1: policy dfq, op "
sed "${l}p" "$rec" > "$tmp/p.rec"
expect_diff "a call the policy does not make is caught" "$tmp/p.rec" 1 \
	"p.rec:$((l + 1)):1: policy dfq, op "
# an op result: the first HOLD recorded as ALLOW
l=$(grep -n '^ret 1$' "$rec" | head -1 | cut -d: -f1)
sed "${l}s/ret 1/ret 0/" "$rec" > "$tmp/p.rec"
expect_diff "a changed op result is caught" "$tmp/p.rec" 1 \
	"p.rec:$l:1: policy dfq, op submit at "
# a record cut before fini: the policy still holds what fini frees (the
# check a kernel module's unload makes)
l=$(grep -n ' fini$' "$rec" | tail -1 | cut -d: -f1)
head -n $((l - 1)) "$rec" > "$tmp/p.rec"
expect_diff "memory the policy never freed is caught" "$tmp/p.rec" 1 \
	"policy dfq: the policy still holds 1 allocation(s) after the section's last op"
# malformed records: exit 2 with the position
sed '1s/ 1$/ 9/' "$rec" > "$tmp/p.rec"
expect_diff "another version: exit 2" "$tmp/p.rec" 2 \
	"p.rec:1:1: not a HAL record of version 1"
sed '3s/ dfq / nosuch /' "$rec" > "$tmp/p.rec"
expect_diff "an unknown policy: exit 2" "$tmp/p.rec" 2 \
	"p.rec:3:1: policy ?: no policy named nosuch"
l=$(grep -n '^op .* submit ' "$rec" | head -1 | cut -d: -f1)
sed "${l}s/ submit / sumbit /" "$rec" > "$tmp/p.rec"
expect_diff "an unknown op: exit 2" "$tmp/p.rec" 2 "p.rec:$l:1: policy dfq: an unknown op"
"$gpusim" replay "$tmp/none.rec" >/dev/null 2>&1
[ $? -eq 2 ] && ok "a missing record: exit 2" || bad "a missing record"

[ $fail -eq 0 ] && echo "replay: ok" || echo "replay: FAILED"
exit $fail
