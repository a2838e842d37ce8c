/* The scenario loader: durations, the GPU, node and VM sections, --set
 * overrides, policy parameters, the shipped configs and I/O errors (bad
 * inputs: test_config_errors.c; compiled programs:
 * test_config_programs.c). */
#include "tests/support/config_fixture.h"

/* --- durations --- */

struct dur_case {
	const char *text;
	uint64_t clock_hz;
	int rc;
	gs_time_t ns;
};

static const struct dur_case dur_cases[] = {
	{ "0", 0, 0, 0 },
	{ "123", 0, 0, 123 },
	{ "300ns", 0, 0, 300 },
	{ "25us", 0, 0, 25000 },
	{ "1.5ms", 0, 0, 1500000 },
	{ "2s", 0, 0, 2000000000 },
	{ ".5ms", 0, 0, 500000 },
	{ "1.25us", 0, 0, 1250 },
	{ "0.000000001s", 0, 0, 1 },
	{ "2.0", 0, 0, 2 },
	{ "4.100000000000000000000ms", 0, 0, 4100000 },
	{ "10 us", 0, 0, 10000 },
	{ "305 cycles", 980000000, 0, 311 },   /* 311.22 rounds down */
	{ "1 cycle", 1000000000, 0, 1 },
	{ "3 cycles", 2000000000, 0, 2 },      /* 1.5 rounds up */
	{ "1.5 cycles", 1000000000, 0, 2 },
	{ "18446744073709551614ns", 0, 0, 18446744073709551614ULL },
	{ "", 0, -1, 0 },
	{ "abc", 0, -1, 0 },
	{ "us", 0, -1, 0 },
	{ "-1us", 0, -1, 0 },
	{ "1.5", 0, -1, 0 },
	{ "1.0001ns", 0, -1, 0 },
	{ "5xs", 0, -1, 0 },
	{ "1e3us", 0, -1, 0 },
	{ "5 us x", 0, -1, 0 },
	{ "18446744073709551615", 0, -1, 0 },
	{ "99999999999999999999s", 0, -1, 0 },
	{ "20000000000s", 0, -1, 0 },
	{ "1 cycles", 0, -1, 0 },
	{ "0.0000000000000000001s", 0, -1, 0 },
};

static void test_parse_duration(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(dur_cases); i++) {
		const struct dur_case *d = &dur_cases[i];
		gs_time_t ns = 7;
		int rc = gs_parse_duration(d->text, d->clock_hz, &ns);

		if (rc != d->rc || (rc == 0 && ns != d->ns))
			fail_msg("'%s' at %" G_GUINT64_FORMAT " Hz: rc %d ns %"
				 G_GUINT64_FORMAT ", want rc %d ns %"
				 G_GUINT64_FORMAT, d->text, d->clock_hz, rc, ns,
				 d->rc, d->ns);
	}
}

static void test_gpu_preset_override(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	/* clock_hz written after the duration that is in cycles. */
	sc = load_ok(HEAD "gpu:\n  preset: volta\n  ctx_switch: 1000 cycles\n"
		     "  clock_hz: 1000000000\n  timeslice: 2ms\n"
		     "  idle_watts: 12.5\n  ring_entries: 64\n"
		     "host: {launch: 34 cycles, clock_hz: 3400000000}\n"
		     THROTTLE_TASK, NULL, 0);
	assert_string_equal(sc->gpu.preset, "volta");
	assert_int_equal(sc->gpu.sched, GS_SCHED_TIMESLICE);
	assert_true(sc->gpu.preemption);
	assert_int_equal(sc->gpu.clock_hz, 1000000000);
	assert_int_equal(sc->gpu.ctx_switch, 1000);
	assert_int_equal(sc->gpu.timeslice, 2 * MS);
	assert_int_equal(sc->gpu.idle_mw, 12500);
	assert_int_equal(sc->gpu.ring_entries, 64);
	assert_int_equal(sc->host.launch, 10);
	assert_int_equal(sc->host.doorbell, 1 * US);
	gs_scenario_free(sc);

	sc = load_ok(HEAD THROTTLE_TASK, NULL, 0);
	assert_string_equal(sc->gpu.preset, "kepler");
	assert_int_equal(sc->gpu.sched, GS_SCHED_ROUND_ROBIN);
	gs_scenario_free(sc);
}

static void test_node(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "node:\n  gpus: 4\n  gpu: {preset: kepler,"
		     " active_watts: 200}\n"
		     "tasks:\n  - name: a\n    gpu: 3\n    count: 5\n"
		     "    behavior: {throttle: {kernel: 1ms}}\n", NULL, 0);
	assert_int_equal(sc->n_gpus, 4);
	assert_int_equal(sc->gpu.active_mw, 200000);
	assert_int_equal(sc->tasks[0].gpu, 3);
	assert_int_equal(sc->tasks[0].count, 5);
	gs_scenario_free(sc);
}

static void test_vm_tree(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "vms:\n"
		     "  - name: vm1\n    weight: 2\n"
		     "    vms: [{name: vm1a}, {name: vm1b, vms: [{name: deep}]}]\n"
		     "  - name: vm2\n"
		     "tasks:\n"
		     "  - {name: a, vm: deep, behavior: {throttle: {kernel: 1ms}}}\n"
		     "  - {name: b, vm: vm2, behavior: {throttle: {kernel: 1ms}}}\n"
		     "  - {name: c, behavior: {throttle: {kernel: 1ms}}}\n",
		     NULL, 0);
	assert_int_equal(sc->n_vms, 5);
	assert_string_equal(sc->vms[0].name, "vm1");
	assert_int_equal(sc->vms[0].parent, -1);
	assert_int_equal(sc->vms[0].weight, 2);
	assert_string_equal(sc->vms[1].name, "vm1a");
	assert_int_equal(sc->vms[1].parent, 0);
	assert_string_equal(sc->vms[2].name, "vm1b");
	assert_int_equal(sc->vms[2].parent, 0);
	assert_string_equal(sc->vms[3].name, "deep");
	assert_int_equal(sc->vms[3].parent, 2);
	assert_string_equal(sc->vms[4].name, "vm2");
	assert_int_equal(sc->vms[4].parent, -1);
	assert_int_equal(sc->vms[4].weight, 1);
	assert_int_equal(sc->tasks[0].vm, 3);
	assert_int_equal(sc->tasks[1].vm, 4);
	assert_int_equal(sc->tasks[2].vm, -1);
	gs_scenario_free(sc);
}

/* Per-VM paravirtual hints and virtualisation costs, with their defaults
 * (8 x host.trap, 2us). */
static void test_vm_hints_and_costs(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "host: {trap: 5us}\n"
		     "vms:\n"
		     "  - {name: a, hints: false, trap: 70us, shadow_copy: 3us}\n"
		     "  - {name: b}\n"
		     THROTTLE_TASK, NULL, 0);
	assert_false(sc->vms[0].hints);
	assert_int_equal(sc->vms[0].trap, 70000);
	assert_int_equal(sc->vms[0].shadow_copy, 3000);
	assert_true(sc->vms[1].hints);
	assert_int_equal(sc->vms[1].trap, 8 * 5000);
	assert_int_equal(sc->vms[1].shadow_copy, 2000);
	gs_scenario_free(sc);
}

static void test_set_overrides(void **state)
{
	const char *set[] = {
		"tasks.0.behavior.throttle.kernel=50us",
		"tasks.0.behavior.throttle.sleep={uniform: [1ms, 2ms]}",
		"output.series_interval=5ms",
		"seed=42",
		"policy.name=direct",
	};
	struct gs_scenario *sc;
	const struct gs_step *s;

	(void)state;
	sc = load_ok(HEAD "output:\n" THROTTLE_TASK, set, G_N_ELEMENTS(set));
	s = sc->tasks[0].program.steps;
	assert_int_equal(s[1].op, GS_OP_LAUNCH);
	assert_int_equal(s[1].dur.a, 50 * US);
	assert_int_equal(s[3].op, GS_OP_SLEEP);
	assert_int_equal(s[3].dur.kind, GS_DIST_UNIFORM);
	assert_int_equal(s[3].dur.b, 2 * MS);
	assert_int_equal(sc->output.series_interval, 5 * MS);
	assert_int_equal(sc->seed, 42);
	gs_scenario_free(sc);
}

/* `policy: dfq` is short for `policy: {name: dfq}`, so --set reaches
 * into it as into the long form (and so for a VM's `scheduler`). Found
 * while testing generated scenarios: "policy is a single value, not a
 * mapping". */
static void test_set_into_policy_shorthand(void **state)
{
	const char *set[] = { "policy.name=loga",
			      "policy.params.event_T=2ms",
			      "vms.0.scheduler.name=direct" };
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "policy: dfq\nvms:\n  - {name: v, scheduler: dfq}\n"
		     THROTTLE_TASK, set, G_N_ELEMENTS(set));
	assert_string_equal(sc->policy.name, "loga");
	assert_int_equal(sc->policy.n_params, 1);
	assert_string_equal(sc->policy.params[0].value, "2ms");
	assert_string_equal(sc->vms[0].scheduler.name, "direct");
	gs_scenario_free(sc);
}

static void test_policy_params_kept(void **state)
{
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "policy:\n  name: direct\n  params: {}\n"
		     THROTTLE_TASK, NULL, 0);
	assert_string_equal(sc->policy.name, "direct");
	assert_int_equal(sc->policy.n_params, 0);
	assert_int_equal(sc->policy.line, 3);
	assert_int_equal(sc->policy.column, 9);
	gs_scenario_free(sc);
}

static void test_alone(void **state)
{
	struct gs_scenario *sc, *one;

	(void)state;
	sc = load_ok(HEAD "seed: 9\nvms: [{name: v}]\n"
		     "tasks:\n"
		     "  - {name: a, count: 3, behavior: {app: DCT}}\n"
		     "  - name: b\n    count: 2\n    vm: v\n    behavior:\n"
		     "      throttle: {kernel: {empirical: [1us, 2us]}}\n",
		     NULL, 0);
	one = gs_scenario_alone(sc, 1);
	assert_non_null(one);
	assert_int_equal(one->n_tasks, 1);
	assert_string_equal(one->tasks[0].name, "b");
	assert_int_equal(one->tasks[0].count, 1);
	assert_int_equal(one->tasks[0].vm, 0);
	assert_int_equal(one->n_vms, 1);
	assert_string_equal(one->vms[0].name, "v");
	assert_string_equal(one->policy.name, "direct");
	assert_int_equal(one->policy.n_params, 0);
	assert_int_equal(one->seed, 9);
	assert_int_equal(one->duration, sc->duration);
	assert_int_equal(one->tasks[0].program.n_steps,
			 sc->tasks[1].program.n_steps);
	assert_ptr_not_equal(one->tasks[0].program.steps[1].dur.values,
			     sc->tasks[1].program.steps[1].dur.values);
	assert_int_equal(one->tasks[0].program.steps[1].dur.values[1], 2 * US);
	assert_null(gs_scenario_alone(sc, 2));
	gs_scenario_free(sc);
	/* the copy owns everything it points to */
	assert_string_equal(one->tasks[0].behavior_kind, "throttle");
	gs_scenario_free(one);
}

static void load_dir(const char *dir, unsigned *loaded)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
			load_dir(path, loaded);
		} else if (g_str_has_suffix(name, ".yaml")) {
			g_autoptr(GError) err = NULL;
			struct gs_scenario *sc =
				gs_scenario_load_file(path, NULL, 0, &err);

			if (!sc)
				fail_msg("%s", err->message);
			gs_scenario_free(sc);
			(*loaded)++;
		}
	}
}

static void test_shipped_configs(void **state)
{
	unsigned loaded = 0;

	(void)state;
	load_dir("configs", &loaded);
	assert_true(loaded >= 8);
}

/* A scenario without `name` is named after its file; a file name that
 * would not stay inside the output folder is refused at the document. */
static void test_name_from_file(void **state)
{
	static const char *const bad[] = { "..yaml", "dir/..yaml", ".yaml",
					   ".hidden.yml" };
	const char *yaml = HEAD THROTTLE_TASK;
	g_autoptr(GError) err = NULL;
	struct gs_scenario *sc;
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		sc = gs_scenario_load_data(bad[i], yaml, strlen(yaml), NULL,
					   0, &err);
		if (sc)
			fail_msg("%s: loaded as '%s'", bad[i], sc->name);
		assert_true(g_str_has_prefix(err->message, bad[i]));
		assert_non_null(strstr(err->message,
				       ":1:1: the scenario's name '"));
		assert_non_null(strstr(err->message, "give a 'name:'"));
		g_clear_error(&err);
	}
	sc = gs_scenario_load_data("dir/my.run.yaml", yaml, strlen(yaml),
				   NULL, 0, &err);
	assert_non_null(sc);
	assert_string_equal(sc->name, "my.run");
	gs_scenario_free(sc);
}

/* A --set path through a short form (`policy: dfq`, a VM's `scheduler:
 * NAME`, `trace: FILE`, `app: NAME`) reaches the mapping it stands for. */
static void test_set_through_short_forms(void **state)
{
	static const char *const sets[] = {
		"policy.params.free_run_factor=4",
		"vms.0.scheduler.params.free_run_factor=7",
		"tasks.1.behavior.app.sync=round",
	};
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "policy: dfq\nvms: [{name: v, scheduler: dfq}]\n"
		     THROTTLE_TASK
		     "  - name: b\n    vm: v\n    behavior: {app: DCT}\n",
		     sets, G_N_ELEMENTS(sets));
	assert_string_equal(sc->policy.name, "dfq");
	assert_int_equal(sc->policy.n_params, 1);
	assert_string_equal(sc->policy.params[0].key, "free_run_factor");
	assert_string_equal(sc->policy.params[0].value, "4");
	assert_string_equal(sc->vms[0].scheduler.name, "dfq");
	assert_int_equal(sc->vms[0].scheduler.n_params, 1);
	assert_string_equal(sc->vms[0].scheduler.params[0].value, "7");
	gs_scenario_free(sc);
}

/* A parameter has one set of bounds: every policy that has a parameter
 * of dfq or loga (hdfq has both's) has it with the same type and max. */
static void test_shared_param_bounds(void **state)
{
	const struct gs_policy_ops *owners[] = { gs_policy_find("dfq"),
						 gs_policy_find("loga") };
	size_t i, o, p, shared = 0;

	(void)state;
	for (i = 0; gs_policy_registry[i]; i++) {
		const struct gs_policy_ops *ops = gs_policy_registry[i];

		for (p = 0; p < ops->n_params; p++) {
			const struct gs_param_desc *d = &ops->params[p];

			for (o = 0; o < G_N_ELEMENTS(owners); o++) {
				const struct gs_param_desc *own =
					gs_policy_param(owners[o], d->name);

				if (!own || ops == owners[o])
					continue;
				shared++;
				if (own->type != d->type || own->max != d->max)
					fail_msg("%s.%s: max %llu, %s has %llu",
						 ops->name, d->name,
						 (unsigned long long)d->max,
						 owners[o]->name,
						 (unsigned long long)own->max);
			}
		}
	}
	/* hdfq shares dfq's and loga's; the check must have seen them */
	assert_true(shared >= 10);
	assert_int_equal(gs_policy_param(gs_policy_find("hdfq"),
					 "free_run_factor")->max, 1000);
	assert_int_equal(gs_policy_param(gs_policy_find("hdfq"),
					 "event_X")->max, 1000);
}

/* Both ends of the seed range load as written. */
static void test_seed_range_ends(void **state)
{
	static const char *const set_max[] = { "seed=9223372036854775807" };
	static const char *const set_min[] = { "seed=0" };
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok("seed: 9223372036854775807\n" HEAD THROTTLE_TASK, NULL, 0);
	assert_true(sc->seed == GS_SEED_MAX);
	gs_scenario_free(sc);
	sc = load_ok(HEAD THROTTLE_TASK, set_max, 1);
	assert_true(sc->seed == (uint64_t)9223372036854775807u);
	gs_scenario_free(sc);
	sc = load_ok("seed: 5\n" HEAD THROTTLE_TASK, set_min, 1);
	assert_true(sc->seed == 0);
	gs_scenario_free(sc);
}

static void test_io_errors(void **state)
{
	g_autoptr(GError) err = NULL;

	(void)state;
	assert_null(gs_scenario_load_file("/nonexistent/x.yaml", NULL, 0,
					  &err));
	assert_true(g_error_matches(err, GS_CONFIG_ERROR, GS_CONFIG_ERROR_IO));
	assert_true(g_str_has_prefix(err->message, "/nonexistent/x.yaml: "));
	g_clear_error(&err);
	{
		size_t len = (16u << 20) + 1;
		char *big = g_malloc(len);

		memset(big, '#', len);
		assert_null(gs_scenario_load_data("big.yaml", big, len, NULL, 0,
						  &err));
		g_free(big);
		assert_true(g_error_matches(err, GS_CONFIG_ERROR,
					    GS_CONFIG_ERROR_IO));
		assert_string_equal(err->message,
				    "big.yaml: larger than 16777216 bytes");
	}
	/* a NULL error pointer is allowed */
	assert_null(load("duration: x\n", NULL, 0, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_gpu_preset_override),
		cmocka_unit_test(test_node),
		cmocka_unit_test(test_vm_tree),
		cmocka_unit_test(test_vm_hints_and_costs),
		cmocka_unit_test(test_set_overrides),
		cmocka_unit_test(test_set_into_policy_shorthand),
		cmocka_unit_test(test_name_from_file),
		cmocka_unit_test(test_seed_range_ends),
		cmocka_unit_test(test_set_through_short_forms),
		cmocka_unit_test(test_shared_param_bounds),
		cmocka_unit_test(test_policy_params_kept),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_shipped_configs),
		cmocka_unit_test(test_io_errors),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
