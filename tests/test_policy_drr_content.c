/* drr's content-based cost estimation (GERM, Dwarakinath 2008, 4.5) and
 * priority by a larger quantum (4.4), against the scripted mock HAL.
 *
 * One command group at a time: the test submits it, drr forwards it (the
 * GPU has nothing of ours), the test completes it at a chosen cost and the
 * timing thread's tick measures it and trains the coefficient it was
 * estimated with. The early probe is off; the quantum is 500 us. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_drr;

#define US MOCK_US
#define TICK 0

struct bench {
	struct mock_hal *m;
	struct hal_task *t;
	struct hal_chan *c;
	uint64_t busy; /* the GPU's busy counter */
};

static void bench_init(struct bench *b, const char *extra)
{
	const char *params[] = { "early_probe=0", extra, NULL };

	b->m = mock_hal_new(&gs_policy_drr, params);
	b->t = mock_task_add(b->m, "app", 1);
	b->c = mock_chan_add(b->m, b->t);
	b->busy = 0;
}

/* Submit one group with `ct`; it goes out at once (the GPU is idle);
 * it takes `cost` and the next tick measures it. Returns the kind of
 * the estimate drr told the HAL, or HAL_EST_KINDS when it told none (a
 * coefficient not measured yet). */
static uint32_t run_group(struct bench *b, struct hal_cmd_content ct,
			  uint64_t cost, uint64_t *est)
{
	uint32_t before[HAL_EST_KINDS], k, kind = HAL_EST_KINDS;
	uint64_t sent = mock_submitted(b->m, b->c);

	for (k = 0; k < HAL_EST_KINDS; k++)
		before[k] = mock_estimates(b->m, k);
	mock_set_next_content(b->m, b->c, &ct);
	assert_int_equal(mock_submit(b->m, b->c), MOCK_SUBMIT_SHADOWED);
	assert_int_equal(mock_submitted(b->m, b->c), sent + 1);
	for (k = 0; k < HAL_EST_KINDS; k++)
		if (mock_estimates(b->m, k) != before[k])
			kind = k;
	if (est)
		*est = kind < HAL_EST_KINDS ? mock_last_estimate(b->m, NULL)
					    : 0;
	mock_complete(b->m, b->c, 1);
	b->busy += cost;
	mock_set_gpu_busy(b->m, 0, b->busy);
	mock_advance(b->m, mock_timer_when(b->m, TICK));
	return kind;
}

static struct hal_cmd_content texture(uint32_t bytes)
{
	return (struct hal_cmd_content){ .texture_bytes = bytes };
}

/* A texture group is estimated by the task's time per texture byte,
 * learnt from the first one: 64 KiB in 64 us is 1 ns a byte (an AGP
 * upload's order), so 192 KiB is estimated at 192 us; the measurement
 * then moves the coefficient by 1/8 of the difference. */
static void test_texture_bytes_times_coefficient(void **state)
{
	struct bench b;
	uint64_t est;
	(void)state;

	bench_init(&b, NULL);
	/* not measured yet: one quantum, not told as an estimate */
	assert_int_equal(run_group(&b, texture(65536), 65536, &est),
			 HAL_EST_KINDS);
	assert_int_equal(run_group(&b, texture(3 * 65536), 3 * 65536, &est),
			 HAL_EST_TEXTURE);
	assert_int_equal(est, 3 * 65536);
	/* a slower upload (2 ns a byte) moves it to 1 + 1/8 ns a byte */
	assert_int_equal(run_group(&b, texture(65536), 2 * 65536, &est),
			 HAL_EST_TEXTURE);
	assert_int_equal(est, 65536);
	assert_int_equal(run_group(&b, texture(65536), 65536, &est),
			 HAL_EST_TEXTURE);
	assert_int_equal(est, 65536 + 65536 / 8);
	mock_hal_free(b.m);
}

/* The thesis's order: texture, then buffer swaps, then vertices, then
 * command bytes; each coefficient is the task's own per-unit time. */
static void test_heuristics_in_priority_order(void **state)
{
	static const struct {
		const char *what;
		struct hal_cmd_content ct;
		uint32_t kind;
	} cases[] = {
		{ "texture wins over everything",
		  { 4096, 1, 300, 1000 }, HAL_EST_TEXTURE },
		{ "a swap wins over vertices and bytes",
		  { 0, 1, 300, 1000 }, HAL_EST_SWAP },
		{ "vertices win over bytes", { 0, 0, 300, 1000 },
		  HAL_EST_VERTICES },
		{ "bytes alone", { 0, 0, 0, 1000 }, HAL_EST_BYTES },
		{ "no contents: the class average", { 0, 0, 0, 0 },
		  HAL_EST_CLASS },
	};
	struct bench b;
	unsigned i;
	uint64_t est;
	(void)state;

	bench_init(&b, NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* train the kind, then see it used */
		run_group(&b, cases[i].ct, 40 * US, NULL);
		print_message("%s\n", cases[i].what);
		assert_int_equal(run_group(&b, cases[i].ct, 40 * US, &est),
				 cases[i].kind);
		assert_int_equal(est, 40 * US);
	}
	/* 600 vertices at the learnt 40us / 300 */
	assert_int_equal(run_group(&b, (struct hal_cmd_content){
					       .vertices = 600 },
				   80 * US, &est),
			 HAL_EST_VERTICES);
	assert_int_equal(est, 80 * US);
	mock_hal_free(b.m);
}

/* A probe that sees a texture group and a command-byte group complete
 * together splits its time by their estimates; when the command bytes
 * took three times their estimate, that split would blame the texture
 * too. A coefficient trained from a pure probe is left alone by mixed
 * ones (docs/decisions.md, "GERM's heuristics"). */
static void test_mixed_probe_keeps_pure_coefficient(void **state)
{
	const struct hal_cmd_content bytes = { .cmd_bytes = 1000 };
	struct bench b;
	uint64_t est;
	(void)state;

	bench_init(&b, NULL);
	run_group(&b, texture(65536), 65536, NULL);
	run_group(&b, bytes, 50 * US, NULL);
	/* both in one batch: 65.5 us + 50 us estimated fit a quantum */
	mock_set_next_content(b.m, b.c, &(struct hal_cmd_content){
						  .texture_bytes = 65536 });
	assert_int_equal(mock_submit(b.m, b.c), MOCK_SUBMIT_SHADOWED);
	mock_set_next_content(b.m, b.c, &bytes);
	assert_int_equal(mock_submit(b.m, b.c), MOCK_SUBMIT_SHADOWED);
	/* the first went out at once (idle GPU); the second waits for the
	 * next visit: complete the first alone, then both pure again */
	mock_complete(b.m, b.c, mock_submitted(b.m, b.c) -
				hal_fence_read(mock_sched(b.m), b.c));
	mock_set_next_content(b.m, b.c, &(struct hal_cmd_content){
						  .texture_bytes = 65536 });
	assert_int_equal(mock_submit(b.m, b.c), MOCK_SUBMIT_SHADOWED);
	b.busy += 65536;
	mock_set_gpu_busy(b.m, 0, b.busy);
	mock_advance(b.m, mock_timer_when(b.m, TICK));
	/* the tick forwarded the bytes group and the texture group together
	 * (one visit); they complete in one probe, the bytes taking 150 us */
	assert_int_equal(hal_shadow_pending(mock_sched(b.m), b.c), 0);
	mock_complete(b.m, b.c, mock_submitted(b.m, b.c) -
				hal_fence_read(mock_sched(b.m), b.c));
	b.busy += 150 * US + 65536;
	mock_set_gpu_busy(b.m, 0, b.busy);
	mock_advance(b.m, mock_timer_when(b.m, TICK));
	/* the texture coefficient is still 1 ns a byte */
	assert_int_equal(run_group(&b, texture(65536), 65536, &est),
			 HAL_EST_TEXTURE);
	assert_int_equal(est, 65536);
	mock_hal_free(b.m);
}

/* heuristics: false keeps to the class averages whatever the contents. */
static void test_heuristics_off_uses_classes(void **state)
{
	struct bench b;
	uint64_t est;
	(void)state;

	bench_init(&b, "heuristics=false");
	run_group(&b, texture(65536), 100 * US, NULL);
	assert_int_equal(run_group(&b, texture(4 * 65536), 100 * US, &est),
			 HAL_EST_CLASS);
	assert_int_equal(est, 100 * US);
	mock_hal_free(b.m);
}

/* Both tasks backlogged with 100 us commands (measured after the first):
 * the size of each task's batches once they have settled. */
static void settled_batches(uint32_t w_low, uint32_t w_high,
			    uint64_t batch[2])
{
	const char *params[] = { "early_probe=0", NULL };
	struct mock_hal *m = mock_hal_new(&gs_policy_drr, params);
	struct hal_task *t[2] = { mock_task_add(m, "low", w_low),
				  mock_task_add(m, "high", w_high) };
	struct hal_chan *c[2] = { mock_chan_add(m, t[0]),
				  mock_chan_add(m, t[1]) };
	uint64_t busy = 0, sent[2] = { 0, 0 };
	unsigned round, i, k;

	batch[0] = batch[1] = 0;
	for (round = 0; round < 12; round++) {
		for (i = 0; i < 2; i++) {
			uint64_t out = mock_submitted(m, c[i]) -
				       hal_fence_read(mock_sched(m), c[i]);

			mock_complete(m, c[i], out);
			busy += out * 100 * US;
			mock_set_gpu_busy(m, 0, busy);
			for (k = hal_shadow_pending(mock_sched(m), c[i]);
			     k < 40; k++)
				mock_submit(m, c[i]);
		}
		mock_advance(m, mock_timer_when(m, TICK));
		for (i = 0; i < 2; i++) {
			uint64_t now = mock_submitted(m, c[i]);

			if (now != sent[i] && round >= 8)
				batch[i] = now - sent[i];
			sent[i] = now;
		}
	}
	mock_hal_free(m);
}

/* Priority (4.4): a task of weight 3 gets three quanta a visit to one's
 * one: 15 commands of 100 us to 5. */
static void test_weight_is_a_larger_quantum(void **state)
{
	uint64_t batch[2];
	(void)state;

	settled_batches(1, 3, batch);
	assert_int_equal(batch[0], 5);
	assert_int_equal(batch[1], 15);
}

/* Only the ratio of weights matters: 3 and 9 are 1 and 3 (the lowest
 * weight gets the policy's quantum). */
static void test_weights_scale_free(void **state)
{
	uint64_t batch[2];
	(void)state;

	settled_batches(3, 9, batch);
	assert_int_equal(batch[0], 5);
	assert_int_equal(batch[1], 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_texture_bytes_times_coefficient),
		cmocka_unit_test(test_heuristics_in_priority_order),
		cmocka_unit_test(test_mixed_probe_keeps_pure_coefficient),
		cmocka_unit_test(test_heuristics_off_uses_classes),
		cmocka_unit_test(test_weight_is_a_larger_quantum),
		cmocka_unit_test(test_weights_scale_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
