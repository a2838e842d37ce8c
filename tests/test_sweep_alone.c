/* The standalone runs a sweep's points share (sim/cli/sweep_alone.c):
 * which points share them (their overrides but the policy's), the order
 * and state of the shared workers, what a point is given, and the bytes
 * a worker sends the pool. */
#include <glib.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim/cli/sweep_alone.h"

/* A point of two definitions whose standalone runs cost cost_each. */
static struct gs_sweep_point *point(uint32_t index, const char *policy,
				    const char *kernel, uint64_t cost_each)
{
	struct gs_sweep_point *p = g_new0(struct gs_sweep_point, 1);

	p->index = index;
	p->id = g_strdup_printf("p%u", index);
	p->sets = g_new0(char *, 4);
	p->sets[0] = g_strdup(policy);
	p->sets[1] = g_strdup_printf("tasks.1.behavior.throttle.kernel=%s",
				     kernel);
	p->sets[2] = g_strdup("seed=1");
	p->n_defs = 2;
	p->alone_cost = g_new(uint64_t, 2);
	p->alone_cost[0] = p->alone_cost[1] = cost_each;
	return p;
}

static void point_free(struct gs_sweep_point *p)
{
	g_free(p->id);
	g_strfreev(p->sets);
	g_free(p->alone_cost);
	g_free(p);
}

/* Only the policy's overrides leave the key: the whole policy or a part
 * of it, not a key that merely begins with the word. */
static void test_key_leaves_out_the_policy_only(void **state)
{
	struct gs_sweep_point *a = point(0, "policy={name: dfq}", "19us", 1);
	struct gs_sweep_point *b = point(1, "policy.name=timeslice", "19us", 1);
	struct gs_sweep_point *c = point(2, "policy={name: dfq}", "50us", 1);
	struct gs_sweep_point *d = point(3, "policyx=1", "19us", 1);
	g_autofree char *ka = gs_alone_key(a->sets);
	g_autofree char *kb = gs_alone_key(b->sets);
	g_autofree char *kc = gs_alone_key(c->sets);
	g_autofree char *kd = gs_alone_key(d->sets);
	(void)state;

	assert_string_equal(ka, kb);
	assert_string_not_equal(ka, kc);
	assert_string_not_equal(ka, kd);
	assert_non_null(strstr(ka, "seed=1"));
	point_free(a);
	point_free(b);
	point_free(c);
	point_free(d);
}

/* f's bytes for a worker's message. */
static void pack(GByteArray *msg, double mean, double demand,
		 const char *violation)
{
	struct gs_standalone_fig f = { mean, demand, (char *)violation };

	gs_standalone_fig_pack(&f, msg);
}

/* Points 0-3: two policies x kernels 19us (costly) and 50us; point 4 has
 * a kernel of its own. Two shared workers, the costlier first; point 4
 * makes its runs itself and never waits. */
static void test_plan_shares_and_orders(void **state)
{
	struct gs_sweep_point *p[5] = {
		point(0, "policy=direct", "50us", 10),
		point(1, "policy=dfq", "50us", 10),
		point(2, "policy=direct", "19us", 40),
		point(3, "policy=dfq", "19us", 40),
		point(4, "policy=dfq", "700us", 90),
	};
	struct gs_sweep_alone *plan =
		gs_sweep_alone_plan((const struct gs_sweep_point *const *)p, 5);
	g_autoptr(GByteArray) msg = g_byte_array_new();
	struct gs_alone_job *first, *second;
	const struct gs_standalone_fig *const *known;
	unsigned runs, uses, i;
	(void)state;

	assert_int_equal(gs_sweep_alone_jobs(plan), 2);
	first = gs_sweep_alone_next(plan);
	assert_ptr_equal(first->p, p[2]); /* 19us: 80 against 20 */
	assert_int_equal(first->uses, 2);
	assert_false(gs_sweep_alone_ready(plan, p[3]));
	assert_true(gs_sweep_alone_ready(plan, p[4]));
	assert_null(gs_sweep_alone_known(plan, p[4]));
	first->state = GS_ALONE_RUNNING;
	second = gs_sweep_alone_next(plan);
	assert_ptr_equal(second->p, p[0]);
	second->state = GS_ALONE_RUNNING;
	assert_null(gs_sweep_alone_next(plan));

	/* the first ends with its two figures: its points are given them */
	pack(msg, 1234.5, 0.25, NULL);
	pack(msg, NAN, NAN, "a violation");
	gs_sweep_alone_ended(first, true, msg->data, msg->len);
	assert_int_equal(first->state, GS_ALONE_DONE);
	assert_true(gs_sweep_alone_ready(plan, p[2]));
	assert_true(gs_sweep_alone_ready(plan, p[3]));
	known = gs_sweep_alone_known(plan, p[3]);
	assert_non_null(known);
	assert_true(known[0]->mean == 1234.5 && known[0]->demand == 0.25);
	assert_null(known[0]->violation);
	assert_true(isnan(known[1]->mean) && isnan(known[1]->demand));
	assert_string_equal(known[1]->violation, "a violation");
	assert_false(gs_sweep_alone_ready(plan, p[0]));

	/* the second's message is cut short: failed, its points make the
	 * runs themselves and are not held back */
	gs_sweep_alone_ended(second, true, msg->data, msg->len - 3);
	assert_int_equal(second->state, GS_ALONE_FAILED);
	for (i = 0; i < 5; i++)
		assert_true(gs_sweep_alone_ready(plan, p[i]));
	assert_null(gs_sweep_alone_known(plan, p[0]));
	gs_sweep_alone_counts(plan, &runs, &uses);
	assert_int_equal(runs, 2);  /* one worker's two definitions */
	assert_int_equal(uses, 4);  /* for two points each */
	gs_sweep_alone_free(plan);
	for (i = 0; i < 5; i++)
		point_free(p[i]);
}

/* A worker that exits with failure, or says one fig too many, gives
 * nothing. */
static void test_ended_needs_success_and_exact_bytes(void **state)
{
	struct gs_sweep_point *p[2] = {
		point(0, "policy=direct", "50us", 1),
		point(1, "policy=dfq", "50us", 1),
	};
	struct gs_sweep_alone *plan =
		gs_sweep_alone_plan((const struct gs_sweep_point *const *)p, 2);
	g_autoptr(GByteArray) msg = g_byte_array_new();
	struct gs_alone_job *job = gs_sweep_alone_next(plan);
	unsigned i;
	(void)state;

	pack(msg, 1, 1, NULL);
	pack(msg, 2, 2, NULL);
	gs_sweep_alone_ended(job, false, msg->data, msg->len);
	assert_int_equal(job->state, GS_ALONE_FAILED);
	pack(msg, 3, 3, NULL);
	job->state = GS_ALONE_RUNNING;
	gs_sweep_alone_ended(job, true, msg->data, msg->len);
	assert_int_equal(job->state, GS_ALONE_FAILED);
	assert_null(gs_sweep_alone_known(plan, p[0]));
	gs_sweep_alone_free(plan);
	for (i = 0; i < 2; i++)
		point_free(p[i]);
}

/* The bytes back as they went, NAN and an empty violation included;
 * a cut anywhere is refused. */
static void test_fig_bytes_round_trip(void **state)
{
	g_autoptr(GByteArray) msg = g_byte_array_new();
	struct gs_standalone_fig f;
	gsize at = 0, cut;
	(void)state;

	pack(msg, -0.0, NAN, "");
	pack(msg, 5e-324, 1.0, "x\ny");
	assert_true(gs_standalone_fig_unpack(msg->data, msg->len, &at, &f));
	assert_true(signbit(f.mean) && f.mean == 0 && isnan(f.demand));
	assert_string_equal(f.violation, "");
	gs_standalone_fig_clear(&f);
	assert_true(gs_standalone_fig_unpack(msg->data, msg->len, &at, &f));
	assert_true(f.mean == 5e-324 && f.demand == 1.0);
	assert_string_equal(f.violation, "x\ny");
	gs_standalone_fig_clear(&f);
	assert_int_equal(at, msg->len);
	for (cut = 0; cut < 21; cut++) {
		at = 0;
		assert_false(gs_standalone_fig_unpack(msg->data, cut, &at, &f));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_leaves_out_the_policy_only),
		cmocka_unit_test(test_plan_shares_and_orders),
		cmocka_unit_test(test_ended_needs_success_and_exact_bytes),
		cmocka_unit_test(test_fig_bytes_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
