/* The replay's driver: reads a record's instances one by one, makes each
 * op call of its section into the policy, and checks what the op
 * returned. The HAL calls in between are replay_hal.c's. */
#include "replay_priv.h"

static hal_u32 text_len(const char *s)
{
	hal_u32 n = 0;

	while (s[n])
		n++;
	return n;
}

int replay_next_line(struct hal_sched *s, struct hrec_in *line, int peek)
{
	const char *p = s->pos;
	hal_u64 no = s->line;

	while (p < s->end) {
		const char *start = p;

		while (p < s->end && *p != '\n')
			p++;
		no++;
		line->p = start;
		line->end = p;
		if (p < s->end)
			p++;
		if (line->end == start || *start == '#')
			continue;
		/* the next instance's header ends this one's section */
		if (line->end - start >= 9 && start[0] == 'i' &&
		    start[1] == 'n' && start[2] == 's' && start[8] == ' ')
			return 0;
		if (!peek) {
			s->pos = p;
			s->line = no;
		}
		return 1;
	}
	return 0;
}

void replay_fail(struct hal_sched *s, const char *const *parts)
{
	struct hrec_out o = { .buf = s->res->message,
			      .size = sizeof(s->res->message) };
	hal_u32 i;

	if (s->failed)
		return;
	s->failed = 1;
	s->res->line = s->line + (s->line == 0);
	hrec_reset(&o);
	hrec_str(&o, "policy ");
	hrec_str(&o, s->ops ? s->ops->name : "?");
	if (s->op) {
		hrec_str(&o, ", op ");
		hrec_str(&o, s->op);
		hrec_str(&o, " at ");
		hrec_u64(&o, s->now);
		hrec_str(&o, " ns");
	}
	hrec_str(&o, ": ");
	for (i = 0; parts[i]; i++)
		hrec_str(&o, parts[i]);
}

static void fail1(struct hal_sched *s, const char *what)
{
	const char *const parts[] = { what, 0 };

	replay_fail(s, parts);
}

/* The record's text is not what the recorder writes. */
static void fail_bad(struct hal_sched *s, const char *what)
{
	if (!s->failed)
		s->res->malformed = 1;
	fail1(s, what);
}

/* The handle of ref `ref` in a table of n, made by `make` ops and looked
 * up by the others. */
static void *handle(struct hal_sched *s, void **table, hal_u32 n, hal_u64 ref,
		    hal_u64 size, int make)
{
	if (!ref || ref > n) {
		fail_bad(s, "a task or channel number past the header's count");
		return 0;
	}
	if (make && !table[ref]) {
		table[ref] = replay_zalloc(s, size);
		if (!table[ref]) {
			fail1(s, "out of memory");
			return 0;
		}
	}
	if (!table[ref])
		fail_bad(s, "a task or channel no create op made");
	return table[ref];
}

/* The task (kind 't') or channel ('c') the next token names, made by
 * `make` ops. */
static void *handle_arg(struct hal_sched *s, struct hrec_in *in, char kind,
			int make)
{
	int task = kind == 't';
	struct hal_task *t;
	struct hal_chan *c;
	hal_u64 ref;

	if (hrec_parse(in, kind, &ref) < 0) {
		fail_bad(s, task ? "malformed task argument"
				 : "malformed channel argument");
		return 0;
	}
	if (task) {
		t = handle(s, (void **)s->tasks, s->n_tasks, ref, sizeof(*t),
			   make);
		if (t) {
			t->s = s;
			t->ref = (hal_u32)ref;
		}
		return t;
	}
	c = handle(s, (void **)s->chans, s->n_chans, ref, sizeof(*c), make);
	if (c) {
		c->s = s;
		c->ref = (hal_u32)ref;
	}
	return c;
}

static struct hal_task *task_arg(struct hal_sched *s, struct hrec_in *in,
				 int make)
{
	return handle_arg(s, in, 't', make);
}

static struct hal_chan *chan_arg(struct hal_sched *s, struct hrec_in *in,
				 int make)
{
	return handle_arg(s, in, 'c', make);
}

static int uint_arg(struct hal_sched *s, struct hrec_in *in, hal_u64 *v)
{
	if (hrec_parse(in, 'u', v) == 0)
		return 0;
	fail_bad(s, "malformed number argument");
	return -1;
}

/* The line after the op: "end", or "ret V" for the ops that answer. */
static void check_end(struct hal_sched *s, int answers, hal_s64 got)
{
	char *have = s->have, mine[32];
	struct hrec_out o = { .buf = mine, .size = sizeof(mine) };
	struct hrec_in ln;
	hal_u32 n = 0;

	if (s->failed)
		return;
	hrec_reset(&o);
	hrec_str(&o, answers ? "ret " : "end");
	if (answers)
		hrec_s64(&o, got);
	if (!replay_next_line(s, &ln, 0)) {
		fail1(s, "the op returned, the record has nothing more");
		return;
	}
	while (ln.p + n < ln.end && n + 1 < REPLAY_LINE) {
		have[n] = ln.p[n];
		n++;
	}
	have[n] = 0;
	if (n != o.len || !hrec_token_is(have, n, mine)) {
		const char *const parts[] = { "the op returned (`", mine,
			"`), the record has `", have, "`", 0 };

		replay_fail(s, parts);
	}
}

/* Runs the op of the record's next line, which starts with "op ". */
void replay_op(struct hal_sched *s)
{
	const struct gs_policy_ops *ops = s->ops;
	const char *outer = s->op;
	hal_u64 outer_now = s->now, a, b, v[5];
	struct hal_task *t;
	struct hal_chan *c;
	struct hrec_in in;
	const char *name;
	hal_u32 len;
	int answers = 0;
	hal_s64 got = 0;

	replay_next_line(s, &in, 0);
	hrec_token(&in, &len); /* "op" */
	if (uint_arg(s, &in, &s->now) < 0)
		return;
	name = hrec_token(&in, &len);
	if (!name) {
		fail_bad(s, "an op line without an op");
		return;
	}
	if (s->depth >= REPLAY_MAX_DEPTH) {
		fail_bad(s, "ops nested deeper than the replay follows");
		return;
	}
	s->op = 0;
	s->depth++;
	s->res->ops++;
#define IS(x) hrec_token_is(name, len, x)
	if (IS("init")) {
		s->op = "init";
		answers = 1;
		got = ops->init ? ops->init(s) : 0;
	} else if (IS("fini")) {
		s->op = "fini";
		if (ops->fini)
			ops->fini(s);
	} else if (IS("task_create")) {
		s->op = "task_create";
		t = task_arg(s, &in, 1);
		if (t && ops->task_create)
			ops->task_create(s, t);
	} else if (IS("task_exit")) {
		s->op = "task_exit";
		t = task_arg(s, &in, 0);
		if (t && ops->task_exit)
			ops->task_exit(s, t);
	} else if (IS("channel_create")) {
		s->op = "channel_create";
		c = chan_arg(s, &in, 1);
		t = c ? task_arg(s, &in, 0) : 0;
		if (c && t) {
			c->task = t;
			c->data = 0;
			if (ops->channel_create)
				ops->channel_create(s, c);
		}
	} else if (IS("channel_destroy")) {
		s->op = "channel_destroy";
		c = chan_arg(s, &in, 0);
		if (c && ops->channel_destroy)
			ops->channel_destroy(s, c);
	} else if (IS("submit")) {
		s->op = "submit";
		answers = 1;
		got = -1; /* GS_SUBMIT_NO_OP of the simulator's wrapper */
		c = chan_arg(s, &in, 0);
		if (c && ops->submit)
			got = ops->submit(s, c);
	} else if (IS("shadow_submit")) {
		s->op = "shadow_submit";
		c = chan_arg(s, &in, 0);
		if (c && ops->shadow_submit)
			ops->shadow_submit(s, c);
	} else if (IS("fence_signal")) {
		s->op = "fence_signal";
		c = chan_arg(s, &in, 0);
		if (c && uint_arg(s, &in, &a) == 0 && ops->fence_signal)
			ops->fence_signal(s, c, (hal_u32)a);
	} else if (IS("timer")) {
		s->op = "timer";
		if (uint_arg(s, &in, &a) == 0 && ops->timer)
			ops->timer(s, (hal_u32)a);
	} else if (IS("poll_change")) {
		s->op = "poll_change";
		if (uint_arg(s, &in, &v[0]) == 0 &&
		    uint_arg(s, &in, &v[1]) == 0 &&
		    uint_arg(s, &in, &v[2]) == 0 &&
		    uint_arg(s, &in, &v[3]) == 0 &&
		    uint_arg(s, &in, &b) == 0 && ops->poll_change) {
			struct hal_engine_status st = {
				.cur_id = (hal_u32)v[0],
				.next_id = (hal_u32)v[1],
				.ctx_status = (hal_u8)v[2],
				.busy = (hal_u8)v[3],
			};

			ops->poll_change(s, &st, b);
		}
	} else if (IS("poll_end")) {
		s->op = "poll_end";
		if (ops->poll_end)
			ops->poll_end(s);
	} else if (IS("trace_open")) {
		s->op = "trace_open";
		if (ops->trace_open)
			ops->trace_open(s);
	} else {
		fail_bad(s, "an unknown op");
	}
#undef IS
	check_end(s, answers, got);
	s->depth--;
	s->op = outer;
	s->now = outer_now;
}

/* After the section's last op (fini, in a record the simulator wrote)
 * the policy must have freed all it allocated, as a module it unloads
 * must. A replay stopped early frees it here instead. */
static void check_freed(struct hal_sched *s)
{
	char n[24];
	struct hrec_out o = { .buf = n, .size = sizeof(n) };
	hal_u64 left = replay_free_blocks(s);
	const char *const parts[] = { "the policy still holds ", n,
		" allocation(s) after the section's last op", 0 };

	if (s->failed || !left)
		return;
	hrec_reset(&o);
	hrec_u64(&o, left);
	replay_fail(s, parts);
}

static void free_handles(struct hal_sched *s)
{
	hal_u32 i;

	for (i = 1; s->tasks && i <= s->n_tasks; i++) {
		if (s->tasks[i])
			replay_free(s, s->tasks[i]->name);
		replay_free(s, s->tasks[i]);
	}
	for (i = 1; s->chans && i <= s->n_chans; i++)
		replay_free(s, s->chans[i]);
	replay_free(s, s->tasks);
	replay_free(s, s->chans);
	replay_free(s, s->priv);
	replay_free(s, s->params_text);
}

/* "params SPEC" at the end of the instance line (older records have
 * none): the string is decoded and, when the environment can parse it,
 * parsed into s->params for hal_param to check against. */
static int read_params(struct hal_sched *s, struct hrec_in *in)
{
	hal_u32 len, n;
	const char *tok = hrec_token(in, &len);
	int err;

	if (!tok || hrec_token(in, &n))
		return -1;
	s->params_text = replay_zalloc(s, len + 1);
	if (!s->params_text) {
		fail1(s, "out of memory");
		return 0;
	}
	hrec_unescape(tok, len, s->params_text, len + 1);
	if (!s->env->parse_params || s->failed)
		return 0;
	err = s->env->parse_params(s->env->ctx, s->ops, s->params_text,
				   s->params);
	if (err) {
		const char *const parts[] = { "params `", s->params_text,
			"` refused by this environment's parser", 0 };

		replay_fail(s, parts);
		return 0;
	}
	s->has_params = 1;
	return 0;
}

/* "instance K POLICY vm V tasks N chans M [params SPEC]": the instance's
 * policy, how many task and channel handles its section makes, and its
 * params= string. */
static int read_header(struct hal_sched *s, struct hrec_in *in)
{
	const struct gs_policy_ops *ops = 0;
	hal_u64 n, vm, nt, nc;
	const char *tok;
	hal_u32 len, i;
	char name[64];

	if (hrec_parse(in, 'u', &n) < 0)
		return -1;
	tok = hrec_token(in, &len);
	if (!tok || len >= sizeof(name))
		return -1;
	for (i = 0; i < len; i++)
		name[i] = tok[i];
	name[len] = 0;
	for (i = 0; gs_policy_registry[i]; i++)
		if (hrec_token_is(tok, len, gs_policy_registry[i]->name))
			ops = gs_policy_registry[i];
	tok = hrec_token(in, &len);
	if (!tok || !hrec_token_is(tok, len, "vm") ||
	    hrec_parse(in, 'i', &vm) < 0)
		return -1;
	tok = hrec_token(in, &len);
	if (!tok || !hrec_token_is(tok, len, "tasks") ||
	    hrec_parse(in, 'u', &nt) < 0 || nt > 0xfffffffeu)
		return -1;
	tok = hrec_token(in, &len);
	if (!tok || !hrec_token_is(tok, len, "chans") ||
	    hrec_parse(in, 'u', &nc) < 0 || nc > 0xfffffffeu)
		return -1;
	if (!ops) {
		const char *const parts[] = { "no policy named ", name,
			" in this build", 0 };

		s->res->malformed = 1;
		replay_fail(s, parts);
		return 0;
	}
	s->ops = ops;
	s->n_tasks = (hal_u32)nt;
	s->n_chans = (hal_u32)nc;
	s->tasks = replay_zalloc(s, (nt + 1) * sizeof(*s->tasks));
	s->chans = replay_zalloc(s, (nc + 1) * sizeof(*s->chans));
	s->priv = ops->priv_size ? replay_zalloc(s, ops->priv_size) : 0;
	if (!s->tasks || !s->chans || (ops->priv_size && !s->priv))
		fail1(s, "out of memory");
	tok = hrec_token(in, &len);
	if (tok && !hrec_token_is(tok, len, "params"))
		return -1;
	return tok ? read_params(s, in) : 0;
}

/* One instance: its header line is at s->pos. */
static void replay_instance(struct hal_sched *s)
{
	struct hrec_in in;
	hal_u32 len;

	/* the header: read it past the section check of replay_next_line */
	in.p = s->pos;
	while (s->pos < s->end && *s->pos != '\n')
		s->pos++;
	in.end = s->pos;
	if (s->pos < s->end)
		s->pos++;
	s->line++;
	hrec_token(&in, &len); /* "instance" */
	if (read_header(s, &in) < 0)
		fail_bad(s, "malformed instance line");
	s->res->instances++;
	while (!s->failed && replay_next_line(s, &in, 1)) {
		if (in.end - in.p < 3 || in.p[0] != 'o' || in.p[1] != 'p' ||
		    in.p[2] != ' ') {
			struct hrec_out o = { .buf = s->text,
					      .size = sizeof(s->text) };
			const char *const parts[] = {
				"the record has `", s->text,
				"` where an op should come (a call the "
				"policy did not make)", 0 };

			replay_next_line(s, &in, 0);
			hrec_reset(&o);
			for (len = 0; in.p + len < in.end &&
				      len + 1 < sizeof(s->text); len++)
				s->text[len] = in.p[len];
			s->text[len] = 0;
			replay_fail(s, parts);
			break;
		}
		replay_op(s);
	}
	check_freed(s);
	free_handles(s);
}

/* Skips blank and comment lines; whether the next line starts with
 * `word` (then *at is its start). */
static int next_starts(const char *p, const char *end, hal_u64 *line,
		       const char *word, const char **at)
{
	hal_u32 n = text_len(word), i;

	while (p < end && (*p == '\n' || *p == '#')) {
		if (*p == '#')
			while (p < end && *p != '\n')
				p++;
		if (p < end) {
			p++;
			(*line)++;
		}
	}
	*at = p;
	if ((hal_u64)(end - p) < n)
		return 0;
	for (i = 0; i < n; i++)
		if (p[i] != word[i])
			return 0;
	return 1;
}

int gs_replay_run(const char *buf, hal_u64 len,
		  const struct gs_replay_env *env,
		  struct gs_replay_result *res)
{
	const char *end = buf + len, *at;
	struct hal_sched *s;
	hal_u64 line = 1;
	const char *p = buf;

	res->instances = res->ops = res->calls = res->line = 0;
	res->params = 0;
	res->malformed = 0;
	res->message[0] = 0;
	/* the first line: the magic and the version */
	if (!next_starts(p, end, &line, HREC_MAGIC " 1\n", &at)) {
		struct hrec_out o = { .buf = res->message,
				      .size = sizeof(res->message) };

		hrec_reset(&o);
		hrec_str(&o, "not a HAL record of version 1 (it must start `"
			     HREC_MAGIC " 1`)");
		res->line = 1;
		res->malformed = 1;
		return -1;
	}
	p = at + text_len(HREC_MAGIC " 1\n");
	line++;
	while (next_starts(p, end, &line, "instance ", &at)) {
		s = env->zalloc(env->ctx, sizeof(*s));
		if (!s) {
			struct hrec_out o = { .buf = res->message,
					      .size = sizeof(res->message) };

			hrec_reset(&o);
			hrec_str(&o, "out of memory");
			return -1;
		}
		s->env = env;
		s->res = res;
		s->pos = at;
		s->end = end;
		s->line = line - 1;
		replay_instance(s);
		p = s->pos;
		line = s->line + 1;
		if (s->failed) {
			env->free(env->ctx, s);
			return -1;
		}
		env->free(env->ctx, s);
	}
	if (p < end) {
		struct hrec_out o = { .buf = res->message,
				      .size = sizeof(res->message) };

		hrec_reset(&o);
		hrec_str(&o, "text where an instance line should come");
		res->line = line;
		res->malformed = 1;
		return -1;
	}
	return 0;
}
