/* The order a sweep starts its points in (issue 20 goal 4): the
 * costliest first, from an estimate of the commands each point launches
 * (workloads/scenario_cost.c), ties in grid order. The order changes no
 * output (tests/sweep_order_test.sh compares the bytes); here: the
 * estimate's arithmetic and the order it gives. And whether the workers
 * start helper threads (gs_sweep_worker_threads): neither changes an
 * output byte (tests/sweep_test.sh compares -j1 and -j2 point by
 * point). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "sim/cli/sweep.h"
#include "workloads/config_load.h"
#include "workloads/scenario_cost.h"

static struct gs_scenario *load(const char *yaml)
{
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data("cost.yaml", yaml,
						       strlen(yaml), NULL, 0,
						       &err);

	if (!sc)
		fail_msg("%s", err->message);
	return sc;
}

/* host.launch 10us: a pass of "launch 90us, wait" takes 100us, so a task
 * looping forever for 1 s launches 10,000; two replicas 20,000. */
static void test_forever_loop_launches_per_pass_time(void **state)
{
	struct gs_scenario *sc = load(
		"name: c\nduration: 1s\nhost: {launch: 10us}\n"
		"tasks:\n"
		"  - name: a\n    count: 2\n    behavior:\n      script:\n"
		"        - repeat:\n            count: forever\n"
		"            steps: [{launch: 90us}, wait]\n");
	(void)state;

	assert_int_equal(gs_task_cost(sc, &sc->tasks[0]), 20000);
	assert_int_equal(gs_scenario_cost(sc), 20000);
	gs_scenario_free(sc);
}

/* A finite script launches what it says when it fits in the duration
 * (3 x 2 nested = 6 + 1), and no more than the duration allows when it
 * does not; a task that starts after the end launches nothing. */
static void test_finite_programs_and_late_starts(void **state)
{
	struct gs_scenario *sc = load(
		"name: c\nduration: 1s\nhost: {launch: 10us}\n"
		"tasks:\n"
		"  - name: fits\n    behavior:\n      script:\n"
		"        - launch: 90us\n"
		"        - repeat:\n            count: 3\n            steps:\n"
		"              - repeat: {count: 2, steps: [{launch: 40us}, wait]}\n"
		"  - name: long\n    behavior:\n      script:\n"
		"        - repeat: {count: 100000, steps: [{launch: 90us}, wait]}\n"
		"  - name: late\n    start: 2s\n    behavior:\n      script:\n"
		"        - repeat: {count: forever, steps: [{launch: 90us}]}\n");
	(void)state;

	assert_int_equal(gs_task_cost(sc, &sc->tasks[0]), 7);
	assert_int_equal(gs_task_cost(sc, &sc->tasks[1]), 10000);
	assert_int_equal(gs_task_cost(sc, &sc->tasks[2]), 0);
	gs_scenario_free(sc);
}

static void test_order_is_costliest_first_ties_in_grid_order(void **state)
{
	struct gs_sweep_point p[5] = {
		{ .index = 0, .cost = 5 }, { .index = 1, .cost = 9 },
		{ .index = 2, .cost = 5 }, { .index = 3, .cost = 1 },
		{ .index = 4, .cost = 9 },
	};
	const struct gs_sweep_point *todo[5] = {
		&p[3], &p[2], &p[4], &p[0], &p[1],
	};
	const uint32_t want[5] = { 1, 4, 0, 2, 3 };
	unsigned i;
	(void)state;

	gs_sweep_order_longest_first(todo, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(todo[i]->index, want[i]);
}

/* NEON Figs. 6-7: a throttle of shorter requests launches more, so the
 * grid's 19us points get the highest estimate and its 1700us ones the
 * lowest, whatever the policy (the estimate ignores policies). */
static void test_neon_sweep_shortest_requests_first(void **state)
{
	static const char *const file =
		"configs/paper/sweeps/neon_fig6_fig7.yaml";
	g_autoptr(GError) err = NULL;
	g_autofree char *data = NULL;
	struct gs_scenario *sc;
	GPtrArray *points;
	size_t len;
	guint i;
	(void)state;

	data = gs_scenario_read_file(file, &len, &err);
	assert_non_null(data);
	sc = gs_scenario_load_data(file, data, len, NULL, 0, &err);
	assert_non_null(sc);
	points = gs_sweep_expand(sc);
	assert_true(gs_sweep_validate(file, data, len, NULL, 0, sc, points,
				      &err));
	gs_sweep_order_longest_first(
		(const struct gs_sweep_point **)points->pdata, points->len);
	for (i = 0; i < points->len; i++) {
		const struct gs_sweep_point *p = points->pdata[i];

		if (i < 4)
			assert_non_null(strstr(p->id, "_19us_"));
		if (i >= points->len - 4)
			assert_non_null(strstr(p->id, "_1700us_"));
		if (i)
			assert_true(p->cost <= ((const struct gs_sweep_point *)
						points->pdata[i - 1])->cost);
	}
	g_ptr_array_unref(points);
	gs_scenario_free(sc);
}

/* Helper threads only while a core is left over beside the points
 * simulated at once. */
static void test_worker_threads_while_cores_left(void **state)
{
	(void)state;
	assert_true(gs_sweep_worker_threads(1, 2));
	assert_false(gs_sweep_worker_threads(2, 2));
	assert_false(gs_sweep_worker_threads(3, 2));
	assert_true(gs_sweep_worker_threads(2, 16));
	assert_false(gs_sweep_worker_threads(16, 16));
	assert_false(gs_sweep_worker_threads(1, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forever_loop_launches_per_pass_time),
		cmocka_unit_test(test_finite_programs_and_late_starts),
		cmocka_unit_test(test_order_is_costliest_first_ties_in_grid_order),
		cmocka_unit_test(test_neon_sweep_shortest_requests_first),
		cmocka_unit_test(test_worker_threads_while_cores_left),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
