/* The scenario loader: what each behaviour (throttle, app, script,
 * trace) and value (distributions, command classes) compiles to. */
#include "tests/support/config_fixture.h"

/* --- compiled programs --- */

struct want_step {
	uint8_t op;
	uint16_t channel;
	uint64_t value; /* LAUNCH/CPU/SLEEP: dur.a; LOOP: count;
			 * END_LOOP: target; SLEEP_UNTIL: at;
			 * WAIT: wait_mode */
	uint8_t flags;  /* LAUNCH: flags | engine << 4 */
};

static void assert_program(const struct gs_program *p,
			   const struct want_step *w, size_t n)
{
	size_t i;

	assert_int_equal(p->n_steps, n);
	for (i = 0; i < n; i++) {
		const struct gs_step *s = &p->steps[i];
		uint64_t v = 0;

		switch (s->op) {
		case GS_OP_LAUNCH:
		case GS_OP_CPU:
		case GS_OP_SLEEP:
			v = s->dur.a;
			break;
		case GS_OP_LOOP:
			v = s->count;
			break;
		case GS_OP_END_LOOP:
			v = s->target;
			break;
		case GS_OP_SLEEP_UNTIL:
			v = s->at;
			break;
		case GS_OP_WAIT:
			v = s->wait_mode;
			break;
		}
		if (s->op != w[i].op || s->channel != w[i].channel ||
		    v != w[i].value ||
		    (s->op == GS_OP_LAUNCH &&
		     (uint8_t)(s->flags | s->engine << 4) != w[i].flags))
			fail_msg("step %zu: op %u ch %u value %" G_GUINT64_FORMAT
				 " flags %u engine %u; want op %u ch %u value %"
				 G_GUINT64_FORMAT " flags/engine %#x", i, s->op,
				 s->channel, v, s->flags, s->engine, w[i].op,
				 w[i].channel, w[i].value, w[i].flags);
	}
}

#define ALL GS_ALL_CHANNELS
#define F GS_CMD_FENCE
#define FI (GS_CMD_FENCE | GS_CMD_IRQ)
#define COPY (GS_ENGINE_COPY << 4)

static void test_throttle_program(void **state)
{
	static const struct want_step plain[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 100 * US, F },
		{ GS_OP_WAIT, 0, GS_WAIT_SPIN, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	static const struct want_step irq_sleep[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 10 * US, FI | COPY },
		{ GS_OP_WAIT, 0, GS_WAIT_INTERRUPT, 0 },
		{ GS_OP_SLEEP, 0, 1 * MS, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	static const struct want_step nonblocking[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 50 * US, F },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD THROTTLE_TASK, NULL, 0);
	assert_program(&sc->tasks[0].program, plain, G_N_ELEMENTS(plain));
	assert_string_equal(sc->tasks[0].behavior_kind, "throttle");
	assert_string_equal(sc->tasks[0].behavior_label, "throttle 100us");
	assert_string_equal(sc->name, "bad");
	assert_int_equal(sc->seed, 1);
	assert_int_equal(sc->duration, GS_NS_PER_S);
	assert_int_equal(sc->n_gpus, 1);
	assert_string_equal(sc->policy.name, "direct");
	assert_int_equal(sc->tasks[0].count, 1);
	assert_int_equal(sc->tasks[0].vm, -1);
	assert_int_equal(sc->tasks[0].gpu, GS_GPU_AUTO);
	assert_true(sc->output.timeline);
	gs_scenario_free(sc);

	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior:\n"
		     "      throttle: {kernel: 10us, sleep: 1ms, wait: interrupt,"
		     " engine: copy}\n", NULL, 0);
	assert_program(&sc->tasks[0].program, irq_sleep,
		       G_N_ELEMENTS(irq_sleep));
	gs_scenario_free(sc);

	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior:\n"
		     "      throttle: {kernel: 50us, sleep: 0, blocking: false}\n",
		     NULL, 0);
	assert_program(&sc->tasks[0].program, nonblocking,
		       G_N_ELEMENTS(nonblocking));
	gs_scenario_free(sc);
}

/* class: on throttle and script launches reaches the LAUNCH step;
 * untagged launches are class 0. */
static void test_command_class(void **state)
{
	struct gs_scenario *sc;
	const struct gs_program *p;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior:\n"
		     "      throttle: {kernel: 50us, class: 7}\n"
		     "  - name: b\n    behavior:\n      script:\n"
		     "        - launch: {kernel: 1ms, class: 2}\n"
		     "        - launch: {kernel: 1ms}\n"
		     "        - launch: 5us\n", NULL, 0);
	p = &sc->tasks[0].program;
	assert_int_equal(p->steps[1].op, GS_OP_LAUNCH);
	assert_int_equal(p->steps[1].cls, 7);
	p = &sc->tasks[1].program;
	assert_int_equal(p->n_steps, 4);
	assert_int_equal(p->steps[0].cls, 2);
	assert_int_equal(p->steps[1].cls, 0);
	assert_int_equal(p->steps[2].cls, 0);
	gs_scenario_free(sc);

	sc = load_ok(HEAD THROTTLE_TASK, NULL, 0);
	assert_int_equal(sc->tasks[0].program.steps[1].cls, 0);
	gs_scenario_free(sc);
}

static void test_dist_values(void **state)
{
	struct gs_scenario *sc;
	const struct gs_step *s;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior:\n      script:\n"
		     "        - launch: {uniform: [50us, 150us]}\n"
		     "        - cpu: {exponential: 100us}\n"
		     "        - sleep: {normal: {mean: 1ms, stddev: 10us}}\n"
		     "        - launch: {kernel: {empirical: [10us, 20us, 30us]}}\n",
		     NULL, 0);
	s = sc->tasks[0].program.steps;
	assert_int_equal(sc->tasks[0].program.n_steps, 5);
	assert_int_equal(s[0].dur.kind, GS_DIST_UNIFORM);
	assert_int_equal(s[0].dur.a, 50 * US);
	assert_int_equal(s[0].dur.b, 150 * US);
	assert_int_equal(s[1].dur.kind, GS_DIST_EXPONENTIAL);
	assert_int_equal(s[1].dur.a, 100 * US);
	assert_int_equal(s[2].dur.kind, GS_DIST_NORMAL);
	assert_int_equal(s[2].dur.a, 1 * MS);
	assert_int_equal(s[2].dur.b, 10 * US);
	assert_int_equal(s[3].dur.kind, GS_DIST_EMPIRICAL);
	assert_int_equal(s[3].dur.n, 3);
	assert_int_equal(s[3].dur.values[2], 30 * US);
	assert_int_equal(s[4].op, GS_OP_END);
	gs_scenario_free(sc);
}

static void test_app_dct(void **state)
{
	/* R = 197us, request 66us: n = 2; cpu = 197 - 132 - 2 * (5+1+1). */
	static const struct want_step want[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 66 * US, F },
		{ GS_OP_WAIT, 0, GS_WAIT_SPIN, 0 },
		{ GS_OP_LAUNCH, 0, 66 * US, F },
		{ GS_OP_WAIT, 0, GS_WAIT_SPIN, 0 },
		{ GS_OP_CPU, 0, 51 * US, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	/* sync: round, host launch 10us: cpu = 197 - 132 - 2 * 11 - 1. */
	static const struct want_step round[] = {
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 66 * US, F },
		{ GS_OP_LAUNCH, 0, 66 * US, F },
		{ GS_OP_WAIT, ALL, GS_WAIT_SPIN, 0 },
		{ GS_OP_CPU, 0, 42 * US, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: a\n    behavior: {app: dct}\n",
		     NULL, 0);
	assert_program(&sc->tasks[0].program, want, G_N_ELEMENTS(want));
	assert_string_equal(sc->tasks[0].behavior_kind, "app");
	assert_string_equal(sc->tasks[0].behavior_label, "DCT");
	assert_int_equal(sc->tasks[0].channels, 1);
	gs_scenario_free(sc);

	sc = load_ok(HEAD "host: {launch: 10us}\n"
		     "tasks:\n  - name: a\n"
		     "    behavior: {app: {name: DCT, sync: round}}\n", NULL, 0);
	assert_program(&sc->tasks[0].program, round, G_N_ELEMENTS(round));
	gs_scenario_free(sc);
}

static void test_app_ocl_particles(void **state)
{
	/* R = 2006us, requests 12/302: k = 6 pairs, 12 launches;
	 * cpu = 2006 - 6 * 314 - 12 * 7 = 38us. */
	struct gs_scenario *sc;
	const struct gs_program *p;
	uint32_t i;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: p\n    channels: 2\n"
		     "    behavior: {app: oclParticles}\n", NULL, 0);
	p = &sc->tasks[0].program;
	assert_int_equal(sc->tasks[0].channels, 2);
	assert_int_equal(p->n_steps, 1 + 24 + 4);
	assert_int_equal(p->steps[0].op, GS_OP_LOOP);
	for (i = 0; i < 12; i++) {
		const struct gs_step *l = &p->steps[1 + 2 * i];
		const struct gs_step *w = &p->steps[2 + 2 * i];

		assert_int_equal(l->op, GS_OP_LAUNCH);
		assert_int_equal(l->channel, i % 2);
		assert_int_equal(l->dur.a, i % 2 ? 302 * US : 12 * US);
		assert_int_equal(w->op, GS_OP_WAIT);
		assert_int_equal(w->channel, i % 2);
	}
	assert_int_equal(p->steps[25].op, GS_OP_CPU);
	assert_int_equal(p->steps[25].dur.a, 38 * US);
	assert_int_equal(p->steps[26].op, GS_OP_ROUND);
	assert_int_equal(p->steps[27].op, GS_OP_END_LOOP);
	assert_int_equal(p->steps[28].op, GS_OP_END);
	gs_scenario_free(sc);
}

static void test_app_library(void **state)
{
	uint32_t i;

	(void)state;
	assert_int_equal(gs_n_apps, 18);
	for (i = 0; i < gs_n_apps; i++) {
		assert_true(gs_apps[i].round > 0);
		assert_true(gs_apps[i].request[0] > 0);
		assert_true(gs_apps[i].channels == 1 ||
			    gs_apps[i].request[1] > 0);
	}
	assert_ptr_equal(gs_app_find("SIMPLETEXTURE3D"),
			 gs_app_find("simpleTexture3D"));
	assert_int_equal(gs_app_find("simpleTexture3D")->request[1], 171 * US);
	assert_null(gs_app_find("nope"));
}

static void test_script_program(void **state)
{
	static const struct want_step want[] = {
		{ GS_OP_CPU, 0, 20 * US, 0 },
		{ GS_OP_LOOP, 0, 10, 0 },
		{ GS_OP_LAUNCH, 1, 50 * US, FI | COPY },
		{ GS_OP_LOOP, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 5 * US, F },
		{ GS_OP_SLEEP, 0, 1 * MS, 0 },
		{ GS_OP_END_LOOP, 0, 3, 0 },
		{ GS_OP_WAIT, 1, GS_WAIT_INTERRUPT, 0 },
		{ GS_OP_WAIT, ALL, GS_WAIT_SPIN, 0 },
		{ GS_OP_WAIT, ALL, GS_WAIT_SPIN, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END_LOOP, 0, 1, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	struct gs_scenario *sc;

	(void)state;
	sc = load_ok(HEAD "tasks:\n  - name: s\n    channels: 2\n"
		     "    behavior:\n      script:\n"
		     "        - cpu: 20us\n"
		     "        - repeat:\n"
		     "            count: 10\n"
		     "            steps:\n"
		     "              - launch: {kernel: 50us, channel: 1,"
		     " engine: copy, irq: true}\n"
		     "              - repeat: {count: forever, steps: ["
		     "launch: 5us, sleep: 1ms]}\n"
		     "              - wait: {channel: 1, mode: interrupt}\n"
		     "              - wait: spin\n"
		     "              - wait\n"
		     "              - round\n", NULL, 0);
	assert_program(&sc->tasks[0].program, want, G_N_ELEMENTS(want));
	assert_string_equal(sc->tasks[0].behavior_kind, "script");
	gs_scenario_free(sc);
}

static char *write_temp(const char *dir, const char *name, const char *text)
{
	char *path = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static void test_trace(void **state)
{
	static const struct want_step want[] = {
		{ GS_OP_SLEEP_UNTIL, 0, 0, 0 },
		{ GS_OP_LAUNCH, 0, 100 * US, F },
		{ GS_OP_SLEEP_UNTIL, 0, 1500 * US, 0 },
		{ GS_OP_LAUNCH, 1, 2 * US, F | COPY },
		{ GS_OP_SLEEP_UNTIL, 0, 1500 * US, 0 },
		{ GS_OP_LAUNCH, 0, 1000, F },
		{ GS_OP_WAIT, ALL, GS_WAIT_SPIN, 0 },
		{ GS_OP_ROUND, 0, 0, 0 },
		{ GS_OP_END, 0, 0, 0 },
	};
	g_autofree char *dir = g_dir_make_tmp("gs_trace_XXXXXX", NULL);
	g_autofree char *csv = NULL, *yaml = NULL, *bad = NULL;
	g_autoptr(GError) err = NULL;
	g_autofree char *want_prefix = NULL;
	struct gs_scenario *sc;

	(void)state;
	assert_non_null(dir);
	csv = write_temp(dir, "t.csv",
			 "time,channel,engine,duration\n"
			 "# a comment\n"
			 "0,0,compute,100us\r\n"
			 "1.5ms, 1, copy, 2us\n"
			 "\n"
			 "1.5ms,0,compute,1000\n");
	bad = write_temp(dir, "bad.csv",
			 "time,channel,engine,duration\n"
			 "2ms,0,compute,100us\n"
			 "1ms,0,compute,100us\n");
	yaml = write_temp(dir, "s.yaml",
			  HEAD "tasks:\n  - name: t\n    channels: 2\n"
			  "    behavior: {trace: {file: t.csv}}\n");
	/* The CSV is found next to the YAML file, not in the cwd. */
	sc = gs_scenario_load_file(yaml, NULL, 0, &err);
	if (!sc)
		fail_msg("%s", err->message);
	assert_program(&sc->tasks[0].program, want, G_N_ELEMENTS(want));
	assert_string_equal(sc->tasks[0].behavior_label, "t.csv");
	assert_string_equal(sc->name, "s");
	gs_scenario_free(sc);

	{
		const char *set[] = { "tasks.0.behavior.trace.file=bad.csv" };

		sc = gs_scenario_load_file(yaml, set, 1, &err);
		assert_null(sc);
		want_prefix = g_strdup_printf("%s:3:1: ", bad);
		if (!g_str_has_prefix(err->message, want_prefix) ||
		    !strstr(err->message, "time order"))
			fail_msg("got %s", err->message);
		g_clear_error(&err);
	}
	{
		const char *set[] = { "tasks.0.channels=1" };

		sc = gs_scenario_load_file(yaml, set, 1, &err);
		assert_null(sc);
		g_free(want_prefix);
		want_prefix = g_strdup_printf("%s:4:8: ", csv);
		if (!g_str_has_prefix(err->message, want_prefix) ||
		    !strstr(err->message, "channel 1 is out of range"))
			fail_msg("got %s", err->message);
	}
	g_unlink(csv);
	g_unlink(bad);
	g_unlink(yaml);
	g_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_throttle_program),
		cmocka_unit_test(test_command_class),
		cmocka_unit_test(test_dist_values),
		cmocka_unit_test(test_app_dct),
		cmocka_unit_test(test_app_ocl_particles),
		cmocka_unit_test(test_app_library),
		cmocka_unit_test(test_script_program),
		cmocka_unit_test(test_trace),
	};

	return cmocka_run_group_tests_name("config_programs", tests, NULL, NULL);
}
