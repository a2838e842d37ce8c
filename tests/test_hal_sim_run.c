/* The simulator's HAL over a whole run: the invariant checker, during
 * the run and at its end, and policy phases still open at the end of the
 * run closed on the timeline. */
#include "tests/support/hal_sim_fixture.h"

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

	sim->task_figs[0].gpu_time += 1;         /* time charged to nobody */
	err = gs_sim_check_invariants(sim);
	assert_non_null(strstr(err, "engines ran"));
	assert_non_null(strstr(err, "'GPU time conserved'"));
	g_free(err);
	sim->task_figs[0].gpu_time -= 1;

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

/* The first span named name on a track of kind, copied into *out (a
 * command's channel span is its engine span's record, on_channel). */
static const struct gs_span *span_named(const struct gs_results *r,
					const char *name, uint8_t kind,
					struct gs_span *out)
{
	g_autoptr(GArray) flat = gs_results_flat_spans(r);
	guint i;

	for (i = 0; i < flat->len; i++) {
		const struct gs_span *sp =
			&g_array_index(flat, struct gs_span, i);

		if (sp->track_kind == kind &&
		    !strcmp(gs_results_name(r, sp->name), name)) {
			*out = *sp;
			return out;
		}
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
	struct gs_span found;
	struct gs_results r;
	(void)state;

	gs_results_init(&r);
	gs_sim_run(sim, NULL);
	gs_sim_collect(sim, &r);
	assert_int_equal(r.sim_time_ns, end);

	sp = span_named(&r, "first", GS_TRACK_POLICY, &found);
	assert_non_null(sp);
	assert_false(sp->open);
	assert_int_equal(sp->end, 1 * GS_NS_PER_MS);
	sp = span_named(&r, "second", GS_TRACK_POLICY, &found);
	assert_non_null(sp);
	assert_true(sp->open);
	assert_int_equal(sp->start, 1 * GS_NS_PER_MS);
	assert_int_equal(sp->end, end);

	/* launched after 5 us, its context loaded in 25 us */
	sp = span_named(&r, "endless", GS_TRACK_ENGINE, &found);
	assert_non_null(sp);
	assert_true(sp->open);
	assert_int_equal(sp->start, loaded);
	assert_int_equal(sp->end, end);
	sp = span_named(&r, "endless", GS_TRACK_CHANNEL, &found);
	assert_non_null(sp);
	assert_true(sp->open);
	assert_int_equal(sp->end, end);
	sp = span_named(&r, "context switch", GS_TRACK_ENGINE, &found);
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
	GArray *flat;
	guint i;

	*open = *policy_open = 0;
	gs_results_init(&r);
	gs_sim_run(sim, NULL);
	gs_sim_collect(sim, &r);
	flat = gs_results_flat_spans(&r);
	for (i = 0; i < flat->len; i++) {
		const struct gs_span *sp =
			&g_array_index(flat, struct gs_span, i);

		assert_true(sp->end <= r.sim_time_ns);
		if (!sp->open)
			continue;
		(*open)++;
		assert_int_equal(sp->end, r.sim_time_ns);
		if (sp->track_kind == GS_TRACK_POLICY)
			(*policy_open)++;
	}
	g_array_unref(flat);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invariant_checker_catches_breakage),
		cmocka_unit_test(test_invariants_checked_periodically),
		cmocka_unit_test(test_open_spans_closed_at_end),
		cmocka_unit_test(test_dfq_last_phase_reaches_end),
		cmocka_unit_test(test_hdfq_and_vm_schedulers_phases_reach_end),
	};

	return cmocka_run_group_tests_name("hal_sim_run", tests, NULL, NULL);
}
