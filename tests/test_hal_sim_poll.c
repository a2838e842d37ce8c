/* The simulator's HAL: the poll loop sees exactly what a step-by-step
 * read loop sees, its register reads charged as policy CPU. */
#include "tests/support/hal_sim_fixture.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poll_loop_sees_what_a_read_loop_sees),
	};

	return cmocka_run_group_tests_name("hal_sim_poll", tests, NULL, NULL);
}
