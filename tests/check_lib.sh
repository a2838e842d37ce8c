# Sourced by the command-line test scripts: a temporary folder $tmp,
# removed at exit, and check/expect_status, which count into
# $passed/$failed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # description, then a command that must succeed
	desc=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $desc"
		sed 's/^/    /' "$tmp/out" | head -20
	fi
}

expect_status() { # status, command...
	want=$1
	shift
	"$@" >"$tmp/stdout" 2>"$tmp/stderr"
	got=$?
	[ "$got" -eq "$want" ] || { echo "exit $got, wanted $want"; cat "$tmp/stderr"; return 1; }
}
