/* The drm policies' run queue order: an entity joins its run queue's
 * list at its first job, not when its task is created
 * (drm_sched_entity_push_job adds an entity whose queue was empty; the
 * add does nothing once it is listed), so drm-rr's turns follow the
 * order of first jobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/support/mock_hal.h"

extern const struct gs_policy_ops gs_policy_drm_rr;

static const char *const one_credit[] = { "credit_limit=1", NULL };

/* Three clients created a, b, c; c submits first, then b, then a.
 * The run queue's list is c, b, a: after c's job, b's turn, then a's.
 * Listed in creation order it was a after c (wrapping round), then b. */
static void test_rr_turns_follow_first_jobs(void **state)
{
	struct mock_hal *m = mock_hal_new(&gs_policy_drm_rr, one_credit);
	struct hal_task *t[3];
	struct hal_chan *c[3];
	uint64_t done[3] = { 0, 0, 0 };
	char order[4] = { 0 }, name[2] = { 0, 0 };
	uint32_t i, n;
	(void)state;

	for (i = 0; i < 3; i++) {
		name[0] = (char)('a' + i);
		t[i] = mock_task_add(m, name, 1);
		c[i] = mock_chan_add(m, t[i]);
	}
	assert_int_equal(mock_submit(m, c[2]), MOCK_SUBMIT_SHADOWED);
	mock_advance(m, 10);
	assert_int_equal(mock_submit(m, c[1]), MOCK_SUBMIT_SHADOWED);
	mock_advance(m, 20);
	assert_int_equal(mock_submit(m, c[0]), MOCK_SUBMIT_SHADOWED);
	/* one credit: one job on the hardware at a time; run each to its
	 * end and note whose it was */
	for (n = 0; n < 3; n++) {
		uint32_t pick = 3;

		for (i = 0; i < 3; i++)
			if (mock_submitted(m, c[i]) > done[i])
				pick = i;
		assert_int_not_equal(pick, 3);
		order[n] = (char)('a' + pick);
		mock_advance(m, mock_now(m) + MOCK_MS);
		done[pick]++;
		mock_complete(m, c[pick], 1);
	}
	assert_string_equal(order, "cba");
	mock_hal_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rr_turns_follow_first_jobs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
