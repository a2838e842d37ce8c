#!/bin/sh
# make install into a DESTDIR, then the installed gpusim from another
# folder: reproduce finds the installed scenarios and the example policy
# module, new-policy's skeleton builds against the installed headers and
# mock HAL, the man page renders, the bash completion completes; make
# uninstall removes everything; CPPFLAGS and LDFLAGS reach the compiler.
# Usage: tests/install_test.sh [path/to/gpusim] (relative to the source
# tree, which is the working directory, as make test runs it)
GPUSIM=${1:-./gpusim}
. "$(dirname "$0")/check_lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$tmp/dest
bin=$dest/usr/bin/gpusim
mkdir -p "$tmp/elsewhere"

# -o: install what was built, never rebuild it here
check "make install DESTDIR=" make -s -C "$root" install DESTDIR="$dest" \
	PREFIX=/usr BIN="$GPUSIM" -o "$GPUSIM"
for f in bin/gpusim share/man/man1/gpusim.1 \
	 share/bash-completion/completions/gpusim \
	 share/gpusim/configs/default.yaml share/gpusim/plots/make_plots.sh \
	 share/gpusim/dev/policies/hal.h share/gpusim/dev/tests/support/mock_hal.h \
	 lib/gpusim/policy-modules/wrr.so share/doc/gpusim/writing-a-policy.md; do
	check "installed: $f" test -f "$dest/usr/$f"
done

# The whole reproduce table takes half a minute; the installed copy
# keeps one paper scenario and the example module's, which is what
# tells whether the installed gpusim finds both folders and the module.
find "$dest/usr/share/gpusim/configs/paper" -maxdepth 1 -name '*.yaml' \
	! -name germ_table2_quake_train.yaml -delete
find "$dest/usr/share/gpusim/configs/beyond" -name '*.yaml' \
	! -name wrr_weights.yaml -delete
check "installed reproduce from another folder" sh -c "
	cd '$tmp/elsewhere' && env -u GPUSIM_POLICY_PATH '$bin' reproduce >out 2>&1
	st=\$?; cat out; test \$st -eq 0 &&
	grep -q '^B-wrr .*pass' out && grep -q '^G.*pass' out &&
	grep -q ' 0 failed' out"

check "installed new-policy builds against the installed headers" sh -c "
	cd '$tmp/elsewhere' && '$bin' new-policy mine >/dev/null &&
	grep -q '^GPUSIM_DEV ?= $dest/usr/share/gpusim/dev\$' mine/mine.mk &&
	cd mine && make -s -f mine.mk CFLAGS=-O0 check >log 2>&1 ||
		{ tail -20 log; exit 1; }"

if command -v man >/dev/null; then
check "the man page renders without warnings" sh -c "
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l '$dest/usr/share/man/man1/gpusim.1' \
		>'$tmp/man.txt' 2>'$tmp/man.err' &&
	! test -s '$tmp/man.err' && grep -q 'new-policy' '$tmp/man.txt' &&
	grep -q 'GPUSIM_POLICY_PATH' '$tmp/man.txt'"
else
	echo "install_test: man is not installed; the man page check is SKIPPED"
fi

# bash completion: _init_completion and _filedir are bash-completion's;
# these stand-ins set what it would.
complete_words() { # words... (the last one is completed)
	bash -c '
		_init_completion() {
			words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
			cur=${words[cword]}; prev=${words[cword-1]}
		}
		_filedir() { :; }
		complete() { :; }
		. "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_gpusim
		printf "%s\n" "${COMPREPLY[@]}"' \
		"$dest/usr/share/bash-completion/completions/gpusim" "$@"
}
# completes EXPECTED WORD...: completing the last word offers EXPECTED
completes() {
	want=$1
	shift
	complete_words "$@" >"$tmp/offered" &&
	grep -qx -- "$want" "$tmp/offered" || { cat "$tmp/offered"; return 1; }
}
check "completion: commands" completes compare "$bin" ""
check "completion: a command's options" completes --policy-module "$bin" run --pol
check "completion: policy names" completes policy.name=dfq "$bin" run --set policy.name=d
check "completion: preset names" completes volta "$bin" generate --preset ""
check "completion: policies for generate" completes hdfq "$bin" generate --policy h

check "make uninstall removes every file" sh -c "
	make -s -C '$root' uninstall DESTDIR='$dest' PREFIX=/usr &&
	test -z \"\$(find '$dest' -type f)\""

# CPPFLAGS and LDFLAGS (dpkg-buildflags) reach every compile and link.
check "CPPFLAGS and LDFLAGS are honoured" sh -c "
	make -s -n -B -C '$root' BUILD='$tmp/nb' BIN='$tmp/nb/gpusim' \
		CPPFLAGS=-DGS_CPPFLAGS_SEEN LDFLAGS=-Wl,-z,relro '$tmp/nb/gpusim' >'$tmp/cmds' &&
	grep -q 'main.c' '$tmp/cmds' &&
	! grep -E ' -c [^ ]+\.c' '$tmp/cmds' | grep -qv GS_CPPFLAGS_SEEN &&
	grep -- '-o $tmp/nb/gpusim' '$tmp/cmds' | grep -q -- '-Wl,-z,relro'"

echo "install_test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
