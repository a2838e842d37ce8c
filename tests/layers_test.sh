#!/bin/sh
# layers_test: imports go only down (docs/architecture.md).
#
#   tests/layers_test.sh [ROOT]        (ROOT: the source tree, default the
#                                       one this script is in)
#
# Reads every #include "..." of the sources (the folders of the table
# below; tests/ may include anything) and fails when
#   - a file includes a header of a folder with a higher rank (an upward
#     import), or one of a folder the table does not know;
#   - modules include each other in a cycle. A module is a.c with its
#     a.h (same folder), one node: a.c -> b.h and b.c -> a.h is the cycle
#     a <-> b. A header with no .c of its name (gpu_internal.h,
#     config_internal.h) belongs to no module: it is looked through, so
#     a.c -> x_internal.h -> b.h counts as a -> b. Calls through such a
#     shared header are not seen (an include test sees includes only).
# An include is resolved as the compilers do here: a name with a folder
# from ROOT (-I.), a bare name from the includer's folder, then from its
# parent (policies/linux/ reaches policies/, as Kbuild's -I$(src)/..).
# The one exception is the seam of policies/hal.h: its "hal_impl.h" is
# chosen by include path (sim/host/hal/, policies/linux/ or
# tests/freestanding/), which is how the layer above provides what the
# policies call; it is not an import of theirs.
# The last line is "layers: N files, M includes, ok", or the number of
# problems (and the exit status is 1).
set -u

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
# the cycle search both checks share, beside this script
cycles_awk=$(cd "$(dirname "$0")" && pwd)/cycles.awk
cd "$root" || exit 2

# The layers: folder and rank. A file may include files of its own rank
# or lower. Subfolders not listed take their parent's rank.
layers='
base            0
gpu_model       1
workloads       1
policies        1
policies/linux  2
examples/policies 1
sim/host        2
sim/import      2
sim/run         3
sim/results     4
sim/cli         5
'

files=$(for d in $(echo "$layers" | awk 'NF == 2 {print $1}'); do
		[ -d "$d" ] && find "$d" -maxdepth 1 -name '*.[ch]'
	done | sort -u)
# Folders that hold sources but are not in the table (sim/ itself, say)
# are problems too: every source file has a layer.
others=$(find . -name '*.[ch]' -not -path './tests/*' -not -path './build*' \
		-not -path './.git/*' | sed 's#^\./##' | sort)

printf '%s\n' "$layers" | awk -v files="$files" -v others="$others" \
	"$(cat "$cycles_awk")"'
function rank_of(path,   d) {
	d = path
	sub(/\/[^\/]*$/, "", d)
	if (index(path, "/") == 0)
		d = "."
	while (d != "" && d != ".") {
		if (d in rank)
			return rank[d]
		if (index(d, "/") == 0)
			break
		sub(/\/[^\/]*$/, "", d)
	}
	return -1
}
function exists(p,   line, r, src) {
	if (p in known)
		return known[p]
	r = (getline line < p) >= 0
	close(p)
	# protoc-c writes X.pb-c.h into the build folder from X.proto
	if (!r && p ~ /\.pb-c\.h$/) {
		src = p
		sub(/\.pb-c\.h$/, ".proto", src)
		r = (getline line < src) >= 0
		close(src)
	}
	known[p] = r
	return r
}
function dir_of(p,   d) {
	d = p
	if (!sub(/\/[^\/]*$/, "", d))
		d = "."
	return d
}
function norm(p,   n, parts, out, i, k) {
	n = split(p, parts, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "." || parts[i] == "")
			continue
		if (parts[i] == ".." && k > 0) { k--; continue }
		out[++k] = parts[i]
	}
	p = ""
	for (i = 1; i <= k; i++)
		p = p (i > 1 ? "/" : "") out[i]
	return p
}
function resolve(from, name,   d) {
	if (index(name, "/") && exists(name))
		return norm(name)
	d = dir_of(from)
	if (exists(d "/" name))
		return norm(d "/" name)
	if (exists(d "/../" name))
		return norm(d "/../" name)
	if (exists(name))
		return norm(name)
	# policies kept outside policies/ are built with -Ipolicies
	if (index(from, "examples/policies/") == 1 && exists("policies/" name))
		return norm("policies/" name)
	return ""
}
# The module a file belongs to: its name without .c/.h when that .c
# exists, else "" (a shared header).
function module(p) {
	sub(/\.[ch]$/, "", p)
	return exists(p ".c") ? p : ""
}
# Edges from module a to the modules that file reaches, through shared
# headers.
function look_through(a, file,   k, t, i, b) {
	k = split(incl[file], t, " ")
	for (i = 1; i <= k; i++) {
		b = module(t[i])
		if (b == "") {
			if (!(t[i] in seen)) {
				seen[t[i]] = 1
				look_through(a, t[i])
			}
		} else if (a != b && !((a, b) in edge)) {
			edge[a, b] = 1
			succ[a] = succ[a] " " b
			node[b] = 1
		}
	}
}
function problem(msg) {
	print "layers: " msg
	problems++
}
NF == 2 { rank[$1] = $2 }
END {
	nf = split(files, f, "\n")
	no = split(others, o, "\n")
	for (i = 1; i <= no; i++)
		if (rank_of(o[i]) < 0)
			problem(o[i] ": folder has no layer in the table")
	for (i = 1; i <= nf; i++) {
		file = f[i]
		lineno = 0
		while ((getline line < file) > 0) {
			lineno++
			if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/)
				continue
			name = line
			sub(/^[^"]*"/, "", name)
			sub(/".*$/, "", name)
			nincl++
			if (file == "policies/hal.h" && name == "hal_impl.h")
				continue
			target = resolve(file, name)
			if (target == "") {
				problem(file ":" lineno ": \"" name "\" not found")
				continue
			}
			fr = rank_of(file)
			tr = rank_of(target)
			if (tr < 0)
				problem(file ":" lineno ": " target ": folder has no layer in the table")
			else if (tr > fr)
				problem(file ":" lineno ": upward import of " target \
					" (rank " tr " from rank " fr ")")
			incl[file] = incl[file] " " target
		}
		close(file)
	}
	for (i = 1; i <= nf; i++) {
		a = module(f[i])
		if (a == "")
			continue
		node[a] = 1
		split("", seen)
		look_through(a, f[i])
	}
	find_cycles()
	if (problems) {
		print "layers: " problems " problem(s)"
		exit 1
	}
	print "layers: " nf " files, " nincl " includes, ok"
}
function cycle_found(n, m, path) {
	problem("include cycle: " m " -> " path)
}
'
