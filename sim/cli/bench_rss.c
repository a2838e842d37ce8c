/* `gpusim bench`'s memory goal (see bench.h): the peak resident set of a
 * whole run with default outputs, what a user's machine must hold. It is
 * taken from the kernel's accounting of a child process (wait4's
 * ru_maxrss), so that nothing of the bench process itself, and nothing
 * the allocator keeps but does not use, is missed or counted twice. */
#define _DEFAULT_SOURCE /* wait4 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "sim/cli/bench.h"
#include "sim/results/interrupt.h"

/* Issue 20, goal 3: at most 1 KB per channel and its task. */
#define RSS_GOAL_KB 1.0

static bool run_child(char **argv, struct rusage *ru, GError **error)
{
	GPid pid;
	int status;

	if (!g_spawn_async(NULL, argv, NULL,
			   G_SPAWN_DO_NOT_REAP_CHILD |
				   G_SPAWN_STDOUT_TO_DEV_NULL,
			   NULL, NULL, &pid, error))
		return false;
	if (wait4(pid, &status, 0, ru) != pid) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
			    "cannot wait for gpusim run");
		return false;
	}
	g_spawn_close_pid(pid);
	return g_spawn_check_wait_status(status, error);
}

bool gs_bench_rss(uint32_t tasks, uint32_t channels, gs_time_t duration,
		  struct gs_bench_point *p, GError **error)
{
	g_autofree char *self = g_file_read_link("/proc/self/exe", error);
	g_autofree char *tmp = g_dir_make_tmp("gpusim-rss-XXXXXX", error);
	g_autofree char *yaml = tmp ? g_build_filename(tmp, "rss.yaml", NULL)
				    : NULL;
	g_autofree char *out = tmp ? g_build_filename(tmp, "out", NULL) : NULL;
	g_autoptr(GString) text = gs_bench_scenario_yaml(
		tasks, channels, duration, GS_BENCH_THROTTLE, true);
	/* as a user runs it: the summary table too (to /dev/null) */
	char *argv[] = { self, (char *)"run", yaml, (char *)"--out", out,
			 NULL };
	struct rusage ru;
	gint64 t0;
	bool ok;

	memset(p, 0, sizeof(*p));
	p->scenario = "rss";
	p->policy = "direct";
	p->channels = tasks * channels;
	p->cpu_s = p->bytes_per_idle_channel = p->invariant_share = -1;
	p->sim_s = -1;
	p->goal = RSS_GOAL_KB;
	if (!self || !tmp)
		return false;
	t0 = g_get_monotonic_time();
	ok = g_file_set_contents(yaml, text->str, (gssize)text->len, error) &&
	     run_child(argv, &ru, error);
	p->wall_s = (double)(g_get_monotonic_time() - t0) / 1e6;
	if (ok)
		/* ru_maxrss is in KB on Linux */
		p->ratio = (double)ru.ru_maxrss / (double)p->channels;
	if (g_file_test(out, G_FILE_TEST_IS_DIR))
		gs_remove_flat_dir(out);
	g_unlink(yaml);
	g_rmdir(tmp);
	return ok;
}

/* The goal's point, `tasks` throttles of one channel (65,536 for the
 * goal), and `tasks` throttles of 16 channels (for the goal 1,048,576
 * channels, the largest run it asks to complete: the loader takes at most
 * 100,000 tasks), each for one simulated second. */
bool gs_bench_rss_points(uint32_t tasks, GArray *points, GError **error)
{
	static const uint32_t channels[] = { 1, 16 };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(channels); i++) {
		struct gs_bench_point p;

		if (!gs_bench_rss(tasks, channels[i], GS_NS_PER_S, &p, error))
			return false;
		g_array_append_val(points, p);
	}
	return true;
}
