/* Latency distributions (issue 18 item 4): the exact statistics of
 * base/latency.c against hand-computed values, and a task's round times
 * and job waits in a whole run, where a script's steps make every round
 * and every wait known in advance. */
#include "tests/support/scenario_fixture.h"

#include "base/latency.h"

static void add_all(struct gs_latency *l, const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		gs_latency_add(l, v[i]);
}

/* st against hand-computed figures (mean and std within 1e-9). */
static void assert_stats(const struct gs_latency_stats *st,
			 const struct gs_latency_stats *want)
{
	assert_int_equal(st->n, want->n);
	assert_int_equal(st->min, want->min);
	assert_int_equal(st->p50, want->p50);
	assert_int_equal(st->p90, want->p90);
	assert_int_equal(st->p99, want->p99);
	assert_int_equal(st->max, want->max);
	assert_true(fabs(st->mean - want->mean) < 1e-9);
	assert_true(fabs(st->std - want->std) < 1e-9);
}

/* 1..100 in a scrambled order: nearest rank gives p50 = 50, p90 = 90,
 * p99 = 99; mean 50.5; population std sqrt((100^2 - 1) / 12). */
static void test_stats_one_to_hundred(void **state)
{
	struct gs_latency l = { 0 };
	struct gs_latency_stats st;
	uint64_t i;
	(void)state;

	for (i = 0; i < 100; i++)
		gs_latency_add(&l, (i * 37) % 100 + 1);
	gs_latency_stats(&l, &st);
	assert_stats(&st, &(struct gs_latency_stats){
		.n = 100, .min = 1, .p50 = 50, .p90 = 90, .p99 = 99,
		.max = 100, .mean = 50.5, .std = sqrt(9999.0 / 12.0) });
	gs_latency_free(&l);
}

/* Three samples: p50 is the ceil(1.5) = 2nd, p90 and p99 the 3rd. */
static void test_stats_few_samples(void **state)
{
	static const uint64_t v[] = { 500, 100, 300 };
	struct gs_latency l = { 0 };
	struct gs_latency_stats st;
	(void)state;

	add_all(&l, v, G_N_ELEMENTS(v));
	gs_latency_stats(&l, &st);
	assert_stats(&st, &(struct gs_latency_stats){
		.n = 3, .min = 100, .p50 = 300, .p90 = 500, .p99 = 500,
		.max = 500, .mean = 300, .std = sqrt(80000.0 / 3.0) });
	gs_latency_free(&l);
}

/* The statistics are those of the multiset: same bits in any order. */
static void test_stats_order_independent(void **state)
{
	static const uint64_t a[] = { 7, 1000003, 12, 999, 5, 5, 123456789 };
	static const uint64_t b[] = { 5, 123456789, 999, 7, 5, 12, 1000003 };
	struct gs_latency la = { 0 }, lb = { 0 };
	struct gs_latency_stats sa, sb;
	(void)state;

	add_all(&la, a, G_N_ELEMENTS(a));
	add_all(&lb, b, G_N_ELEMENTS(b));
	gs_latency_stats(&la, &sa);
	gs_latency_stats(&lb, &sb);
	assert_memory_equal(&sa, &sb, sizeof(sa));
	gs_latency_free(&la);
	gs_latency_free(&lb);
}

static void test_stats_empty(void **state)
{
	struct gs_latency l = { 0 };
	struct gs_latency_stats st;
	(void)state;

	gs_latency_stats(&l, &st);
	assert_int_equal(st.n, 0);
	assert_int_equal(st.max, 0);
	assert_true(isnan(st.mean) && isnan(st.std));
	assert_int_equal(gs_latency_percentile(NULL, 0, 50), 0);
}

/* The run's log: each (owner, kind) gets its own samples, in any order
 * of arrival; entries out of range are dropped. */
static void test_log_split(void **state)
{
	struct gs_latency_log log = { 0 };
	struct gs_latency out[3 * 2] = { { 0 } };
	struct gs_latency_stats st;
	uint32_t i;
	(void)state;

	gs_latency_log_add(&log, 2, 1, 30);
	gs_latency_log_add(&log, 0, 0, 5);
	gs_latency_log_add(&log, 2, 1, 10);
	gs_latency_log_add(&log, 3, 0, 99);  /* no such owner */
	gs_latency_log_add(&log, 0, 2, 99);  /* no such kind */
	gs_latency_log_add(&log, 2, 1, 20);
	gs_latency_log_split(&log, 3, 2, out);
	assert_int_equal(out[0 * 2 + 0].n, 1);
	assert_int_equal(out[0 * 2 + 0].v[0], 5);
	gs_latency_stats(&out[2 * 2 + 1], &st);
	assert_stats(&st, &(struct gs_latency_stats){
		.n = 3, .min = 10, .p50 = 20, .p90 = 30, .p99 = 30, .max = 30,
		.mean = 20, .std = sqrt(200.0 / 3.0) });
	for (i = 0; i < G_N_ELEMENTS(out); i++) {
		if (i != 0 && i != 2 * 2 + 1)
			assert_int_equal(out[i].n, 0);
		gs_latency_free(&out[i]);
	}
	gs_latency_log_free(&log);
}

/* A task alone, every host and GPU cost 0 (launch, doorbell, poll,
 * context switch, fetch, completion interrupt), so times are the script's own. Round 1 writes
 * three jobs at t = 0 and waits: they run 0-1, 1-3, 3-6 ms (waits 0, 1,
 * 3 ms), the round is 6 ms. Round 2 sleeps 4 ms and runs one 1 ms job
 * (wait 0): 5 ms. Round 3 sleeps 10 ms. */
#define SCRIPT_SCENARIO(POLICY) \
	"name: lat\nseed: 1\nduration: 1s\n" \
	"gpu: {preset: kepler, ctx_switch: 0, fetch: 0, irq_latency: 0}\n" \
	"host: {launch: 0, doorbell: 0, spin_poll: 0, trap: 0}\n" \
	"policy: " POLICY "\n" \
	"tasks:\n" \
	"  - name: a\n" \
	"    behavior:\n" \
	"      script:\n" \
	"        - launch: 1ms\n" \
	"        - launch: 2ms\n" \
	"        - launch: 3ms\n" \
	"        - wait\n" \
	"        - round\n" \
	"        - sleep: 4ms\n" \
	"        - launch: 1ms\n" \
	"        - wait\n" \
	"        - round\n" \
	"        - sleep: 10ms\n" \
	"        - round\n"

/* Rounds 6, 5, 10 ms: mean 7, std sqrt(14/3) ms. Waits 0, 0, 1, 3 ms:
 * mean 1, std sqrt(1.5) ms. */
static void check_script_task(const struct gs_task_result *t)
{
	const uint64_t ms = 1000000;
	struct gs_latency_stats round = t->round, wait = t->wait;

	/* in ms, where 1e-9 is a tolerance of 1 fs */
	round.mean /= 1e6, round.std /= 1e6;
	wait.mean /= 1e6, wait.std /= 1e6;
	assert_stats(&round, &(struct gs_latency_stats){
		.n = 3, .min = 5 * ms, .p50 = 6 * ms, .p90 = 10 * ms,
		.p99 = 10 * ms, .max = 10 * ms, .mean = 7,
		.std = sqrt(14.0 / 3.0) });
	assert_stats(&wait, &(struct gs_latency_stats){
		.n = 4, .min = 0, .p50 = 0, .p90 = 3 * ms, .p99 = 3 * ms,
		.max = 3 * ms, .mean = 1, .std = sqrt(1.5) });
}

static void test_script_rounds_and_waits(void **state)
{
	struct gs_results r;
	(void)state;

	run(SCRIPT_SCENARIO("direct"), false, &r);
	assert_int_equal(r.n_tasks, 1);
	check_script_task(&r.tasks[0]);
	gs_results_clear(&r);
}

/* Under drm-fifo with one credit the second and third jobs wait in the
 * policy's software queue until the fence interrupt of the one before
 * (latency 0 here), not in the ring: a wait still counts from the task's
 * write, so the figures are the same as without a scheduler. */
static void test_wait_counts_software_queue(void **state)
{
	struct gs_results r;
	(void)state;

	run(SCRIPT_SCENARIO("{name: drm-fifo, params: {credit_limit: 1}}"),
	    false, &r);
	check_script_task(&r.tasks[0]);
	gs_results_clear(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_one_to_hundred),
		cmocka_unit_test(test_stats_few_samples),
		cmocka_unit_test(test_stats_order_independent),
		cmocka_unit_test(test_stats_empty),
		cmocka_unit_test(test_log_split),
		cmocka_unit_test(test_script_rounds_and_waits),
		cmocka_unit_test(test_wait_counts_software_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
