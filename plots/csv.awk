# Helpers for reading gpusim's CSV files (sweep.csv, series.csv) with any
# POSIX awk. csv_split handles RFC 4180 quoting (a swept value such as
# "{name: dfq, params: {...}}" holds commas); cells hold no line breaks.

# Splits line into f[1..n]; returns n.
function csv_split(line, f,    n, i, c, cell, q) {
	n = 0
	cell = ""
	q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\"") {
				if (substr(line, i + 1, 1) == "\"") {
					cell = cell "\""
					i++
				} else
					q = 0
			} else
				cell = cell c
		} else if (c == "\"")
			q = 1
		else if (c == ",") {
			f[++n] = cell
			cell = ""
		} else
			cell = cell c
	}
	f[++n] = cell
	return n
}

# col[NAME] = the column's index, header[i] its name, from the header line.
function csv_header(line,    n, i) {
	n = csv_split(line, header)
	for (i = 1; i <= n; i++)
		col[header[i]] = i
}

# The name a paper gives a swept policy value ("{name: timeslice}" ...).
function policy_label(v) {
	if (v ~ /engaged: true/)
		return "Timeslice"
	if (v ~ /timeslice/)
		return "Disengaged Timeslice"
	if (v ~ /hdfq/)
		return "hdfq"
	if (v ~ /dfq/)
		return "DFQ"
	if (v ~ /loga/)
		return "LoGA"
	if (v ~ /drr/)
		return "DRR"
	if (v ~ /direct/)
		return "Direct"
	return v
}

# A gpusim duration ("19us", "1.7ms", "2s", "300ns") in microseconds.
function us(s) {
	if (s ~ /us$/)
		return substr(s, 1, length(s) - 2) + 0
	if (s ~ /ms$/)
		return (substr(s, 1, length(s) - 2) + 0) * 1000
	if (s ~ /ns$/)
		return (substr(s, 1, length(s) - 2) + 0) / 1000
	if (s ~ /s$/)
		return (substr(s, 1, length(s) - 1) + 0) * 1000000
	return s / 1000
}

# Remembers a row key and a series name in order of first appearance.
function add_key(k) {
	if (!(k in key_seen)) {
		key_seen[k] = 1
		keys[++n_keys] = k
	}
}
function add_series(s) {
	if (!(s in series_seen)) {
		series_seen[s] = 1
		series[++n_series] = s
	}
}

# Prints the table v[key, series]: a header of quoted series names, then
# one row per key ("?" where a value is missing, which gnuplot skips).
function print_table(first,    i, j) {
	printf "\"%s\"", first
	for (j = 1; j <= n_series; j++)
		printf " \"%s\"", series[j]
	printf "\n"
	for (i = 1; i <= n_keys; i++) {
		printf "%s", keys[i]
		for (j = 1; j <= n_series; j++)
			printf " %s", (((keys[i], series[j]) in v) ? \
				v[keys[i], series[j]] : "?")
		printf "\n"
	}
}
