/* HAL_WARN_ON in the simulator: a policy's report of an impossible state
 * is counted per run (never in a static: two runs side by side keep their
 * own counts), the first message kept, and summary.json carries both only
 * when there is something to report. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "sim/results_priv.h"
#include "sim/sim_internal.h"
#include "workloads/config_load.h"

#define WARN_YAML                                                       \
	"duration: 10ms\n"                                              \
	"tasks:\n  - name: a\n    behavior: {throttle: {kernel: 100us}}\n"

/* Arms timer 3 at 1 ms and 2 ms, and warns whenever a timer other than
 * 0 fires: two reports per run. */
static int warn_init(struct hal_sched *s)
{
	hal_timer_arm(s, 3, 1000000);
	return 0;
}

static void warn_timer(struct hal_sched *s, hal_u32 id)
{
	if (HAL_WARN_ON(s, id != 0) && hal_now(s) < 2000000)
		hal_timer_arm(s, 3, 2000000);
}

static const struct gs_policy_ops warn_ops = {
	.name = "warn-probe",
	.init = warn_init,
	.timer = warn_timer,
};

static struct gs_sim *start(const struct gs_policy_ops *ops,
			    struct gs_scenario **sc)
{
	struct gs_sim_options opt = { .policy_ops = ops };
	GError *err = NULL;
	struct gs_sim *sim;

	*sc = gs_scenario_load_data("warn.yaml", WARN_YAML,
				    strlen(WARN_YAML), NULL, 0, &err);
	assert_non_null(*sc);
	sim = gs_sim_new(*sc, &opt, &err);
	assert_non_null(sim);
	return sim;
}

/* summary.json of r, as text. */
static char *summary_text(const struct gs_results *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_true(gs_results_fill_summary(r, f, NULL));
	fclose(f);
	return text;
}

static void test_warnings_counted_per_run_and_reported(void **state)
{
	struct gs_scenario *sc1, *sc2;
	struct gs_sim *a = start(&warn_ops, &sc1);
	struct gs_sim *b = start(&warn_ops, &sc2);
	struct gs_results r;
	char *text;
	(void)state;

	gs_sim_run(a, NULL);
	assert_int_equal(a->policy_warnings, 2);
	/* the other run has not run yet: nothing shared between them */
	assert_int_equal(b->policy_warnings, 0);
	gs_results_init(&r);
	gs_sim_collect(a, &r);
	assert_int_equal(r.policy_warnings, 2);
	assert_non_null(strstr(r.policy_warning, "policy warn-probe at "
						 "1000000 ns: "));
	assert_non_null(strstr(r.policy_warning, "WARN_ON(id != 0)"));
	text = summary_text(&r);
	assert_non_null(strstr(text, "\"policy_warnings\" : 2"));
	assert_non_null(strstr(text, "WARN_ON(id != 0)"));
	free(text);
	gs_results_clear(&r);
	gs_sim_free(a);
	gs_sim_free(b);
	gs_scenario_free(sc1);
	gs_scenario_free(sc2);
}

/* A run whose policy reports nothing writes no warning keys. */
static void test_no_warning_no_key(void **state)
{
	static const struct gs_policy_ops quiet_ops = { .name = "quiet" };
	struct gs_scenario *sc;
	struct gs_sim *sim = start(&quiet_ops, &sc);
	struct gs_results r;
	char *text;
	(void)state;

	gs_sim_run(sim, NULL);
	gs_results_init(&r);
	gs_sim_collect(sim, &r);
	assert_int_equal(r.policy_warnings, 0);
	text = summary_text(&r);
	assert_null(strstr(text, "policy_warning"));
	free(text);
	gs_results_clear(&r);
	gs_sim_free(sim);
	gs_scenario_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_warnings_counted_per_run_and_reported),
		cmocka_unit_test(test_no_warning_no_key),
	};
	return cmocka_run_group_tests_name("hal_warn", tests, NULL, NULL);
}
