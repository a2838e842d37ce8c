/* The tasks' names and VMs of collected results are in one block
 * (gs_results.task_text, sim/run/metrics.c): each name and VM is the
 * scenario's, NUL-ended, inside the block and apart from the others, a
 * host task's VM is NULL, and clearing frees the block rather than the
 * strings (results built by hand keep strings of their own). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <string.h>

#include "sim/host/results.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

static const char yaml[] =
	"name: text\nseed: 3\nduration: 2ms\n"
	"gpu: {preset: kepler}\npolicy: {name: hdfq}\n"
	"vms:\n  - name: alice\n  - name: a-much-longer-vm-name\n"
	"tasks:\n"
	"  - name: host-task\n"
	"    behavior: {throttle: {kernel: 50us, sleep: 0}}\n"
	"  - name: in-alice\n    vm: alice\n    count: 3\n"
	"    behavior: {throttle: {kernel: 30us, sleep: 0}}\n"
	"  - name: last.one_9\n    vm: a-much-longer-vm-name\n"
	"    behavior: {throttle: {kernel: 20us, sleep: 10us}}\n";

static bool inside(const struct gs_results *r, const char *s, size_t size)
{
	uintptr_t p = (uintptr_t)s, b = (uintptr_t)r->task_text;

	return p >= b && p + strlen(s) + 1 <= b + size;
}

static void test_names_and_vms_in_one_block(void **state)
{
	GError *err = NULL;
	struct gs_scenario *sc = gs_scenario_load_data(
		"text.yaml", yaml, sizeof(yaml) - 1, NULL, 0, &err);
	struct gs_sim_options opt = { 0 };
	struct gs_results r;
	size_t size = 0;
	char *end = NULL;
	uint32_t i;

	(void)state;
	if (!sc)
		fail_msg("%s", err->message);
	gs_results_init(&r);
	assert_true(gs_run_scenario(sc, &opt, &r, &err));
	assert_int_equal(r.n_tasks, 5);
	assert_non_null(r.task_text);
	for (i = 0; i < r.n_tasks; i++) {
		size += strlen(r.tasks[i].name) + 1;
		if (r.tasks[i].vm)
			size += strlen(r.tasks[i].vm) + 1;
	}
	for (i = 0; i < r.n_tasks; i++) {
		assert_true(inside(&r, r.tasks[i].name, size));
		/* one after another, nothing shared */
		assert_true(!end || r.tasks[i].name == end);
		end = r.tasks[i].name + strlen(r.tasks[i].name) + 1;
		if (r.tasks[i].vm) {
			assert_true(r.tasks[i].vm == end);
			end = r.tasks[i].vm + strlen(r.tasks[i].vm) + 1;
		}
	}
	assert_string_equal(r.tasks[0].name, "host-task");
	assert_null(r.tasks[0].vm);
	assert_string_equal(r.tasks[1].vm, "alice");
	assert_string_equal(r.tasks[3].vm, "alice");
	assert_string_equal(r.tasks[4].name, "last.one_9");
	assert_string_equal(r.tasks[4].vm, "a-much-longer-vm-name");
	gs_results_clear(&r);
	assert_null(r.task_text);
	assert_null(r.tasks);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_vms_in_one_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
