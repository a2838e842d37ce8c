# Sourced by the sweep tests that hold workers at the
# GPUSIM_PAUSE_SWEEP_COMMIT seam (sim/cli/sweep_pool.c: a worker stops
# itself just before its durable commit).

held_workers() { # the pids of the held (stopped) workers of sweep $1
	ps -o pid=,stat= --ppid "$1" 2>/dev/null | awk '$2 ~ /^T/ { print $1 }'
}

release_workers() { # lets sweep $1's workers go on (later ones stop too) until it ends
	tries=0
	while kill -0 "$1" 2>/dev/null && [ "$tries" -lt 400 ]; do
		for w in $(ps -o pid= --ppid "$1" 2>/dev/null); do
			kill -CONT "$w" 2>/dev/null
		done
		sleep 0.05
		tries=$((tries + 1))
	done
}
