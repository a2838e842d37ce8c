/* The script behaviour (explicit steps and loops) and trace replay (a CSV
 * of timestamped commands), compiled to gs_program. */
#include "workloads/config_internal.h"
#include "workloads/config_program.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "gpu_model/gpu.h"

static const char *const wait_names[] = { "spin", "interrupt" };
static const char *const engine_names[] = { "compute", "copy" };
static const char *const step_names[] = {
	"launch", "wait", "cpu", "sleep", "round", "repeat", NULL,
};

struct script {
	struct gs_task_config *t;
	struct cfg_prog *p;
	bool *launch_no_irq;  /* per channel: a launch without irq: true */
	bool *wait_irq;       /* per channel: an interrupt wait covers it */
	bool timed;           /* the current loop body takes time */
};

static int channel_index(struct cfg *c, const yaml_node_t *n,
			 const struct gs_task_config *t, uint16_t *out)
{
	uint32_t ch;

	if (cfg_u32(c, n, "channel", 0, UINT32_MAX, &ch) < 0)
		return -1;
	if (ch >= t->channels)
		return cfg_error(c, n,
				 "channel %u is out of range: task %s has %u channel%s (0..%u); set 'channels' on the task",
				 ch, t->name, t->channels,
				 t->channels > 1 ? "s" : "", t->channels - 1);
	*out = (uint16_t)ch;
	return 0;
}

/* launch: {uniform: [...]} is a distribution of kernel lengths, not a
 * mapping of launch options. */
static bool is_dist(struct cfg *c, const yaml_node_t *map)
{
	static const char *const kinds[] = {
		"uniform", "exponential", "normal", "empirical",
	};
	const char *k;
	size_t i;

	if (cfg_map_size(map) == 0)
		return false;
	k = cfg_text(cfg_node(c, map->data.mapping.pairs.start->key));
	for (i = 0; k && i < G_N_ELEMENTS(kinds); i++)
		if (!strcmp(k, kinds[i]))
			return true;
	return false;
}

static int step_launch(struct cfg *c, const yaml_node_t *v,
		       struct script *sc)
{
	static const char *const keys[] = {
		"kernel", "channel", "engine", "irq", "class", "content",
		NULL,
	};
	struct gs_step s = cfg_step(GS_OP_LAUNCH);
	const yaml_node_t *kernel = v, *n;
	bool irq = false;
	int engine = GS_ENGINE_COMPUTE;
	uint32_t cls = 0;

	if (v->type == YAML_MAPPING_NODE && !is_dist(c, v)) {
		if (cfg_map_check(c, v, "launch", keys) < 0)
			return -1;
		kernel = cfg_map_get(c, v, "kernel");
		if (!kernel)
			return cfg_error(c, v,
					 "launch: missing required key 'kernel'");
		n = cfg_map_get(c, v, "channel");
		if (n && channel_index(c, n, sc->t, &s.channel) < 0)
			return -1;
		n = cfg_map_get(c, v, "engine");
		if (n && cfg_enum(c, n, "engine", engine_names, 2, &engine) < 0)
			return -1;
		n = cfg_map_get(c, v, "irq");
		if (n && cfg_bool(c, n, "irq", &irq) < 0)
			return -1;
		n = cfg_map_get(c, v, "class");
		if (n && cfg_u32(c, n, "class", 0, GS_MAX_CMD_CLASS, &cls) < 0)
			return -1;
		n = cfg_map_get(c, v, "content");
		if (n && cfg_content(c, n, &s.content) < 0)
			return -1;
	}
	if (cfg_dist(c, kernel, "kernel", c->sc->gpu.clock_hz, &s.dur) < 0)
		return -1;
	s.engine = (uint8_t)engine;
	s.cls = (uint8_t)cls;
	s.flags = GS_CMD_FENCE | (irq ? GS_CMD_IRQ : 0);
	if (!irq)
		sc->launch_no_irq[s.channel] = true;
	sc->timed = true;
	return cfg_prog_push(c, v, sc->p, &s);
}

/* v: the value of "wait:", NULL for a bare "wait"; where: the step. */
static int step_wait(struct cfg *c, const yaml_node_t *v,
		     const yaml_node_t *where, struct script *sc)
{
	static const char *const keys[] = { "channel", "mode", NULL };
	struct gs_step s = cfg_step(GS_OP_WAIT);
	const yaml_node_t *n;
	int mode = GS_WAIT_SPIN;

	s.channel = GS_ALL_CHANNELS;
	if (v && v->type == YAML_MAPPING_NODE) {
		if (cfg_map_check(c, v, "wait", keys) < 0)
			return -1;
		n = cfg_map_get(c, v, "channel");
		if (n && channel_index(c, n, sc->t, &s.channel) < 0)
			return -1;
		n = cfg_map_get(c, v, "mode");
		if (n && cfg_enum(c, n, "mode", wait_names, 2, &mode) < 0)
			return -1;
	} else if (v && !cfg_is_null(v) &&
		   cfg_enum(c, v, "wait", wait_names, 2, &mode) < 0) {
		return -1;
	}
	s.wait_mode = (uint8_t)mode;
	if (mode == GS_WAIT_INTERRUPT) {
		uint32_t ch;

		for (ch = 0; ch < sc->t->channels; ch++)
			if (s.channel == GS_ALL_CHANNELS || s.channel == ch)
				sc->wait_irq[ch] = true;
	}
	return cfg_prog_push(c, where, sc->p, &s);
}

static int compile_steps(struct cfg *c, const yaml_node_t *seq,
			 struct script *sc, unsigned depth);

static int step_repeat(struct cfg *c, const yaml_node_t *v,
		       struct script *sc, unsigned depth)
{
	static const char *const keys[] = { "count", "steps", NULL };
	struct gs_step s = cfg_step(GS_OP_LOOP);
	const yaml_node_t *n;
	uint32_t loop = sc->p->steps->len;
	bool outer_timed = sc->timed;

	if (v->type != YAML_MAPPING_NODE)
		return cfg_error(c, v,
				 "repeat takes a mapping such as {count: 10, steps: [...]}");
	if (cfg_map_check(c, v, "repeat", keys) < 0)
		return -1;
	if (depth >= GS_MAX_LOOP_DEPTH)
		return cfg_error(c, v, "repeat is nested more than %d deep",
				 GS_MAX_LOOP_DEPTH);
	n = cfg_map_get(c, v, "count");
	if (n && !g_strcmp0(cfg_text(n), "forever"))
		s.count = 0;
	else if (n && cfg_u32(c, n, "count (a number, or forever)", 0,
			      UINT32_MAX, &s.count) < 0)
		return -1;
	n = cfg_map_get(c, v, "steps");
	if (!n)
		return cfg_error(c, v, "repeat: missing required key 'steps'");
	if (cfg_prog_push(c, v, sc->p, &s) < 0)
		return -1;
	sc->timed = false;
	if (compile_steps(c, n, sc, depth + 1) < 0)
		return -1;
	if (s.count == 0 && !sc->timed)
		return cfg_error(c, v,
				 "an endless repeat needs a launch, cpu or sleep step, or it never lets time pass");
	sc->timed |= outer_timed;
	s = cfg_step(GS_OP_END_LOOP);
	s.target = loop;
	return cfg_prog_push(c, v, sc->p, &s);
}

static int compile_step(struct cfg *c, const yaml_node_t *item,
			struct script *sc, unsigned depth)
{
	const yaml_node_t *kn = item, *v = NULL;
	const char *kind;

	if (item->type == YAML_MAPPING_NODE) {
		if (cfg_map_check(c, item, "script step", step_names) < 0)
			return -1;
		if (cfg_map_size(item) != 1)
			return cfg_error(c, item,
					 "a script step has exactly one key (launch, wait, cpu, sleep, round or repeat); start another item with '-'");
		kn = cfg_node(c, item->data.mapping.pairs.start->key);
		v = cfg_node(c, item->data.mapping.pairs.start->value);
	} else if (item->type != YAML_SCALAR_NODE || cfg_is_null(item)) {
		return cfg_error(c, item,
				 "expected a script step (launch, wait, cpu, sleep, round or repeat)");
	}
	kind = cfg_text(kn);
	if (!strcmp(kind, "round") || !strcmp(kind, "wait")) {
		if (!strcmp(kind, "wait"))
			return step_wait(c, v, item, sc);
		if (v && !cfg_is_null(v))
			return cfg_error(c, v, "round takes no value");
		{
			struct gs_step s = cfg_step(GS_OP_ROUND);

			return cfg_prog_push(c, item, sc->p, &s);
		}
	}
	if (!v) {
		const char *close = cfg_closest(kind, step_names, 6);

		if (close && strcmp(close, kind))
			return cfg_error(c, item,
					 "unknown script step '%s'; did you mean '%s'?",
					 kind, close);
		return cfg_error(c, item,
				 strcmp(kind, "launch") && strcmp(kind, "cpu") &&
				 strcmp(kind, "sleep") && strcmp(kind, "repeat") ?
				 "unknown script step '%s' (steps: launch, wait, cpu, sleep, round, repeat)" :
				 "script step '%s' needs a value, e.g. '%s: ...'",
				 kind, kind);
	}
	if (!strcmp(kind, "launch"))
		return step_launch(c, v, sc);
	if (!strcmp(kind, "repeat"))
		return step_repeat(c, v, sc, depth);
	{
		struct gs_step s = cfg_step(!strcmp(kind, "cpu") ?
					    GS_OP_CPU : GS_OP_SLEEP);

		if (cfg_dist(c, v, kind, c->sc->host.clock_hz, &s.dur) < 0)
			return -1;
		sc->timed = true;
		return cfg_prog_push(c, v, sc->p, &s);
	}
}

static int compile_steps(struct cfg *c, const yaml_node_t *seq,
			 struct script *sc, unsigned depth)
{
	size_t i;

	if (cfg_expect_seq(c, seq, "steps") < 0)
		return -1;
	if (cfg_seq_len(seq) == 0)
		return cfg_error(c, seq, "the list of steps is empty");
	for (i = 0; i < cfg_seq_len(seq); i++)
		if (compile_step(c, cfg_seq_item(c, seq, i), sc, depth) < 0)
			return -1;
	return 0;
}

int cfg_compile_script(struct cfg *c, const yaml_node_t *steps,
		       struct gs_task_config *t, struct cfg_prog *p)
{
	struct script sc = { .t = t, .p = p };
	uint32_t ch;
	int rc;

	sc.launch_no_irq = g_new0(bool, t->channels);
	sc.wait_irq = g_new0(bool, t->channels);
	rc = compile_steps(c, steps, &sc, 0);
	/* An interrupt wait on a channel whose commands raise no interrupt
	 * would sleep forever. */
	for (ch = 0; rc == 0 && ch < t->channels; ch++)
		if (sc.wait_irq[ch] && sc.launch_no_irq[ch])
			rc = cfg_error(c, steps,
				       "script waits with mode interrupt on channel %u, but launches on it without 'irq: true' (the wait would never end)",
				       ch);
	g_free(sc.launch_no_irq);
	g_free(sc.wait_irq);
	return rc;
}

/* --- trace --- */

struct csv {
	struct cfg *c;
	const char *path;
	size_t line;
};

static int csv_error(struct csv *x, size_t col, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static int csv_error(struct csv *x, size_t col, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	return cfg_error_at(x->c->error, GS_CONFIG_ERROR_INVALID, x->path,
			    x->line, col, "%s", msg);
}

/* Splits line into 4 trimmed fields, with their 1-based columns. */
static int csv_fields(struct csv *x, char *line, char **f, size_t *col)
{
	char *p = line;
	int n = 0;

	for (;;) {
		char *end = strchr(p, ',');
		char *e;

		if (n == 4)
			return csv_error(x, (size_t)(p - line),
					 "too many fields (expected time,channel,engine,duration)");
		if (end)
			*end = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		f[n] = p;
		col[n] = (size_t)(p - line) + 1;
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	if (n != 4)
		return csv_error(x, strlen(line) + 1,
				 "expected 4 fields (time,channel,engine,duration), got %d",
				 n);
	return 0;
}

static int trace_row(struct csv *x, char *line, struct gs_task_config *t,
		     int mode, gs_time_t *prev, struct cfg_prog *p,
		     const yaml_node_t *where)
{
	struct cfg *c = x->c;
	char *f[4];
	size_t col[4];
	struct gs_step sleep = cfg_step(GS_OP_SLEEP_UNTIL);
	struct gs_step launch = cfg_step(GS_OP_LAUNCH);
	enum cfg_dur_problem dp;
	gs_time_t at, len;
	uint64_t ch = 0;
	size_t i;

	if (csv_fields(x, line, f, col) < 0)
		return -1;
	dp = cfg_parse_duration(f[0], c->sc->host.clock_hz, &at);
	if (dp == CFG_DUR_OK && at > CFG_MAX_DURATION)
		dp = CFG_DUR_OVERFLOW;
	if (dp != CFG_DUR_OK) {
		g_autofree char *m = cfg_duration_message(dp, f[0], "time");

		return csv_error(x, col[0], "%s", m);
	}
	if (at < *prev)
		return csv_error(x, col[0],
				 "time %s is before the previous row's (rows must be in time order)",
				 f[0]);
	*prev = at;
	for (i = 0; f[1][i]; i++)
		if (f[1][i] < '0' || f[1][i] > '9' || i > 9)
			break;
	if (!*f[1] || f[1][i])
		return csv_error(x, col[1], "channel: expected an integer, got '%s'",
				 f[1]);
	ch = g_ascii_strtoull(f[1], NULL, 10);
	if (ch >= t->channels)
		return csv_error(x, col[1],
				 "channel %s is out of range: task %s has %u channel%s; set 'channels' on the task",
				 f[1], t->name, t->channels,
				 t->channels > 1 ? "s" : "");
	if (!strcmp(f[2], "compute"))
		launch.engine = GS_ENGINE_COMPUTE;
	else if (!strcmp(f[2], "copy"))
		launch.engine = GS_ENGINE_COPY;
	else
		return csv_error(x, col[2],
				 "engine: expected compute or copy, got '%s'",
				 f[2]);
	dp = cfg_parse_duration(f[3], c->sc->gpu.clock_hz, &len);
	if (dp == CFG_DUR_OK && len > CFG_MAX_DURATION)
		dp = CFG_DUR_OVERFLOW;
	if (dp != CFG_DUR_OK) {
		g_autofree char *m = cfg_duration_message(dp, f[3], "duration");

		return csv_error(x, col[3], "%s", m);
	}
	sleep.at = at;
	launch.channel = (uint16_t)ch;
	launch.flags = GS_CMD_FENCE | (mode == GS_WAIT_INTERRUPT ?
				       GS_CMD_IRQ : 0);
	launch.dur = gs_dist_const(len);
	if (cfg_prog_push(c, where, p, &sleep) < 0 ||
	    cfg_prog_push(c, where, p, &launch) < 0)
		return -1;
	return 0;
}

static int is_header(const char *line)
{
	g_autofree char *s = g_strdelimit(g_ascii_strdown(line, -1), " \t",
					  ' ');
	g_auto(GStrv) f = g_strsplit(s, ",", -1);
	static const char *const want[] = {
		"time", "channel", "engine", "duration",
	};
	size_t i;

	if (g_strv_length(f) != 4)
		return 0;
	for (i = 0; i < 4; i++)
		if (strcmp(g_strstrip(f[i]), want[i]))
			return 0;
	return 1;
}

static int parse_trace(struct csv *x, char *data, struct gs_task_config *t,
		       int mode, struct cfg_prog *p, const yaml_node_t *where)
{
	gs_time_t prev = 0;
	bool header = false;
	size_t rows = 0;
	char *line = data;

	while (line) {
		char *nl = strchr(line, '\n');
		size_t len;

		if (nl)
			*nl = '\0';
		x->line++;
		len = strlen(line);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (len && line[0] != '#' && strspn(line, " \t") != len) {
			if (!header) {
				if (!is_header(line))
					return csv_error(x, 1,
							 "the first line must be the header 'time,channel,engine,duration'");
				header = true;
			} else {
				if (trace_row(x, line, t, mode, &prev, p,
					      where) < 0)
					return -1;
				rows++;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (rows == 0)
		return csv_error(x, 1, "the trace has no rows after its header");
	return 0;
}

static char *trace_path(struct cfg *c, const char *file)
{
	if (g_path_is_absolute(file) || !strcmp(c->dir, "."))
		return g_strdup(file);
	return g_build_filename(c->dir, file, NULL);
}

int cfg_compile_trace(struct cfg *c, const yaml_node_t *n,
		      struct gs_task_config *t, struct cfg_prog *p)
{
	static const char *const keys[] = { "file", "wait", NULL };
	const yaml_node_t *file = n, *v;
	g_autofree char *name = NULL, *path = NULL, *data = NULL;
	g_autoptr(GError) err = NULL;
	struct csv x = { .c = c };
	struct gs_step s;
	int mode = GS_WAIT_SPIN;
	size_t len;

	if (n->type == YAML_MAPPING_NODE) {
		if (cfg_map_check(c, n, "trace", keys) < 0)
			return -1;
		file = cfg_map_get(c, n, "file");
		if (!file)
			return cfg_error(c, n, "trace: missing required key 'file'");
		v = cfg_map_get(c, n, "wait");
		if (v && cfg_enum(c, v, "wait", wait_names, 2, &mode) < 0)
			return -1;
	}
	if (cfg_string(c, file, "trace file", false, &name) < 0)
		return -1;
	path = trace_path(c, name);
	data = gs_read_file_bounded(path, GS_MAX_INPUT_BYTES, &len, &err);
	if (!data)
		return cfg_error(c, file, "cannot read trace file %s",
				 err->message);
	if (strlen(data) != len)
		return cfg_error(c, file, "trace file %s contains NUL bytes",
				 path);
	x.path = path;
	if (parse_trace(&x, data, t, mode, p, n) < 0)
		return -1;
	s = cfg_step(GS_OP_WAIT);
	s.channel = GS_ALL_CHANNELS;
	s.wait_mode = (uint8_t)mode;
	if (cfg_prog_push(c, n, p, &s) < 0)
		return -1;
	s = cfg_step(GS_OP_ROUND);
	if (cfg_prog_push(c, n, p, &s) < 0)
		return -1;
	t->behavior_label = g_path_get_basename(name);
	return 0;
}
