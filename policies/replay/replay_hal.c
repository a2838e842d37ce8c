/* The replay HAL: every service of hal.h answered from a record. A call
 * is written as the recorder writes it (hal_record.c) and compared with
 * the record's next line; a query's values are read from that line.
 * Memory (replay_mem.c) and the policy's own data (priv, task and
 * channel data) are the only services that do not go through the
 * record. */
#include "replay_priv.h"

#define A(...) ((const hal_u64[]){ __VA_ARGS__ })

static hal_u64 ptr_value(const void *p)
{
	return (hal_u64)(unsigned long)p;
}

static hal_u64 task_ref(const struct hal_task *t)
{
	return t ? t->ref : 0;
}

static hal_u64 chan_ref(const struct hal_chan *c)
{
	return c ? c->ref : 0;
}

/* Whether the record's line (p, len) is the policy's call s->text, alone
 * or followed by " = " and values; the values' cursor in *vals. */
static int line_matches(const struct hal_sched *s, const struct hrec_in *ln,
			struct hrec_in *vals)
{
	const char *p = ln->p;
	hal_u32 i;

	for (i = 0; s->text[i]; i++, p++)
		if (p >= ln->end || *p != s->text[i])
			return 0;
	vals->p = p;
	vals->end = ln->end;
	if (p == ln->end)
		return 1;
	if (ln->end - p < 2 || p[0] != ' ' || p[1] != '=')
		return 0;
	vals->p = p + 2;
	return 1;
}

static void line_copy(const struct hrec_in *ln, char *buf, hal_u32 size)
{
	hal_u32 n = 0;
	const char *p;

	for (p = ln->p; p < ln->end && n + 1 < size; p++)
		buf[n++] = *p;
	buf[n] = 0;
}

/* The policy made call `name` (args of `kinds`): check it against the
 * record and read the values it answered (okinds) into outs. Ops the
 * call set off in the environment (recorded after it) run before it
 * returns. After a difference the replay only lets the op in progress
 * return: numbers answer 1 (never a zero divisor), handles none. */
static int expect(struct hal_sched *s, const char *name, const char *kinds,
		  const hal_u64 *args, const char *okinds, hal_u64 *outs)
{
	char *have = s->have;
	struct hrec_in ln, vals;
	hal_u32 i;

	for (i = 0; okinds && okinds[i]; i++)
		outs[i] = okinds[i] == 'u' || okinds[i] == 'i';
	if (s->failed)
		return -1;
	s->out.buf = s->text;
	s->out.size = sizeof(s->text);
	hrec_reset(&s->out);
	hrec_call(&s->out, name, kinds, args, 0, 0);
	if (!replay_next_line(s, &ln, 0)) {
		const char *const parts[] = { "the policy called `", s->text,
			"`, the record has nothing more", 0 };

		replay_fail(s, parts);
		return -1;
	}
	if (!line_matches(s, &ln, &vals) ||
	    (okinds && okinds[0] && vals.p == ln.end)) {
		const char *const parts[] = { "the policy called `", s->text,
			"`, the record has `", have, "`", 0 };

		line_copy(&ln, have, REPLAY_LINE);
		replay_fail(s, parts);
		return -1;
	}
	for (i = 0; okinds && okinds[i]; i++) {
		if (hrec_parse(&vals, okinds[i], &outs[i]) < 0) {
			const char *const parts[] = { "malformed values in `",
				have, "`", 0 };

			line_copy(&ln, have, REPLAY_LINE);
			replay_fail(s, parts);
			return -1;
		}
	}
	s->res->calls++;
	while (!s->failed && replay_next_line(s, &ln, 1) &&
	       ln.end - ln.p > 3 && ln.p[0] == 'o' && ln.p[1] == 'p' &&
	       ln.p[2] == ' ')
		replay_op(s);
	return s->failed ? -1 : 0;
}

/* A value answered for one query. */
static hal_u64 query(struct hal_sched *s, const char *name, const char *kinds,
		     const hal_u64 *args, char okind)
{
	char ok[2] = { okind, 0 };
	hal_u64 v;

	expect(s, name, kinds, args, ok, &v);
	return v;
}

static void output(struct hal_sched *s, const char *name, const char *kinds,
		   const hal_u64 *args)
{
	expect(s, name, kinds, args, 0, 0);
}

static struct hal_task *task_at(struct hal_sched *s, hal_u64 ref)
{
	if (!ref || ref > s->n_tasks)
		return 0;
	return s->tasks[ref];
}

static struct hal_chan *chan_at(struct hal_sched *s, hal_u64 ref)
{
	if (!ref || ref > s->n_chans)
		return 0;
	return s->chans[ref];
}

/* ---- time, timers, memory, parameters -------------------------------- */

hal_u64 hal_now(struct hal_sched *s)
{
	return query(s, "hal_now", 0, 0, 'u');
}

void hal_timer_arm(struct hal_sched *s, hal_u32 id, hal_u64 when)
{
	output(s, "hal_timer_arm", "uu", A(id, when));
}

void hal_timer_cancel(struct hal_sched *s, hal_u32 id)
{
	output(s, "hal_timer_cancel", "u", A(id));
}

void *hal_priv(struct hal_sched *s)
{
	return s->priv;
}

/* The record's answer, which must also be what the instance line's
 * params= string gives in this environment's parser. */
hal_u64 hal_param(struct hal_sched *s, hal_u32 idx)
{
	hal_u64 v = query(s, "hal_param", "u", A(idx), 'u');
	char want[24], got[24];
	struct hrec_out o = { .buf = want, .size = sizeof(want) };

	if (s->failed || !s->has_params || idx >= s->ops->n_params)
		return v;
	s->res->params++;
	if (v != s->params[idx]) {
		const char *const parts[] = { "hal_param ",
			s->ops->params[idx].name, ": the record answered ",
			want, ", params `", s->params_text, "` gives ",
			got, 0 };

		hrec_reset(&o);
		hrec_u64(&o, v);
		o.buf = got;
		hrec_reset(&o);
		hrec_u64(&o, s->params[idx]);
		replay_fail(s, parts);
	}
	return v;
}

/* ---- tasks and channels ------------------------------------------------ */

hal_u32 hal_task_id(const struct hal_task *t)
{
	return (hal_u32)query(t->s, "hal_task_id", "t", A(t->ref), 'u');
}

/* A string answer (kind 's') is the address of its token in the record;
 * the name is decoded once into the task's own copy. */
const char *hal_task_name(const struct hal_task *t)
{
	struct hal_sched *s = t->s;
	struct hal_task *tw = task_at(s, t->ref);
	char *name = s->have; /* scratch: no message is made from here on */
	const char *tok, *p;
	hal_u64 v;
	hal_u32 n, i;

	if (expect(s, "hal_task_name", "t", A(t->ref), "s", &v) < 0 || !tw)
		return "";
	tok = (const char *)(unsigned long)v;
	for (p = tok; p < s->end && *p != ' ' && *p != '\n'; p++)
		;
	n = hrec_unescape(tok, (hal_u32)(p - tok), name, REPLAY_LINE);
	if (!tw->name) {
		tw->name = replay_zalloc(s, n + 1);
		if (!tw->name)
			return "";
		for (i = 0; i < n; i++)
			tw->name[i] = name[i];
	}
	return tw->name;
}

hal_u32 hal_task_weight(const struct hal_task *t)
{
	return (hal_u32)query(t->s, "hal_task_weight", "t", A(t->ref), 'u');
}

hal_s32 hal_task_vm(const struct hal_task *t)
{
	return (hal_s32)query(t->s, "hal_task_vm", "t", A(t->ref), 'i');
}

hal_u32 hal_task_gpu(const struct hal_task *t)
{
	return (hal_u32)query(t->s, "hal_task_gpu", "t", A(t->ref), 'u');
}

hal_u32 hal_task_priority(const struct hal_task *t)
{
	return (hal_u32)query(t->s, "hal_task_priority", "t", A(t->ref), 'u');
}

void *hal_task_data(const struct hal_task *t)
{
	return t->data;
}

void hal_task_set_data(struct hal_task *t, void *data)
{
	t->data = data;
}

/* Checked against the record, answered from the channel's own task (the
 * one its channel_create op named), so that a difference found earlier
 * cannot hand the policy a null task. */
struct hal_task *hal_chan_task(const struct hal_chan *c)
{
	query(c->s, "hal_chan_task", "c", A(c->ref), 't');
	return c->task;
}

hal_u32 hal_chan_id(const struct hal_chan *c)
{
	return (hal_u32)query(c->s, "hal_chan_id", "c", A(c->ref), 'u');
}

hal_u32 hal_chan_gpu(const struct hal_chan *c)
{
	return (hal_u32)query(c->s, "hal_chan_gpu", "c", A(c->ref), 'u');
}

void *hal_chan_data(const struct hal_chan *c)
{
	return c->data;
}

void hal_chan_set_data(struct hal_chan *c, void *data)
{
	c->data = data;
}

struct hal_chan *hal_chan_lookup(struct hal_sched *s, hal_u32 gpu, hal_u32 id)
{
	return chan_at(s, query(s, "hal_chan_lookup", "uu", A(gpu, id), 'c'));
}

hal_u32 hal_chan_guest_id(const struct hal_chan *c)
{
	return (hal_u32)query(c->s, "hal_chan_guest_id", "c", A(c->ref), 'u');
}

hal_u32 hal_vm_count(struct hal_sched *s)
{
	return (hal_u32)query(s, "hal_vm_count", 0, 0, 'u');
}

hal_s32 hal_vm_parent(struct hal_sched *s, hal_s32 vm)
{
	return (hal_s32)query(s, "hal_vm_parent", "i", A((hal_u64)vm), 'i');
}

hal_u32 hal_vm_weight(struct hal_sched *s, hal_s32 vm)
{
	return (hal_u32)query(s, "hal_vm_weight", "i", A((hal_u64)vm), 'u');
}

/* ---- submission control ------------------------------------------------ */

void hal_trap_arm(struct hal_sched *s, struct hal_chan *c)
{
	output(s, "hal_trap_arm", "c", A(chan_ref(c)));
}

void hal_trap_disarm(struct hal_sched *s, struct hal_chan *c)
{
	output(s, "hal_trap_disarm", "c", A(chan_ref(c)));
}

void hal_task_release(struct hal_sched *s, struct hal_task *t)
{
	output(s, "hal_task_release", "t", A(task_ref(t)));
}

int hal_task_held(const struct hal_task *t)
{
	return (int)query(t->s, "hal_task_held", "t", A(t->ref), 'u');
}

void hal_shadow_enable(struct hal_sched *s, struct hal_chan *c)
{
	output(s, "hal_shadow_enable", "c", A(chan_ref(c)));
}

void hal_shadow_disable(struct hal_sched *s, struct hal_chan *c)
{
	output(s, "hal_shadow_disable", "c", A(chan_ref(c)));
}

hal_u32 hal_shadow_pending(struct hal_sched *s, struct hal_chan *c)
{
	return (hal_u32)query(s, "hal_shadow_pending", "c", A(chan_ref(c)),
			      'u');
}

hal_u64 hal_shadow_peek_hint(struct hal_sched *s, struct hal_chan *c)
{
	return query(s, "hal_shadow_peek_hint", "c", A(chan_ref(c)), 'u');
}

hal_u32 hal_shadow_peek_class(struct hal_sched *s, struct hal_chan *c)
{
	return (hal_u32)query(s, "hal_shadow_peek_class", "c", A(chan_ref(c)),
			      'u');
}

int hal_shadow_peek_content(struct hal_sched *s, struct hal_chan *c,
			    struct hal_cmd_content *out)
{
	hal_u64 v[5];

	expect(s, "hal_shadow_peek_content", "c", A(chan_ref(c)), "uuuuu", v);
	out->texture_bytes = (hal_u32)v[1];
	out->swaps = (hal_u32)v[2];
	out->vertices = (hal_u32)v[3];
	out->cmd_bytes = (hal_u32)v[4];
	return (int)v[0];
}

hal_u32 hal_shadow_peek_occupancy(struct hal_sched *s, struct hal_chan *c)
{
	return (hal_u32)query(s, "hal_shadow_peek_occupancy", "c",
			      A(chan_ref(c)), 'u');
}

void hal_shadow_forward(struct hal_sched *s, struct hal_chan *c, hal_u32 n)
{
	output(s, "hal_shadow_forward", "cu", A(chan_ref(c), n));
}

/* ---- observing the GPU ------------------------------------------------- */

void hal_read_engine_status(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
			    struct hal_engine_status *out)
{
	hal_u64 v[4];

	expect(s, "hal_read_engine_status", "uu", A(gpu, engine), "uuuu", v);
	out->cur_id = (hal_u32)v[0];
	out->next_id = (hal_u32)v[1];
	out->ctx_status = (hal_u8)v[2];
	out->busy = (hal_u8)v[3];
}

hal_u32 hal_read_chram(struct hal_sched *s, struct hal_chan *c)
{
	return (hal_u32)query(s, "hal_read_chram", "c", A(chan_ref(c)), 'u');
}

hal_u64 hal_fence_read(struct hal_sched *s, struct hal_chan *c)
{
	return query(s, "hal_fence_read", "c", A(chan_ref(c)), 'u');
}

hal_u64 hal_chan_submitted(struct hal_sched *s, struct hal_chan *c)
{
	return query(s, "hal_chan_submitted", "c", A(chan_ref(c)), 'u');
}

void hal_poll_start(struct hal_sched *s, hal_u32 gpu, hal_u32 engine,
		    hal_u64 until)
{
	output(s, "hal_poll_start", "uuu", A(gpu, engine, until));
}

void hal_poll_stop(struct hal_sched *s)
{
	output(s, "hal_poll_stop", 0, 0);
}

/* ---- acting on tasks, reporting ---------------------------------------- */

void hal_task_kill(struct hal_sched *s, struct hal_task *t, const char *why)
{
	output(s, "hal_task_kill", "ts", A(task_ref(t), ptr_value(why)));
}

void hal_account(struct hal_sched *s, struct hal_task *t, hal_u64 gpu_ns)
{
	output(s, "hal_account", "tu", A(task_ref(t), gpu_ns));
}

void hal_set_vtime(struct hal_sched *s, struct hal_task *t, hal_u64 vtime)
{
	output(s, "hal_set_vtime", "tu", A(task_ref(t), vtime));
}

void hal_note_estimate(struct hal_sched *s, struct hal_chan *c,
		       hal_u32 kind, hal_u64 est)
{
	output(s, "hal_note_estimate", "cuu", A(chan_ref(c), kind, est));
}

void hal_note_demand(struct hal_sched *s, struct hal_task *t,
		     hal_u32 demand_pm)
{
	output(s, "hal_note_demand", "tu", A(task_ref(t), demand_pm));
}

void hal_trace_phase(struct hal_sched *s, const char *name, hal_u64 start,
		     hal_u64 end)
{
	output(s, "hal_trace_phase", "suu", A(ptr_value(name), start, end));
}

void hal_cpu_charge(struct hal_sched *s, hal_u64 ns)
{
	output(s, "hal_cpu_charge", "u", A(ns));
}

/* Debug text is no decision: not recorded, not checked. */
void hal_log(struct hal_sched *s, const char *fmt, ...)
{
	(void)s;
	(void)fmt;
}

/* The file's path differs between builds; the line and condition do
 * not. */
void hal_warn(struct hal_sched *s, const char *file, int line,
	      const char *cond)
{
	(void)file;
	output(s, "hal_warn", "us", A((hal_u64)line, ptr_value(cond)));
}

hal_u64 hal_random(struct hal_sched *s)
{
	return query(s, "hal_random", 0, 0, 'u');
}

/* ---- node-level services ----------------------------------------------- */

hal_u32 hal_gpu_count(struct hal_sched *s)
{
	return (hal_u32)query(s, "hal_gpu_count", 0, 0, 'u');
}

hal_u64 hal_gpu_busy_ns(struct hal_sched *s, hal_u32 gpu)
{
	return query(s, "hal_gpu_busy_ns", "u", A(gpu), 'u');
}

hal_u64 hal_engine_busy_ns(struct hal_sched *s, hal_u32 gpu, hal_u32 engine)
{
	return query(s, "hal_engine_busy_ns", "uu", A(gpu, engine), 'u');
}

int hal_task_migrate(struct hal_sched *s, struct hal_task *t, hal_u32 gpu)
{
	return (int)query(s, "hal_task_migrate", "tu", A(task_ref(t), gpu),
			  'i');
}

hal_u64 hal_task_sync_ns(struct hal_sched *s, const struct hal_task *t)
{
	return query(s, "hal_task_sync_ns", "t", A(task_ref(t)), 'u');
}

hal_u64 hal_gpu_memory(struct hal_sched *s, hal_u32 gpu)
{
	return query(s, "hal_gpu_memory", "u", A(gpu), 'u');
}

hal_u64 hal_task_memory(struct hal_sched *s, const struct hal_task *t)
{
	return query(s, "hal_task_memory", "t", A(task_ref(t)), 'u');
}
