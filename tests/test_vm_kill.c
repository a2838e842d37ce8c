/* Fleig 6.1: a scheduler cannot kill a task inside a VM below it; it
 * kills the whole VM (`on_kill: vm`, the default) or tells the VM, whose
 * guest kills the task (`on_kill: notify`). An endless kernel in vm,
 * beside a well-behaved task in the same VM, one in another VM and one on
 * the host; hdfq kills the endless one's entity after kill_after. */
#include "tests/support/scenario_fixture.h"

static void run_endless_in_vm(const char *vm_keys, const char *policy,
			      struct gs_results *r)
{
	char *y = g_strdup_printf(
		"duration: 2s\npolicy: %s\n"
		"vms:\n"
		"  - {name: vm%s}\n"
		"  - {name: other}\n"
		"tasks:\n"
		"  - name: endless\n    vm: vm\n    start: 10ms\n"
		"    behavior: {throttle: {kernel: 1000s}}\n"
		"  - name: neighbour\n    vm: vm\n"
		"    behavior: {throttle: {kernel: 100us}}\n"
		"  - name: elsewhere\n    vm: other\n"
		"    behavior: {throttle: {kernel: 100us}}\n"
		"  - name: host\n"
		"    behavior: {throttle: {kernel: 300us}}\n",
		policy, vm_keys);

	run(y, false, r);
	g_free(y);
}

#define HDFQ "{name: hdfq, params: {kill_after: 200ms}}"

/* The default: the hypervisor's last resort, the VM goes with its task;
 * the other VM and the host task go on. */
static void test_host_kills_the_whole_vm(void **state)
{
	struct gs_results r;

	(void)state;
	run_endless_in_vm("", HDFQ, &r);
	assert_true(r.tasks[0].killed);
	assert_true(r.tasks[1].killed);
	assert_false(r.tasks[2].killed);
	assert_false(r.tasks[3].killed);
	assert_true(r.tasks[2].rounds > 1000);
	gs_results_clear(&r);
}

/* notify: the guest removes the task the host names; its neighbour
 * goes on. */
static void test_notified_vm_kills_the_task(void **state)
{
	struct gs_results r;

	(void)state;
	run_endless_in_vm(", on_kill: notify", HDFQ, &r);
	assert_true(r.tasks[0].killed);
	assert_false(r.tasks[1].killed);
	assert_true(r.tasks[1].rounds > 1000);
	assert_false(r.tasks[2].killed);
	gs_results_clear(&r);
}

/* Without hints the host cannot name the task: notify or not, the VM is
 * killed. */
static void test_vm_without_hints_is_killed_whole(void **state)
{
	struct gs_results r;

	(void)state;
	run_endless_in_vm(", on_kill: notify, hints: false", HDFQ, &r);
	assert_true(r.tasks[0].killed);
	assert_true(r.tasks[1].killed);
	assert_false(r.tasks[2].killed);
	gs_results_clear(&r);
}

/* A VM's own scheduler kills its own tasks directly (it is the guest's
 * kernel); the host's hdfq (nested) sees the VM as one entity. */
static void test_guest_scheduler_kills_its_own_task(void **state)
{
	struct gs_results r;

	(void)state;
	run_endless_in_vm(", scheduler: {name: dfq, params: {kill_after: 200ms}}",
			  "{name: hdfq, params: {nested: true}}", &r);
	assert_true(r.tasks[0].killed);
	assert_false(r.tasks[1].killed);
	assert_false(r.tasks[2].killed);
	gs_results_clear(&r);
}

/* An unknown on_kill is an error at its position. */
static void test_bad_on_kill_is_an_error(void **state)
{
	const char *y = "duration: 1s\nvms:\n  - {name: vm, on_kill: maybe}\n"
			"tasks:\n  - {name: t, vm: vm, behavior: "
			"{throttle: {kernel: 1ms}}}\n";
	GError *err = NULL;
	struct gs_scenario *sc =
		gs_scenario_load_data("test.yaml", y, strlen(y), NULL, 0, &err);

	(void)state;
	assert_null(sc);
	assert_non_null(strstr(err->message, "test.yaml:3:"));
	assert_non_null(strstr(err->message, "on_kill"));
	g_error_free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_kills_the_whole_vm),
		cmocka_unit_test(test_notified_vm_kills_the_task),
		cmocka_unit_test(test_vm_without_hints_is_killed_whole),
		cmocka_unit_test(test_guest_scheduler_kills_its_own_task),
		cmocka_unit_test(test_bad_on_kill_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
