# timeline.json (one event per line, as gpusim writes it) -> the spans of
# one GPU between `from_ms` and `to_ms`, for a Gantt chart:
#   row start_ms end_ms color
# and, into the file `decor`, gnuplot commands that label the rows and
# name the colors (array NAMES). Rows, top to bottom: the policy's
# phases, the engines, then the channels, as in the timeline viewer. The
# color is the index of the span's name (a task, a phase, a context
# switch) in order of first appearance.
function field(s, key,    i, rest) {
	i = index(s, "\"" key "\":")
	if (!i)
		return ""
	rest = substr(s, i + length(key) + 3)
	if (substr(rest, 1, 1) == "\"") {
		rest = substr(rest, 2)
		return substr(rest, 1, index(rest, "\"") - 1)
	}
	match(rest, /^[-0-9.]+/)
	return substr(rest, 1, RLENGTH)
}
/"ph":"M"/ && /"name":"thread_name"/ && field($0, "pid") == 0 {
	tid = field($0, "tid")
	label[tid] = field(substr($0, index($0, "\"args\"")), "name")
	next
}
/"ph":"X"/ && field($0, "pid") == 0 {
	start = field($0, "ts") / 1000
	end = start + field($0, "dur") / 1000
	if (end < from_ms || start > to_ms)
		next
	name = field($0, "name")
	if (name ~ /^sample /)
		name = "sample"
	if (!(name in color))
		color[name] = ++n_colors
	tid = field($0, "tid")
	used[tid] = 1
	n++
	s_tid[n] = tid
	s_start[n] = start < from_ms ? from_ms : start
	s_end[n] = end > to_ms ? to_ms : end
	s_color[n] = color[name]
}
# Sort key of a track: the policy (tid 100) first, then engines (tids
# 1..99), then channels (1000 + id).
function rank(t) {
	return t == 100 ? 0 : t + 0
}
END {
	for (t in used) { # insertion sort of the tracks by rank
		i = ++n_tracks
		while (i > 1 && rank(tids[i - 1]) > rank(t)) {
			tids[i] = tids[i - 1]
			i--
		}
		tids[i] = t
	}
	printf "set ytics (" > decor
	for (i = 1; i <= n_tracks; i++) {
		row[tids[i]] = n_tracks - i
		printf "%s\"%s\" %d", (i > 1 ? ", " : ""), label[tids[i]], \
			n_tracks - i > decor
	}
	printf ")\nset yrange [-0.6:%d.6]\narray NAMES[%d]\n", n_tracks - 1, \
		n_colors > decor
	for (name in color)
		printf "NAMES[%d] = \"%s\"\n", color[name], name > decor
	for (i = 1; i <= n; i++)
		printf "%d %.4f %.4f %d\n", row[s_tid[i]], s_start[i], \
			s_end[i], s_color[i]
}
