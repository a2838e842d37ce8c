#!/bin/sh
# Golden regression tests: each tests/golden/NAME.yaml is run and its
# summary.json, tasks.csv and series.csv compared byte for byte with
# tests/golden/NAME/. A change in the model that moves any figure shows up
# here; when the change is intended, regenerate with `make golden` and
# review the diff.
#   tests/golden_test.sh [--update] [path/to/gpusim]
update=0
if [ "$1" = "--update" ]; then
	update=1
	shift
fi
GPUSIM=${1:-./gpusim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
for cfg in tests/golden/*.yaml; do
	name=$(basename "$cfg" .yaml)
	want=tests/golden/$name
	if ! "$GPUSIM" run "$cfg" --out "$tmp/$name" -q --no-timeline; then
		echo "FAIL: $name: gpusim run failed"
		failed=$((failed + 1))
		continue
	fi
	if [ $update = 1 ]; then
		mkdir -p "$want"
		cp "$tmp/$name/summary.json" "$tmp/$name/tasks.csv" \
		   "$tmp/$name/series.csv" "$want/"
		echo "updated $want"
		continue
	fi
	ok=1
	for f in summary.json tasks.csv series.csv; do
		if ! cmp -s "$want/$f" "$tmp/$name/$f"; then
			echo "FAIL: $name/$f differs from the golden copy:"
			diff -u "$want/$f" "$tmp/$name/$f" | head -20
			ok=0
		fi
	done
	if [ $ok = 1 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
[ $update = 1 ] && exit 0
echo "golden: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
