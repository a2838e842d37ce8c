#!/bin/sh
# timeline.pftrace: the file decodes with protoc against
# sim/results/perfetto_trace.proto (Perfetto's own field numbers), holds
# the tracks, slices, arguments, flows and counters the writer promises,
# the same spans as timeline.json, and the same bytes on a second run;
# names are interned incrementally (Perfetto's incremental state) and
# every track is described, every name interned, before its first event
# in file order, as Perfetto's trace processor reads them.
# Run from the repository root. Usage: tests/pftrace_test.sh [path/to/gpusim]
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"

if ! command -v protoc >/dev/null 2>&1; then
	echo "pftrace: protoc not installed (protobuf-compiler): skipped"
	exit 0
fi
decode() {
	protoc --decode=perfetto.protos.Trace -I. \
		sim/results/perfetto_trace.proto < "$1"
}

# dfq: a policy track with phases; two tasks, two channels, one engine.
run() {
	"$GPUSIM" run configs/default.yaml -q --set policy.name=dfq \
		--set duration=300ms "$@"
}
run --out "$tmp/a"
run --out "$tmp/b"
run --out "$tmp/j" --timeline json

check "the default timeline is timeline.pftrace, not timeline.json" sh -c \
	"test -s $tmp/a/timeline.pftrace && test ! -e $tmp/a/timeline.json"
check "--timeline json writes timeline.json only" sh -c \
	"test -s $tmp/j/timeline.json && test ! -e $tmp/j/timeline.pftrace"
check "--timeline with another word exits 2" expect_status 2 \
	"$GPUSIM" run configs/default.yaml --timeline xml --out "$tmp/x"
check "sweep jobs repeat --timeline json" sh -c \
	"$GPUSIM sweep configs/paper/sweeps/fleig_fig3_5.yaml --emit-jobs \
	 --timeline json --out $tmp/sw | grep -q -- ' --timeline json '"
check "a second run writes the same bytes" \
	cmp "$tmp/a/timeline.pftrace" "$tmp/b/timeline.pftrace"
check "protoc decodes it against the .proto" sh -c \
	"protoc --decode=perfetto.protos.Trace -I. sim/results/perfetto_trace.proto \
	 < $tmp/a/timeline.pftrace > $tmp/a.txt && test -s $tmp/a.txt"
decode "$tmp/a/timeline.pftrace" > "$tmp/a.txt" 2>/dev/null

check "tracks: GPU 0, its engine, the policy and each channel" sh -c \
	"grep -q 'process_name: \"GPU 0\"' $tmp/a.txt &&
	 grep -q '^    name: \"compute\"\$' $tmp/a.txt &&
	 grep -q '^    name: \"policy dfq\"\$' $tmp/a.txt &&
	 grep -q '^    name: \"ch0 dct\"\$' $tmp/a.txt &&
	 grep -q '^    name: \"ch1 throttle\"\$' $tmp/a.txt"
check "counter tracks: share and vtime per task, queue depth per channel" \
	awk '
	/^  track_descriptor/ { name = ""; counter = 0 }
	/^    name: / { name = substr($0, index($0, ":") + 2) }
	/^    counter \{/ { counter = 1 }
	/^  }/ && counter { seen[name] = 1; counter = 0 }
	END {
		n = 0
		for (k in seen) n++
		exit !(("\"share dct\"" in seen) && ("\"share throttle\"" in seen) &&
		       ("\"vtime dct\"" in seen) && ("\"vtime throttle\"" in seen) &&
		       ("\"queue ch0 dct\"" in seen) &&
		       ("\"queue ch1 throttle\"" in seen) && n == 6)
	}' "$tmp/a.txt"

# One slice per span of timeline.json, each begun and ended.
spans=$(grep -o '"ph":"X"' "$tmp/j/timeline.json" | wc -l)
check "as many slices as timeline.json has spans ($spans), each ended" awk \
	-v want="$spans" '
	/type: TYPE_SLICE_BEGIN/ { b++ }
	/type: TYPE_SLICE_END/ { e++ }
	END { exit !(want > 0 && b == want && e == want) }' "$tmp/a.txt"
# Interned event names (iid -> name), then the names slices begin with.
awk '
	/^    event_names \{/ { in_names = 1 }
	in_names && /^      iid: / { iid = $2 }
	in_names && /^      name: / { print iid, substr($0, index($0, ":") + 2) }
	/^    }/ { in_names = 0 }' "$tmp/a.txt" > "$tmp/names"
awk 'NR == FNR { name[$1] = substr($0, index($0, " ") + 1); next }
	/^    type: TYPE_SLICE_BEGIN/ { begin = 1 }
	/^    name_iid: / && begin { print name[$2] }
	/^}/ { begin = 0 }' "$tmp/names" "$tmp/a.txt" | sort -u > "$tmp/slice_names"
check "the policy phases are slices (drain, sample, free-run)" sh -c \
	"grep -qx '\"drain\"' $tmp/slice_names &&
	 grep -qx '\"free-run\"' $tmp/slice_names &&
	 grep -qx '\"sample dct\"' $tmp/slice_names &&
	 grep -qx '\"dct\"' $tmp/slice_names"
check "argument names are interned as cmd, task, length_ns, open" sh -c \
	"tr -d '\n ' < $tmp/a.txt | grep -q 'debug_annotation_names{iid:1name:\"cmd\"}debug_annotation_names{iid:2name:\"task\"}debug_annotation_names{iid:3name:\"length_ns\"}debug_annotation_names{iid:4name:\"open\"}'"

# Incremental interning: the first packet clears the sequence's state
# (flag 1) and interns "submit"; names follow in packets of their own that
# need that state (flag 2), before the chunk whose events first name them
# (tests/test_pftrace_stream.c has names interned late in the run).
check "the first packet clears the state; later ones intern more names" awk '
	/^packet \{/ { n++; interned = 0 }
	/^  interned_data \{/ { interned = 1 }
	/^  sequence_flags: / { flags = $2 }
	/^}/ {
		if (n == 1 && !(interned && flags == 1)) exit 1
		if (n > 1 && interned) { later++; if (flags != 2) exit 1 }
	}
	END { exit !(later >= 1) }' "$tmp/a.txt"
# In file order: a track's descriptor (and its GPU's) before any event on
# it, a name or category interned before an event names it.
check "descriptors and interned names precede their first use" awk '
	/^packet \{/ { uuid = ""; parent = ""; desc = 0; ev = 0 }
	/^  track_descriptor \{/ { desc = 1 }
	/^  track_event \{/ { ev = 1; name = ""; cat = "" }
	/^    uuid: / && desc { uuid = $2 }
	/^    parent_uuid: / && desc { parent = $2 }
	/^    event_names \{/ { kind = "n" }
	/^    event_categories \{/ { kind = "c" }
	/^      iid: / && kind != "" { interned[kind $2] = 1; kind = "" }
	/^    track_uuid: / && ev { if (!($2 in described)) exit 1 }
	/^    name_iid: / && ev { if (!(("n" $2) in interned)) exit 1 }
	/^    category_iids: / && ev { if (!(("c" $2) in interned)) exit 1 }
	/^}/ && desc {
		if (parent != "" && !(parent in described)) exit 1
		described[uuid] = 1
		ndesc++
	}
	/^}/ && ev { nev++ }
	END { exit !(ndesc > 5 && nev > 1000) }' "$tmp/a.txt"

# Each packet decoded into one record: its type, flows and arguments.
packets() {
	awk '
	/^packet \{/ { type = ""; flow = ""; cmd = ""; task = ""; len = ""; arg = "" }
	/^    type: / { type = $2 }
	/^    flow_ids: / { flow = $2 }
	/^      name_iid: / { arg = $2 }
	/^      uint_value: / { v = $2 }
	/^      string_value: / { v = $2 }
	/^    }/ && arg != "" {
		if (arg == 1) cmd = v
		if (arg == 2) task = v
		if (arg == 3) len = v
		arg = ""
	}
	/^}/ { print type, (flow == "" ? "-" : flow), (cmd == "" ? "-" : cmd),
		   (task == "" ? "-" : task), (len == "" ? "-" : len) }
	' "$tmp/a.txt"
}
packets > "$tmp/packets"
check "command slices carry cmd, task and length_ns" awk '
	$1 == "TYPE_SLICE_BEGIN" && $3 != "-" {
		n++
		if ($4 == "-" || $5 == "-" || $5 + 0 <= 0) exit 1
	}
	END { exit !(n > 0) }' "$tmp/packets"
check "every engine slice's flow starts at a submission instant" awk '
	$1 == "TYPE_INSTANT" && $2 != "-" { submit[$2] = 1 }
	$1 == "TYPE_SLICE_BEGIN" && $2 != "-" { flows[$2] = 1 }
	END {
		for (f in flows) { n++; if (!(f in submit)) exit 1 }
		exit !(n > 0)
	}' "$tmp/packets"

# Counter values: shares within [0, 1], queue depths never negative.
check "shares lie in [0, 1] and sum to 1 at a sample" awk '
	/^  timestamp: / { t = $2 }
	/^    track_uuid: / { track = $2 }
	/^    double_counter_value: / && track % 16 == 5 {
		if ($2 < 0 || $2 > 1) exit 1
		sum[t] += $2
		count[t]++
	}
	END {
		# values are written when they change: a sample with both
		# shares written sums to 1
		for (t in sum) if (count[t] == 2 && sum[t] != 0) {
			n++
			if (sum[t] < 0.999 || sum[t] > 1.001) exit 1
		}
		exit !(n > 0)
	}' "$tmp/a.txt"
check "queue depths are counts of at least 0, and some reach 1" awk '
	/^    counter_value: / { if ($2 < 0) exit 1; if ($2 >= 1) one = 1 }
	END { exit !one }' "$tmp/a.txt"

echo "pftrace: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
