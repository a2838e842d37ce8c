/* Running a generated scenario in-process for the property tests. */
#include "tests/proptest/proptest.h"

#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/results/results_priv.h"
#include "sim/run/sim.h"
#include "workloads/config_load.h"

/* One scratch folder per process, removed at exit: the generated
 * scenarios and their trace CSVs, and the output relations' folders
 * (pt_outputs.c, which remove their own). */
static char *scratch;

static void remove_scratch(void)
{
	GDir *d = g_dir_open(scratch, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(scratch, name, NULL);

		g_unlink(path);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(scratch);
}

const char *pt_scratch(void)
{
	if (!scratch) {
		scratch = g_dir_make_tmp("gpusim-proptest-XXXXXX", NULL);
		g_assert(scratch);
		atexit(remove_scratch);
	}
	return scratch;
}

struct gs_scenario *pt_load(const struct gs_gen_scenario *g,
			    const char *const *overrides, size_t n_overrides,
			    char **why)
{
	g_autoptr(GPtrArray) files =
		g_ptr_array_new_with_free_func(gs_gen_file_free);
	g_autofree char *yaml = gs_gen_yaml(g, "gen", files);
	g_autofree char *name = g_build_filename(pt_scratch(), "gen.yaml",
						 NULL);
	struct gs_scenario *sc;
	GError *err = NULL;
	guint i;

	for (i = 0; i < files->len; i++) {
		const struct gs_gen_file *f = files->pdata[i];
		g_autofree char *path = g_build_filename(pt_scratch(),
							 f->name, NULL);

		g_assert(g_file_set_contents(path, f->text, -1, NULL));
	}
	sc = gs_scenario_load_data(name, yaml, strlen(yaml), overrides,
				   n_overrides, &err);
	if (!sc) {
		*why = g_strdup_printf("load: %s", err->message);
		g_error_free(err);
	}
	return sc;
}

bool pt_run(const struct gs_gen_scenario *g, const char *const *overrides,
	    size_t n_overrides, struct gs_results *r, char **why)
{
	struct gs_sim_options opt = { .check_invariants = false };
	struct gs_scenario *sc = pt_load(g, overrides, n_overrides, why);
	struct gs_sim *sim;
	GError *err = NULL;
	bool capped;

	if (!sc)
		return false;
	sim = gs_sim_new(sc, &opt, &err);
	if (!sim) {
		*why = g_strdup_printf("init: %s", err->message);
		g_error_free(err);
		gs_scenario_free(sc);
		return false;
	}
	gs_sim_run(sim, &capped);
	*why = gs_sim_check_invariants(sim);
	gs_results_init(r);
	gs_sim_collect(sim, r);
	gs_sim_free(sim);
	gs_scenario_free(sc);
	if (*why) {
		char *inv = g_strconcat("invariant: ", *why, NULL);

		g_free(*why);
		*why = inv;
		return false;
	}
	return true;
}

static void append_fill(GString *out, const struct gs_results *r,
			gs_results_fill_fn fill)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	g_assert(f);
	fill(r, f, NULL);
	fclose(f);
	g_string_append_len(out, buf, (gssize)len);
	free(buf);
}

char *pt_result_bytes(const struct gs_results *r)
{
	GString *s = g_string_new(NULL);

	append_fill(s, r, gs_results_fill_summary);
	append_fill(s, r, gs_results_fill_tasks_csv);
	append_fill(s, r, gs_results_fill_series_csv);
	g_string_append_printf(s, "checksum %" PRIu64 "\n", r->event_checksum);
	return g_string_free(s, FALSE);
}

void pt_fail(struct pt_case *c, const char *relation, const char *fmt, ...)
{
	va_list ap;

	c->failures++;
	printf("FAIL %s: seed %" PRIu64 " (gpusim generate --seed %" PRIu64
	       " --policy %s --preset %s --edition %u)\n  ", relation,
	       c->base.seed, c->base.seed, c->base.policy, c->base.preset,
	       c->edition);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void pt_known(struct pt_case *c, const char *relation, const char *fmt, ...)
{
	va_list ap;

	c->known++;
	printf("KNOWN %s: seed %" PRIu64 " --policy %s --preset %s "
	       "--edition %u: ", relation, c->base.seed, c->base.policy,
	       c->base.preset, c->edition);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

const struct gs_task_result *pt_task(const struct gs_results *r,
				     const char *name)
{
	uint32_t i;

	for (i = 0; i < r->n_tasks; i++)
		if (!strcmp(r->tasks[i].name, name))
			return &r->tasks[i];
	return NULL;
}

double pt_share(const struct gs_results *r, const char *name)
{
	const struct gs_task_result *t = pt_task(r, name);

	return t ? t->gpu_share : -1;
}
