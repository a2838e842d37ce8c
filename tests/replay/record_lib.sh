# What tests/record_hal_test.sh and tests/replay_test.sh share: their
# set-up (gpusim, a temporary folder, ok/bad) and record(). Sourced with
# the path of gpusim as $1.
gpusim=$(realpath "${1:-./gpusim}")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
cd "$root" || exit 2

# record FILE.yaml OUT.rec [run options]: a run recorded, its results
# thrown away
record() {
	f=$1 out=$2
	shift 2
	"$gpusim" run "$f" -q --no-standalone --no-timeline \
		--out "$tmp/out" --record-hal "$out" "$@" >/dev/null 2>&1
	st=$?
	rm -rf "$tmp/out"
	return $st
}
