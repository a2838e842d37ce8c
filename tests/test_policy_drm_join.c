/* The drm policies' run queue order: an entity joins its run queue's
 * list at its first job, not when its task is created
 * (drm_sched_entity_push_job adds an entity whose queue was empty; the
 * add does nothing once it is listed), so drm-rr's turns follow the
 * order of first jobs, and drm-fifo gives a tie between jobs submitted
 * in the same nanosecond to the entity that joined first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_drm_fifo;
extern const struct gs_policy_ops gs_policy_drm_rr;

static const char *const one_credit[] = { "credit_limit=1", NULL };

/* Run the jobs on the hardware one at a time (one credit), each to its
 * end, and write whose each was into order. */
static void run_jobs(struct mock_hal *m, struct hal_chan **c, uint32_t n,
		     uint32_t jobs, char *order)
{
	uint64_t done[3] = { 0, 0, 0 };
	uint32_t i, j;

	for (j = 0; j < jobs; j++) {
		uint32_t pick = n;

		for (i = 0; i < n; i++)
			if (mock_submitted(m, c[i]) > done[i])
				pick = i;
		assert_int_not_equal(pick, n);
		order[j] = (char)('a' + pick);
		mock_advance(m, mock_now(m) + MOCK_MS);
		done[pick]++;
		mock_complete(m, c[pick], 1);
	}
}

static struct mock_hal *clients(const struct gs_policy_ops *ops,
				struct hal_task **t, struct hal_chan **c,
				uint32_t n)
{
	struct mock_hal *m = mock_hal_new(ops, one_credit);
	char name[2] = { 0, 0 };
	uint32_t i;

	for (i = 0; i < n; i++) {
		name[0] = (char)('a' + i);
		t[i] = mock_task_add(m, name, 1);
		c[i] = mock_chan_add(m, t[i]);
	}
	return m;
}

/* FIFO, clients created a, b, c: c's job holds the credit, then b and a
 * submit in the same nanosecond, b first. Equal submission times go to
 * the entity that joined first, b (the kernel's tree puts an equal key
 * after those already in it); by creation order a went first. */
static void test_fifo_tie_goes_to_first_joined(void **state)
{
	struct hal_task *t[3];
	struct hal_chan *c[3];
	struct mock_hal *m = clients(&gs_policy_drm_fifo, t, c, 3);
	char order[4] = { 0 };
	(void)state;

	assert_int_equal(mock_submit(m, c[2]), MOCK_SUBMIT_SHADOWED);
	mock_advance(m, 10);
	assert_int_equal(mock_submit(m, c[1]), MOCK_SUBMIT_SHADOWED);
	assert_int_equal(mock_submit(m, c[0]), MOCK_SUBMIT_SHADOWED);
	run_jobs(m, c, 3, 3, order);
	assert_string_equal(order, "cba");
	mock_hal_free(m);
}

/* Three clients created a, b, c; c submits first, then b, then a.
 * The run queue's list is c, b, a: after c's job, b's turn, then a's.
 * Listed in creation order it was a after c (wrapping round), then b. */
static void test_rr_turns_follow_first_jobs(void **state)
{
	struct hal_task *t[3];
	struct hal_chan *c[3];
	struct mock_hal *m = clients(&gs_policy_drm_rr, t, c, 3);
	char order[4] = { 0 };
	(void)state;

	assert_int_equal(mock_submit(m, c[2]), MOCK_SUBMIT_SHADOWED);
	mock_advance(m, 10);
	assert_int_equal(mock_submit(m, c[1]), MOCK_SUBMIT_SHADOWED);
	mock_advance(m, 20);
	assert_int_equal(mock_submit(m, c[0]), MOCK_SUBMIT_SHADOWED);
	run_jobs(m, c, 3, 3, order);
	assert_string_equal(order, "cba");
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rr_turns_follow_first_jobs),
		cmocka_unit_test(test_fifo_tie_goes_to_first_joined),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
