# Cycle search shared by tests/layers_test.sh (includes) and
# tests/calls_test.sh (calls); its text is put in front of each script's
# own awk program. The program fills node[n] and succ[n] (the nodes n
# leads to, space-separated), defines cycle_found(n, m, path) for the
# edge n -> m that closes `path`, and calls find_cycles(), which sets nn
# to the number of nodes.
function find_cycles(   n, i, j, t) {
	for (n in node)
		order[++nn] = n
	# a fixed order, so the report is the same on every machine
	for (i = 2; i <= nn; i++)
		for (j = i; j > 1 && order[j - 1] > order[j]; j--) {
			t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
		}
	for (i = 1; i <= nn; i++)
		if (!colour[order[i]])
			cycle_dfs(order[i], 0)
}
# Depth-first search, colour 1 on the stack, 2 done.
function cycle_dfs(n, depth,   k, s, m, i, j, path) {
	colour[n] = 1
	stack[depth] = n
	k = split(succ[n], s, " ")
	for (i = 1; i <= k; i++) {
		m = s[i]
		if (colour[m] == 1) {
			path = m
			for (j = depth; j >= 0 && stack[j] != m; j--)
				path = stack[j] " -> " path
			cycle_found(n, m, path)
		} else if (!colour[m])
			cycle_dfs(m, depth + 1)
	}
	colour[n] = 2
}
