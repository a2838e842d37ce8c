/* The changes the property tests make to a generated scenario
 * (workloads/generate_transform.c) where the third stream's inputs meet
 * them: replicas, a job's startup, a named job, an app's own requests. */
#include <glib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "workloads/apps.h"
#include "workloads/generate.h"

#define US 1000ULL
#define MS 1000000ULL

/* n looping throttles starting together, the last with `count` 3. */
static struct gs_gen_scenario *throttles(uint32_t n)
{
	struct gs_gen_scenario *g = g_new0(struct gs_gen_scenario, 1);
	uint32_t i;

	g->n_tasks = n;
	g->duration = 100 * MS;
	g->ring_entries = 64;
	for (i = 0; i < n; i++) {
		struct gs_gen_task *t = &g->tasks[i];

		snprintf(t->name, sizeof(t->name), "t%u", i);
		t->behavior = GS_GEN_THROTTLE;
		t->weight = t->channels = 1;
		t->vm = t->app = -1;
		t->kernel.v[0] = 100 * US;
	}
	g->tasks[n - 1].count = 3;
	return g;
}

/* The lone-task relation runs one replica of a task alone. */
static void test_keep_task_one_replica(void **state)
{
	struct gs_gen_scenario *g = throttles(3);

	(void)state;
	gs_gen_keep_task(g, 2);
	assert_int_equal(g->n_tasks, 1);
	assert_string_equal(g->tasks[0].name, "t2");
	assert_int_equal(g->tasks[0].count, 0);
	g_free(g);
}

/* LoGA's idle-task base adds one channel to the twin: a definition with
 * replicas would get one per replica, so the twin is the last one
 * without, or none. */
static void test_twin_without_replicas(void **state)
{
	struct gs_gen_scenario *g = throttles(3);

	(void)state;
	assert_int_equal(gs_gen_idle_channel_twin(g), 1);
	g->tasks[2].count = 1;
	assert_int_equal(gs_gen_idle_channel_twin(g), 2);
	g->tasks[0].count = g->tasks[1].count = g->tasks[2].count = 2;
	assert_int_equal(gs_gen_idle_channel_twin(g), -1);
	g_free(g);
}

/* Durations x k: a job's startup scales; a job named from DCUDA's
 * Table 1 has the table's times, so the relation is not checked. */
static void test_scale_job(void **state)
{
	struct gs_gen_scenario *g = throttles(2);
	struct gs_gen_task *job = &g->tasks[0];

	(void)state;
	job->behavior = GS_GEN_JOB;
	job->job_kernel = 2 * MS;
	job->job_length = 50 * MS;
	job->job_startup = 3 * MS;
	assert_true(gs_gen_scale_time(g, 2));
	assert_int_equal(job->job_startup, 6 * MS);
	assert_int_equal(job->job_length, 100 * MS);
	job->job_named = true;
	assert_false(gs_gen_scale_time(g, 2));
	g_free(g);
}

/* The longest command counts an app's own requests, not the table's. */
static void test_max_command_own_requests(void **state)
{
	struct gs_gen_scenario *g = throttles(1);
	struct gs_gen_task *t = &g->tasks[0];
	gs_time_t table;

	(void)state;
	t->behavior = GS_GEN_APP;
	t->app = 0;
	t->channels = gs_apps[0].channels;
	table = MAX(gs_apps[0].request[0], gs_apps[0].request[1]);
	assert_int_equal(gs_gen_max_command(g), table);
	t->request_set = true;
	t->request[0].dist = GS_GEN_EMPIRICAL;
	t->request[0].v[0] = 1 * US;
	t->request[0].v[1] = 2 * US;
	t->request[0].v[2] = 10 * table;
	assert_int_equal(gs_gen_max_command(g), 10 * table);
	g_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_task_one_replica),
		cmocka_unit_test(test_twin_without_replicas),
		cmocka_unit_test(test_scale_job),
		cmocka_unit_test(test_max_command_own_requests),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
