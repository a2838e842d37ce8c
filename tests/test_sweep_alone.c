/* The standalone runs a sweep's points share (sim/cli/sweep_alone.c):
 * which points share them (their overrides but the policy's and another
 * definition's), the order and state of the shared workers, what a point
 * is given, and the bytes a worker sends the pool. */
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
	/* definition 1: the throttle, whose kernel the points set */
	g_autofree char *ka = gs_alone_def_key(a->sets, 1);
	g_autofree char *kb = gs_alone_def_key(b->sets, 1);
	g_autofree char *kc = gs_alone_def_key(c->sets, 1);
	g_autofree char *kd = gs_alone_def_key(d->sets, 1);
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

/* A definition's key leaves out another definition's overrides, read as
 * the configuration reads a list index, and its own count, and nothing
 * else: a key under `tasks` that names no single definition may reach
 * every one. */
static void test_def_key_leaves_out_other_definitions(void **state)
{
	struct gs_sweep_point *a = point(0, "policy={name: dfq}", "19us", 1);
	struct gs_sweep_point *b = point(1, "policy=direct", "50us", 1);
	char *sets[] = { "tasks.01.weight=2", "tasks.1x.weight=2",
			 "tasks=[]", "tasks.0000000001.weight=2",
			 "tasks.2={name: c}", "tasks.1.count=4",
			 "tasks.1.countx=1", NULL };
	g_autofree char *a0 = gs_alone_def_key(a->sets, 0);
	g_autofree char *b0 = gs_alone_def_key(b->sets, 0);
	g_autofree char *a1 = gs_alone_def_key(a->sets, 1);
	g_autofree char *b1 = gs_alone_def_key(b->sets, 1);
	g_autofree char *k0 = gs_alone_def_key(sets, 0);
	g_autofree char *k1 = gs_alone_def_key(sets, 1);
	g_autofree char *k2 = gs_alone_def_key(sets, 2);
	(void)state;

	/* the throttle's kernel is definition 1's: 0's run is the same */
	assert_string_equal(a0, b0);
	assert_string_not_equal(a1, b1);
	assert_null(strstr(a0, "kernel"));
	assert_non_null(strstr(a0, "seed=1"));
	assert_non_null(strstr(a1, "kernel=19us"));
	/* the same overrides, another definition: another run */
	assert_string_not_equal(a0, a1);
	assert_null(strstr(k0, "tasks.01."));
	assert_non_null(strstr(k1, "tasks.01.weight=2"));
	assert_null(strstr(k1, "tasks.2="));
	assert_non_null(strstr(k2, "tasks.2={name: c}"));
	assert_null(strstr(k2, "tasks.01."));
	/* a standalone run is one replica: its own count cannot reach it,
	 * a key that merely begins with the word may */
	assert_null(strstr(k1, "count=4"));
	assert_non_null(strstr(k1, "tasks.1.countx=1"));
	assert_null(strstr(k0, "count"));
	/* no single definition named: kept for each */
	assert_non_null(strstr(k0, "tasks.1x.weight=2"));
	assert_non_null(strstr(k0, "tasks=[]"));
	assert_non_null(strstr(k0, "tasks.0000000001.weight=2"));
	point_free(a);
	point_free(b);
}

/* Points 0-3: two policies x kernels 19us (costly) and 50us; point 4 has
 * a kernel of its own. Definition 0 (no axis touches it) is one run for
 * all five, made by the worker of the first point, with that point's
 * kernel; the 19us kernel's run by a second worker, which starts first
 * (the costlier); point 4 makes its own kernel's run itself, but waits
 * for definition 0's. */
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
	g_autoptr(GByteArray) one = g_byte_array_new();
	g_autoptr(GByteArray) two = g_byte_array_new();
	struct gs_alone_job *first, *second;
	const struct gs_standalone_fig *const *known;
	unsigned runs, uses, i;
	(void)state;

	assert_int_equal(gs_sweep_alone_jobs(plan), 2);
	first = gs_sweep_alone_next(plan);
	assert_ptr_equal(first->p, p[2]); /* 19us: 40 against 10 + 10 */
	assert_int_equal(first->n_defs, 1);
	assert_int_equal(first->defs[0], 1);
	assert_int_equal(first->uses, 2);
	first->state = GS_ALONE_RUNNING;
	second = gs_sweep_alone_next(plan);
	assert_ptr_equal(second->p, p[0]);
	assert_int_equal(second->n_defs, 2);
	assert_int_equal(second->cost, 20);
	assert_int_equal(second->uses, 5);      /* definition 0: every point */
	assert_int_equal(second->stood_for, 7); /* 5 + 2 */
	second->state = GS_ALONE_RUNNING;
	assert_null(gs_sweep_alone_next(plan));
	for (i = 0; i < 5; i++)
		assert_false(gs_sweep_alone_ready(plan, p[i]));

	/* the first ends with its one figure: its points still wait for
	 * definition 0's, and are given what there is */
	pack(one, 1234.5, 0.25, NULL);
	gs_sweep_alone_ended(first, true, one->data, one->len);
	assert_int_equal(first->state, GS_ALONE_DONE);
	assert_false(gs_sweep_alone_ready(plan, p[3]));
	known = gs_sweep_alone_known(plan, p[3]);
	assert_non_null(known);
	assert_null(known[0]);
	assert_true(known[1]->mean == 1234.5 && known[1]->demand == 0.25);

	/* the second ends with its two: every point may start */
	pack(two, 7.0, 0.5, NULL);
	pack(two, NAN, NAN, "a violation");
	gs_sweep_alone_ended(second, true, two->data, two->len);
	assert_int_equal(second->state, GS_ALONE_DONE);
	for (i = 0; i < 5; i++)
		assert_true(gs_sweep_alone_ready(plan, p[i]));
	known = gs_sweep_alone_known(plan, p[3]);
	assert_true(known[0]->mean == 7.0 && known[1]->mean == 1234.5);
	known = gs_sweep_alone_known(plan, p[1]);
	assert_true(known[0]->mean == 7.0);
	assert_true(isnan(known[1]->mean) && isnan(known[1]->demand));
	assert_string_equal(known[1]->violation, "a violation");
	/* point 4 makes its kernel's run itself */
	known = gs_sweep_alone_known(plan, p[4]);
	assert_true(known[0]->mean == 7.0 && known[0]->demand == 0.5);
	assert_null(known[0]->violation);
	assert_null(known[1]);
	gs_sweep_alone_counts(plan, &runs, &uses);
	assert_int_equal(runs, 3);
	assert_int_equal(uses, 9);
	gs_sweep_alone_free(plan);
	for (i = 0; i < 5; i++)
		point_free(p[i]);
}

/* A random point of three definitions: a policy, a value of definition
 * 0's and of definition 1's, definition 1's count and a seed, each drawn
 * from two or three. */
static struct gs_sweep_point *random_point(GRand *r, uint32_t index)
{
	static const char *const policy[] = { "policy=direct", "policy=dfq",
					      "policy.name=timeslice" };
	struct gs_sweep_point *p = g_new0(struct gs_sweep_point, 1);
	uint32_t d;

	p->index = index;
	p->id = g_strdup_printf("p%u", index);
	p->sets = g_new0(char *, 6);
	p->sets[0] = g_strdup(policy[g_rand_int_range(r, 0, 3)]);
	p->sets[1] = g_strdup_printf("tasks.0.weight=%d",
				     g_rand_int_range(r, 1, 3));
	p->sets[2] = g_strdup_printf("tasks.1.behavior.throttle.kernel=%dus",
				     g_rand_int_range(r, 1, 3));
	p->sets[3] = g_strdup_printf("tasks.1.count=%d",
				     g_rand_int_range(r, 1, 3));
	p->sets[4] = g_strdup_printf("seed=%d", g_rand_int_range(r, 1, 3));
	p->n_defs = 3;
	p->alone_cost = g_new(uint64_t, 3);
	for (d = 0; d < 3; d++)
		p->alone_cost[d] = (uint64_t)g_rand_int_range(r, 1, 100);
	return p;
}

/* The figure a worker would make for definition d of p: its key's hash
 * as the mean, d as the demand. */
static void pack_made(GByteArray *msg, const struct gs_sweep_point *p,
		      uint32_t d)
{
	g_autofree char *key = gs_alone_def_key(p->sets, d);

	pack(msg, (double)g_str_hash(key), (double)d, NULL);
}

/* Random grids, every worker run in the pool's order: a point is handed,
 * for each definition, the figure made for a point whose key for that
 * definition is its own, or none when no other point shares the key;
 * a run is made once, and no point waits once every worker is done. */
static void test_random_grids_hand_each_point_its_own_runs(void **state)
{
	g_autoptr(GRand) r = g_rand_new_with_seed(20261207);
	unsigned grid;
	(void)state;

	for (grid = 0; grid < 200; grid++) {
		unsigned n = (unsigned)g_rand_int_range(r, 1, 13), i, made = 0;
		struct gs_sweep_point **p = g_new(struct gs_sweep_point *, n);
		g_autoptr(GHashTable) uses = g_hash_table_new_full(
			g_str_hash, g_str_equal, g_free, NULL);
		struct gs_sweep_alone *plan;
		struct gs_alone_job *job;
		unsigned runs, stood_for, shared_runs = 0, shared_uses = 0;
		uint64_t last_cost = UINT64_MAX;
		uint32_t d;

		for (i = 0; i < n; i++) {
			p[i] = random_point(r, i);
			for (d = 0; d < 3; d++) {
				char *key = gs_alone_def_key(p[i]->sets, d);
				guint u = GPOINTER_TO_UINT(
					g_hash_table_lookup(uses, key));

				g_hash_table_replace(uses, key,
						     GUINT_TO_POINTER(u + 1));
			}
		}
		plan = gs_sweep_alone_plan(
			(const struct gs_sweep_point *const *)p, n);
		while ((job = gs_sweep_alone_next(plan))) {
			g_autoptr(GByteArray) msg = g_byte_array_new();

			assert_true(job->cost <= last_cost);
			last_cost = job->cost;
			job->state = GS_ALONE_RUNNING;
			for (d = 0; d < job->n_defs; d++)
				pack_made(msg, job->p, job->defs[d]);
			made += job->n_defs;
			gs_sweep_alone_ended(job, true, msg->data, msg->len);
		}
		for (i = 0; i < n; i++) {
			const struct gs_standalone_fig *const *known =
				gs_sweep_alone_known(plan, p[i]);

			assert_true(gs_sweep_alone_ready(plan, p[i]));
			for (d = 0; d < 3; d++) {
				g_autofree char *key =
					gs_alone_def_key(p[i]->sets, d);
				guint u = GPOINTER_TO_UINT(
					g_hash_table_lookup(uses, key));

				if (u < 2) {
					assert_true(!known || !known[d]);
					continue;
				}
				assert_non_null(known);
				assert_non_null(known[d]);
				assert_true(known[d]->mean ==
					    (double)g_str_hash(key));
				assert_true(known[d]->demand == (double)d);
			}
		}
		{
			GHashTableIter it;
			gpointer k, v;

			g_hash_table_iter_init(&it, uses);
			while (g_hash_table_iter_next(&it, &k, &v))
				if (GPOINTER_TO_UINT(v) >= 2) {
					shared_runs++;
					shared_uses += GPOINTER_TO_UINT(v);
				}
		}
		assert_int_equal(made, shared_runs);
		gs_sweep_alone_counts(plan, &runs, &stood_for);
		assert_int_equal(runs, shared_runs);
		assert_int_equal(stood_for, shared_uses);
		gs_sweep_alone_free(plan);
		for (i = 0; i < n; i++)
			point_free(p[i]);
		g_free(p);
	}
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

	assert_int_equal(job->n_defs, 2);
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
		cmocka_unit_test(test_def_key_leaves_out_other_definitions),
		cmocka_unit_test(test_plan_shares_and_orders),
		cmocka_unit_test(test_random_grids_hand_each_point_its_own_runs),
		cmocka_unit_test(test_ended_needs_success_and_exact_bytes),
		cmocka_unit_test(test_fig_bytes_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
