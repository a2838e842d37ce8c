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

/* Clients created a, b, c, one credit: c submits (its job takes the
 * credit), 10 ns later b, then `gap` ns later a; each job then runs to
 * its end in turn. Returns the order the jobs went out in. */
static const char *first_jobs_c_b_a(const struct gs_policy_ops *ops,
				    uint64_t gap, char *order)
{
	struct mock_hal *m = mock_hal_new(ops, one_credit);
	struct hal_chan *c[3];
	uint64_t done[3] = { 0, 0, 0 };
	char name[2] = { 0, 0 };
	uint32_t i, j;

	for (i = 0; i < 3; i++) {
		name[0] = (char)('a' + i);
		c[i] = mock_chan_add(m, mock_task_add(m, name, 1));
	}
	assert_int_equal(mock_submit(m, c[2]), MOCK_SUBMIT_SHADOWED);
	mock_advance(m, 10);
	assert_int_equal(mock_submit(m, c[1]), MOCK_SUBMIT_SHADOWED);
	mock_advance(m, 10 + gap);
	assert_int_equal(mock_submit(m, c[0]), MOCK_SUBMIT_SHADOWED);
	for (j = 0; j < 3; j++) {
		uint32_t pick = 3;

		for (i = 0; i < 3; i++)
			if (mock_submitted(m, c[i]) > done[i])
				pick = i;
		assert_int_not_equal(pick, 3);
		order[j] = (char)('a' + pick);
		mock_advance(m, mock_now(m) + MOCK_MS);
		done[pick]++;
		mock_complete(m, c[pick], 1);
	}
	order[3] = 0;
	mock_hal_free(m);
	return order;
}

/* RR: the run queue's list is c, b, a: after c's job, b's turn, then
 * a's. Listed in creation order it was a after c (wrapping round), then
 * b. */
static void test_rr_turns_follow_first_jobs(void **state)
{
	char order[4];
	(void)state;

	assert_string_equal(first_jobs_c_b_a(&gs_policy_drm_rr, 20, order),
			    "cba");
}

/* FIFO: b and a submit in the same nanosecond, b first. Equal
 * submission times go to the entity that joined first, b; by creation
 * order a went first. */
static void test_fifo_tie_goes_to_first_joined(void **state)
{
	char order[4];
	(void)state;

	assert_string_equal(first_jobs_c_b_a(&gs_policy_drm_fifo, 0, order),
			    "cba");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rr_turns_follow_first_jobs),
		cmocka_unit_test(test_fifo_tie_goes_to_first_joined),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
