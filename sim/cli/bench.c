/* The measurements of `gpusim bench` (see bench.h). */
#include <glib.h>
#include <string.h>
#include <sys/times.h>
#include <unistd.h>

/* mallinfo2 is glibc's (2.33 and later); elsewhere the idle-memory figure
 * is reported as not measured. */
#if defined(__GLIBC__) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
#define HAVE_MALLINFO2 1
#endif

#include "base/zero_table.h"
#include "sim/cli/bench.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

/* The loader's limit on one task definition's `count`. */
#define BENCH_MAX_COUNT 10000u

/* A scenario of `tasks` replicas of one behaviour, each opening
 * `channels` channels, as task definitions t0, t1, ... of at most
 * BENCH_MAX_COUNT replicas. The series is sampled only at the start and
 * the end: a sample is a pass over every task, and not what is measured. */
GString *gs_bench_scenario_yaml(uint32_t tasks, uint32_t channels,
				gs_time_t duration, const char *behavior,
				bool outputs)
{
	GString *y = g_string_new(NULL);
	uint32_t def = 0, left = tasks;

	g_string_append_printf(
		y, "name: bench\nseed: 1\nduration: %" G_GUINT64_FORMAT "\n"
		"gpu: {preset: kepler, max_channels: %u, ring_entries: 16}\n",
		duration, MAX(tasks * channels, 16u));
	if (!outputs)
		g_string_append_printf(y, "output: {timeline: false, "
				       "series_interval: %" G_GUINT64_FORMAT
				       "}\n", duration);
	g_string_append(y, "tasks:\n");
	while (left) {
		uint32_t count = MIN(left, BENCH_MAX_COUNT);

		g_string_append_printf(y, "  - name: t%u\n    count: %u\n"
				       "    channels: %u\n    behavior: %s\n",
				       def++, count, channels, behavior);
		left -= count;
	}
	return y;
}

struct gs_scenario *gs_bench_scenario(uint32_t tasks, uint32_t channels,
				      gs_time_t duration,
				      const char *behavior, bool outputs,
				      GError **error)
{
	g_autoptr(GString) y = gs_bench_scenario_yaml(tasks, channels,
						      duration, behavior,
						      outputs);

	return gs_scenario_load_data("bench.yaml", y->str, y->len, NULL, 0,
				     error);
}

static struct gs_scenario *bench_scenario(uint32_t tasks, uint32_t channels,
					  gs_time_t duration,
					  const char *behavior, GError **error)
{
	return gs_bench_scenario(tasks, channels, duration, behavior, false,
				 error);
}

static void point_init(struct gs_bench_point *p, const char *scenario,
		       const char *policy, uint32_t channels)
{
	memset(p, 0, sizeof(*p));
	p->scenario = scenario;
	p->policy = policy;
	p->channels = channels;
	p->cpu_s = p->bytes_per_idle_channel = p->invariant_share = -1;
	p->sim_s = -1;
}

static double seconds_since(gint64 t0)
{
	return (double)(g_get_monotonic_time() - t0) / 1e6;
}

/* Checks timed on the final state of a run: enough to average out the
 * clock's resolution at 16 channels, few enough at 65536. */
#define CHECK_TIMING_REPEATS 20

/* Wall seconds of one invariant check of sim as it is now. */
static double one_check_s(const struct gs_sim *sim)
{
	gint64 t0 = g_get_monotonic_time();
	unsigned i;

	for (i = 0; i < CHECK_TIMING_REPEATS; i++)
		g_free(gs_sim_check_invariants(sim));
	return seconds_since(t0) / CHECK_TIMING_REPEATS;
}

/* The queue length a pop sees on average over a run of sc (rounded),
 * from one more, untimed run stepped here event by event until the
 * scenario's end: the size at which the event loop and the bare heap are
 * compared. The length when the run ends is no measure of it (one event
 * is left at every channel count), and most of the 65,536-channel run's
 * pops see the few events of a busy GPU while the tasks' start, all of
 * them queued at once, is a third of them. */
static uint32_t mean_queue_len(const struct gs_scenario *sc, GError **error)
{
	struct gs_sim *sim = gs_sim_new(sc, NULL, error);
	struct gs_evq *q;
	uint64_t pops = 0, sum = 0;

	if (!sim)
		return 0;
	q = gs_sim_queue(sim);
	while (gs_evq_peek_time(q) <= sc->duration) {
		sum += q->len;
		pops++;
		gs_evq_step(q);
	}
	gs_sim_free(sim);
	return pops ? (uint32_t)((sum + pops / 2) / pops) : 0;
}

bool gs_bench_throttle(uint32_t channels, gs_time_t duration, unsigned repeat,
		       struct gs_bench_point *p, GError **error)
{
	struct gs_scenario *sc = bench_scenario(
		channels, 1, duration,
		GS_BENCH_THROTTLE, error);
	unsigned i;

	if (!sc)
		return false;
	point_init(p, "throttle", "direct", channels);
	for (i = 0; i < MAX(repeat, 1u); i++) {
		gint64 t0 = g_get_monotonic_time();
		struct gs_sim *sim = gs_sim_new(sc, NULL, error);
		struct gs_results r;
		double setup, wall;
		uint32_t k;

		if (!sim) {
			gs_scenario_free(sc);
			return false;
		}
		setup = seconds_since(t0);
		t0 = g_get_monotonic_time();
		gs_sim_run(sim, NULL);
		wall = seconds_since(t0);
		/* Every repeat is the same simulation: keep the fastest. */
		if (i == 0 || wall < p->wall_s) {
			p->wall_s = wall;
			p->invariant_checks = gs_sim_invariant_checks(sim);
			p->invariant_share = (double)p->invariant_checks *
					     one_check_s(sim) / wall;
		}
		if (i == 0 || setup < p->setup_s)
			p->setup_s = setup;
		p->events = gs_sim_queue(sim)->dispatched;
		gs_results_init(&r);
		gs_sim_collect(sim, &r);
		p->commands = 0;
		for (k = 0; k < r.n_tasks; k++)
			p->commands += r.tasks[k].rounds;
		gs_results_clear(&r);
		gs_sim_free(sim);
	}
	p->queue_len = mean_queue_len(sc, error);
	gs_scenario_free(sc);
	return !error || !*error;
}

/* Bytes the C heap has handed out and not taken back, mapped blocks
 * included, and the pages of the zeroed tables in memory (a GPU's
 * channel slots as they are touched: base/zero_table.h). */
static size_t heap_in_use(void)
{
#ifdef HAVE_MALLINFO2
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd + gs_zero_table_resident_bytes();
#else
	return 0;
#endif
}

/* Heap growth from building a simulation of `tasks` idle tasks of
 * `channels` channels each until every task has started (opened its
 * channels and gone to sleep), before any other event. */
static bool idle_heap_bytes(uint32_t tasks, uint32_t channels, size_t *out,
			    GError **error)
{
	struct gs_scenario *sc = bench_scenario(
		tasks, channels, GS_NS_PER_S, "{script: [{sleep: 1000s}]}",
		error);
	struct gs_sim *sim;
	struct gs_evq *q;
	size_t before;
	uint32_t i;

	if (!sc)
		return false;
	before = heap_in_use();
	sim = gs_sim_new(sc, NULL, error);
	if (!sim) {
		gs_scenario_free(sc);
		return false;
	}
	/* The tasks' starts are the first events (time 0, task class). */
	q = gs_sim_queue(sim);
	for (i = 0; i < tasks && gs_evq_peek_time(q) == 0; i++)
		gs_evq_step(q);
	*out = heap_in_use() - before;
	gs_sim_free(sim);
	gs_scenario_free(sc);
	return true;
}

bool gs_bench_idle_memory(uint32_t channels, bool per_task,
			  struct gs_bench_point *p, GError **error)
{
	uint32_t tasks = per_task ? channels : 1, ch = per_task ? 1 : channels;
	/* twice the channels: twice the tasks, or twice one task's */
	uint32_t tasks2 = per_task ? 2 * tasks : tasks;
	uint32_t ch2 = per_task ? ch : 2 * ch;
	size_t one, two;

	point_init(p, per_task ? "idle-tasks" : "idle-channels", "direct",
		   channels);
	if (!idle_heap_bytes(tasks, ch, &one, error) ||
	    !idle_heap_bytes(tasks2, ch2, &two, error))
		return false;
	/* An allocator that mallinfo2 does not see (a sanitizer's), or no
	 * mallinfo2, shows no growth at all: say so rather than claim zero
	 * bytes. */
	if (two <= one)
		g_printerr("gpusim bench: the allocator reports no heap use "
			   "(a sanitizer build, or no mallinfo2); bytes per "
			   "idle channel not measured\n");
	else
		p->bytes_per_idle_channel =
			(double)(two - one) / (double)channels;
	return true;
}

bool gs_bench_reproduce(struct gs_bench_point *p, GError **error)
{
	g_autofree char *self = g_file_read_link("/proc/self/exe", error);
	char *argv[] = { self, (char *)"reproduce", NULL };
	struct tms before, after;
	long hz = sysconf(_SC_CLK_TCK);
	gint64 t0;
	int status;

	if (!self)
		return false;
	point_init(p, "reproduce", "paper configs", 0);
	times(&before);
	t0 = g_get_monotonic_time();
	if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
			  NULL, NULL, NULL, &status, error))
		return false;
	p->wall_s = seconds_since(t0);
	times(&after);
	p->cpu_s = hz > 0 ? (double)(after.tms_cutime - before.tms_cutime +
				     after.tms_cstime - before.tms_cstime) /
				    (double)hz
			  : -1;
	return g_spawn_check_wait_status(status, error);
}
