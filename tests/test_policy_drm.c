/* drm-fifo, drm-rr and drm-fair against the scripted HAL: jobs wait in
 * shadow queues and go to the hardware as credits allow; fences return
 * credits; each policy's choice of entity, its priority rule and
 * drm-fair's virtual time, checked on sequences worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_drm_fifo;
extern const struct gs_policy_ops gs_policy_drm_rr;
extern const struct gs_policy_ops gs_policy_drm_fair;

#define MAX_CLIENTS 4

struct rig {
	struct mock_hal *m;
	struct hal_task *t[MAX_CLIENTS];
	struct hal_chan *c[MAX_CLIENTS];
	uint32_t n;
	/* the hardware: one engine running pushed jobs in push order */
	uint32_t order[256];
	uint32_t n_order;
};

static struct rig *rig_new(const struct gs_policy_ops *ops,
			   const char *const *params, const uint32_t *prio,
			   uint32_t n)
{
	struct rig *r = test_calloc(1, sizeof(*r));
	uint32_t i;
	char name[8];

	r->m = mock_hal_new(ops, params);
	r->n = n;
	for (i = 0; i < n; i++) {
		name[0] = (char)('a' + i);
		name[1] = 0;
		mock_set_next_priority(r->m, prio ? prio[i] : HAL_PRIO_NORMAL);
		r->t[i] = mock_task_add(r->m, name, 1);
		r->c[i] = mock_chan_add(r->m, r->t[i]);
		assert_true(mock_shadowed(r->m, r->c[i]));
	}
	return r;
}

static void rig_free(struct rig *r)
{
	mock_hal_free(r->m);
	test_free(r);
}

static void submit(struct rig *r, uint32_t client, uint32_t jobs)
{
	while (jobs--)
		assert_int_equal(mock_submit(r->m, r->c[client]),
				 MOCK_SUBMIT_SHADOWED);
}

static uint64_t pushed(struct rig *r, uint32_t client)
{
	return mock_submitted(r->m, r->c[client]);
}

/* Pushed but not completed, per client (completed = the fence). */
static uint64_t done[MAX_CLIENTS];

/* Play the hardware for `jobs` jobs of `len` each: the oldest pushed,
 * not completed job runs to its end, then its fence signals. With one
 * credit there is one such job at a time, so this records the order the
 * scheduler chose. */
static void run_jobs(struct rig *r, uint32_t jobs, uint64_t len)
{
	while (jobs--) {
		uint32_t i, pick = MAX_CLIENTS;

		for (i = 0; i < r->n; i++)
			if (pushed(r, i) > done[i]) {
				assert_int_equal(pick, MAX_CLIENTS);
				pick = i;
			}
		assert_int_not_equal(pick, MAX_CLIENTS);
		mock_advance(r->m, mock_now(r->m) + len);
		done[pick]++;
		r->order[r->n_order++] = pick;
		mock_complete(r->m, r->c[pick], 1);
	}
}

static void reset_done(void)
{
	memset(done, 0, sizeof(done));
}

static void assert_order(const struct rig *r, const char *expect)
{
	char got[257];
	uint32_t i;

	for (i = 0; i < r->n_order; i++)
		got[i] = (char)('a' + r->order[i]);
	got[i] = 0;
	assert_string_equal(got, expect);
}

static const char *const one_credit[] = { "credit_limit=1", NULL };

/* Credits: with a limit of 2, two jobs go out; the third waits for a
 * fence. */
static void test_credits(void **state)
{
	static const char *const two[] = { "credit_limit=2", NULL };
	struct rig *r = rig_new(&gs_policy_drm_fifo, two, NULL, 1);
	(void)state;

	reset_done();
	submit(r, 0, 3);
	assert_int_equal(pushed(r, 0), 2);
	mock_advance(r->m, 1 * MOCK_MS);
	mock_complete(r->m, r->c[0], 1);
	assert_int_equal(pushed(r, 0), 3);
	/* the fence's job ran from its push at 0 to 1 ms */
	assert_int_equal(mock_accounted(r->m, r->t[0]), 1 * MOCK_MS);
	rig_free(r);
}

/* FIFO: jobs go out in submission order across entities of a priority. */
static void test_fifo_submission_order(void **state)
{
	struct rig *r = rig_new(&gs_policy_drm_fifo, one_credit, NULL, 2);
	(void)state;

	reset_done();
	submit(r, 0, 1);     /* a1 goes out at once */
	submit(r, 0, 1);     /* a2 */
	mock_advance(r->m, 10);
	submit(r, 1, 1);     /* b1, after a2 */
	mock_advance(r->m, 20);
	submit(r, 0, 1);     /* a3, after b1 */
	run_jobs(r, 4, MOCK_MS);
	assert_order(r, "aaba");
	rig_free(r);
}

/* FIFO and RR: a higher priority run queue is served first, strictly. */
static void strict_priority(const struct gs_policy_ops *ops)
{
	static const uint32_t prio[] = { HAL_PRIO_LOW, HAL_PRIO_HIGH };
	struct rig *r = rig_new(ops, one_credit, prio, 2);

	reset_done();
	submit(r, 0, 3);     /* low: one out, two waiting */
	mock_advance(r->m, 10);
	submit(r, 1, 2);     /* high, later */
	run_jobs(r, 5, MOCK_MS);
	assert_order(r, "abbaa");
	rig_free(r);
}

static void test_fifo_strict_priority(void **state)
{
	(void)state;
	strict_priority(&gs_policy_drm_fifo);
}

static void test_rr_strict_priority(void **state)
{
	(void)state;
	strict_priority(&gs_policy_drm_rr);
}

/* RR: one job per entity in turn, whatever the submission order; an
 * entity alone is served again. */
static void test_rr_turns(void **state)
{
	struct rig *r = rig_new(&gs_policy_drm_rr, one_credit, NULL, 3);
	(void)state;

	reset_done();
	submit(r, 0, 4);     /* a1 out; a2..a4 waiting, oldest */
	mock_advance(r->m, 10);
	submit(r, 1, 1);
	submit(r, 2, 2);
	run_jobs(r, 7, MOCK_MS);
	assert_order(r, "abcacaa");
	rig_free(r);
}

/* Fair, equal priority, equal jobs. Virtual time is charged at a push
 * for the jobs finished since the last one, so it lags by a job:
 *   a1 pushed (a alone, at 0); a2 queues a again at 0 (tree empty);
 *   b joins having kept nothing, equal priority, its average job (none
 *   yet) not longer than the scheduler's: 1 ns ahead, at -1;
 *   a1 done: push b1 (nothing of b finished: b stays at -1, first);
 *   b1 done: push b2, b = -1 + 1 ms << 4; a (0) is first: a2, a = 16 ms;
 *   then b3 (b at 16 ms - 1 < 16 ms), a3, b4, a4. */
static void test_fair_equal(void **state)
{
	struct rig *r = rig_new(&gs_policy_drm_fair, one_credit, NULL, 2);
	(void)state;

	reset_done();
	submit(r, 0, 4);
	submit(r, 1, 4);
	run_jobs(r, 8, MOCK_MS);
	assert_order(r, "abbababa");
	assert_int_equal(mock_accounted(r->m, r->t[0]), 4 * MOCK_MS);
	assert_int_equal(mock_accounted(r->m, r->t[1]), 4 * MOCK_MS);
	rig_free(r);
}

/* Fair, normal against low, both backlogged with equal jobs: low's
 * virtual time grows 2^(7-4) = 8 times faster, so normal gets about 8
 * jobs for each of low's. */
static void test_fair_priority_weight(void **state)
{
	static const uint32_t prio[] = { HAL_PRIO_NORMAL, HAL_PRIO_LOW };
	struct rig *r = rig_new(&gs_policy_drm_fair, one_credit, prio, 2);
	uint32_t i, a = 0, b = 0;
	(void)state;

	reset_done();
	submit(r, 0, 100);
	submit(r, 1, 100);
	run_jobs(r, 90, MOCK_MS);
	for (i = 0; i < r->n_order; i++)
		r->order[i] ? b++ : a++;
	assert_in_range(a, 78, 82);
	assert_in_range(b, 8, 12);
	rig_free(r);
}

/* Fair, an entity that went idle comes back at the least virtual time
 * (plus what it kept above it: nothing here), not at its old value: b ran
 * once, then a ran 20 jobs alone (its 21st already on the hardware when b
 * returns); b rejoins 1 ns ahead of a instead of being owed 20 jobs, and
 * from then on they alternate. */
static void test_fair_idle_rejoin(void **state)
{
	struct rig *r = rig_new(&gs_policy_drm_fair, one_credit, NULL, 2);
	(void)state;

	reset_done();
	submit(r, 1, 1);
	run_jobs(r, 1, MOCK_MS);    /* b ran once, then idle */
	submit(r, 0, 30);
	run_jobs(r, 20, MOCK_MS);   /* a alone */
	submit(r, 1, 5);
	run_jobs(r, 10, MOCK_MS);
	assert_order(r, "b" "aaaaaaaaaaaaaaaaaaaa" "a" "babababab");
	rig_free(r);
}

/* A channel torn down with jobs on the hardware returns their credits:
 * the other entity's job goes out (from the kick timer). */
static void test_teardown_returns_credits(void **state)
{
	struct rig *r = rig_new(&gs_policy_drm_rr, one_credit, NULL, 2);
	(void)state;

	reset_done();
	submit(r, 0, 2);
	submit(r, 1, 1);
	assert_int_equal(pushed(r, 1), 0);
	mock_task_exit(r->m, r->t[0]);
	mock_advance(r->m, mock_now(r->m));
	assert_int_equal(pushed(r, 1), 1);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_credits),
		cmocka_unit_test(test_fifo_submission_order),
		cmocka_unit_test(test_fifo_strict_priority),
		cmocka_unit_test(test_rr_strict_priority),
		cmocka_unit_test(test_rr_turns),
		cmocka_unit_test(test_fair_equal),
		cmocka_unit_test(test_fair_priority_weight),
		cmocka_unit_test(test_fair_idle_rejoin),
		cmocka_unit_test(test_teardown_returns_credits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
