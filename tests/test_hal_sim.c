/* The simulator's HAL, driven by probe policies defined here: traps and
 * holds reach the task model, timers fire at their times, register reads
 * and wake-ups are charged as policy CPU, shadow queues forward in order,
 * kills are deferred and leave the other tasks running, and the poll loop
 * sees exactly what a step-by-step read loop sees. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "sim/host/sim_internal.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

static struct gs_scenario *load(const char *yaml)
{
	GError *err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data(
		"hal.yaml", yaml, strlen(yaml), NULL, 0, &err);

	if (!sc)
		fail_msg("%s", err->message);
	return sc;
}

/* A simulation of `yaml` under `ops` (NULL: the scenario's policy),
 * recording the timeline's spans or not. */
static struct gs_sim *start_sim(const char *yaml,
				const struct gs_policy_ops *ops,
				struct gs_scenario **sc, bool timeline)
{
	struct gs_sim_options opt = { .policy_ops = ops,
				      .timeline = timeline };
	GError *err = NULL;
	struct gs_sim *sim;

	*sc = load(yaml);
	sim = gs_sim_new(*sc, &opt, &err);
	assert_non_null(sim);
	return sim;
}

static struct gs_sim *start(const char *yaml, const struct gs_policy_ops *ops,
			    struct gs_scenario **sc)
{
	return start_sim(yaml, ops, sc, false);
}

/* ---- probe 1: hold every submission, release after 1 ms -------------- */

struct hold_probe {
	struct hal_task *held[4];
	uint32_t n_held;
	uint32_t submits;
};

static void hold_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	hal_trap_arm(s, c);
}

static int hold_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct hold_probe *p = hal_priv(s);

	p->submits++;
	p->held[p->n_held++ % 4] = hal_chan_task(c);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
	return GS_SUBMIT_HOLD;
}

static void hold_timer(struct hal_sched *s, hal_u32 id)
{
	struct hold_probe *p = hal_priv(s);
	(void)id;

	hal_task_release(s, p->held[(p->n_held - 1) % 4]);
}

static const struct gs_policy_ops hold_ops = {
	.name = "hold-probe",
	.priv_size = sizeof(struct hold_probe),
	.channel_create = hold_chan_create,
	.submit = hold_submit,
	.timer = hold_timer,
};

static void test_held_submission_waits_for_release(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 10500us\nhost: {launch: 0, doorbell: 0, trap: 10us,"
		" spin_poll: 0, policy_wakeup: 3us}\n"
		"tasks:\n  - name: a\n    behavior: {throttle: {kernel: 100us}}\n",
		&hold_ops, &sc);
	struct hold_probe *p;
	(void)state;

	gs_sim_run(sim, NULL);
	p = sim->sched.priv;
	/* each request: held 1 ms, then trap 10us, then 25us switch (first
	 * only) + 100us: ~1.11 ms per round */
	assert_int_equal(sim->tasks[0].rounds, 9);
	assert_int_equal(p->submits, 10);
	/* one timer wake-up per release, 3us each */
	assert_int_equal(sim->policy_cpu, 9 * 3000 + 3000 * 0);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe 1b: shadow the channel of a held task, then release it ----- */

struct reshadow_probe {
	struct hal_chan *c;
	uint32_t shadowed;
};

static int reshadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct reshadow_probe *p = hal_priv(s);

	p->c = c;
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
	return GS_SUBMIT_HOLD;
}

static void reshadow_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct reshadow_probe *p = hal_priv(s);

	(void)c;
	p->shadowed++;
}

static void reshadow_timer(struct hal_sched *s, hal_u32 id)
{
	struct reshadow_probe *p = hal_priv(s);
	(void)id;

	hal_shadow_enable(s, p->c);
	hal_task_release(s, hal_chan_task(p->c));
}

static const struct gs_policy_ops reshadow_ops = {
	.name = "reshadow-probe",
	.priv_size = sizeof(struct reshadow_probe),
	.channel_create = hold_chan_create,
	.submit = reshadow_submit,
	.shadow_submit = reshadow_shadow_submit,
	.timer = reshadow_timer,
};

/* A held write released after its channel went to its shadow is repeated
 * against the shadow: it is queued, not published (a VM shadowed by the
 * host while a scheduler inside it held the task). */
static void test_released_write_lands_in_new_shadow(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 5ms\nhost: {launch: 0, doorbell: 0, trap: 10us,"
		" spin_poll: 0}\n"
		"tasks:\n  - name: a\n    behavior: {throttle: {kernel: 100us}}\n",
		&reshadow_ops, &sc);
	struct reshadow_probe *p;
	(void)state;

	gs_sim_run(sim, NULL);
	p = sim->sched.priv;
	assert_int_equal(p->shadowed, 1);
	assert_int_equal(hal_shadow_pending(&sim->sched, p->c), 1);
	assert_int_equal(hal_chan_submitted(&sim->sched, p->c), 0);
	assert_int_equal(sim->tasks[0].rounds, 0);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe 2: kill the first task at 5 ms ---------------------------- */

struct kill_probe {
	struct hal_task *first;
};

static void kill_task_create(struct hal_sched *s, struct hal_task *t)
{
	struct kill_probe *p = hal_priv(s);

	if (!p->first) {
		p->first = t;
		hal_timer_arm(s, 1, 5000000);
	}
}

static void kill_timer(struct hal_sched *s, hal_u32 id)
{
	struct kill_probe *p = hal_priv(s);
	(void)id;

	hal_task_kill(s, p->first, "probe");
}

static const struct gs_policy_ops kill_ops = {
	.name = "kill-probe",
	.priv_size = sizeof(struct kill_probe),
	.task_create = kill_task_create,
	.timer = kill_timer,
};

static void test_kill_leaves_others_running(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 20ms\ntasks:\n"
		"  - name: endless\n    behavior: {throttle: {kernel: 100s}}\n"
		"  - name: other\n    behavior: {throttle: {kernel: 100us}}\n",
		&kill_ops, &sc);
	struct gs_results r;
	(void)state;

	gs_results_init(&r);
	gs_sim_run(sim, NULL);
	gs_sim_collect(sim, &r);
	assert_true(r.tasks[0].killed);
	assert_false(r.tasks[1].killed);
	assert_int_equal(sim->tasks[0].state, GS_TASK_KILLED);
	assert_int_equal(r.sim_time_ns, 20 * GS_NS_PER_MS);
	/* the endless kernel ran from the end of its context load until the
	 * kill and was charged for it; then the engine went to the other
	 * task, whose first command had waited behind it */
	/* launched after 5us, loaded in 25us */
	assert_int_equal(r.tasks[0].gpu_time_ns, 5 * GS_NS_PER_MS - 30000);
	assert_true(r.tasks[1].gpu_time_ns > 13 * GS_NS_PER_MS);
	assert_true(r.tasks[1].rounds > 100);
	gs_results_clear(&r);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe 3: shadow queue, forward one command per ms ---------------- */

struct shadow_probe {
	struct hal_chan *c;
	uint32_t queued;
};

static void shadow_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct shadow_probe *p = hal_priv(s);

	p->c = c;
	hal_shadow_enable(s, c);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
}

static void shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct shadow_probe *p = hal_priv(s);

	p->queued++;
	assert_int_equal(hal_shadow_peek_hint(s, c), 50000);
}

static void shadow_timer(struct hal_sched *s, hal_u32 id)
{
	struct shadow_probe *p = hal_priv(s);
	(void)id;

	if (hal_shadow_pending(s, p->c))
		hal_shadow_forward(s, p->c, 1);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
}

static const struct gs_policy_ops shadow_ops = {
	.name = "shadow-probe",
	.priv_size = sizeof(struct shadow_probe),
	.channel_create = shadow_chan_create,
	.shadow_submit = shadow_submit,
	.timer = shadow_timer,
};

static void test_shadow_queue_forwards_on_demand(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 10500us\ntasks:\n  - name: a\n    behavior:"
		" {throttle: {kernel: 50us}}\n",
		&shadow_ops, &sc);
	(void)state;

	gs_sim_run(sim, NULL);
	/* one command per forwarding tick: 10 in 10.5 ms, each 50us */
	assert_int_equal(sim->tasks[0].rounds, 10);
	assert_int_equal(sim->tasks[0].gpu_time, 10 * 50000);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe 4: the poll loop against a step-by-step loop --------------- */

struct change {
	uint64_t when;
	struct hal_engine_status st;
};

struct poll_probe {
	bool stepwise;
	struct hal_engine_status last;
	GArray *seen;   /* struct change */
	uint64_t until;
	uint32_t ends;
};

static void record_change(struct poll_probe *p,
			  const struct hal_engine_status *st, uint64_t when)
{
	struct change c = { when, *st };

	g_array_append_val(p->seen, c);
}

static void poll_change(struct hal_sched *s,
			const struct hal_engine_status *st, hal_u64 when)
{
	record_change(hal_priv(s), st, when);
}

static void poll_end_cb(struct hal_sched *s)
{
	struct poll_probe *p = hal_priv(s);

	p->ends++;
}

static int poll_init(struct hal_sched *s)
{
	struct poll_probe *p = hal_priv(s);

	p->seen = g_array_new(FALSE, FALSE, sizeof(struct change));
	p->until = 30000000;
	/* start at 1 ms so the loop does not begin on a status change */
	hal_timer_arm(s, 0, 1000000);
	return 0;
}

static void poll_fini(struct hal_sched *s)
{
	(void)s;
}

static bool same(const struct hal_engine_status *a,
		 const struct hal_engine_status *b)
{
	return a->cur_id == b->cur_id && a->next_id == b->next_id &&
	       a->ctx_status == b->ctx_status && a->busy == b->busy;
}

/* Step-by-step: one read per mmio period, by timer. */
static void poll_timer(struct hal_sched *s, hal_u32 id)
{
	struct poll_probe *p = hal_priv(s);
	struct hal_engine_status st;
	(void)id;

	if (!p->stepwise) {
		hal_poll_start(s, 0, HAL_ENGINE_COMPUTE, p->until);
		return;
	}
	hal_read_engine_status(s, 0, HAL_ENGINE_COMPUTE, &st);
	/* the first read is reported, then every change */
	if (hal_now(s) == 1000000 || !same(&st, &p->last)) {
		p->last = st;
		record_change(p, &st, hal_now(s));
	}
	if (hal_now(s) + 1000 < p->until)
		hal_timer_arm(s, 0, hal_now(s) + 1000);
}

static const struct gs_policy_ops poll_ops = {
	.name = "poll-probe",
	.priv_size = sizeof(struct poll_probe),
	.init = poll_init,
	.fini = poll_fini,
	.timer = poll_timer,
	.poll_change = poll_change,
	.poll_end = poll_end_cb,
};

static const char *const poll_yaml =
	"duration: 40ms\nseed: 3\ngpu: {mmio_read: 1us}\ntasks:\n"
	"  - name: a\n    behavior: {throttle: {kernel: {uniform: [10us, 700us]},"
	" sleep: {uniform: [0, 300us]}}}\n"
	"  - name: b\n    behavior: {throttle: {kernel: {uniform: [5us, 400us]}}}\n";

static GArray *run_poll(bool stepwise, uint64_t *reads, uint32_t *ends,
			gs_time_t *cpu)
{
	struct gs_scenario *sc;
	struct gs_sim *sim;
	struct gs_sim_options opt = { .policy_ops = &poll_ops };
	struct poll_probe *p;
	GArray *seen;
	GError *err = NULL;

	sc = load(poll_yaml);
	sim = gs_sim_new(sc, &opt, &err);
	assert_non_null(sim);
	p = sim->sched.priv;
	p->stepwise = stepwise;
	gs_sim_run(sim, NULL);
	seen = p->seen;
	*reads = sim->gpus[0]->mmio_reads;
	*ends = p->ends;
	*cpu = sim->policy_cpu;
	gs_sim_free(sim);
	gs_scenario_free(sc);
	return seen;
}

static void test_poll_loop_sees_what_a_read_loop_sees(void **state)
{
	uint64_t reads_skip, reads_step;
	uint32_t ends_skip, ends_step;
	gs_time_t cpu_skip, cpu_step;
	GArray *skip = run_poll(false, &reads_skip, &ends_skip, &cpu_skip);
	GArray *step = run_poll(true, &reads_step, &ends_step, &cpu_step);
	guint i;
	(void)state;

	assert_true(skip->len > 50);
	assert_int_equal(skip->len, step->len);
	for (i = 0; i < skip->len; i++) {
		struct change *a = &g_array_index(skip, struct change, i);
		struct change *b = &g_array_index(step, struct change, i);

		assert_int_equal(a->when, b->when);
		assert_true(same(&a->st, &b->st));
	}
	/* 29 ms of back-to-back 1us reads, the thread busy all along */
	assert_int_equal(reads_skip, reads_step);
	assert_int_equal(reads_skip, 29000);
	assert_int_equal(ends_skip, 1);
	assert_int_equal(cpu_skip, 29 * GS_NS_PER_MS + 2000);
	g_array_free(skip, TRUE);
	g_array_free(step, TRUE);
}

/* The invariant checker holds on a real run and catches a lost command,
 * crossed ring pointers and GPU time charged to nobody. */
static void test_invariant_checker_catches_breakage(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 20ms\ntasks:\n  - name: a\n    behavior:"
		" {throttle: {kernel: 100us}}\n",
		NULL, &sc);
	struct gs_channel *ch;
	uint32_t saved;
	char *err;
	(void)state;

	gs_sim_run(sim, NULL);
	assert_null(gs_sim_check_invariants(sim));
	ch = sim->tasks[0].chans[0].ch;

	ch->completed++;                       /* a command vanished */
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "submitted"));
	g_free(err);
	ch->completed--;

	saved = ch->put_visible;               /* GP_PUT ran past PUT */
	ch->put_visible = (ch->put + 1) % ch->entries;
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "crossed"));
	g_free(err);
	ch->put_visible = saved;

	sim->tasks[0].gpu_time += 1;           /* time charged to nobody */
	err = gs_sim_check_invariants(sim);
	assert_non_null(strstr(err, "engines ran"));
	assert_non_null(strstr(err, "'GPU time conserved'"));
	g_free(err);
	sim->tasks[0].gpu_time -= 1;

	/* fetched, counted, but nowhere on the GPU: what a preemption that
	 * overwrote a saved command left behind */
	ch->submitted++;
	ch->in_flight++;
	err = gs_sim_check_invariants(sim);
	assert_non_null(err);
	assert_non_null(strstr(err, "invariant 'no command lost' violated at "
				    "20000000 ns, GPU 0, channel 0 (task a)"));
	g_free(err);
	ch->submitted--;
	ch->in_flight--;
	assert_null(gs_sim_check_invariants(sim));
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* The checks run during the run, not only at its end, and in every
 * build: a command lost early is reported near the time it was lost, the
 * run still goes to its end, and the first violation is the one kept. */
static void test_invariants_checked_periodically(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start(
		"duration: 1s\ngpu: {max_channels: 16}\ntasks:\n"
		"  - name: a\n    count: 4\n    behavior:"
		" {throttle: {kernel: 1us}}\n",
		NULL, &sc);
	struct gs_evq *q = gs_sim_queue(sim);
	struct gs_results r;
	const char *v;
	(void)state;

	while (q->now < 10 * GS_NS_PER_MS)
		gs_evq_step(q);
	assert_null(gs_sim_check_invariants(sim));
	sim->tasks[0].chans[0].ch->completed++;
	gs_sim_run(sim, NULL);
	v = gs_sim_invariant_violation(sim);
	assert_non_null(v);
	assert_non_null(strstr(v, "'no command lost'"));
	assert_true(gs_sim_invariant_checks(sim) >= 1);
	/* found within one period: 65536 events, about 280 ms here (the
	 * run has 230000 events) */
	assert_true(g_ascii_strtoull(strstr(v, "at ") + 3, NULL, 10) <
		    500 * GS_NS_PER_MS);
	assert_int_equal(q->now, GS_NS_PER_S);
	/* and it reaches the results (summary.json's invariant_violation) */
	gs_results_init(&r);
	gs_sim_collect(sim, &r);
	assert_string_equal(r.invariant_violation, v);
	gs_results_clear(&r);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* ---- probe: a phase still going at the end of the run ----------------- */

struct phase_probe {
	hal_u64 start; /* of the phase in progress */
};

static int phase_init(struct hal_sched *s)
{
	hal_timer_arm(s, 0, 1 * GS_NS_PER_MS);
	return 0;
}

static void phase_timer(struct hal_sched *s, hal_u32 id)
{
	struct phase_probe *p = hal_priv(s);
	(void)id;

	hal_trace_phase(s, "first", 0, hal_now(s));
	p->start = hal_now(s);
}

static void phase_trace_open(struct hal_sched *s)
{
	struct phase_probe *p = hal_priv(s);

	hal_trace_phase(s, "second", p->start, hal_now(s));
}

static const struct gs_policy_ops phase_ops = {
	.name = "phase-probe",
	.priv_size = sizeof(struct phase_probe),
	.init = phase_init,
	.timer = phase_timer,
	.trace_open = phase_trace_open,
};

static const struct gs_span *span_named(const struct gs_results *r,
					const char *name, uint8_t kind)
{
	guint i;

	for (i = 0; i < r->spans->len; i++) {
		const struct gs_span *sp =
			&g_array_index(r->spans, struct gs_span, i);

		if (sp->track_kind == kind &&
		    !strcmp(g_ptr_array_index(r->names, sp->name), name))
			return sp;
	}
	return NULL;
}

/* The policy's phase and the command running at the end are recorded up
 * to the end and marked open; the command's GPU time is not counted
 * twice. */
static void test_open_spans_closed_at_end(void **state)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start_sim(
		"duration: 3ms\ntasks:\n"
		"  - name: endless\n    behavior: {throttle: {kernel: 100s}}\n",
		&phase_ops, &sc, true);
	const gs_time_t end = 3 * GS_NS_PER_MS, loaded = 30000;
	const struct gs_span *sp;
	struct gs_results r;
	(void)state;

	gs_results_init(&r);
	gs_sim_run(sim, NULL);
	gs_sim_collect(sim, &r);
	assert_int_equal(r.sim_time_ns, end);

	sp = span_named(&r, "first", GS_TRACK_POLICY);
	assert_non_null(sp);
	assert_false(sp->open);
	assert_int_equal(sp->end, 1 * GS_NS_PER_MS);
	sp = span_named(&r, "second", GS_TRACK_POLICY);
	assert_non_null(sp);
	assert_true(sp->open);
	assert_int_equal(sp->start, 1 * GS_NS_PER_MS);
	assert_int_equal(sp->end, end);

	/* launched after 5 us, its context loaded in 25 us */
	sp = span_named(&r, "endless", GS_TRACK_ENGINE);
	assert_non_null(sp);
	assert_true(sp->open);
	assert_int_equal(sp->start, loaded);
	assert_int_equal(sp->end, end);
	sp = span_named(&r, "endless", GS_TRACK_CHANNEL);
	assert_non_null(sp);
	assert_true(sp->open);
	assert_int_equal(sp->end, end);
	sp = span_named(&r, "context switch", GS_TRACK_ENGINE);
	assert_non_null(sp);
	assert_false(sp->open);
	assert_int_equal(r.tasks[0].gpu_time_ns, end - loaded);
	gs_results_clear(&r);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* Runs `yaml` with a timeline; every span ends by the end of the run and
 * the open ones exactly there. Counts the open spans, and those of the
 * policies' tracks. */
static void count_open_spans(const char *yaml, guint *open,
			     guint *policy_open)
{
	struct gs_scenario *sc;
	struct gs_sim *sim = start_sim(yaml, NULL, &sc, true);
	struct gs_results r;
	guint i;

	*open = *policy_open = 0;
	gs_results_init(&r);
	gs_sim_run(sim, NULL);
	gs_sim_collect(sim, &r);
	for (i = 0; i < r.spans->len; i++) {
		const struct gs_span *sp =
			&g_array_index(r.spans, struct gs_span, i);

		assert_true(sp->end <= r.sim_time_ns);
		if (!sp->open)
			continue;
		(*open)++;
		assert_int_equal(sp->end, r.sim_time_ns);
		if (sp->track_kind == GS_TRACK_POLICY)
			(*policy_open)++;
	}
	gs_results_clear(&r);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

/* dfq's last phase reaches the end of the run, open; every other span
 * ended before it and is not open. */
static void test_dfq_last_phase_reaches_end(void **state)
{
	guint open, policy_open;
	(void)state;

	count_open_spans(
		"duration: 47ms\npolicy: {name: dfq}\ntasks:\n"
		"  - name: a\n    behavior: {throttle: {kernel: 300us}}\n"
		"  - name: b\n    behavior: {throttle: {kernel: 1ms}}\n",
		&open, &policy_open);
	assert_int_equal(policy_open, 1);
	/* the policy's, and a command on the engine and its channel */
	assert_int_equal(open, 3);
}

/* hdfq's phase and each VM's own scheduler's reach the end, open: one
 * policy span per instance (the host's and two VMs'). */
static void test_hdfq_and_vm_schedulers_phases_reach_end(void **state)
{
	guint open, policy_open;
	(void)state;

	count_open_spans(
		"duration: 47ms\npolicy: {name: hdfq, params: {nested: true}}\n"
		"vms:\n  - {name: v1, scheduler: dfq}\n"
		"  - {name: v2, scheduler: dfq}\ntasks:\n"
		"  - {name: a, vm: v1, behavior: {throttle: {kernel: 300us}}}\n"
		"  - {name: b, vm: v2, behavior: {throttle: {kernel: 1ms}}}\n"
		"  - {name: c, vm: v2, behavior: {throttle: {kernel: 1ms}}}\n",
		&open, &policy_open);
	assert_int_equal(policy_open, 3);
	assert_true(open > policy_open);
}

/* ---- probe 5: a VM's scheduler and the host's policy, both gating ---- */

/* The guest traps every write and holds the first for 2 ms; the host
 * traps and counts, and from 1 ms to 3 ms keeps the channel shadowed. */
struct level_probe {
	struct hal_chan *c;
	struct hal_task *t;
	uint64_t first_seen;   /* when this level first saw a write */
	uint32_t submits, shadowed;
};

static void level_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);

	p->c = c;
	p->t = hal_chan_task(c);
	hal_trap_arm(s, c);
	hal_timer_arm(s, 0, hal_now(s) + 1000000);
}

static int level_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);
	(void)c;

	if (!p->submits++)
		p->first_seen = hal_now(s);
	return GS_SUBMIT_ALLOW;
}

static void level_shadow_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);
	(void)c;

	p->shadowed++;
}

static void host_level_timer(struct hal_sched *s, hal_u32 id)
{
	struct level_probe *p = hal_priv(s);

	if (id == 0) {
		hal_shadow_enable(s, p->c);
		hal_timer_arm(s, 1, hal_now(s) + 2000000);
	} else {
		hal_shadow_disable(s, p->c);
	}
}

static int guest_level_submit(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);

	if (level_submit(s, c) == GS_SUBMIT_ALLOW && p->submits > 1)
		return GS_SUBMIT_ALLOW;
	hal_timer_arm(s, 0, hal_now(s) + 2000000);
	return GS_SUBMIT_HOLD;
}

static void guest_level_timer(struct hal_sched *s, hal_u32 id)
{
	struct level_probe *p = hal_priv(s);
	(void)id;

	/* only its own hold is its to release */
	assert_true(hal_task_held(p->t));
	hal_task_release(s, p->t);
}

static void guest_level_chan_create(struct hal_sched *s, struct hal_chan *c)
{
	struct level_probe *p = hal_priv(s);

	p->c = c;
	p->t = hal_chan_task(c);
	hal_trap_arm(s, c);
}

static const struct gs_policy_ops host_level_ops = {
	.name = "host-level-probe",
	.priv_size = sizeof(struct level_probe),
	.channel_create = level_chan_create,
	.submit = level_submit,
	.shadow_submit = level_shadow_submit,
	.timer = host_level_timer,
};

static const struct gs_policy_ops guest_level_ops = {
	.name = "guest-level-probe",
	.priv_size = sizeof(struct level_probe),
	.channel_create = guest_level_chan_create,
	.submit = guest_level_submit,
	.timer = guest_level_timer,
};

/* The guest's gate acts first: its hold keeps the write from the host
 * (its trap sees nothing until the release). Released at 2 ms, the write
 * is repeated against the host's mapping, shadowed since 1 ms: it lands in
 * the host's shadow queue, not on the GPU, and goes out at 3 ms. The two
 * instances keep their own task handles, data and held state; the VM's
 * own tasks are on its "host" and it sees no VM tree. */
static void test_vm_scheduler_gates_before_the_host(void **state)
{
	struct gs_sim_options opt = { .policy_ops = &host_level_ops,
				      .guest_ops = &guest_level_ops };
	struct gs_scenario *sc = load(
		"duration: 5ms\nhost: {launch: 0, doorbell: 0, trap: 10us}\n"
		"vms: [{name: v, trap: 10us, scheduler: direct}]\n"
		"tasks:\n  - {name: a, vm: v, behavior: {throttle: "
		"{kernel: 100us}}}\n");
	GError *err = NULL;
	struct gs_sim *sim = gs_sim_new(sc, &opt, &err);
	struct level_probe *host, *guest;
	(void)state;

	assert_non_null(sim);
	assert_int_equal(sim->n_guests, 1);
	host = sim->sched.priv;
	guest = sim->guests[0].priv;
	gs_sim_run(sim, NULL);
	assert_int_equal(guest->first_seen, 0);
	assert_true(guest->t != host->t && guest->c != host->c);
	assert_int_equal(hal_task_vm(guest->t), -1);
	assert_int_equal(hal_task_vm(host->t), 0);
	assert_int_equal(hal_vm_count(&sim->guests[0]), 0);
	/* the held write reached the host's level only after the release,
	 * and then into its shadow queue (no host trap for it) */
	assert_int_equal(host->shadowed, 1);
	assert_true(host->first_seen >= 3000000);
	/* it ran after the host let it go at 3 ms: 3.0 + 0.1 ms, then the
	 * next rounds, each trapped at both levels (2 x 10us) */
	assert_true(sim->tasks[0].rounds >= 10);
	assert_true(guest->submits == host->submits + 1);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_submission_waits_for_release),
		cmocka_unit_test(test_released_write_lands_in_new_shadow),
		cmocka_unit_test(test_kill_leaves_others_running),
		cmocka_unit_test(test_shadow_queue_forwards_on_demand),
		cmocka_unit_test(test_poll_loop_sees_what_a_read_loop_sees),
		cmocka_unit_test(test_invariant_checker_catches_breakage),
		cmocka_unit_test(test_invariants_checked_periodically),
		cmocka_unit_test(test_open_spans_closed_at_end),
		cmocka_unit_test(test_dfq_last_phase_reaches_end),
		cmocka_unit_test(test_hdfq_and_vm_schedulers_phases_reach_end),
		cmocka_unit_test(test_vm_scheduler_gates_before_the_host),
	};
	return cmocka_run_group_tests_name("hal_sim", tests, NULL, NULL);
}
