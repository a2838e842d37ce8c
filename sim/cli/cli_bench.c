/* gpusim bench: simulator speed at growing channel counts, heap bytes per
 * idle channel and the wall time of `gpusim reproduce`, printed as a table
 * and written to a JSON file (results/README.md describes it). */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/bench.h"
#include "sim/cli/cli.h"

#define DEFAULT_CHANNELS "16,256,4096,65536"
/* Idle-memory points: N and 2N channels are built; large enough that the
 * fixed costs of a simulation wash out. */
#define IDLE_CHANNELS 8192

/* "16,256" -> an array of channel counts, each 1..1048576. */
static GArray *parse_channels(const char *list)
{
	g_auto(GStrv) parts = g_strsplit(list, ",", -1);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	guint i;

	for (i = 0; parts[i]; i++) {
		guint64 v;

		if (!g_ascii_string_to_unsigned(g_strstrip(parts[i]), 10, 1,
						1048576, &v, NULL)) {
			g_array_unref(out);
			return NULL;
		}
		g_array_append_val(out, (uint32_t){ (uint32_t)v });
	}
	return out;
}

static void print_header(void)
{
	printf("%-13s %-13s %8s %10s %12s %12s %9s %9s %10s %7s\n",
	       "scenario", "policy", "channels", "events", "events/s",
	       "commands/s", "ns/event", "wall s", "B/channel", "inv %");
}

static void print_point(const struct gs_bench_point *p)
{
	char ch[16] = "-", ev[24] = "-", eps[24] = "-", cps[24] = "-",
	     ns[16] = "-", bytes[16] = "-", wall[16] = "-", inv[16] = "-";

	if (p->channels)
		g_snprintf(ch, sizeof(ch), "%u", p->channels);
	if (p->events) {
		g_snprintf(ev, sizeof(ev), "%" PRIu64, p->events);
		g_snprintf(eps, sizeof(eps), "%.0f",
			   (double)p->events / p->wall_s);
		g_snprintf(cps, sizeof(cps), "%.0f",
			   (double)p->commands / p->wall_s);
		g_snprintf(ns, sizeof(ns), "%.1f",
			   p->wall_s * 1e9 / (double)p->events);
	}
	if (p->wall_s > 0)
		g_snprintf(wall, sizeof(wall), "%.3f", p->wall_s);
	if (p->bytes_per_idle_channel >= 0)
		g_snprintf(bytes, sizeof(bytes), "%.0f",
			   p->bytes_per_idle_channel);
	if (p->invariant_share >= 0)
		g_snprintf(inv, sizeof(inv), "%.2f", 100 * p->invariant_share);
	printf("%-13s %-13s %8s %10s %12s %12s %9s %9s %10s %7s\n",
	       p->scenario, p->policy, ch, ev, eps, cps, ns, wall, bytes, inv);
	fflush(stdout);
}

static void add_double_or_null(JsonBuilder *b, const char *key, bool has,
			       double v)
{
	json_builder_set_member_name(b, key);
	if (has)
		json_builder_add_double_value(b, v);
	else
		json_builder_add_null_value(b);
}

static void add_point(JsonBuilder *b, const struct gs_bench_point *p)
{
	bool speed = p->events > 0;
	bool process = !strcmp(p->scenario, "process");

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "scenario");
	json_builder_add_string_value(b, p->scenario);
	json_builder_set_member_name(b, "channels");
	if (p->channels)
		json_builder_add_int_value(b, p->channels);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "policy");
	json_builder_add_string_value(b, p->policy);
	add_double_or_null(b, "commands_per_s", speed,
			   speed ? (double)p->commands / p->wall_s : 0);
	add_double_or_null(b, "events_per_s", speed,
			   speed ? (double)p->events / p->wall_s : 0);
	add_double_or_null(b, "ns_per_event", speed,
			   speed ? p->wall_s * 1e9 / (double)p->events : 0);
	add_double_or_null(b, "bytes_per_idle_channel",
			   p->bytes_per_idle_channel >= 0,
			   p->bytes_per_idle_channel);
	json_builder_set_member_name(b, "events");
	json_builder_add_int_value(b, (gint64)p->events);
	json_builder_set_member_name(b, "commands");
	json_builder_add_int_value(b, (gint64)p->commands);
	add_double_or_null(b, "setup_s", speed, p->setup_s);
	add_double_or_null(b, "wall_s", p->wall_s > 0, p->wall_s);
	add_double_or_null(b, "cpu_s", p->cpu_s >= 0, p->cpu_s);
	add_double_or_null(b, "invariant_check_share", p->invariant_share >= 0,
			   p->invariant_share);
	json_builder_set_member_name(b, "invariant_checks");
	json_builder_add_int_value(b, (gint64)p->invariant_checks);
	add_double_or_null(b, "ratio", p->goal > 0, p->ratio);
	add_double_or_null(b, "goal", p->goal > 0, p->goal);
	add_double_or_null(b, "sim_s", p->sim_s >= 0, p->sim_s);
	add_double_or_null(b, "sim_cpu_s", p->sim_cpu_s > 0, p->sim_cpu_s);
	add_double_or_null(b, "run_s", process, p->run_s);
	add_double_or_null(b, "collect_s", process, p->collect_s);
	add_double_or_null(b, "write_s", process, p->write_s);
	add_double_or_null(b, "run_cpu_s", process, p->run_cpu_s);
	add_double_or_null(b, "sim_run_cpu_s", process, p->sim_run_cpu_s);
	add_double_or_null(b, "as_run_s", process, p->as_run_s);
	json_builder_end_object(b);
}

int gs_bench_figure_decimals(double figure, double goal, int least)
{
	int d;

	for (d = least; d < GS_BENCH_MAX_DECIMALS; d++) {
		char format[8], text[G_ASCII_DTOSTR_BUF_SIZE];
		double shown;

		/* rounded as printf rounds it for the table, read back
		 * whatever the locale's decimal point */
		g_snprintf(format, sizeof(format), "%%.%df", d);
		g_ascii_formatd(text, sizeof(text), format, figure);
		shown = g_ascii_strtod(text, NULL);
		if ((shown <= goal) == (figure <= goal))
			return d;
	}
	return GS_BENCH_MAX_DECIMALS;
}

/* Issue 20's goals, each a ratio measured in this run: the whole
 * process with default outputs over the simulation alone, and the event
 * loop's pop + schedule (no handler work) over a bare 4-ary heap's pop +
 * push, at the queue size the speed point's run ended with. */
static void print_goals(const GArray *points)
{
	guint i;

	printf("\n%-46s %8s %10s  %s\n", "goal (issue 20)", "at most",
	       "measured", "verdict");
	for (i = 0; i < points->len; i++) {
		const struct gs_bench_point *p =
			&g_array_index(points, struct gs_bench_point, i);
		g_autofree char *what = NULL;
		bool kb;

		if (p->goal <= 0)
			continue;
		if (!strcmp(p->scenario, "rss"))
			what = g_strdup_printf("peak RSS KB per channel+task, "
					       "%u ch (%.0f MB)", p->channels,
					       p->ratio * p->channels / 1024);
		else if (!strcmp(p->scenario, "process"))
			what = g_strdup_printf("whole process / simulation, %u "
					       "ch (%.3f/%.3f s)", p->channels,
					       p->wall_s, p->sim_s);
		else
			what = g_strdup_printf("event loop / bare 4-ary heap, "
					       "%u ch (%u queued, %.1f/%.1f ns)",
					       p->channels, p->queue_len,
					       p->wall_s * 1e9, p->sim_s * 1e9);
		/* the memory goal is in KB, to the byte, the others are
		 * ratios; either with more decimals where these would round
		 * a figure past the goal onto it */
		kb = !strcmp(p->scenario, "rss");
		printf("%-46s %7.1f%s %9.*f%s  %s", what, p->goal,
		       kb ? "K" : "x",
		       gs_bench_figure_decimals(p->ratio, p->goal, kb ? 3 : 2),
		       p->ratio, kb ? "K" : "x",
		       p->ratio <= p->goal ? "pass" : "miss");
		if (p->sim_cpu_s > 0) /* a `process` point: also on CPU */
			printf(" (CPU %.3f/%.3f s: %.2fx)", p->cpu_s,
			       p->sim_cpu_s, p->cpu_s / p->sim_cpu_s);
		printf("\n");
		/* where the whole's time goes past the simulation's */
		if (!strcmp(p->scenario, "process"))
			printf("  phases of the fastest: run %.3f s, collect "
			       "%.3f s, write %.3f s, free %.3f s\n", p->run_s,
			       p->collect_s, p->write_s,
			       p->wall_s - p->run_s - p->collect_s -
				       p->write_s);
		/* the recording's cost on the simulation's thread, in CPU
		 * time: what a busy machine does not move */
		if (!strcmp(p->scenario, "process"))
			printf("  simulation thread's CPU in the run: %.3f s, "
			       "alone %.3f s (%.2fx)\n", p->run_cpu_s,
			       p->sim_run_cpu_s,
			       p->run_cpu_s / p->sim_run_cpu_s);
		/* what `gpusim run` takes with its standalone run and table:
		 * no goal of its own */
		if (!strcmp(p->scenario, "process"))
			printf("  gpusim run as it runs (its standalone run "
			       "beside, its table): %.3f s, %.2fx the "
			       "simulation\n", p->as_run_s,
			       p->as_run_s / p->sim_s);
	}
	fflush(stdout);
}

/* Written to a temporary name and renamed, as the other results. */
static bool write_json(const char *path, const GArray *points, GError **error)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *dir = g_path_get_dirname(path);
	g_autofree char *text = NULL;
	guint i;

	json_builder_begin_array(b);
	for (i = 0; i < points->len; i++)
		add_point(b, &g_array_index(points, struct gs_bench_point, i));
	json_builder_end_array(b);
	root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	text = json_generator_to_data(gen, NULL);
	if (g_mkdir_with_parents(dir, 0777) != 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", dir, g_strerror(errno));
		return false;
	}
	return g_file_set_contents(path, text, -1, error);
}

/* Pops + pushes timed on the bare heap: enough for 0.1-0.3 s. */
#define HEAP_OPS 20000000u

/* The goal points: for the smallest and the largest channel count, the
 * event loop against a bare heap of the size of the speed point's queue,
 * and the whole process against the simulation. */
static bool bench_goals(const GArray *sizes, gs_time_t duration,
			unsigned repeat, GArray *points, GError **error)
{
	guint n = points->len, i, k, first = n, last = n;

	/* the speed points are the throttle ones (the memory points come
	 * before them) */
	for (i = 0; i < n; i++)
		if (!strcmp(g_array_index(points, struct gs_bench_point,
					  i).scenario, "throttle")) {
			if (first == n)
				first = i;
			last = i;
		}
	for (i = 0; i < n; i++) {
		struct gs_bench_point h =
			g_array_index(points, struct gs_bench_point, i);

		if (i != first && i != last)
			continue;
		h.scenario = "heap";
		h.wall_s = gs_bench_event_loop(MAX(h.queue_len, 1u), HEAP_OPS,
					       repeat) / 1e9;
		h.sim_s = gs_bench_bare_heap(MAX(h.queue_len, 1u), HEAP_OPS,
					     repeat) / 1e9;
		h.ratio = h.wall_s / h.sim_s;
		h.goal = 2.0;
		h.events = h.commands = 0;
		g_array_append_val(points, h);
	}
	for (k = 0; k < sizes->len; k++) {
		struct gs_bench_point p;

		if (k != 0 && k != sizes->len - 1)
			continue;
		if (!gs_bench_process(g_array_index(sizes, uint32_t, k),
				      duration, repeat, &p, error))
			return false;
		g_array_append_val(points, p);
	}
	return true;
}

static int fail(GError *err)
{
	fprintf(stderr, "gpusim bench: %s\n", err->message);
	return GS_EXIT_FAILURE;
}

int gs_cmd_bench(int argc, char **argv)
{
	gint64 seconds = 60, repeat = 3, process_seconds = 0;
	gint64 rss_tasks = 65536;
	g_autofree char *channel_list = NULL, *out = NULL;
	gboolean no_reproduce = FALSE;
	GOptionEntry entries[] = {
		{ "sim-seconds", 0, 0, G_OPTION_ARG_INT64, &seconds,
		  "Simulated seconds per speed point (default 60)", "S" },
		{ "repeat", 0, 0, G_OPTION_ARG_INT64, &repeat,
		  "Runs per speed point, the fastest kept (default 3)", "N" },
		{ "channels", 0, 0, G_OPTION_ARG_STRING, &channel_list,
		  "Channel counts of the speed points (default "
		  DEFAULT_CHANNELS ")", "N,N,..." },
		{ "process-seconds", 0, 0, G_OPTION_ARG_INT64,
		  &process_seconds, "Simulated seconds of the whole-process "
		  "points (default: --sim-seconds)", "S" },
		{ "rss-tasks", 0, 0, G_OPTION_ARG_INT64, &rss_tasks,
		  "Tasks of the peak-RSS points, of 1 and of 16 channels "
		  "(default 65536)", "N" },
		{ "out", 0, 0, G_OPTION_ARG_FILENAME, &out,
		  "JSON file to write (default results/bench.json)", "FILE" },
		{ "no-reproduce", 0, 0, G_OPTION_ARG_NONE, &no_reproduce,
		  "Do not time `gpusim reproduce`", NULL },
		G_OPTION_ENTRY_NULL
	};
	g_autoptr(GOptionContext) ctx =
		g_option_context_new("- measure simulator speed and memory");
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) sizes = NULL;
	g_autoptr(GArray) points =
		g_array_new(FALSE, FALSE, sizeof(struct gs_bench_point));
	struct gs_bench_point p;
	guint i;

	g_option_context_add_main_entries(ctx, entries, NULL);
	gs_cli_help(ctx, "bench");
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "gpusim: %s\n", err->message);
		return GS_EXIT_USAGE;
	}
	sizes = parse_channels(channel_list ? channel_list : DEFAULT_CHANNELS);
	if (seconds < 1 || seconds > 3600 || repeat < 1 || repeat > 100 ||
	    process_seconds < 0 || process_seconds > 3600 || !sizes ||
	    rss_tasks < 1 || rss_tasks > 65536) {
		fprintf(stderr, "gpusim: %s\n",
			!sizes ? "--channels wants counts 1..1048576, "
				 "comma-separated"
			       : "--sim-seconds and --process-seconds want "
				 "1..3600, --repeat 1..100, --rss-tasks "
				 "1..65536");
		return GS_EXIT_USAGE;
	}
	/* first, while this process is small: a child's peak RSS counts the
	 * image it was forked or spawned from until it execs (Linux keeps the
	 * larger of the old and new address space's high-water marks) */
	if (!gs_bench_rss_points((uint32_t)rss_tasks, points, &err))
		return fail(err);
	print_header();
	for (i = 0; i < sizes->len; i++) {
		if (!gs_bench_throttle(g_array_index(sizes, uint32_t, i),
				       (gs_time_t)seconds * GS_NS_PER_S,
				       (unsigned)repeat, &p, &err))
			return fail(err);
		print_point(&p);
		g_array_append_val(points, p);
	}
	if (!process_seconds)
		process_seconds = seconds;
	if (!bench_goals(sizes, (gs_time_t)process_seconds * GS_NS_PER_S,
			 (unsigned)repeat, points, &err))
		return fail(err);
	for (i = 0; i < 2; i++) {
		if (!gs_bench_idle_memory(IDLE_CHANNELS, i == 0, &p, &err))
			return fail(err);
		print_point(&p);
		g_array_append_val(points, p);
	}
	if (!no_reproduce) {
		if (!gs_bench_reproduce(&p, &err))
			return fail(err);
		print_point(&p);
		g_array_append_val(points, p);
	}
	print_goals(points);
	if (!write_json(out ? out : "results/bench.json", points, &err))
		return fail(err);
	return GS_EXIT_OK;
}
