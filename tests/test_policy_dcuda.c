/* dcuda (DCUDA's dynamic scheduling) against the scripted mock HAL.
 *
 * The test plays the node: every 100 ms monitor period each task makes one
 * launch whose hint is the whole period and whose occupancy is the task's
 * demand, the launch completes, and the task's time in waits grows by the
 * period, so the monitor reads exactly that demand. The mock moves a task
 * at once when the policy migrates it. Fairness slices are off unless a
 * test turns them on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_dcuda;
extern const struct gs_policy_ops gs_policy_least_loaded;

#define MS MOCK_MS
#define PERIOD (100 * MS)
#define MAX_T 6

struct fx {
	struct mock_hal *m;
	struct hal_task *t[MAX_T];
	struct hal_chan *c[MAX_T];
	uint32_t demand[MAX_T]; /* per-mille */
	uint64_t sync[MAX_T];
	unsigned n;
	uint64_t now;
};

static void fx_init(struct fx *f, uint32_t gpus, const char *const *params)
{
	const char *all[8] = { "fairness=false" };
	unsigned i;

	for (i = 0; params && params[i]; i++) {
		assert_true(i < 6);
		all[1 + i] = params[i];
	}
	f->m = mock_hal_new(&gs_policy_dcuda, all);
	mock_set_gpu_count(f->m, gpus);
	f->n = 0;
	f->now = 0;
}

#define GIB (1ULL << 30)

/* A task with a memory footprint (0: unknown). */
static unsigned fx_task_mem(struct fx *f, const char *name,
			    uint32_t demand_pm, uint64_t memory)
{
	unsigned i = f->n++;

	assert_true(i < MAX_T);
	f->t[i] = mock_task_add_with_memory(f->m, name, memory);
	f->c[i] = mock_chan_add(f->m, f->t[i]);
	f->demand[i] = demand_pm;
	f->sync[i] = 0;
	return i;
}

/* One monitor period: every task launches and waits, then the tick. */
static void fx_period(struct fx *f)
{
	unsigned i;

	for (i = 0; i < f->n; i++) {
		mock_set_next_hint(f->m, f->c[i], PERIOD, f->demand[i]);
		assert_int_equal(mock_submit(f->m, f->c[i]),
				 MOCK_SUBMIT_SHADOWED);
		mock_complete(f->m, f->c[i], 1);
		f->sync[i] += PERIOD;
		mock_task_set_sync(f->m, f->t[i], f->sync[i]);
	}
	f->now += PERIOD;
	mock_advance(f->m, f->now);
}

static unsigned fx_task(struct fx *f, const char *name, uint32_t demand_pm)
{
	return fx_task_mem(f, name, demand_pm, 0);
}

static uint32_t gpu_of(struct fx *f, unsigned i)
{
	return hal_task_gpu(f->t[i]);
}

static void fx_fini(struct fx *f)
{
	mock_hal_free(f->m);
}

/* Three tasks start on the only GPU (130%); a second GPU comes online.
 * The heaviest task that fits moves, which ends the overload: one move,
 * and later periods move nothing back. */
static void test_greedy_moves_the_heaviest_once(void **state)
{
	struct fx f;
	unsigned a, b, c, k;
	(void)state;

	fx_init(&f, 1, NULL);
	a = fx_task(&f, "a", 600);
	b = fx_task(&f, "b", 500);
	c = fx_task(&f, "c", 200);
	fx_period(&f); /* demands known, nowhere to go */
	assert_int_equal(gpu_of(&f, a) + gpu_of(&f, b) + gpu_of(&f, c), 0);
	mock_set_gpu_count(f.m, 2);
	fx_period(&f);
	assert_int_equal(gpu_of(&f, a), 1);
	assert_int_equal(gpu_of(&f, b), 0);
	assert_int_equal(gpu_of(&f, c), 0);
	for (k = 0; k < 20; k++)
		fx_period(&f);
	assert_int_equal(mock_migrations(f.m, f.t[a]), 1);
	assert_int_equal(mock_migrations(f.m, f.t[b]), 0);
	assert_int_equal(mock_migrations(f.m, f.t[c]), 0);
	fx_fini(&f);
}

/* The heaviest task would overload the target (50% + 70%): the heaviest
 * that fits (40%) goes instead, and the source is then 90%: done. */
static void test_greedy_takes_the_heaviest_that_fits(void **state)
{
	struct fx f;
	unsigned a, b, c, d;
	(void)state;

	fx_init(&f, 1, NULL);
	a = fx_task(&f, "a", 700);
	b = fx_task(&f, "b", 400);
	c = fx_task(&f, "c", 200);
	fx_period(&f);
	mock_set_gpu_count(f.m, 2);
	d = fx_task(&f, "d", 500); /* placed on the empty GPU */
	assert_int_equal(gpu_of(&f, d), 1);
	fx_period(&f);
	assert_int_equal(gpu_of(&f, a), 0);
	assert_int_equal(gpu_of(&f, b), 1);
	assert_int_equal(gpu_of(&f, c), 0);
	assert_int_equal(gpu_of(&f, d), 1);
	fx_fini(&f);
}

/* GPUs of 8 GiB. The heaviest task that fits in the target's spare
 * compute (a, 60%, 3 GiB) does not fit in its free memory (2 GiB beside
 * d's 6 GiB): the next heaviest that fits in both (b, 50%, 1 GiB) goes. */
static void test_greedy_skips_what_does_not_fit_in_memory(void **state)
{
	struct fx f;
	unsigned a, b, c, d;
	(void)state;

	fx_init(&f, 1, NULL);
	mock_set_gpu_memory(f.m, 8 * GIB);
	a = fx_task_mem(&f, "a", 600, 3 * GIB);
	b = fx_task_mem(&f, "b", 500, GIB);
	c = fx_task_mem(&f, "c", 200, GIB);
	fx_period(&f);
	mock_set_gpu_count(f.m, 2);
	d = fx_task_mem(&f, "d", 100, 6 * GIB); /* only GPU 1 has room */
	assert_int_equal(gpu_of(&f, d), 1);
	fx_period(&f);
	assert_int_equal(gpu_of(&f, a), 0);
	assert_int_equal(gpu_of(&f, b), 1);
	assert_int_equal(gpu_of(&f, c), 0);
	assert_int_equal(mock_migrations(f.m, f.t[a]), 0);
	fx_fini(&f);
}

/* Two light GPUs (30% + 40%) whose footprints (3 + 2 GiB) do not fit in
 * one GPU's 4 GiB are not compacted; with 5 GiB they are. */
static void test_compaction_needs_memory(void **state)
{
	static const uint64_t sizes[] = { 4 * GIB, 5 * GIB };
	unsigned i;
	(void)state;

	for (i = 0; i < 2; i++) {
		struct fx f;
		unsigned a, b;

		fx_init(&f, 2, NULL);
		mock_set_gpu_memory(f.m, sizes[i]);
		a = fx_task_mem(&f, "a", 300, 3 * GIB);
		b = fx_task_mem(&f, "b", 400, 2 * GIB);
		assert_int_equal(gpu_of(&f, a), 0);
		assert_int_equal(gpu_of(&f, b), 1);
		fx_period(&f);
		fx_period(&f);
		assert_int_equal(gpu_of(&f, a) == gpu_of(&f, b), i == 1);
		fx_fini(&f);
	}
}

/* Hysteresis: an overloaded GPU (105%) and one in the normal band (92%)
 * exchange nothing; and no move would take a target above 100%. */
static void test_no_move_into_the_normal_band(void **state)
{
	struct fx f;
	unsigned a, b, c, k;
	(void)state;

	fx_init(&f, 2, (const char *const[]){ "compact=false", NULL });
	a = fx_task(&f, "a", 920);  /* GPU 0 */
	fx_period(&f);
	b = fx_task(&f, "b", 550);  /* GPU 1 */
	fx_period(&f);
	c = fx_task(&f, "c", 500);  /* GPU 1 (55% < 92%): 105% */
	assert_int_equal(gpu_of(&f, c), 1);
	for (k = 0; k < 10; k++)
		fx_period(&f);
	assert_int_equal(gpu_of(&f, a), 0);
	assert_int_equal(gpu_of(&f, b), 1);
	assert_int_equal(gpu_of(&f, c), 1);
	assert_int_equal(mock_migrations(f.m, f.t[a]) +
			 mock_migrations(f.m, f.t[b]) +
			 mock_migrations(f.m, f.t[c]), 2); /* placements */
	fx_fini(&f);
}

/* Two tasks of 60% on one GPU, a third GPU-filling one arrives on the
 * other: the 120% GPU hands one task on only while a GPU is below 90%,
 * and a task moved is never moved back (no ping-pong). */
static void test_no_ping_pong(void **state)
{
	struct fx f;
	uint32_t before[3];
	unsigned a, b, c, k, i;
	(void)state;

	fx_init(&f, 1, (const char *const[]){ "compact=false", NULL });
	a = fx_task(&f, "a", 600);
	b = fx_task(&f, "b", 600);
	fx_period(&f);
	mock_set_gpu_count(f.m, 2);
	c = fx_task(&f, "c", 300);  /* GPU 1 */
	fx_period(&f);              /* one of a, b joins c: 90% */
	assert_int_equal(gpu_of(&f, c), 1);
	assert_int_equal(gpu_of(&f, a) + gpu_of(&f, b), 1);
	for (i = 0; i < 3; i++)
		before[i] = mock_migrations(f.m, f.t[i]);
	for (k = 0; k < 30; k++)
		fx_period(&f);
	for (i = 0; i < 3; i++)
		assert_int_equal(mock_migrations(f.m, f.t[i]), before[i]);
	(void)a;
	(void)b;
	fx_fini(&f);
}

/* Compaction: the two least loaded busy GPUs (30% and 40%) fit on one, so
 * the lighter one's task joins the other; 70% and 80% do not fit. */
static void test_compaction_empties_the_lightest(void **state)
{
	struct fx f;
	unsigned a, b, c;
	(void)state;

	fx_init(&f, 3, NULL);
	a = fx_task(&f, "a", 300);
	b = fx_task(&f, "b", 400);
	c = fx_task(&f, "c", 800);
	assert_int_equal(gpu_of(&f, a), 0); /* unknown demands: by count */
	assert_int_equal(gpu_of(&f, b), 1);
	assert_int_equal(gpu_of(&f, c), 2);
	fx_period(&f);
	assert_int_equal(gpu_of(&f, a), 1);
	assert_int_equal(gpu_of(&f, b), 1);
	assert_int_equal(gpu_of(&f, c), 2);
	fx_period(&f);
	fx_period(&f);
	assert_int_equal(gpu_of(&f, b), 1);
	assert_int_equal(gpu_of(&f, c), 2);
	fx_fini(&f);
}

static void test_compaction_off(void **state)
{
	struct fx f;
	unsigned a, b;
	(void)state;

	fx_init(&f, 2, (const char *const[]){ "compact=false", NULL });
	a = fx_task(&f, "a", 300);
	b = fx_task(&f, "b", 400);
	fx_period(&f);
	fx_period(&f);
	assert_int_equal(gpu_of(&f, a), 0);
	assert_int_equal(gpu_of(&f, b), 1);
	fx_fini(&f);
}

/* A 50 ms slice passes; every task keeps waiting on the GPU all along,
 * so its demand stays what it was. */
static void next_slice(struct fx *f)
{
	unsigned i;

	for (i = 0; i < f->n; i++) {
		f->sync[i] += 50 * MS;
		mock_task_set_sync(f->m, f->t[i], f->sync[i]);
	}
	f->now += 50 * MS;
	mock_advance(f->m, f->now);
}

/* Everything submitted on c (and forwarded) completes. */
static void complete_all(struct fx *f, struct hal_chan *c)
{
	mock_complete(f->m, c, mock_submitted(f->m, c) -
		      hal_fence_read(mock_sched(f->m), c));
}

/* dcuda with 50 ms fairness slices on one GPU. */
static struct hal_sched *fx_init_sliced(struct fx *f)
{
	f->m = mock_hal_new(&gs_policy_dcuda, (const char *const[]){
		"fairness=true", "slice=50ms", NULL });
	f->n = 0;
	f->now = 0;
	return mock_sched(f->m);
}

/* Fairness slices: two GPU-filling tasks on one GPU form two groups; in a
 * slice only one group's launches reach the GPU, the other's wait in its
 * shadow queue until its own slice. */
static void test_fairness_slices_alternate(void **state)
{
	struct fx f;
	struct hal_sched *s;
	unsigned a, b, held_a = 0, held_b = 0, k;
	(void)state;

	s = fx_init_sliced(&f);
	a = fx_task(&f, "a", 1000);
	b = fx_task(&f, "b", 1000);
	fx_period(&f); /* demands known, groups formed */
	for (k = 0; k < 8; k++) {
		mock_set_next_hint(f.m, f.c[a], MS, 1000);
		mock_set_next_hint(f.m, f.c[b], MS, 1000);
		mock_submit(f.m, f.c[a]);
		mock_submit(f.m, f.c[b]);
		/* exactly one of the two is held back */
		assert_int_equal(!!hal_shadow_pending(s, f.c[a]) +
				 !!hal_shadow_pending(s, f.c[b]), 1);
		held_a += !!hal_shadow_pending(s, f.c[a]);
		held_b += !!hal_shadow_pending(s, f.c[b]);
		next_slice(&f); /* releases it */
		assert_int_equal(hal_shadow_pending(s, f.c[a]) +
				 hal_shadow_pending(s, f.c[b]), 0);
		complete_all(&f, f.c[a]);
		complete_all(&f, f.c[b]);
	}
	assert_true(held_a >= 3 && held_b >= 3);
	fx_fini(&f);
}

/* A task's launches are held on every channel it opens, however many:
 * b has six; in a's slice all six wait, in b's slice none does. */
static void test_fairness_holds_every_channel(void **state)
{
	struct fx f;
	struct hal_sched *s;
	struct hal_chan *more[5];
	unsigned a, b, k, i, slices_of_b = 0;
	(void)state;

	s = fx_init_sliced(&f);
	a = fx_task(&f, "a", 1000);
	b = fx_task(&f, "b", 1000);
	for (i = 0; i < 5; i++)
		more[i] = mock_chan_add(f.m, f.t[b]);
	fx_period(&f); /* demands known, groups formed */
	for (k = 0; k < 4; k++) {
		unsigned held_b;

		mock_set_next_hint(f.m, f.c[a], MS, 1000);
		mock_submit(f.m, f.c[a]);
		mock_set_next_hint(f.m, f.c[b], MS, 1000);
		mock_submit(f.m, f.c[b]);
		for (i = 0; i < 5; i++) {
			mock_set_next_hint(f.m, more[i], MS, 1000);
			mock_submit(f.m, more[i]);
		}
		held_b = !!hal_shadow_pending(s, f.c[b]);
		for (i = 0; i < 5; i++)
			held_b += !!hal_shadow_pending(s, more[i]);
		if (hal_shadow_pending(s, f.c[a])) {
			assert_int_equal(held_b, 0);
			slices_of_b++;
		} else {
			assert_int_equal(held_b, 6);
		}
		next_slice(&f);
		complete_all(&f, f.c[a]);
		complete_all(&f, f.c[b]);
		for (i = 0; i < 5; i++)
			complete_all(&f, more[i]);
	}
	assert_true(slices_of_b >= 1 && slices_of_b <= 3);
	fx_fini(&f);
}

/* least-loaded places by the GPUs' utilisation over the last period. */
static void test_least_loaded_places_on_the_idlest(void **state)
{
	struct mock_hal *m;
	struct hal_task *t;
	(void)state;

	m = mock_hal_new(&gs_policy_least_loaded, NULL);
	mock_set_gpu_count(m, 3);
	mock_set_gpu_busy(m, 0, 90 * MS);
	mock_set_gpu_busy(m, 1, 20 * MS);
	mock_set_gpu_busy(m, 2, 60 * MS);
	mock_advance(m, PERIOD);
	t = mock_task_add(m, "t", 1);
	assert_int_equal(hal_task_gpu(t), 1);
	mock_hal_free(m);
}

/* least-loaded passes over the idlest GPU when the task's footprint does
 * not fit beside what is there, and takes it when it does. */
static void test_least_loaded_needs_memory(void **state)
{
	struct mock_hal *m;
	struct hal_task *x, *y, *z;
	(void)state;

	m = mock_hal_new(&gs_policy_least_loaded, NULL);
	mock_set_gpu_count(m, 2);
	mock_set_gpu_memory(m, 4 * GIB);
	x = mock_task_add_with_memory(m, "x", 3 * GIB);
	assert_int_equal(hal_task_gpu(x), 0);
	mock_set_gpu_busy(m, 0, 10 * MS);
	mock_set_gpu_busy(m, 1, 90 * MS);
	mock_advance(m, PERIOD);
	y = mock_task_add_with_memory(m, "y", 2 * GIB);
	assert_int_equal(hal_task_gpu(y), 1);
	z = mock_task_add_with_memory(m, "z", GIB);
	assert_int_equal(hal_task_gpu(z), 0);
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_greedy_moves_the_heaviest_once),
		cmocka_unit_test(test_greedy_takes_the_heaviest_that_fits),
		cmocka_unit_test(test_greedy_skips_what_does_not_fit_in_memory),
		cmocka_unit_test(test_compaction_needs_memory),
		cmocka_unit_test(test_no_move_into_the_normal_band),
		cmocka_unit_test(test_no_ping_pong),
		cmocka_unit_test(test_compaction_empties_the_lightest),
		cmocka_unit_test(test_compaction_off),
		cmocka_unit_test(test_fairness_slices_alternate),
		cmocka_unit_test(test_fairness_holds_every_channel),
		cmocka_unit_test(test_least_loaded_places_on_the_idlest),
		cmocka_unit_test(test_least_loaded_needs_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
