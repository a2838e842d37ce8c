/* The checks a policy passes before it runs (workloads/policy_module.c):
 * every built-in passes them, and a module's table is refused for each
 * thing that would make it misbehave: another ABI version, the name of
 * a built-in, a parameter table the loader and `gpusim list` cannot
 * read. Loading real modules is tests/policy_module_test.sh's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "workloads/policy_module.h"

static const struct gs_param_desc good_params[] = {
	{ "slice", GS_PARAM_DURATION, "30ms", "a turn", 0 },
	{ "depth", GS_PARAM_UINT, "4", "queue depth", 16 },
};

static struct gs_policy_ops module_ops(void)
{
	struct gs_policy_ops ops = {
		.abi = GS_POLICY_ABI,
		.name = "mine",
		.params = good_params,
		.n_params = 2,
	};

	return ops;
}

/* The problem's text contains `what`. */
static void assert_refused(const struct gs_policy_ops *ops, bool module,
			   const char *what)
{
	g_autofree char *why = gs_policy_ops_problem(ops, module);

	assert_non_null(why);
	if (!strstr(why, what))
		fail_msg("'%s' does not say '%s'", why, what);
}

static void test_builtins_pass(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; gs_policy_registry[i]; i++) {
		g_autofree char *why =
			gs_policy_ops_problem(gs_policy_registry[i], false);

		if (why)
			fail_msg("%s: %s", gs_policy_registry[i]->name, why);
	}
}

static void test_good_module_passes(void **state)
{
	struct gs_policy_ops ops = module_ops();

	(void)state;
	assert_null(gs_policy_ops_problem(&ops, true));
}

/* A module built against another policy.h, or one that never set .abi. */
static void test_abi_mismatch_refused(void **state)
{
	struct gs_policy_ops ops = module_ops();

	(void)state;
	ops.abi = GS_POLICY_ABI + 1;
	assert_refused(&ops, true, "ABI");
	ops.abi = 0;
	assert_refused(&ops, true, "rebuild it");
}

static void test_builtin_name_refused(void **state)
{
	struct gs_policy_ops ops = module_ops();

	(void)state;
	ops.name = "dfq";
	assert_refused(&ops, true, "built-in policy");
	ops.name = "";
	assert_refused(&ops, true, "no name");
}

static void test_bad_params_refused(void **state)
{
	static const struct gs_param_desc bad_default[] = {
		{ "slice", GS_PARAM_DURATION, "30 parsecs", "", 0 },
	};
	static const struct gs_param_desc twice[] = {
		{ "n", GS_PARAM_UINT, "1", "", 8 },
		{ "n", GS_PARAM_UINT, "1", "", 8 },
	};
	static const struct gs_param_desc no_bound[] = {
		{ "n", GS_PARAM_UINT, "1", "", 0 },
	};
	static const struct gs_param_desc over_bound[] = {
		{ "n", GS_PARAM_UINT, "9", "", 8 },
	};
	static const struct gs_param_desc bad_type[] = {
		{ "n", 7, "1", "", 0 },
	};
	struct gs_policy_ops ops = module_ops();

	(void)state;
	ops.params = bad_default;
	ops.n_params = 1;
	assert_refused(&ops, true, "malformed default");
	ops.params = twice;
	ops.n_params = 2;
	assert_refused(&ops, true, "declared twice");
	ops.params = no_bound;
	ops.n_params = 1;
	assert_refused(&ops, true, "bound");
	ops.params = over_bound;
	assert_refused(&ops, true, "bound");
	ops.params = bad_type;
	assert_refused(&ops, true, "unknown type");
	ops.params = NULL;
	assert_refused(&ops, true, "no params table");
	ops.n_params = GS_MAX_PARAMS + 1;
	assert_refused(&ops, true, "more than");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtins_pass),
		cmocka_unit_test(test_good_module_passes),
		cmocka_unit_test(test_abi_mismatch_refused),
		cmocka_unit_test(test_builtin_name_refused),
		cmocka_unit_test(test_bad_params_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
