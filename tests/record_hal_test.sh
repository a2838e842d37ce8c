#!/bin/sh
# gpusim run --record-hal (docs/hal-record.md): the record of
# tests/replay/tiny.yaml is the checked one, byte for byte (its lines are
# explained in docs/hal-record.md); two runs give the same bytes;
# recording changes no result file; --record-hal takes one scenario.
. "$(dirname "$0")/replay/record_lib.sh"

# ---- the checked record ----------------------------------------------------
record tests/replay/tiny.yaml "$tmp/tiny.rec" &&
	cmp -s "$tmp/tiny.rec" tests/replay/tiny.rec &&
	ok "tiny.yaml records tests/replay/tiny.rec" ||
	bad "tiny.yaml's record differs from tests/replay/tiny.rec"
record tests/replay/tiny.yaml "$tmp/tiny2.rec" &&
	cmp -s "$tmp/tiny.rec" "$tmp/tiny2.rec" && ok "same run, same bytes" ||
	bad "two records of one run differ"

f=configs/paper/neon_fig6_dfq.yaml
"$gpusim" run "$f" -q --no-standalone --out "$tmp/plain" >/dev/null 2>&1
"$gpusim" run "$f" -q --no-standalone --out "$tmp/rec" \
	--record-hal "$tmp/dfq.rec" >/dev/null 2>&1
same=1
for o in summary.json tasks.csv series.csv timeline.pftrace; do
	cmp -s "$tmp/plain/$o" "$tmp/rec/$o" || { bad "recording changed $o"; same=0; }
done
[ $same -eq 1 ] && ok "recording changes no result file"

"$gpusim" run configs/default.yaml configs/examples/app.yaml -q \
	--out "$tmp/two" --record-hal "$tmp/two.rec" >/dev/null 2>&1
[ $? -eq 2 ] && [ ! -e "$tmp/two.rec" ] &&
	ok "--record-hal with two scenarios: exit 2, no record" ||
	bad "--record-hal with two scenarios"
"$gpusim" run configs/default.yaml -q --out "$tmp/nodir" \
	--record-hal "$tmp/no/such/dir.rec" >/dev/null 2>&1
[ $? -eq 1 ] && ok "an unwritable record: exit 1" ||
	bad "an unwritable record"

[ $fail -eq 0 ] && echo "record_hal: ok" || echo "record_hal: FAILED"
exit $fail
